// SPDX-License-Identifier: BSL-1.0
#pragma once
// The control operations of the reference server (contract.md §5, §6): POST /_control/..., JSON.
// Who may call each, and on which team it acts, is in model/operations.hpp (operation_access).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
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
// POST /_control/reset

struct control_reset_request {};
BOOST_DESCRIBE_STRUCT(control_reset_request, (), ())

using control_reset_response = empty_response;

// ---------------------------------------------------------------------------------------------
// POST /_control/team/create

inline constexpr std::int32_t default_api_credits = 1000;
inline constexpr std::int32_t default_email_quota = 1000;
inline constexpr bool default_subscription = true;

// A team's plan, as team/create sets it and team/update changes it (absent: the default, or
// unchanged).
struct control_team_plan {
    std::optional<ranged<0>> apiCredits;                // default_api_credits
    std::optional<ranged<0>> emailQuota;                // default_email_quota
    std::optional<bool> subscription;                   // default_subscription
    std::optional<std::vector<plan_feature>> features;  // default: every plan_feature
};
BOOST_DESCRIBE_STRUCT(control_team_plan, (), (apiCredits, emailQuota, subscription, features))

// A team as team/create makes it and a fixture's team describes it: its name, owner and plan.
struct control_team_profile {
    std::optional<std::string> name;
    std::optional<email_address> ownerEmail;
    std::optional<std::string> ownerFirstname;
    std::optional<std::string> ownerLastname;
    flattened<control_team_plan> plan;  // apiCredits, emailQuota, subscription, features
};
BOOST_DESCRIBE_STRUCT(control_team_profile, (), (name, ownerEmail, ownerFirstname, ownerLastname, plan))

struct control_team_create_request {
    flattened<control_team_profile> profile;  // name … features
    // §6.3: the team's identifiers come from its own stream seeded by `seed`; with `startTime`
    // (unix ms, 0 or more) its clock starts there and moves only by /_control/clock/advance.
    std::optional<std::int64_t> seed;
    std::optional<std::int64_t> startTime;
};
BOOST_DESCRIBE_STRUCT(control_team_create_request, (), (profile, seed, startTime))

struct control_team_create_response {
    std::string teamUuid;
    std::string apiKey;
    std::string defaultWorkspaceUuid;
    std::string ownerUuid;
    std::string ownerEmail;
    std::string accessKey;  // §6.8: `Bearer <accessKey>:<secretKey>` authenticates the team too
    std::string secretKey;
};
BOOST_DESCRIBE_STRUCT(control_team_create_response, (),
                      (teamUuid, apiKey, defaultWorkspaceUuid, ownerUuid, ownerEmail, accessKey, secretKey))

// ---------------------------------------------------------------------------------------------
// POST /_control/team/reset (team key): the team as it was right after its creation

struct control_team_reset_request {};
BOOST_DESCRIBE_STRUCT(control_team_reset_request, (), ())

using control_team_reset_response = empty_response;

// ---------------------------------------------------------------------------------------------
// POST /_control/team/update (absent = unchanged; an unknown teamUuid is INVALID_REQUEST_FORMAT).
// With a team's key, teamUuid is optional and may only name that team; without one it is needed.

struct control_team_update_request {
    std::optional<uuid36> teamUuid;
    flattened<control_team_plan> plan;  // apiCredits, emailQuota, subscription, features
};
BOOST_DESCRIBE_STRUCT(control_team_update_request, (), (teamUuid, plan))

using control_team_update_response = empty_response;

// ---------------------------------------------------------------------------------------------
// POST /_control/envelope/create (with the team's API key): a draft owned by the team's owner

struct control_document_input {
    bounded_string<0, 255> title;
    positive_int pageCount;
};
BOOST_DESCRIBE_STRUCT(control_document_input, (), (title, pageCount))

struct control_attachment_input {
    bounded_string<0, 255> title;
};
BOOST_DESCRIBE_STRUCT(control_attachment_input, (), (title))

// The envelope that envelope/create makes (a fixture's envelope holds the same members).
struct control_envelope_content {
    bounded_string<0, 255> title;
    bounded_vector<control_document_input, 1> documents;
    std::optional<std::vector<control_attachment_input>> attachments;
    std::optional<std::vector<std::string>> tags;
};
BOOST_DESCRIBE_STRUCT(control_envelope_content, (), (title, documents, attachments, tags))

struct control_envelope_create_request {
    std::optional<uuid36> workspaceUuid;
    flattened<control_envelope_content> content;  // title, documents, attachments, tags
};
BOOST_DESCRIBE_STRUCT(control_envelope_create_request, (), (workspaceUuid, content))

struct control_envelope_create_response {
    std::string envelopeUuid;
    std::vector<std::string> documentUuids;
    std::vector<std::string> attachmentUuids;
};
BOOST_DESCRIBE_STRUCT(control_envelope_create_response, (), (envelopeUuid, documentUuids, attachmentUuids))

// ---------------------------------------------------------------------------------------------
// POST /_control/template/create (with the team's API key)

// The template that template/create makes (a fixture's template holds the same members).
struct control_template_content {
    bounded_string<0, 255> title;
    bounded_vector<bounded_string<1, 255>, 1> recipientLabels;  // distinct (validate below)
    std::vector<control_document_input> documents;
};
BOOST_DESCRIBE_STRUCT(control_template_content, (), (title, recipientLabels, documents))

