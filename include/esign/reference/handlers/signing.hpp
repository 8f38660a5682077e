// SPDX-License-Identifier: BSL-1.0
#pragma once
// Signing: /public/authentication/create-iframe-token (the link a recipient signs through) and
// /_control/recipient/act (a recipient opens, approves, signs or declines, as the test service
// lets a client pretend; /embeds/recipient/act runs the same handler for the signing page).
#include <algorithm>
#include <cstdint>
#include <string>

#include <esign/reference/context.hpp>
#include <esign/reference/store/envelope_store.hpp>
#include <esign/reference/store/events.hpp>
#include <esign/reference/signer_access.hpp>
#include <esign/rules/lifecycle.hpp>

namespace esign::reference::handlers {

// ---------------------------------------------------------------------------------------------
// /public/authentication/create-iframe-token

inline outcome<authentication_create_iframe_token_response> handle(
    context& c, const authentication_create_iframe_token_request& r) {
    auto found = envelope_store::find_envelope(c, r.workspaceUuid, r.envelopeUuid);
    if (found.error) return *found.error;
    const envelope_record& env = *found.envelope;
    const auto signer = std::find_if(env.recipients.begin(), env.recipients.end(), [&](const recipient_record& rec) {
        return rec.data.email == r.signerEmail.str() && rec.data.role == recipient_role::signer;
    });
    if (signer == env.recipients.end()) return failure{error_code::SIGNER_NOT_IN_ENVELOPE};
    if (signer->data.verificationType == verification_type::none)
        return failure{error_code::RECIPIENT_VERIFICATION_DISABLED};

    // sit. + the team's key + 32 random characters, from the secure source (signer_access.hpp).
    return authentication_create_iframe_token_response{issue_iframe_token(c.st, c.now, env.uuid, signer->data.email)};
}

// ---------------------------------------------------------------------------------------------
// /_control/recipient/act

namespace detail {
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
    if (envelope_store::none_pending(env, recipient_role::approver))
        envelope_store::set_status(
            c.st, env, rules::next_status(env.status, rules::envelope_event::all_approved).value_or(env.status));
    envelope_store::email_whose_turn(c, env);  // the next approvers, or the signers once approving is over
}

inline void sign(context& c, envelope_record& env, recipient_record& rec) {
    log_envelope(c, env, envelope_log_event::DOCUMENT_SIGNED, recipient_author(rec.data), recipient_event_data(rec));
    emit_webhook(c, env, webhook_event::ENVELOPE_SIGNED, recipient_event_data(rec));
    if (!envelope_store::none_pending(env, recipient_role::signer)) {
        envelope_store::email_whose_turn(c, env);  // the next signers, with signature order
        return;
    }
    // The last signature completes the envelope, authored by that signer.
    envelope_store::end(c, env, rules::envelope_event::all_signed);
    log_envelope(c, env, envelope_log_event::ENVELOPE_COMPLETED, recipient_author(rec.data), recipient_event_data(rec));
    emit_webhook(c, env, webhook_event::ENVELOPE_COMPLETED, recipient_event_data(rec));
}

inline void decline(context& c, envelope_record& env, recipient_record& rec, const std::optional<std::string>& reason) {
    envelope_store::end(c, env, rules::envelope_event::declined);
    auto data = recipient_event_data(rec);
    if (reason) data["reason"] = *reason;
    log_envelope(c, env, envelope_log_event::ENVELOPE_DECLINED, recipient_author(rec.data), data);
    emit_webhook(c, env, webhook_event::ENVELOPE_DECLINED, std::move(data));
}
}  // namespace detail

// teamUuid: the caller's team only (the backend finds it for the operator), as in team/update.
inline outcome<control_recipient_act_response> handle(context& c, const control_recipient_act_request& r) {
    if (r.teamUuid && r.teamUuid->str() != c.team->uuid)
        return invalid_at({"teamUuid"}, problem_kind::rule, "is not your team");
    envelope_record* env = envelope_store::any_envelope(c, r.envelopeUuid);
    if (!env) return failure{error_code::ENVELOPE_NOT_FOUND};
    const auto pos = std::find_if(env->recipients.begin(), env->recipients.end(),
                                  [&](const recipient_record& rec) { return rec.data.email == r.email; });
    if (pos == env->recipients.end()) return failure{error_code::RECIPIENT_NOT_FOUND};
    const auto who = static_cast<std::size_t>(pos - env->recipients.begin());
    recipient_record& rec = *pos;

    if (r.action == recipient_action::open) {
        if (!rules::is_in_progress(env->status)) return failure{error_code::ACTION_NOT_ALLOWED};
        detail::open(c, *env, rec);
        return detail::act_response(*env, rec);
    }
    const auto after = rules::recipient_after(rec.data.role, r.action);
    if (!after || !envelope_store::is_turn(*env, who)) return failure{error_code::ACTION_NOT_ALLOWED};

    rec.data.status = *after;
    c.touch(env->update_date);
    switch (r.action) {
        case recipient_action::approve:
            detail::approve(c, *env, rec);
            break;
        case recipient_action::sign:
            detail::sign(c, *env, rec);
            break;
        case recipient_action::decline:
            detail::decline(c, *env, rec, r.reason);
            break;
        case recipient_action::open:
            break;
    }
    return detail::act_response(*env, rec);
}

}  // namespace esign::reference::handlers
