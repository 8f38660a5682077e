// SPDX-License-Identifier: BSL-1.0
#pragma once
// Every closed set of strings of the interface (interface.md, contract.md), as a described enum.
//
// The wire string of an enumerator is its described name, less a trailing underscore (`signed_`,
// named after a keyword, is "signed"). Where the wire strings are not C++ identifiers, the enum
// says how its names are spelled: `wire_spelling_of(E)` in this namespace, found by ADL
// (dashes: `text_t` is "text-t"). `enum_to_wire` and `enum_from_wire`
// (validation/enum_names.hpp) apply that rule and are what every user should call.
#include <array>
#include <concepts>
#include <cstddef>
#include <optional>
#include <string_view>

#include <boost/describe/enum.hpp>
#include <boost/describe/enumerators.hpp>
#include <boost/mp11/algorithm.hpp>

#include <esign/validation/enum_names.hpp>

namespace esign {

// ---------------------------------------------------------------------------------------------
// Envelopes and recipients

enum class envelope_status { uploading, draft, approving, signing, complete, declined, canceled, expired };
BOOST_DESCRIBE_ENUM(envelope_status, uploading, draft, approving, signing, complete, declined, canceled, expired)

// `signed` is a C++ keyword: the enumerator is `signed_`, its wire string "signed" (the trailing
// underscore is never written).
enum class recipient_status { pending, approved, signed_, declined, canceled };
BOOST_DESCRIBE_ENUM(recipient_status, pending, approved, signed_, declined, canceled)

enum class recipient_role { signer, approver, viewer };
BOOST_DESCRIBE_ENUM(recipient_role, signer, approver, viewer)

enum class language { en, fr, es, it, fi };
BOOST_DESCRIBE_ENUM(language, en, fr, es, it, fi)

enum class verification_type { none, sms, email };
BOOST_DESCRIBE_ENUM(verification_type, none, sms, email)

// add-recipients / create-from-template item `type`: only "manual".
enum class recipient_type { manual };
BOOST_DESCRIBE_ENUM(recipient_type, manual)

// send `distributionMethod` (default email).
enum class distribution_method { email, none };
BOOST_DESCRIBE_ENUM(distribution_method, email, none)

// ---------------------------------------------------------------------------------------------
// Blocks

// The order is the colour cycle (contract.md §3: colorVariant = index mod 10 in this order).
enum class block_color { primary, info, auxiliary, success, warning, danger, teal, pink, grape, lime };
BOOST_DESCRIBE_ENUM(block_color, primary, info, auxiliary, success, warning, danger, teal, pink, grape, lime)

enum class label_icon {
    at,
    text_t,
    image,
    signature,
    user,
    building_office,
    road_horizon,
    city,
    building,
    phone,
    read_cv_logo,
    calendar,
    hash,
    dot_outline,
    check_square,
    caret_down,
};
BOOST_DESCRIBE_ENUM(label_icon, at, text_t, image, signature, user, building_office, road_horizon, city, building,
                    phone, read_cv_logo, calendar, hash, dot_outline, check_square, caret_down)
constexpr wire_spelling wire_spelling_of(label_icon) noexcept { return wire_spelling::dashes; }  // "text-t"

enum class templated_text {
    email,
    fullname,
    phone,
    jobTitle,
    company,
    addressLine1,
    addressLine2,
    zipCode,
    city,
    country,
};
BOOST_DESCRIBE_ENUM(templated_text, email, fullname, phone, jobTitle, company, addressLine1, addressLine2, zipCode,
                    city, country)

// Block `type`: "text" is the only type of the interface.
enum class block_type { text };
BOOST_DESCRIBE_ENUM(block_type, text)

// ---------------------------------------------------------------------------------------------
// Webhooks

enum class webhook_content_type { application_json, application_x_www_form_urlencoded };
BOOST_DESCRIBE_ENUM(webhook_content_type, application_json, application_x_www_form_urlencoded)
constexpr wire_spelling wire_spelling_of(webhook_content_type) noexcept { return wire_spelling::media_type; }

// Webhook event names (contract.md §3 table, column "webhook event").
enum class webhook_event {
    ENVELOPE_CREATED,
    ENVELOPE_SENT,
    ENVELOPE_OPENED,
    ENVELOPE_SIGNED,
    ENVELOPE_COMPLETED,
    ENVELOPE_DECLINED,
    ENVELOPE_CANCELED,
};
BOOST_DESCRIBE_ENUM(webhook_event, ENVELOPE_CREATED, ENVELOPE_SENT, ENVELOPE_OPENED, ENVELOPE_SIGNED,
                    ENVELOPE_COMPLETED, ENVELOPE_DECLINED, ENVELOPE_CANCELED)

// ---------------------------------------------------------------------------------------------
// Logs

enum class log_category { envelope, team, dataroom, user };
BOOST_DESCRIBE_ENUM(log_category, envelope, team, dataroom, user)

// Event types of the envelope category (contract.md §3 table, column "log").
enum class envelope_log_event {
    ENVELOPE_CREATED,
    ENVELOPE_SENT,
    ENVELOPE_OPENED,
    RECIPIENT_VERIFIED,
    RECIPIENT_APPROVED,
    DOCUMENT_SIGNED,
    ENVELOPE_COMPLETED,
    ENVELOPE_DECLINED,
    ENVELOPE_CANCELED,
    ENVELOPE_EXPIRED,
};
BOOST_DESCRIBE_ENUM(envelope_log_event, ENVELOPE_CREATED, ENVELOPE_SENT, ENVELOPE_OPENED, RECIPIENT_VERIFIED,
                    RECIPIENT_APPROVED, DOCUMENT_SIGNED, ENVELOPE_COMPLETED, ENVELOPE_DECLINED, ENVELOPE_CANCELED,
                    ENVELOPE_EXPIRED)

// Event types of the team category.
enum class team_log_event {
    TEAM_CREATED,
    WORKSPACE_CREATED,
    WORKSPACE_UPDATED,
    WEBHOOK_CREATED,
    WEBHOOK_UPDATED,
    WEBHOOK_DELETED,
    CONTACT_CREATED,
    CONTACT_UPDATED,
    CONTACT_DELETED,
};
BOOST_DESCRIBE_ENUM(team_log_event, TEAM_CREATED, WORKSPACE_CREATED, WORKSPACE_UPDATED, WEBHOOK_CREATED,
                    WEBHOOK_UPDATED, WEBHOOK_DELETED, CONTACT_CREATED, CONTACT_UPDATED, CONTACT_DELETED)

// logs/list `sortBy` (default timestamp) and `sortOrder` (default desc).
enum class log_sort_by { timestamp, id };
BOOST_DESCRIBE_ENUM(log_sort_by, timestamp, id)

enum class sort_order { asc, desc };
BOOST_DESCRIBE_ENUM(sort_order, asc, desc)

// ---------------------------------------------------------------------------------------------
// Control operations (contract.md §5)

enum class recipient_action { open, approve, sign, decline };
BOOST_DESCRIBE_ENUM(recipient_action, open, approve, sign, decline)

enum class outbox_kind { invitation, reminder };
BOOST_DESCRIBE_ENUM(outbox_kind, invitation, reminder)

// Plan features of /_control/team/create and /_control/team/update (default: all three).
enum class plan_feature { sms, timestamp, webhooks };
BOOST_DESCRIBE_ENUM(plan_feature, sms, timestamp, webhooks)

// ---------------------------------------------------------------------------------------------
// Error codes: every code of interface.md "Errors", then the four of contract.md.

enum class error_code {
    // authentication
    AUTHENTICATION_ERROR,
    DBSC_COOKIE_INVALID,
    TUNNEL_ERROR,
    TUNNEL_SESSION_NOT_FOUND,
    INVALID_REQUEST_FORMAT,
    // authorization
    AUTHORIZATION_ERROR,
    FEATURE_NOT_IN_CURRENT_PLAN,
    // server
    INTERNAL_SERVER_ERROR,
    // operation-specific
    WORKSPACE_NOT_FOUND,
    ENVELOPE_NOT_FOUND,
    DOCUMENT_NOT_FOUND,
    DOCUMENT_NOT_ATTACHMENT,
    ENVELOPE_NOT_IN_DRAFT,
    RECIPIENT_NOT_FOUND,
    DUPLICATE_RECIPIENT,
    CONTACT_NOT_FOUND,
    USER_NOT_FOUND,
    TEMPLATE_NOT_FOUND,
    INVALID_RECIPIENT_LABELS,
    INVALID_EMAIL,
    INVALID_RECIPIENT_EMAIL,
    NO_RECIPIENTS,
    NO_SIGNERS,
    SUBSCRIPTION_NOT_FOUND,
    SES_LIMIT_EXCEEDED,
    API_CREDITS_LIMIT_EXCEEDED,
    WEBHOOK_NOT_FOUND,
    WEBHOOK_URL_REFUSED,
    LOG_CATEGORY_NOT_IMPLEMENTED,
    SIGNER_NOT_IN_ENVELOPE,
    RECIPIENT_VERIFICATION_DISABLED,
    // contract.md
    WEBHOOK_LIMIT_REACHED,
    CONTACT_EMAIL_ALREADY_EXISTS,
    ACTION_NOT_ALLOWED,
    // contract.md §6.9, the control plane: /_control/team/create beyond --max-teams (429)
    TEAM_LIMIT_REACHED,
    // contract.md §7.1, the signer's side (/embeds/): a token or session that cannot be used
    SIGNING_TOKEN_UNKNOWN,
    SIGNING_TOKEN_USED,
    SIGNING_TOKEN_EXPIRED,
    SIGNING_SESSION_INVALID,
};
BOOST_DESCRIBE_ENUM(error_code, AUTHENTICATION_ERROR, DBSC_COOKIE_INVALID, TUNNEL_ERROR, TUNNEL_SESSION_NOT_FOUND,
                    INVALID_REQUEST_FORMAT, AUTHORIZATION_ERROR, FEATURE_NOT_IN_CURRENT_PLAN, INTERNAL_SERVER_ERROR,
                    WORKSPACE_NOT_FOUND, ENVELOPE_NOT_FOUND, DOCUMENT_NOT_FOUND, DOCUMENT_NOT_ATTACHMENT,
                    ENVELOPE_NOT_IN_DRAFT, RECIPIENT_NOT_FOUND, DUPLICATE_RECIPIENT, CONTACT_NOT_FOUND, USER_NOT_FOUND,
                    TEMPLATE_NOT_FOUND, INVALID_RECIPIENT_LABELS, INVALID_EMAIL, INVALID_RECIPIENT_EMAIL, NO_RECIPIENTS,
                    NO_SIGNERS, SUBSCRIPTION_NOT_FOUND, SES_LIMIT_EXCEEDED, API_CREDITS_LIMIT_EXCEEDED,
                    WEBHOOK_NOT_FOUND, WEBHOOK_URL_REFUSED, LOG_CATEGORY_NOT_IMPLEMENTED, SIGNER_NOT_IN_ENVELOPE,
                    RECIPIENT_VERIFICATION_DISABLED, WEBHOOK_LIMIT_REACHED, CONTACT_EMAIL_ALREADY_EXISTS,
                    ACTION_NOT_ALLOWED, TEAM_LIMIT_REACHED, SIGNING_TOKEN_UNKNOWN, SIGNING_TOKEN_USED,
                    SIGNING_TOKEN_EXPIRED, SIGNING_SESSION_INVALID)

}  // namespace esign
