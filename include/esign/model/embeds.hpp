// SPDX-License-Identifier: BSL-1.0
#pragma once
// The signer's side (contract.md §7.1): the /embeds/ operations that the signing page calls. No
// API key: a token (an iframe token of create-iframe-token, or the link token of an e-mail) is
// exchanged for a signer session, and the session authorizes one recipient on one envelope.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/describe/class.hpp>

#include <esign/model/enums.hpp>
#include <esign/types/bounded_string.hpp>
#include <esign/validation/problem.hpp>

namespace esign {

// Link tokens (signingUrl of an e-mail) and signer sessions; iframe tokens are "sit." (auth.hpp).
inline constexpr std::string_view signer_link_token_prefix = "slt.";
inline constexpr std::string_view signer_session_prefix = "sss.";

// What the page holds: a token or a session (a few dozen URL-safe characters; the bound only
// keeps a stray value short).
using signer_secret = bounded_string<1, 256>;

// ---------------------------------------------------------------------------------------------
// POST /embeds/session/start: a token for a session (SIGNING_TOKEN_UNKNOWN, _USED, _EXPIRED)

struct embeds_session_start_request {
    signer_secret token;
};
BOOST_DESCRIBE_STRUCT(embeds_session_start_request, (), (token))

struct embeds_session_start_response {
    std::string session;
};
BOOST_DESCRIBE_STRUCT(embeds_session_start_response, (), (session))

// ---------------------------------------------------------------------------------------------
// POST /embeds/envelope/get: what the page shows (SIGNING_SESSION_INVALID)

struct embeds_envelope_get_request {
    signer_secret session;
};
BOOST_DESCRIBE_STRUCT(embeds_envelope_get_request, (), (session))

struct embeds_envelope {
    std::string uuid;
    std::string workspaceUuid;
    std::string title;
    envelope_status status{envelope_status::draft};
    std::string senderName;   // the team owner's name (envelopes are sent by the team's owner)
    std::string senderEmail;  // the team owner's e-mail
};
BOOST_DESCRIBE_STRUCT(embeds_envelope, (), (uuid, workspaceUuid, title, status, senderName, senderEmail))

// A recipient whose turn it is now.
struct embeds_party {
    std::string email;
    std::string firstname;
    std::string lastname;
    recipient_role role{recipient_role::signer};
};
BOOST_DESCRIBE_STRUCT(embeds_party, (), (email, firstname, lastname, role))

// The signer the session is for: a party, with its status and whether it is its turn (a
// described base's members come first, in JSON too).
struct embeds_recipient : embeds_party {
    recipient_status status{recipient_status::pending};
    bool yourTurn{};  // it may approve, sign or decline now
};
BOOST_DESCRIBE_STRUCT(embeds_recipient, (embeds_party), (status, yourTurn))

// A block at its place: PDF points from the page's top-left corner on a 595 × 842 page.
struct embeds_block {
    std::int64_t page{};  // 1 for the first page
    double x{};
    double y{};
    std::optional<double> width;
    std::optional<double> height;
    block_type type{block_type::text};
    std::optional<std::string> text;  // a text block's text
    bool mine{};                      // addressed to this recipient
};
BOOST_DESCRIBE_STRUCT(embeds_block, (), (page, x, y, width, height, type, text, mine))

struct embeds_document {
    std::string uuid;
    std::string title;
    std::int64_t pageCount{};
    std::vector<embeds_block> blocks;  // by page, then as added
};
BOOST_DESCRIBE_STRUCT(embeds_document, (), (uuid, title, pageCount, blocks))

// What this recipient can do now.
struct embeds_actions {
    bool sign{};
    bool approve{};
    bool decline{};
};
BOOST_DESCRIBE_STRUCT(embeds_actions, (), (sign, approve, decline))

struct embeds_envelope_get_response {
    embeds_envelope envelope;
    embeds_recipient recipient;
    std::vector<embeds_party> waitingFor;  // whose turn it is now
    std::vector<embeds_document> documents;
    embeds_actions actions;
    std::optional<std::string> notAllowedReason;  // in words, when no action is possible
};
BOOST_DESCRIBE_STRUCT(embeds_envelope_get_response, (),
                      (envelope, recipient, waitingFor, documents, actions, notAllowedReason))

// ---------------------------------------------------------------------------------------------
// POST /embeds/recipient/act: exactly /_control/recipient/act for the session's recipient
// (ACTION_NOT_ALLOWED with the reason in words, SIGNING_SESSION_INVALID)

struct embeds_recipient_act_request {
    signer_secret session;
    recipient_action action{recipient_action::open};
    std::optional<bounded_string<1, 256>> signatureName;  // the name typed to sign with (sign)
    std::optional<bounded_string<0, 4096>> reason;        // why (decline)
};
BOOST_DESCRIBE_STRUCT(embeds_recipient_act_request, (), (session, action, signatureName, reason))

// A signature needs the name typed to sign with.
inline void validate(const embeds_recipient_act_request& value, problem_sink& sink) {
    if (value.action == recipient_action::sign && !value.signatureName)
        sink.add({"signatureName"}, problem_kind::rule, "is required to sign");
}

struct embeds_recipient_act_response {
    std::string envelopeUuid;
    std::string workspaceUuid;
    envelope_status envelopeStatus{envelope_status::draft};
    recipient_status recipientStatus{recipient_status::pending};
    bool completed{};  // every signer has signed
};
BOOST_DESCRIBE_STRUCT(embeds_recipient_act_response, (),
                      (envelopeUuid, workspaceUuid, envelopeStatus, recipientStatus, completed))

}  // namespace esign
