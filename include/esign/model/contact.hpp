// SPDX-License-Identifier: BSL-1.0
#pragma once
// Contacts (interface.md "Contact") and /public/contact/update, create, list, delete.
#include <optional>
#include <string>
#include <vector>

#include <boost/describe/class.hpp>

#include <esign/model/common.hpp>
#include <esign/model/enums.hpp>
#include <esign/model/pagination.hpp>
#include <esign/types/bounded_string.hpp>
#include <esign/types/bounded_vector.hpp>
#include <esign/types/email.hpp>
#include <esign/types/nullable.hpp>

namespace esign {

// The contact resource (contact/update, contact/create, contact/list).
struct contact {
    std::string uuid;
    std::string email;
    std::string firstname;
    std::string lastname;
    nullable<std::string> phone;
    std::optional<esign::language> language;
    flattened<person_details> details;  // jobTitle … country
};
BOOST_DESCRIBE_STRUCT(contact, (), (uuid, email, firstname, lastname, phone, language, details))

// ---------------------------------------------------------------------------------------------
// POST /public/contact/update (only the members given change; `phone` is required, may be null)

struct contact_update_fields {
    email255 email;  // identifies the contact in the workspace
    std::string firstname;
    std::string lastname;
    nullable<std::string> phone;
    std::optional<esign::language> language;
    flattened<person_details> details;  // jobTitle … country
};
BOOST_DESCRIBE_STRUCT(contact_update_fields, (), (email, firstname, lastname, phone, language, details))

struct contact_update_request {
    std::optional<uuid36> workspaceUuid;
    contact_update_fields contact;
};
BOOST_DESCRIBE_STRUCT(contact_update_request, (), (workspaceUuid, contact))

struct contact_update_response {
    esign::contact contact;
};
BOOST_DESCRIBE_STRUCT(contact_update_response, (), (contact))

// ---------------------------------------------------------------------------------------------
// POST /public/contact/create (contract.md §4)
// Duplicates (in the workspace or twice in the request) are the business error
// CONTACT_EMAIL_ALREADY_EXISTS, not a validation problem: no validate() hook.

// The contact shape of contact/update, except that `phone` may be omitted (meaning null).
struct contact_create_item {
    email255 email;
    std::string firstname;
    std::string lastname;
    tri_state<std::string> phone;
    std::optional<esign::language> language;
    flattened<person_details> details;  // jobTitle … country
};
BOOST_DESCRIBE_STRUCT(contact_create_item, (), (email, firstname, lastname, phone, language, details))

struct contact_create_request {
    std::optional<uuid36> workspaceUuid;
    bounded_vector<contact_create_item, 1, 50> contacts;
};
BOOST_DESCRIBE_STRUCT(contact_create_request, (), (workspaceUuid, contacts))

struct contact_create_response {
    std::vector<contact> contacts;
};
BOOST_DESCRIBE_STRUCT(contact_create_response, (), (contacts))

// ---------------------------------------------------------------------------------------------
// POST /public/contact/list

struct contact_list_request {
    std::optional<uuid36> workspaceUuid;
    std::optional<page_number> page;
    std::optional<page_limit> limit;
};
BOOST_DESCRIBE_STRUCT(contact_list_request, (), (workspaceUuid, page, limit))

struct contact_list_response {
    std::vector<contact> contacts;
    esign::pagination pagination;
};
BOOST_DESCRIBE_STRUCT(contact_list_response, (), (contacts, pagination))

// ---------------------------------------------------------------------------------------------
// POST /public/contact/delete (CONTACT_NOT_FOUND when one is unknown)

struct contact_delete_request {
    std::optional<uuid36> workspaceUuid;
    bounded_vector<email255, 1, 50> emails;
};
BOOST_DESCRIBE_STRUCT(contact_delete_request, (), (workspaceUuid, emails))

using contact_delete_response = empty_response;

}  // namespace esign
