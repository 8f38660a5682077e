// SPDX-License-Identifier: BSL-1.0
#pragma once
// The test service's own envelope operations (contract.md §5): /_control/envelope/create (an
// envelope with its documents, without the upload a client would make) and
// /_control/envelope/cancel.
#include <utility>

#include <boost/json/object.hpp>

#include <esign/reference/context.hpp>
#include <esign/reference/store/envelope_store.hpp>
#include <esign/reference/store/events.hpp>
#include <esign/rules/envelope_rules.hpp>
#include <esign/rules/lifecycle.hpp>

namespace esign::reference::handlers {

// ---------------------------------------------------------------------------------------------
// /_control/envelope/create (with the team's API key)

inline outcome<control_envelope_create_response> handle(context& c, const control_envelope_create_request& r) {
    const workspace_record* ws = c.resolve_workspace(r.workspaceUuid);
    if (!ws) return failure{error_code::WORKSPACE_NOT_FOUND};
    if (auto full = envelope_store::no_room_for_envelope(c)) return *full;
    if (r.content.tags)
        if (auto refused = envelope_store::tags_refused({}, *r.content.tags, {"tags"})) return *refused;

    envelope_record env = envelope_store::new_envelope(c, *c.team, *ws, r.content.title.str());
    control_envelope_create_response out;
    for (const auto& d : r.content.documents) {
        env.documents.push_back(envelope_store::new_document(c, d.title.str(), d.pageCount.value, false));
        out.documentUuids.push_back(env.documents.back().doc.uuid);
    }
    if (r.content.attachments)
        for (const auto& a : *r.content.attachments) {
            env.documents.push_back(envelope_store::new_document(c, a.title.str(), 0, true));
            out.attachmentUuids.push_back(env.documents.back().doc.uuid);
        }
    if (r.content.tags) rules::add_tags(env.tags, *r.content.tags);
    out.envelopeUuid = envelope_store::commit_new_envelope(c, std::move(env), *c.team).uuid;
    return out;
}

// ---------------------------------------------------------------------------------------------
// /_control/envelope/cancel

// teamUuid: the caller's team only (the backend finds it for the operator), as in team/update.
inline outcome<control_envelope_cancel_response> handle(context& c, const control_envelope_cancel_request& r) {
    if (r.teamUuid && r.teamUuid->str() != c.team->uuid)
        return invalid_at({"teamUuid"}, problem_kind::rule, "is not your team");
    envelope_record* env = envelope_store::any_envelope(c, r.envelopeUuid);
    if (!env) return failure{error_code::ENVELOPE_NOT_FOUND};
    if (rules::is_final(env->status) || !rules::next_status(env->status, rules::envelope_event::canceled))
        return failure{error_code::ACTION_NOT_ALLOWED};

    envelope_store::end(c, *env, rules::envelope_event::canceled);
    boost::json::object data;
    if (r.reason) data["reason"] = *r.reason;
    log_envelope(c, *env, envelope_log_event::ENVELOPE_CANCELED, owner_author(c.team_of(*env)), data);
    emit_webhook(c, *env, webhook_event::ENVELOPE_CANCELED, std::move(data));
    return control_envelope_cancel_response{};
}

}  // namespace esign::reference::handlers
