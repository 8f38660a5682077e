// SPDX-License-Identifier: BSL-1.0
#pragma once
// The envelope and recipient lifecycles of contract.md §3 as transition tables, and the
// turn rule (who may act now). The backend consults these; it keeps no lifecycle of its own.
#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include <esign/model/enums.hpp>

namespace esign::rules {

enum class envelope_event {
    sent_with_approvers,     // send, at least one approver
    sent_without_approvers,  // send, no approver
    all_approved,            // the last approver approved
    all_signed,              // the last signer signed
    declined,                // an approver or a signer declined
    canceled,                // cancel
    expired,                 // expirationPeriod days after sentDate
};

struct envelope_transition {
    envelope_status from;
    envelope_event event;
    envelope_status to;
};

inline constexpr std::array<envelope_transition, 11> envelope_transitions{{
    {envelope_status::draft, envelope_event::sent_with_approvers, envelope_status::approving},
    {envelope_status::draft, envelope_event::sent_without_approvers, envelope_status::signing},
    {envelope_status::approving, envelope_event::all_approved, envelope_status::signing},
    {envelope_status::signing, envelope_event::all_signed, envelope_status::complete},
    {envelope_status::approving, envelope_event::declined, envelope_status::declined},
    {envelope_status::signing, envelope_event::declined, envelope_status::declined},
    {envelope_status::draft, envelope_event::canceled, envelope_status::canceled},
    {envelope_status::approving, envelope_event::canceled, envelope_status::canceled},
    {envelope_status::signing, envelope_event::canceled, envelope_status::canceled},
    {envelope_status::approving, envelope_event::expired, envelope_status::expired},
    {envelope_status::signing, envelope_event::expired, envelope_status::expired},
}};

constexpr std::optional<envelope_status> next_status(envelope_status from, envelope_event event) noexcept {
    for (const auto& t : envelope_transitions)
        if (t.from == from && t.event == event) return t.to;
    return std::nullopt;
}

constexpr bool is_final(envelope_status s) noexcept {
    return s == envelope_status::complete || s == envelope_status::declined || s == envelope_status::canceled ||
           s == envelope_status::expired;
}

// Recipients act while the envelope is approving or signing.
constexpr bool is_in_progress(envelope_status s) noexcept {
    return s == envelope_status::approving || s == envelope_status::signing;
}

struct recipient_transition {
    recipient_role role;
    recipient_action action;
    recipient_status to;
};

// From pending only; `open` changes no status. Viewers never approve, sign or decline.
inline constexpr std::array<recipient_transition, 4> recipient_transitions{{
    {recipient_role::approver, recipient_action::approve, recipient_status::approved},
    {recipient_role::signer, recipient_action::sign, recipient_status::signed_},
    {recipient_role::approver, recipient_action::decline, recipient_status::declined},
    {recipient_role::signer, recipient_action::decline, recipient_status::declined},
}};

constexpr std::optional<recipient_status> recipient_after(recipient_role role, recipient_action action) noexcept {
    for (const auto& t : recipient_transitions)
        if (t.role == role && t.action == action) return t.to;
    return std::nullopt;
}

// Which role acts in a phase: approvers while approving, signers while signing.
constexpr std::optional<recipient_role> acting_role(envelope_status s) noexcept {
    if (s == envelope_status::approving) return recipient_role::approver;
    if (s == envelope_status::signing) return recipient_role::signer;
    return std::nullopt;
}

struct party {
    recipient_role role;
    recipient_status status;
    std::int64_t order;
};

// Whether parties[who] may approve, sign or decline now. Without signature order, every
// pending recipient of the phase's role; with it, only those with the lowest order among the
// pending recipients of that role (equal orders act together).
constexpr bool is_turn(std::span<const party> parties, std::size_t who, envelope_status status,
                       bool signature_order) noexcept {
    auto role = acting_role(status);
    if (!role || who >= parties.size()) return false;
    const party& p = parties[who];
    if (p.role != *role || p.status != recipient_status::pending) return false;
    if (!signature_order) return true;
    for (const party& other : parties)
        if (other.role == *role && other.status == recipient_status::pending && other.order < p.order) return false;
    return true;
}

}  // namespace esign::rules