inline void validate(const control_template_content& value, problem_sink& sink) {
    // Each label looked up once among those before it: linear in the body (the list has no
    // maximum count, so a comparison of every pair could be made quadratic by one request).
    const auto& labels = value.recipientLabels;
    std::unordered_set<std::string_view> seen;
    seen.reserve(labels.size());
    for (std::size_t i = 0; i < labels.size(); ++i)
        if (!seen.insert(labels[i].str()).second)
            sink.add({"recipientLabels", std::to_string(i)}, problem_kind::rule, "recipient labels must be distinct");
}

struct control_template_create_request {
    std::optional<uuid36> workspaceUuid;
    flattened<control_template_content> content;  // title, recipientLabels, documents
};
BOOST_DESCRIBE_STRUCT(control_template_create_request, (), (workspaceUuid, content))

struct control_template_create_response {
    std::string templateUuid;
    std::vector<std::string> documentUuids;
};
BOOST_DESCRIBE_STRUCT(control_template_create_response, (), (templateUuid, documentUuids))

// ---------------------------------------------------------------------------------------------
// POST /_control/recipient/act (ACTION_NOT_ALLOWED when the state, role or turn forbids it)
//
// teamUuid (contract.md §6.9), here and in envelope/cancel: with a team's key, optional and only
// that team (else INVALID_REQUEST_FORMAT at ["teamUuid"]). For the operator, the team that holds
// the envelope: needed when more than one team holds it (restored snapshots share uuids); a
// team that does not hold it is ENVELOPE_NOT_FOUND.

struct control_recipient_act_request {
    uuid36 envelopeUuid;
    std::string email;  // compared exactly; unknown: RECIPIENT_NOT_FOUND
    recipient_action action{recipient_action::open};
    std::optional<std::string> reason;
    std::optional<uuid36> teamUuid;
};
BOOST_DESCRIBE_STRUCT(control_recipient_act_request, (), (envelopeUuid, email, action, reason, teamUuid))

struct control_recipient_act_response {
    envelope_status envelopeStatus{envelope_status::draft};
    recipient_status recipientStatus{recipient_status::pending};
};
BOOST_DESCRIBE_STRUCT(control_recipient_act_response, (), (envelopeStatus, recipientStatus))

// ---------------------------------------------------------------------------------------------
// POST /_control/envelope/cancel (ACTION_NOT_ALLOWED when already final; teamUuid as in
// recipient/act)

struct control_envelope_cancel_request {
    uuid36 envelopeUuid;
    std::optional<std::string> reason;
    std::optional<uuid36> teamUuid;
};
BOOST_DESCRIBE_STRUCT(control_envelope_cancel_request, (), (envelopeUuid, reason, teamUuid))

using control_envelope_cancel_response = empty_response;

// ---------------------------------------------------------------------------------------------
// POST /_control/clock/advance and /_control/clock/now

struct control_clock_advance_request {
    // At least 0. A plain 64-bit integer: ranged<> is limited to 32 bits (about 24 days), not
    // enough to reach an expiry of 90 days. The JSON engine accepts any integer that fits an
    // std::int64_t here; the backend refuses a negative value.
    std::int64_t milliseconds{};
};
BOOST_DESCRIBE_STRUCT(control_clock_advance_request, (), (milliseconds))

struct control_clock_advance_response {
    std::int64_t now{};
};
BOOST_DESCRIBE_STRUCT(control_clock_advance_response, (), (now))

struct control_clock_now_request {};
BOOST_DESCRIBE_STRUCT(control_clock_now_request, (), ())

struct control_clock_now_response {
    std::int64_t now{};
};
BOOST_DESCRIBE_STRUCT(control_clock_now_response, (), (now))

// ---------------------------------------------------------------------------------------------
// POST /_control/outbox/list: every e-mail the server would have sent, oldest first

struct outbox_email {
    std::string to;
    outbox_kind kind{outbox_kind::invitation};
    std::string envelopeUuid;
    std::string teamUuid;
    std::int64_t timestamp{};
    // contract.md §7.1: {base}/embeds/sign#t={linkToken}, the recipient's signing page (base:
    // --public-url, else the listening address); absent once the team dropped that link token.
    std::optional<std::string> signingUrl{};  // (an initializer: aggregates may leave it out)
};
BOOST_DESCRIBE_STRUCT(outbox_email, (), (to, kind, envelopeUuid, teamUuid, timestamp, signingUrl))

struct control_outbox_list_request {};
BOOST_DESCRIBE_STRUCT(control_outbox_list_request, (), ())

struct control_outbox_list_response {
    std::vector<outbox_email> emails;
};
BOOST_DESCRIBE_STRUCT(control_outbox_list_response, (), (emails))

// ---------------------------------------------------------------------------------------------
// POST /_control/webhook/deliveries (an unknown webhook gives an empty list)

struct webhook_delivery {
    std::string eventUuid;
    std::string webhookUuid;
    webhook_event eventType{webhook_event::ENVELOPE_CREATED};
    std::int64_t attempts{};
    bool delivered{};
    nullable<std::int64_t> lastStatus;  // HTTP status of the last attempt; null when none answered
    bool dropped{};                     // §6.7: the team had too many pending deliveries; never attempted
};
BOOST_DESCRIBE_STRUCT(webhook_delivery, (),
                      (eventUuid, webhookUuid, eventType, attempts, delivered, lastStatus, dropped))

struct control_webhook_deliveries_request {
    std::optional<uuid36> webhookUuid;  // absent: every delivery
};
BOOST_DESCRIBE_STRUCT(control_webhook_deliveries_request, (), (webhookUuid))

struct control_webhook_deliveries_response {
    std::vector<webhook_delivery> deliveries;
};
BOOST_DESCRIBE_STRUCT(control_webhook_deliveries_response, (), (deliveries))

}  // namespace esign
