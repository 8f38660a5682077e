// SPDX-License-Identifier: BSL-1.0
#pragma once
// Signing and the passing of time: /public/authentication/create-iframe-token, and the control
// operations /_control/recipient/act, /_control/envelope/cancel, /_control/clock/advance and
// /_control/clock/now.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

#include <esign/reference/context.hpp>
#include <esign/reference/envelope_factory.hpp>
#include <esign/reference/events.hpp>
#include <esign/reference/timeline.hpp>
#include <esign/rules/lifecycle.hpp>

namespace esign::reference::handlers {

// ---------------------------------------------------------------------------------------------
// /public/authentication/create-iframe-token

inline constexpr std::size_t iframe_token_random_chars = 43;         // 258 random bits
inline constexpr std::int64_t iframe_token_lifetime_ms = 3'600'000;  // one hour

inline outcome<authentication_create_iframe_token_response> handle(
    context& c, const authentication_create_iframe_token_request& r) {
    auto found = factory::find_envelope(c, r.workspaceUuid, r.envelopeUuid);
    if (found.error) return *found.error;
    const envelope_record& env = *found.envelope;
    const auto signer = std::find_if(env.recipients.begin(), env.recipients.end(), [&](const recipient_record& rec) {
        return rec.data.email == r.signerEmail.str() && rec.data.role == recipient_role::signer;
    });
    if (signer == env.recipients.end()) return failure{error_code::SIGNER_NOT_IN_ENVELOPE};
    if (signer->data.verificationType == verification_type::none)
        return failure{error_code::RECIPIENT_VERIFICATION_DISABLED};

    std::erase_if(c.st.iframe_tokens, [&](const auto& entry) { return entry.second.expires_at <= c.now; });
    std::string token(iframe_token_prefix);
    token += c.ids.url_safe(iframe_token_random_chars);
    c.st.iframe_tokens[token] = iframe_token_record{env.uuid, signer->data.email, c.now + iframe_token_lifetime_ms};
    return authentication_create_iframe_token_response{std::move(token)};
}

// ---------------------------------------------------------------------------------------------
// /_control/recipient/act

namespace envelope_detail {
inline envelope_record* any_envelope(context& c, std::string_view uuid) {
    auto it = c.st.envelopes.find(uuid);
    return it == c.st.envelopes.end() ? nullptr : &it->second;
}

inline boost::json::object recipient_event_data(const recipient_record& rec) {
    boost::json::object data;
    data["recipientEmail"] = rec.data.email;
    return data;
}

inline control_recipient_act_response act_response(const envelope_record& env, const recipient_record& rec) {
    return control_recipient_act_response{env.status, rec.data.status};
}

// The first open is logged (and the verification, when the recipient has one) and announced.
inline void open(context& c, envelope_record& env, recipient_record& rec) {
    if (rec.opened) return;
    rec.opened = true;
    log_envelope(c, env, envelope_log_event::ENVELOPE_OPENED, recipient_author(rec.data), recipient_event_data(rec));
    if (rec.data.verificationType != verification_type::none)
        log_envelope(c, env, envelope_log_event::RECIPIENT_VERIFIED, recipient_author(rec.data),
                     recipient_event_data(rec));
    emit_webhook(c, env, webhook_event::ENVELOPE_OPENED, recipient_event_data(rec));
}

inline void approve(context& c, envelope_record& env, recipient_record& rec) {
    log_envelope(c, env, envelope_log_event::RECIPIENT_APPROVED, recipient_author(rec.data), recipient_event_data(rec));
    if (factory::none_pending(env, recipient_role::approver))
        factory::set_status(c.st, env,
                            rules::next_status(env.status, rules::envelope_event::all_approved).value_or(env.status));
    factory::email_whose_turn(c, env);  // the next approvers, or the signers once approving is over
}

inline void sign(context& c, envelope_record& env, recipient_record& rec) {
    log_envelope(c, env, envelope_log_event::DOCUMENT_SIGNED, recipient_author(rec.data), recipient_event_data(rec));
    emit_webhook(c, env, webhook_event::ENVELOPE_SIGNED, recipient_event_data(rec));
    if (!factory::none_pending(env, recipient_role::signer)) {
        factory::email_whose_turn(c, env);  // the next signers, with signature order
        return;
    }
    // The last signature completes the envelope, authored by that signer.
    factory::end(c, env, rules::envelope_event::all_signed);
    log_envelope(c, env, envelope_log_event::ENVELOPE_COMPLETED, recipient_author(rec.data), recipient_event_data(rec));
    emit_webhook(c, env, webhook_event::ENVELOPE_COMPLETED, recipient_event_data(rec));
}

inline void decline(context& c, envelope_record& env, recipient_record& rec, const std::optional<std::string>& reason) {
    factory::end(c, env, rules::envelope_event::declined);
    auto data = recipient_event_data(rec);
    if (reason) data["reason"] = *reason;
    log_envelope(c, env, envelope_log_event::ENVELOPE_DECLINED, recipient_author(rec.data), data);
    emit_webhook(c, env, webhook_event::ENVELOPE_DECLINED, std::move(data));
}
}  // namespace envelope_detail

inline outcome<control_recipient_act_response> handle(context& c, const control_recipient_act_request& r) {
    envelope_record* env = envelope_detail::any_envelope(c, r.envelopeUuid);
    if (!env) return failure{error_code::ENVELOPE_NOT_FOUND};
    const auto pos = std::find_if(env->recipients.begin(), env->recipients.end(),
                                  [&](const recipient_record& rec) { return rec.data.email == r.email; });
    if (pos == env->recipients.end()) return failure{error_code::RECIPIENT_NOT_FOUND};
    const auto who = static_cast<std::size_t>(pos - env->recipients.begin());
    recipient_record& rec = *pos;

    if (r.action == recipient_action::open) {
        if (!rules::is_in_progress(env->status)) return failure{error_code::ACTION_NOT_ALLOWED};
        envelope_detail::open(c, *env, rec);
        return envelope_detail::act_response(*env, rec);
    }
    const auto after = rules::recipient_after(rec.data.role, r.action);
    if (!after || !factory::is_turn(*env, who)) return failure{error_code::ACTION_NOT_ALLOWED};

    rec.data.status = *after;
    env->update_date = c.now;
    switch (r.action) {
        case recipient_action::approve:
            envelope_detail::approve(c, *env, rec);
            break;
        case recipient_action::sign:
            envelope_detail::sign(c, *env, rec);
            break;
        case recipient_action::decline:
            envelope_detail::decline(c, *env, rec, r.reason);
            break;
        case recipient_action::open:
            break;
    }
    return envelope_detail::act_response(*env, rec);
}

// ---------------------------------------------------------------------------------------------
// /_control/envelope/cancel

inline outcome<control_envelope_cancel_response> handle(context& c, const control_envelope_cancel_request& r) {
    envelope_record* env = envelope_detail::any_envelope(c, r.envelopeUuid);
    if (!env) return failure{error_code::ENVELOPE_NOT_FOUND};
    if (rules::is_final(env->status) || !rules::next_status(env->status, rules::envelope_event::canceled))
        return failure{error_code::ACTION_NOT_ALLOWED};

    factory::end(c, *env, rules::envelope_event::canceled);
    boost::json::object data;
    if (r.reason) data["reason"] = *r.reason;
    log_envelope(c, *env, envelope_log_event::ENVELOPE_CANCELED, owner_author(c.team_of(*env)), data);
    emit_webhook(c, *env, webhook_event::ENVELOPE_CANCELED, std::move(data));
    return control_envelope_cancel_response{};
}

// ---------------------------------------------------------------------------------------------
// /_control/clock/advance and /_control/clock/now

// The clock never passes the largest date of ECMAScript (year 275760): far beyond any test, and
// every instant computed from it (expiries, reminders) stays far inside 64 bits.
inline constexpr std::int64_t latest_clock_ms = 8'640'000'000'000'000;

inline outcome<control_clock_advance_response> handle(context& c, const control_clock_advance_request& r) {
    if (r.milliseconds < 0) return invalid_at({"milliseconds"}, problem_kind::range, "must be at least 0");
    if (r.milliseconds > latest_clock_ms - c.now)
        return invalid_at({"milliseconds"}, problem_kind::range,
                          "would move the clock past " + std::to_string(latest_clock_ms));
    c.st.clock_offset += r.milliseconds;
    c.now += r.milliseconds;
    timeline::apply_due(c);
    return control_clock_advance_response{c.now};
}

inline outcome<control_clock_now_response> handle(context& c, const control_clock_now_request&) {
    return control_clock_now_response{c.now};
}

}  // namespace esign::reference::handlers
