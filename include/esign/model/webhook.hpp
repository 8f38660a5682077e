// SPDX-License-Identifier: BSL-1.0
#pragma once
// Webhooks (interface.md "Webhook") and /public/webhook/update, list, delete, create.
// The stored url and secret are accepted but never returned.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <boost/describe/class.hpp>

#include <esign/model/common.hpp>
#include <esign/model/enums.hpp>
#include <esign/model/pagination.hpp>
#include <esign/types/absolute_uri.hpp>
#include <esign/types/bounded_string.hpp>
#include <esign/types/nullable.hpp>

namespace esign {

// contract.md §4: at most 20 webhooks per team, then WEBHOOK_LIMIT_REACHED.
inline constexpr std::size_t max_webhooks_per_team = 20;

// contract.md §6.7: url at most 2048 characters (absolute_uri::max_length), secret at most 256,
// title at most 256 (interface.md "Webhook title"; contract.md §6.7 revision 3, revision 2
// said 255 by mistake); beyond, INVALID_REQUEST_FORMAT at the member's path.
using webhook_title = bounded_string<0, 256>;
using webhook_secret = bounded_string<0, 256>;

struct webhook {
    std::string uuid;
    nullable<std::string> title;
    bool active{};
    bool sslVerify{};
    webhook_content_type contentType{webhook_content_type::application_json};
    std::vector<webhook_event> events;        // as stored; [] = every event
    std::vector<std::string> workspaceUuids;  // as stored; [] = every workspace of the team
    std::int64_t creationDate{};
    std::int64_t updateDate{};
};
BOOST_DESCRIBE_STRUCT(webhook, (),
                      (uuid, title, active, sslVerify, contentType, events, workspaceUuids, creationDate, updateDate))

// ---------------------------------------------------------------------------------------------
// POST /public/webhook/update (every member but uuid optional; absent = unchanged)

struct webhook_update_request {
    uuid36 uuid;
    std::optional<absolute_uri> url;
    std::optional<webhook_content_type> contentType;
    std::optional<bool> sslVerify;
    std::optional<bool> active;
    tri_state<webhook_secret> secret;  // absent = unchanged, null = removed
    std::optional<std::vector<webhook_event>> events;
    std::optional<std::vector<uuid36>> workspaceUuids;
    std::optional<webhook_title> title;
};
BOOST_DESCRIBE_STRUCT(webhook_update_request, (),
                      (uuid, url, contentType, sslVerify, active, secret, events, workspaceUuids, title))

struct webhook_update_response {
    esign::webhook webhook;
};
BOOST_DESCRIBE_STRUCT(webhook_update_response, (), (webhook))

// ---------------------------------------------------------------------------------------------
// POST /public/webhook/list

struct webhook_list_request {
    std::optional<bool> active;  // filter
    std::optional<page_number> page;
    std::optional<page_limit> limit;
};
BOOST_DESCRIBE_STRUCT(webhook_list_request, (), (active, page, limit))

struct webhook_list_response {
    std::vector<webhook> webhooks;
    esign::pagination pagination;
};
BOOST_DESCRIBE_STRUCT(webhook_list_response, (), (webhooks, pagination))

// ---------------------------------------------------------------------------------------------
// POST /public/webhook/delete

struct webhook_delete_request {
    uuid36 uuid;
};
BOOST_DESCRIBE_STRUCT(webhook_delete_request, (), (uuid))

using webhook_delete_response = empty_response;

// ---------------------------------------------------------------------------------------------
// POST /public/webhook/create (contract.md §4)

struct webhook_create_request {
    absolute_uri url;
    webhook_content_type contentType{webhook_content_type::application_json};
    bool sslVerify{};
    bool active{};
    tri_state<webhook_secret> secret;  // absent or null: no signature
    std::optional<std::vector<webhook_event>> events;
    std::optional<std::vector<uuid36>> workspaceUuids;
    std::optional<webhook_title> title;
};
BOOST_DESCRIBE_STRUCT(webhook_create_request, (),
                      (url, contentType, sslVerify, active, secret, events, workspaceUuids, title))

struct webhook_create_response {
    esign::webhook webhook;
};
BOOST_DESCRIBE_STRUCT(webhook_create_response, (), (webhook))

}  // namespace esign
