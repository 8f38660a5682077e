// SPDX-License-Identifier: BSL-1.0
#pragma once
// The signer's side (contract.md §7.1): /embeds/session/start, /embeds/envelope/get and
// /embeds/recipient/act, for the team that the token or session names (the backend finds it,
// backend/signer_operations.hpp). A session authorizes its one recipient on its one envelope:
// nothing here takes an envelope or a recipient from the request. An action runs the handler of
// /_control/recipient/act (signing.hpp), so it has exactly its effect; what it refuses, the
// page is told in words (not_allowed_reason), the same words as envelope/get's notAllowedReason.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <esign/model/members.hpp>
#include <esign/reference/context.hpp>
#include <esign/reference/store/envelope_store.hpp>
#include <esign/reference/handlers/signing.hpp>
#include <esign/reference/signer_access.hpp>
#include <esign/reference/store/views.hpp>
#include <esign/rules/lifecycle.hpp>

namespace esign::reference::handlers {

namespace detail {

// The session's envelope and recipient, or nullptr when either is gone.
struct signer_view {
    envelope_record* envelope = nullptr;
    recipient_record* recipient = nullptr;
    std::size_t index = 0;  // of the recipient in the envelope
};

inline signer_view find(context& c, const signer_grant& grant) {
    signer_view v;
    v.envelope = envelope_store::any_envelope(c, grant.envelope_uuid);
    if (!v.envelope) return v;
    auto& rs = v.envelope->recipients;
    auto pos =
        std::find_if(rs.begin(), rs.end(), [&](const recipient_record& r) { return r.data.email == grant.email; });
    if (pos == rs.end()) {
        v.envelope = nullptr;
        return v;
    }
    v.recipient = &*pos;
    v.index = static_cast<std::size_t>(pos - rs.begin());
    return v;
}

inline failure session_invalid() { return failure{error_code::SIGNING_SESSION_INVALID}; }

inline std::string name_of(const recipient& r) { return display_name(r.firstname, r.lastname, r.email); }

// "Ada Lovelace", "Ada Lovelace and Alan Turing", "A, B and C".
inline std::string names_of(const std::vector<const recipient*>& people) {
    std::string out;
    for (std::size_t i = 0; i < people.size(); ++i) {
        if (i > 0) out += i + 1 == people.size() ? " and " : ", ";
        out += name_of(*people[i]);
    }
    return out;
}

// The recipients whose turn it is now (they may approve, sign or decline).
inline std::vector<const recipient*> waiting_for(const envelope_record& env) {
    std::vector<const recipient*> out;
    const auto turn = envelope_store::whose_turn(env);
    for (std::size_t i = 0; i < env.recipients.size(); ++i)
        if (turn[i]) out.push_back(&env.recipients[i].data);
    return out;
}

inline std::string_view final_words(envelope_status s) {
    switch (s) {
        case envelope_status::uploading:
        case envelope_status::draft:
            return "The envelope has not been sent yet.";
        case envelope_status::complete:
            return "The envelope is completed.";
        case envelope_status::declined:
            return "The envelope was declined.";
        case envelope_status::canceled:
            return "The envelope was cancelled.";
        case envelope_status::expired:
            return "The envelope has expired.";
        case envelope_status::approving:
        case envelope_status::signing:
            break;
    }
    return {};
}

// Why the recipient may not take `action` now, in words; nullopt when it may. The same
// conditions as /_control/recipient/act's refusals (signing.hpp), said in words.
inline std::optional<std::string> not_allowed_reason(const envelope_record& env, std::size_t who,
                                                     recipient_action action) {
    const recipient& me = env.recipients[who].data;
    if (!rules::is_in_progress(env.status)) return std::string(final_words(env.status));
    if (action == recipient_action::open) return std::nullopt;
    if (me.role == recipient_role::viewer) return std::string("A viewer can only view the envelope.");
    if (!rules::recipient_after(me.role, action))
        return std::string(me.role == recipient_role::signer
                               ? "A signer signs or declines; only an approver approves."
                               : "An approver approves or declines; only a signer signs.");
    switch (me.status) {
        case recipient_status::signed_:
            return std::string("You have already signed.");
        case recipient_status::approved:
            return std::string("You have already approved.");
        case recipient_status::declined:
            return std::string("You have declined.");
        case recipient_status::canceled:
            return std::string(final_words(env.status));
        case recipient_status::pending:
            break;
    }
    if (envelope_store::is_turn(env, who)) return std::nullopt;
    const auto waiting = waiting_for(env);
    if (waiting.empty()) return std::string("It is not your turn yet.");
    // Whoever acts first acts in the role of the phase (approvers before signers).
    const bool approving = waiting.front()->role == recipient_role::approver;
    std::string words = "It is not your turn: " + names_of(waiting);
    words += waiting.size() == 1 ? (approving ? " approves first." : " signs first.")
                                 : (approving ? " approve first." : " sign first.");
    return words;
}

// The recipient's own action: what envelope/get explains when nothing is possible.
inline recipient_action main_action(recipient_role role) {
    return role == recipient_role::approver ? recipient_action::approve : recipient_action::sign;
}

inline std::int64_t page_number(const std::string& key) {
    std::int64_t n = 0;
    for (char ch : key) n = n * 10 + (ch - '0');  // page keys are decimal digits (page_key)
    return n;
}

inline embeds_document document_view(const document& d, const std::string& email) {
    embeds_document out{d.uuid, d.title, d.pageCount, {}};
    std::vector<std::pair<std::int64_t, const std::vector<block>*>> pages;
    for (const auto& [key, blocks] : d.blocks) pages.emplace_back(page_number(key), &blocks);
    std::stable_sort(pages.begin(), pages.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [page, blocks] : pages)
        for (const block& b : *blocks) {
            embeds_block v{page, b.x, b.y, b.width, b.height, b.type, std::nullopt, b.recipientEmail == email};
            if (b.type == block_type::text) v.text = b.text;
            out.blocks.push_back(std::move(v));
        }
    return out;
}

}  // namespace detail

// ---------------------------------------------------------------------------------------------
// /embeds/session/start: an iframe token (single use, an hour) or a link token (until the
// envelope is final) for a session. A refusal changes nothing.

inline outcome<embeds_session_start_response> handle(context& c, const embeds_session_start_request& r) {
    const std::string& token = r.token;
    signer_grant grant;
    bool single_use = false;
    if (auto it = c.st.iframe_tokens.find(token); it != c.st.iframe_tokens.end()) {
        if (it->second.expires_at <= c.now) return failure{error_code::SIGNING_TOKEN_EXPIRED};
        if (c.st.signer.used_iframe_tokens.count(token)) return failure{error_code::SIGNING_TOKEN_USED};
        grant = signer_grant{it->second.envelope_uuid, it->second.signer_email};
        single_use = true;
    } else if (const signer_grant* link = c.st.signer.links.find(token)) {
        grant = *link;
    } else {
        return failure{error_code::SIGNING_TOKEN_UNKNOWN};
    }
    const auto found = detail::find(c, grant);
    if (!found.envelope) return failure{error_code::SIGNING_TOKEN_UNKNOWN};  // (not reached: no deletion once sent)
    if (!single_use && !rules::is_in_progress(found.envelope->status))
        return failure{error_code::SIGNING_TOKEN_EXPIRED, {}, "The signing link has expired: the envelope is final."};
    if (single_use) c.st.signer.used_iframe_tokens.insert(token);
    return embeds_session_start_response{start_signer_session(c.st, std::move(grant))};
}

// ---------------------------------------------------------------------------------------------
// /embeds/envelope/get

inline outcome<embeds_envelope_get_response> handle(context& c, const embeds_envelope_get_request& r) {
    const signer_grant* grant = find_signer_session(c.st, r.session);
    if (!grant) return detail::session_invalid();
    const auto found = detail::find(c, *grant);
    if (!found.envelope) return detail::session_invalid();
    const envelope_record& env = *found.envelope;
    const recipient& me = found.recipient->data;
    using detail::not_allowed_reason;

    embeds_envelope_get_response out;
    const sender from = sender_of(env, c.team_of(env));
    out.envelope = embeds_envelope{env.uuid, env.workspace_uuid, env.title, env.status, from.name, from.email};
    copy_members(me, out.recipient);  // email … role, status
    out.recipient.yourTurn = envelope_store::is_turn(env, found.index);
    for (const recipient* p : detail::waiting_for(env)) copy_members(*p, out.waitingFor.emplace_back());
    for (const auto& d : env.documents)
        if (!d.is_attachment) out.documents.push_back(detail::document_view(d.doc, me.email));
    out.actions.sign =
        me.role == recipient_role::signer && !not_allowed_reason(env, found.index, recipient_action::sign);
    out.actions.approve =
        me.role == recipient_role::approver && !not_allowed_reason(env, found.index, recipient_action::approve);
    out.actions.decline = !not_allowed_reason(env, found.index, recipient_action::decline);
    if (!out.actions.sign && !out.actions.approve && !out.actions.decline)
        out.notAllowedReason = not_allowed_reason(env, found.index, detail::main_action(me.role));
    return out;
}

// ---------------------------------------------------------------------------------------------
// /embeds/recipient/act: /_control/recipient/act for the session's recipient. The signature's
// name is required and checked (model/embeds.hpp) but, as with recipient/act, not stored: the
// reference server keeps no signed document.

inline outcome<embeds_recipient_act_response> handle(context& c, const embeds_recipient_act_request& r) {
    const signer_grant* grant = find_signer_session(c.st, r.session);
    if (!grant) return detail::session_invalid();
    const auto found = detail::find(c, *grant);
    if (!found.envelope) return detail::session_invalid();
    if (auto why = detail::not_allowed_reason(*found.envelope, found.index, r.action))
        return failure{error_code::ACTION_NOT_ALLOWED, {}, std::move(*why)};

    control_recipient_act_request act;
    act.envelopeUuid = uuid36(found.envelope->uuid);
    act.email = grant->email;
    act.action = r.action;
    if (r.reason) act.reason = std::string(*r.reason);
    auto done = handle(c, act);
    if (auto* f = std::get_if<failure>(&done)) return std::move(*f);
    const envelope_record& env = *found.envelope;
    const auto& answer = std::get<control_recipient_act_response>(done);
    return embeds_recipient_act_response{env.uuid, env.workspace_uuid, answer.envelopeStatus, answer.recipientStatus,
                                         env.status == envelope_status::complete};
}

}  // namespace esign::reference::handlers
