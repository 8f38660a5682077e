// SPDX-License-Identifier: BSL-1.0
#pragma once
// The status-rule table of interface.md ("Rules that tie operations to status") and the send
// preconditions of contract.md §3, in the order they are checked. Data first, then the one
// function that reads each table. Which operations are draft-only is their rows' fact.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include <esign/model/enums.hpp>
#include <esign/model/operations.hpp>

namespace esign::rules {

// Operations that fail with ENVELOPE_NOT_IN_DRAFT unless the envelope is a draft: the rows of
// the table marked draft_only (model/operations.hpp), in table order.
inline constexpr auto draft_only_operations = [] {
    constexpr std::size_t count = [] {
        std::size_t n = 0;
        for_each_operation([&](const auto& op) { n += op.draft_only ? 1 : 0; });
        return n;
    }();
    std::array<std::string_view, count> out{};
    std::size_t i = 0;
    for_each_operation([&](const auto& op) {
        if (op.draft_only) out[i++] = op.path;
    });
    return out;
}();

// Whether the operation at `operation_path` is draft-only, as its row says (false for no operation).
constexpr bool is_draft_only(std::string_view operation_path) noexcept {
    bool draft_only = false;
    visit_operation(operation_path, [&](const auto& op) { draft_only = op.draft_only; });
    return draft_only;
}

constexpr std::optional<error_code> check_draft(envelope_status status) noexcept {
    if (status != envelope_status::draft) return error_code::ENVELOPE_NOT_IN_DRAFT;
    return std::nullopt;
}

// What send needs to know about the envelope and the team.
struct send_facts {
    envelope_status status = envelope_status::draft;
    std::size_t recipients = 0;
    std::size_t signers = 0;
    bool sandbox = false;  // sandbox: no subscription, credit or quota checks
    bool subscription = true;
    std::int64_t api_credits = 0;       // credits left; one per envelope sent
    std::int64_t email_quota = 0;       // e-mails left
    std::size_t invitation_emails = 0;  // one per recipient, needed when distribution is e-mail
    bool distribution_by_email = true;
    bool every_email_deliverable = true;  // no recipient address at the reserved "invalid" TLD
};

struct send_check {
    error_code code;
    bool (*fails)(const send_facts&) noexcept;
};

// In the order of contract.md §3: draft-only; NO_RECIPIENTS; NO_SIGNERS; then outside the
// sandbox SUBSCRIPTION_NOT_FOUND, API_CREDITS_LIMIT_EXCEEDED, SES_LIMIT_EXCEEDED (e-mail
// distribution only); then INVALID_EMAIL.
inline constexpr std::array<send_check, 7> send_checks{{
    {error_code::ENVELOPE_NOT_IN_DRAFT,
     [](const send_facts& f) noexcept { return f.status != envelope_status::draft; }},
    {error_code::NO_RECIPIENTS, [](const send_facts& f) noexcept { return f.recipients == 0; }},
    {error_code::NO_SIGNERS, [](const send_facts& f) noexcept { return f.signers == 0; }},
    {error_code::SUBSCRIPTION_NOT_FOUND, [](const send_facts& f) noexcept { return !f.sandbox && !f.subscription; }},
    {error_code::API_CREDITS_LIMIT_EXCEEDED,
     [](const send_facts& f) noexcept { return !f.sandbox && f.api_credits < 1; }},
    {error_code::SES_LIMIT_EXCEEDED,
     [](const send_facts& f) noexcept {
         return !f.sandbox && f.distribution_by_email && f.email_quota < static_cast<std::int64_t>(f.invitation_emails);
     }},
    {error_code::INVALID_EMAIL, [](const send_facts& f) noexcept { return !f.every_email_deliverable; }},
}};

constexpr std::optional<error_code> check_send(const send_facts& facts) noexcept {
    for (const auto& check : send_checks)
        if (check.fails(facts)) return check.code;
    return std::nullopt;
}

}  // namespace esign::rules
