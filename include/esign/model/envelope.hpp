// SPDX-License-Identifier: BSL-1.0
#pragma once
// Envelopes (interface.md "Envelope", full and list forms) and the envelope operations:
// /public/envelope/get, list, update, send, create-from-template, delete-attachment.
// (Recipient operations: recipient.hpp; block operations: document.hpp.)
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <boost/describe/class.hpp>

#include <esign/model/common.hpp>
#include <esign/model/document.hpp>
#include <esign/model/enums.hpp>
#include <esign/model/pagination.hpp>
#include <esign/model/recipient.hpp>
#include <esign/types/bounded_string.hpp>
#include <esign/types/bounded_vector.hpp>
#include <esign/types/email.hpp>
#include <esign/types/nullable.hpp>
#include <esign/types/ranged.hpp>
#include <esign/validation/problem.hpp>

namespace esign {

// ---------------------------------------------------------------------------------------------
// Parts of an envelope (response side)

// Owner in the full form: firstname/lastname are "string or null, optional".
struct owner {
    std::string uuid;
    std::string email;
    tri_state<std::string> firstname;
    tri_state<std::string> lastname;
};
BOOST_DESCRIBE_STRUCT(owner, (), (uuid, email, firstname, lastname))

// Owner in the list form: firstname/lastname are "string or null", required.
struct owner_summary {
    std::string uuid;
    std::string email;
    nullable<std::string> firstname;
    nullable<std::string> lastname;
};
BOOST_DESCRIBE_STRUCT(owner_summary, (), (uuid, email, firstname, lastname))

struct sender {
    std::string email;
    std::string name;
};
BOOST_DESCRIBE_STRUCT(sender, (), (email, name))

struct metrics {
    std::int64_t signatureCount{};
    std::int64_t signatureRequiredCount{};
    std::int64_t approvalCount{};
    std::int64_t approvalRequiredCount{};
};
BOOST_DESCRIBE_STRUCT(metrics, (), (signatureCount, signatureRequiredCount, approvalCount, approvalRequiredCount))

struct attachment {
    std::string uuid;
    std::string title;  // at most 255 code points
};
BOOST_DESCRIBE_STRUCT(attachment, (), (uuid, title))

// ---------------------------------------------------------------------------------------------
// Envelope, full form (envelope/get)

struct envelope {
    std::string uuid;
    std::string title;  // at most 255 code points
    envelope_status status{envelope_status::draft};
    std::int64_t creationDate{};
    std::int64_t updateDate{};
    nullable<std::int64_t> sentDate;
    esign::owner owner;
    esign::sender sender;
    std::vector<document> documents;
    std::vector<attachment> attachments;
    std::vector<std::string> tags;
    esign::metrics metrics;
    bool signatureOrder{};
    nullable<std::string> customMessage;
    bool useUserAsSenderName{};
    bool timestampEnabled{};
    std::int64_t expirationPeriod{30};
    nullable<std::int64_t> reminderFrequencyPeriod;
    std::vector<recipient> recipients;
};
BOOST_DESCRIBE_STRUCT(envelope, (),
                      (uuid, title, status, creationDate, updateDate, sentDate, owner, sender, documents, attachments,
                       tags, metrics, signatureOrder, customMessage, useUserAsSenderName, timestampEnabled,
                       expirationPeriod, reminderFrequencyPeriod, recipients))

// Envelope, list form (envelope/list).
struct envelope_summary {
    std::string uuid;
    std::string title;
    std::int64_t creationDate{};
    std::int64_t updateDate{};
    nullable<std::int64_t> sentDate;
    envelope_status status{envelope_status::draft};
    std::string workspaceUuid;
    owner_summary owner;
    esign::metrics metrics;
    std::vector<std::string> tags;
};
BOOST_DESCRIBE_STRUCT(envelope_summary, (),
                      (uuid, title, creationDate, updateDate, sentDate, status, workspaceUuid, owner, metrics, tags))

// ---------------------------------------------------------------------------------------------
// POST /public/envelope/get

struct envelope_get_request {
    std::optional<uuid36> workspaceUuid;
    uuid36 envelopeUuid;
};
BOOST_DESCRIBE_STRUCT(envelope_get_request, (), (workspaceUuid, envelopeUuid))

// The response is the envelope itself, not wrapped.
using envelope_get_response = envelope;

// ---------------------------------------------------------------------------------------------
// POST /public/envelope/list (page only; page size fixed_page_size)

struct envelope_list_request {
    std::optional<uuid36> workspaceUuid;
    std::optional<std::vector<std::string>> tags;        // any of these tags; empty filters nothing
    std::optional<std::vector<envelope_status>> status;  // any of these statuses; empty filters nothing
    std::optional<page_number> page;
};
BOOST_DESCRIBE_STRUCT(envelope_list_request, (), (workspaceUuid, tags, status, page))

struct envelope_list_response {
    std::vector<envelope_summary> envelopes;
    esign::pagination pagination;
};
BOOST_DESCRIBE_STRUCT(envelope_list_response, (), (envelopes, pagination))

// ---------------------------------------------------------------------------------------------
// POST /public/envelope/update

// One item of update.documents.
struct envelope_update_document {
    uuid36 uuid;
    std::optional<bounded_string<0, 255>> title;
    std::optional<bool> initialsOnAllPages;
    std::optional<ranged<0, 120>> initialsVerticalMargin;
    std::optional<bool> mustReadAllPages;
};
BOOST_DESCRIBE_STRUCT(envelope_update_document, (),
                      (uuid, title, initialsOnAllPages, initialsVerticalMargin, mustReadAllPages))

// The `update` object: every member optional; absent = unchanged.
struct envelope_update_fields {
    std::optional<bounded_string<0, 255>> title;
    std::optional<std::vector<envelope_update_document>> documents;
    std::optional<std::vector<std::string>> tags;  // names to add (tags are a set)
    std::optional<bool> signatureOrder;
    std::optional<ranged<1, 90>> expirationPeriod;
    std::optional<ranged<1>> reminderFrequencyPeriod;
    tri_state<std::string> customInvitationMessage;  // absent = unchanged, null = cleared
    std::optional<bool> useUserAsSenderName;
};
BOOST_DESCRIBE_STRUCT(envelope_update_fields, (),
                      (title, documents, tags, signatureOrder, expirationPeriod, reminderFrequencyPeriod,
                       customInvitationMessage, useUserAsSenderName))

struct envelope_update_request {
    std::optional<uuid36> workspaceUuid;
    uuid36 envelopeUuid;
    envelope_update_fields update;
};
BOOST_DESCRIBE_STRUCT(envelope_update_request, (), (workspaceUuid, envelopeUuid, update))

struct envelope_update_response {
    std::int64_t updateDate{};
};
BOOST_DESCRIBE_STRUCT(envelope_update_response, (), (updateDate))

// ---------------------------------------------------------------------------------------------
// POST /public/envelope/send

inline constexpr distribution_method default_distribution_method = distribution_method::email;

struct envelope_send_request {
    std::optional<uuid36> workspaceUuid;
    uuid36 envelopeUuid;
    std::optional<distribution_method> distributionMethod;  // default_distribution_method when absent
    // Deprecated and ignored when sending (set them with envelope/update); typed as in update.
    std::optional<bool> useUserAsSenderName;
    tri_state<std::string> customInvitationMessage;
};
BOOST_DESCRIBE_STRUCT(envelope_send_request, (),
                      (workspaceUuid, envelopeUuid, distributionMethod, useUserAsSenderName, customInvitationMessage))

constexpr distribution_method distribution_method_or_default(const envelope_send_request& r) noexcept {
    return r.distributionMethod.value_or(default_distribution_method);
}

using envelope_send_response = empty_response;

// ---------------------------------------------------------------------------------------------
// POST /public/envelope/create-from-template

struct create_from_template_recipient {
    recipient_type type{recipient_type::manual};
    bounded_string<1, 255> label;  // a template recipient label
    email128 email;
    std::string firstname;
    std::string lastname;
};
BOOST_DESCRIBE_STRUCT(create_from_template_recipient, (), (type, label, email, firstname, lastname))

struct envelope_create_from_template_request {
    std::optional<uuid36> workspaceUuid;
    uuid36 templateUuid;
    bounded_vector<create_from_template_recipient, 1> recipients;
};
BOOST_DESCRIBE_STRUCT(envelope_create_from_template_request, (), (workspaceUuid, templateUuid, recipients))

// contract.md §3: the same e-mail under two labels is a validation problem at the second one's
// `email`. (Labels that are not the template's set, each once, duplicates included, are the
// business error INVALID_RECIPIENT_LABELS, checked by the backend once the template is found.)
inline void validate(const envelope_create_from_template_request& value, problem_sink& sink) {
    const auto& items = value.recipients;
    for (std::size_t i = 1; i < items.size(); ++i) {
        for (std::size_t j = 0; j < i; ++j) {
            if (items[j].email.str() == items[i].email.str() && items[j].label.str() != items[i].label.str()) {
                sink.add({"recipients", std::to_string(i), "email"}, problem_kind::rule,
                         "the same e-mail is given under two labels");
                break;
            }
        }
    }
}

struct envelope_create_from_template_response {
    std::string envelopeUuid;
    std::vector<std::string> documentUuids;
};
BOOST_DESCRIBE_STRUCT(envelope_create_from_template_response, (), (envelopeUuid, documentUuids))

// ---------------------------------------------------------------------------------------------
// POST /public/envelope/delete-attachment

struct envelope_delete_attachment_request {
    std::optional<uuid36> workspaceUuid;
    uuid36 envelopeUuid;
    uuid36 documentUuid;  // the attachment's uuid
};
BOOST_DESCRIBE_STRUCT(envelope_delete_attachment_request, (), (workspaceUuid, envelopeUuid, documentUuid))

using envelope_delete_attachment_response = empty_response;

}  // namespace esign
