// SPDX-License-Identifier: BSL-1.0
#pragma once
// Templates (contract.md §4) and /public/template/list.
// (Templates are made with /_control/template/create: control.hpp.)
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <boost/describe/class.hpp>

#include <esign/model/pagination.hpp>
#include <esign/types/bounded_string.hpp>

namespace esign {

struct template_document {
    std::string uuid;
    std::string title;
};
BOOST_DESCRIBE_STRUCT(template_document, (), (uuid, title))

struct template_recipient {
    std::string label;
};
BOOST_DESCRIBE_STRUCT(template_recipient, (), (label))

// One item of template/list.
struct template_summary {
    std::string uuid;
    std::string title;
    std::int64_t creationDate{};
    std::int64_t updateDate{};
    std::string workspaceUuid;
    std::vector<template_document> documents;
    std::vector<template_recipient> recipients;  // in the template's label order
};
BOOST_DESCRIBE_STRUCT(template_summary, (),
                      (uuid, title, creationDate, updateDate, workspaceUuid, documents, recipients))

// POST /public/template/list (page only; page size fixed_page_size)
struct template_list_request {
    std::optional<uuid36> workspaceUuid;
    std::optional<page_number> page;
};
BOOST_DESCRIBE_STRUCT(template_list_request, (), (workspaceUuid, page))

struct template_list_response {
    std::vector<template_summary> templates;
    esign::pagination pagination;
};
BOOST_DESCRIBE_STRUCT(template_list_response, (), (templates, pagination))

}  // namespace esign
