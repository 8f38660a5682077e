// SPDX-License-Identifier: BSL-1.0
#pragma once
// The error-code table: for every code, its HTTP status, its group, and the words the error
// body carries. One row per code; everything that answers an error reads it from here.
#include <array>
#include <string>
#include <string_view>

#include <esign/model/enums.hpp>
#include <esign/validation/enum_names.hpp>

namespace esign::rules {

enum class error_group { authentication, authorization, server, operation };

struct error_code_info {
    error_code code;
    unsigned http_status;
    error_group group;
    std::string_view message;
    std::string_view suggestion;
};

namespace detail {
using enum error_code;
using enum error_group;
// 401 for authentication, 403 for authorization, 500 for the server, 429 for the reference
// server's TEAM_LIMIT_REACHED (contract.md §6.9), the signing page's codes as listed (§7.1),
// 400 for every other code (the hosted service
// answers "not found" with 400, not 404). Transport failures
// (404, 405, 413, 415) are INVALID_REQUEST_FORMAT with their own status: see transport_status.
inline constexpr std::array<error_code_info, enum_count<error_code>()> error_table{{
    {AUTHENTICATION_ERROR, 401, authentication, "The API key is missing, malformed or unknown.",
     "Send the header Authorization: Bearer <API_KEY> with a valid team API key."},
    {DBSC_COOKIE_INVALID, 401, authentication, "The device-bound session cookie is invalid.",
     "Sign in again to get a new session."},
    {TUNNEL_ERROR, 401, authentication, "The encrypted tunnel failed.", "Open a new tunnel and retry."},
    {TUNNEL_SESSION_NOT_FOUND, 401, authentication, "The tunnel session does not exist.",
     "Open a new tunnel session and retry."},
    {INVALID_REQUEST_FORMAT, 400, operation, "The request is not valid.",
     "Fix the problems listed in details and send the request again."},
    {AUTHORIZATION_ERROR, 403, authorization, "The API key may not perform this operation.",
     "Use an API key of a team that has access to this resource."},
    {FEATURE_NOT_IN_CURRENT_PLAN, 403, authorization, "This feature is not part of the team's current plan.",
     "Upgrade the plan, or do without the feature."},
    {INTERNAL_SERVER_ERROR, 500, server, "An unexpected error occurred.", "Retry later; report it if it persists."},
    {WORKSPACE_NOT_FOUND, 400, operation, "The workspace does not exist.",
     "Check workspaceUuid, or omit it to use the team's default workspace."},
    {ENVELOPE_NOT_FOUND, 400, operation, "The envelope does not exist.",
     "Check envelopeUuid and the workspace it belongs to."},
    {DOCUMENT_NOT_FOUND, 400, operation, "The document does not exist in the envelope.", "Check documentUuid."},
    {DOCUMENT_NOT_ATTACHMENT, 400, operation, "The document is not an attachment.",
     "Only attachments can be deleted with delete-attachment."},
    {ENVELOPE_NOT_IN_DRAFT, 400, operation, "The envelope is not in the draft status.",
     "This operation is only allowed while the envelope is a draft."},
    {RECIPIENT_NOT_FOUND, 400, operation, "The recipient is not in the envelope.",
     "Check the recipient's e-mail (and role)."},
    {DUPLICATE_RECIPIENT, 400, operation, "A recipient with this e-mail already exists.",
     "Give each recipient a distinct e-mail address."},
    {CONTACT_NOT_FOUND, 400, operation, "The contact does not exist.", "Check the contact's e-mail."},
    {USER_NOT_FOUND, 400, operation, "The user does not exist.", "Check the user."},
    {TEMPLATE_NOT_FOUND, 400, operation, "The template does not exist.", "Check templateUuid."},
    {INVALID_RECIPIENT_LABELS, 400, operation, "The recipient labels do not match the template's labels.",
     "Give exactly one recipient for each recipient label of the template."},
    {INVALID_EMAIL, 400, operation, "An e-mail address is invalid.", "Use an address whose domain can receive e-mail."},
    {INVALID_RECIPIENT_EMAIL, 400, operation, "The e-mail is not a recipient of the envelope.",
     "Use the e-mail of one of the envelope's recipients."},
    {NO_RECIPIENTS, 400, operation, "The envelope has no recipients.", "Add recipients before sending."},
    {NO_SIGNERS, 400, operation, "The envelope has no signer.", "Add at least one recipient with role signer."},
    {SUBSCRIPTION_NOT_FOUND, 400, operation, "The team has no subscription.", "Subscribe to a plan to send envelopes."},
    {SES_LIMIT_EXCEEDED, 400, operation, "The e-mail sending quota is exceeded.",
     "Wait for the quota to renew, or send with distributionMethod none."},
    {API_CREDITS_LIMIT_EXCEEDED, 400, operation, "The team's API credits are exhausted.", "Buy more API credits."},
    {WEBHOOK_NOT_FOUND, 400, operation, "The webhook does not exist.", "Check the webhook's uuid."},
    {WEBHOOK_URL_REFUSED, 400, operation, "The webhook URL is refused.",
     "Use an http or https URL to a public host, without user information."},
    {LOG_CATEGORY_NOT_IMPLEMENTED, 400, operation, "This log category is not available.",
     "Use the envelope, team or user category."},
    {SIGNER_NOT_IN_ENVELOPE, 400, operation, "The e-mail is not a signer of the envelope.",
     "Use the e-mail of a recipient with role signer."},
    {RECIPIENT_VERIFICATION_DISABLED, 400, operation, "The recipient's verification is disabled.",
     "Set the recipient's verificationType to sms or email."},
    {WEBHOOK_LIMIT_REACHED, 400, operation, "The team has reached its number of webhooks.",
     "Delete a webhook before creating another."},
    {CONTACT_EMAIL_ALREADY_EXISTS, 400, operation, "A contact with this e-mail already exists.",
     "Update the existing contact instead."},
    {ACTION_NOT_ALLOWED, 400, operation, "The action is not allowed in the envelope's current state.",
     "Check the envelope's status, the recipient's role and whose turn it is."},
    {TEAM_LIMIT_REACHED, 429, operation, "The server holds its maximum number of teams.",
     "Reset the server (/_control/reset), or start it with a larger --max-teams."},
    // contract.md §7.1: the signing page's token states, which it shows in words (404 unknown,
    // 409 already used, 410 gone), and a session it must start again (401).
    {SIGNING_TOKEN_UNKNOWN, 404, operation, "The signing link is unknown.",
     "Ask the sender for a new link: create a new iframe token."},
    {SIGNING_TOKEN_USED, 409, operation, "The signing link was already used.",
     "An iframe token opens the page once: create a new iframe token."},
    {SIGNING_TOKEN_EXPIRED, 410, operation, "The signing link has expired.",
     "An iframe token lasts one hour and an e-mail link until the envelope is final: ask for a new one."},
    {SIGNING_SESSION_INVALID, 401, authentication, "The signing session is unknown or has ended.",
     "Open the signing link again to start a new session."},
}};

constexpr bool table_in_enum_order() {
    for (std::size_t i = 0; i < error_table.size(); ++i)
        if (static_cast<std::size_t>(error_table[i].code) != i) return false;
    return true;
}
static_assert(table_in_enum_order(), "error_table rows must follow the order of error_code");
}  // namespace detail

constexpr const error_code_info& info(error_code code) noexcept {
    return detail::error_table[static_cast<std::size_t>(code)];
}

constexpr unsigned http_status(error_code code) noexcept { return info(code).http_status; }

// Where the documentation of the codes lives unless configured otherwise (interface.md leaves
// the value not shown); a code's own page is this followed by the code.
inline constexpr std::string_view default_documentation_base = "https://esign.example/docs/errors#";

inline std::string documentation_url(error_code code, std::string_view base = default_documentation_base) {
    std::string url(base);
    url += enum_to_wire(code);
    return url;
}

// Transport failures: INVALID_REQUEST_FORMAT with these statuses, and no details.
namespace transport_status {
inline constexpr unsigned bad_request = 400;  // a Content-Length that is not a number
inline constexpr unsigned not_found = 404;
inline constexpr unsigned method_not_allowed = 405;
inline constexpr unsigned payload_too_large = 413;
inline constexpr unsigned unsupported_media_type = 415;
inline constexpr unsigned header_too_large = 431;
}  // namespace transport_status

}  // namespace esign::rules
