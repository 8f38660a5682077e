// SPDX-License-Identifier: BSL-1.0
#pragma once
// Recipients of an envelope and their invitation (interface.md "Recipient"), and the recipient
// operations: /public/envelope/add-recipients, update-recipient, delete-recipients.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/describe/class.hpp>

#include <esign/model/common.hpp>
#include <esign/model/enums.hpp>
#include <esign/types/bounded_string.hpp>
#include <esign/types/bounded_vector.hpp>
#include <esign/types/email.hpp>
#include <esign/types/nullable.hpp>
#include <esign/types/ranged.hpp>
#include <esign/validation/problem.hpp>

namespace esign {

// ---------------------------------------------------------------------------------------------
// Resources (response side)

// Present while a current valid invitation link exists (after send, until the envelope is final).
struct invitation {
    bool valid{};
    std::int64_t expirationDate{};
    std::int64_t creationDate{};
    nullable<std::int64_t> lastNotificationDate;  // null until an e-mail is sent
    std::string medium;                           // opaque; the reference server writes "email" or "none"
    verification_type verificationType{verification_type::none};  // snapshot when the link was issued
};
BOOST_DESCRIBE_STRUCT(invitation, (),
                      (valid, expirationDate, creationDate, lastNotificationDate, medium, verificationType))

struct recipient {
    std::optional<std::int64_t> id;  // internal identifier; the reference server never writes it
    std::string email;
    std::string firstname;
    std::string lastname;
    std::string phone;                  // "" when not given
    flattened<person_details> details;  // jobTitle … country
    recipient_role role{recipient_role::signer};
    std::int64_t order{};
    bool associatedContact{};
    recipient_status status{recipient_status::pending};
    esign::language language{esign::language::en};
    verification_type verificationType{verification_type::none};
    std::optional<esign::invitation> invitation;
};
BOOST_DESCRIBE_STRUCT(recipient, (),
                      (id, email, firstname, lastname, phone, details, role, order, associatedContact, status, language,
                       verificationType, invitation))

// ---------------------------------------------------------------------------------------------
// POST /public/envelope/add-recipients

struct add_recipients_item {
    recipient_type type{recipient_type::manual};
    email128 email;
    std::string firstname;
    std::string lastname;
    std::optional<std::string> phone;  // needed for sms verification
    std::optional<esign::language> language;
    std::optional<verification_type> verificationType;
};
BOOST_DESCRIBE_STRUCT(add_recipients_item, (), (type, email, firstname, lastname, phone, language, verificationType))

// contract.md §2: a recipient whose verificationType is sms needs a non-empty phone (checked at
// decoding here, and on the stored recipient by update-recipient).
constexpr bool phone_satisfies(verification_type verification, std::string_view phone) noexcept {
    return verification != verification_type::sms || !phone.empty();
}
inline constexpr std::string_view sms_needs_phone_message =
    "a recipient with verificationType sms needs a non-empty phone";

inline void validate(const add_recipients_item& value, problem_sink& sink) {
    if (!phone_satisfies(value.verificationType.value_or(verification_type::none), value.phone.value_or("")))
        sink.add({"phone"}, problem_kind::rule, std::string(sms_needs_phone_message));
}

struct envelope_add_recipients_request {
    std::optional<uuid36> workspaceUuid;
    uuid36 envelopeUuid;
    bounded_vector<add_recipients_item, 1, 50> recipients;
};
BOOST_DESCRIBE_STRUCT(envelope_add_recipients_request, (), (workspaceUuid, envelopeUuid, recipients))

// One item of the add-recipients response.
struct added_recipient {
    std::string email;
    std::string firstname;
    std::string lastname;
    recipient_role role{recipient_role::signer};  // always signer
    bool associatedContact{};
    recipient_status status{recipient_status::pending};
    block_color colorVariant{block_color::primary};
};
BOOST_DESCRIBE_STRUCT(added_recipient, (), (email, firstname, lastname, role, associatedContact, status, colorVariant))

struct envelope_add_recipients_response {
    std::vector<added_recipient> recipients;
};
BOOST_DESCRIBE_STRUCT(envelope_add_recipients_response, (), (recipients))

// ---------------------------------------------------------------------------------------------
// POST /public/envelope/update-recipient
// (The sms rule is judged on the recipient as it would be after the update, so the backend
// checks it, at ["updates","phone"], after RECIPIENT_NOT_FOUND.)

struct recipient_updates {
    std::optional<std::string> firstname;
    std::optional<std::string> lastname;
    std::optional<std::string> phone;
    flattened<person_details> details;  // jobTitle … country
    std::optional<recipient_role> role;
    std::optional<int32> order;
    std::optional<esign::language> language;
    std::optional<verification_type> verificationType;
};
BOOST_DESCRIBE_STRUCT(recipient_updates, (),
                      (firstname, lastname, phone, details, role, order, language, verificationType))

struct envelope_update_recipient_request {
    std::optional<uuid36> workspaceUuid;
    uuid36 envelopeUuid;
    update_recipient_email255 email;  // with role, identifies the recipient
    recipient_role role{recipient_role::signer};
    recipient_updates updates;
};
BOOST_DESCRIBE_STRUCT(envelope_update_recipient_request, (), (workspaceUuid, envelopeUuid, email, role, updates))

// The recipient as returned by update-recipient.
struct updated_recipient {
    std::string email;
    std::string firstname;
    std::string lastname;
    nullable<std::string> phone;
    flattened<person_details> details;  // jobTitle … country
    recipient_role role{recipient_role::signer};
    std::int64_t order{};
    bool associatedContact{};
    recipient_status status{recipient_status::pending};
    esign::language language{esign::language::en};
    verification_type verificationType{verification_type::none};
    block_color colorVariant{block_color::primary};
};
BOOST_DESCRIBE_STRUCT(updated_recipient, (),
                      (email, firstname, lastname, phone, details, role, order, associatedContact, status, language,
                       verificationType, colorVariant))

struct envelope_update_recipient_response {
    updated_recipient recipient;
};
BOOST_DESCRIBE_STRUCT(envelope_update_recipient_response, (), (recipient))

// ---------------------------------------------------------------------------------------------
// POST /public/envelope/delete-recipients

struct delete_recipients_item {
    email255 email;
};
BOOST_DESCRIBE_STRUCT(delete_recipients_item, (), (email))

struct envelope_delete_recipients_request {
    std::optional<uuid36> workspaceUuid;
    uuid36 envelopeUuid;
    bounded_vector<delete_recipients_item, 1, 50> recipients;
};
BOOST_DESCRIBE_STRUCT(envelope_delete_recipients_request, (), (workspaceUuid, envelopeUuid, recipients))

using envelope_delete_recipients_response = empty_response;

}  // namespace esign
