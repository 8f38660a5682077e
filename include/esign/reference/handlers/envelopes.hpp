// SPDX-License-Identifier: BSL-1.0
#pragma once
// Envelopes: /public/envelope/get, list, update, send, create-from-template, delete-attachment.
// (/_control/envelope/create is with the control handlers, handlers/control_envelopes.hpp.)
#include <algorithm>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <esign/reference/context.hpp>
#include <esign/reference/store/envelope_store.hpp>
#include <esign/reference/store/events.hpp>
#include <esign/reference/store/list_page.hpp>
#include <esign/reference/team/timeline.hpp>
#include <esign/reference/store/views.hpp>
#include <esign/rules/email_domain.hpp>
#include <esign/rules/envelope_rules.hpp>
#include <esign/rules/lifecycle.hpp>
#include <esign/rules/status_rules.hpp>
#include <esign/validation/enum_names.hpp>

namespace esign::reference::handlers {

// ---------------------------------------------------------------------------------------------
// /public/envelope/get

inline outcome<envelope_get_response> handle(context& c, const envelope_get_request& r) {
    auto found = envelope_store::find_envelope(c, r.workspaceUuid, r.envelopeUuid);
    if (found.error) return *found.error;
    return full_view(*found.envelope, *c.team);
}

// ---------------------------------------------------------------------------------------------
// /public/envelope/list

namespace detail {
// Any of the given tags, any of the given statuses; an absent or empty filter keeps everything.
struct list_filter {
    std::set<std::string_view> tags;
    std::set<envelope_status> statuses;

    explicit list_filter(const envelope_list_request& r) {
        if (r.tags) tags.insert(r.tags->begin(), r.tags->end());
        if (r.status) statuses.insert(r.status->begin(), r.status->end());
    }

    bool keeps(const envelope_record& env) const {
        if (!statuses.empty() && !statuses.contains(env.status)) return false;
        if (tags.empty()) return true;
        return std::any_of(env.tags.begin(), env.tags.end(),
                           [&](const std::string& tag) { return tags.contains(tag); });
    }
};

// Newest first by creation; ties by insertion, newest first.
inline bool newer(const envelope_record* a, const envelope_record* b) { return envelope_order::older(b, a); }
}  // namespace detail

inline outcome<envelope_list_response> handle(context& c, const envelope_list_request& r) {
    const workspace_record* ws = c.resolve_workspace(r.workspaceUuid);
    if (!ws) return failure{error_code::WORKSPACE_NOT_FOUND};

    const detail::list_filter filter(r);
    const std::int32_t page = page_or_default(r.page);
    envelope_list_response out;
    std::vector<const envelope_record*> matching;
    if (c.st.due.valid) {
        // The workspace's envelopes in order, oldest first; with one status asked for, those of
        // that status.
        const bool one_status = filter.statuses.size() == 1;
        const envelope_order::list& all =
            one_status ? c.st.order.of(ws->uuid, *filter.statuses.begin()) : c.st.order.of(ws->uuid);
        if (filter.tags.empty() && (one_status || filter.statuses.empty())) {
            // Every one is listed: the page is read in place.
            out.pagination = fill_page(out.envelopes, all.size(), page, fixed_page_size,
                                       [&](std::size_t i) { return summary_view(*all[all.size() - 1 - i], *c.team); });
            return out;
        }
        for (auto it = all.rbegin(); it != all.rend(); ++it)
            if (filter.keeps(**it)) matching.push_back(*it);
    } else {  // a store used before its indexes were made (handlers called directly)
        for (const auto& [uuid, env] : c.st.envelopes)
            if (env.workspace_uuid == ws->uuid && filter.keeps(env)) matching.push_back(&env);
        std::sort(matching.begin(), matching.end(), detail::newer);
    }
    out.pagination = fill_page(out.envelopes, matching, page, fixed_page_size,
                               [&](const envelope_record* env) { return summary_view(*env, *c.team); });
    return out;
}

// ---------------------------------------------------------------------------------------------
// /public/envelope/update

namespace detail {
inline void apply_document_update(document_record& d, const envelope_update_document& u) {
    if (u.title) d.doc.title = u.title->str();
    if (u.initialsOnAllPages) d.doc.initialsOnAllPages = *u.initialsOnAllPages;
    if (u.initialsVerticalMargin) d.doc.initialsVerticalMargin = u.initialsVerticalMargin->value;
    if (u.mustReadAllPages) d.doc.mustReadAllPages = *u.mustReadAllPages;
}
}  // namespace detail

inline outcome<envelope_update_response> handle(context& c, const envelope_update_request& r) {
    auto found = envelope_store::find_envelope(c, r.workspaceUuid, r.envelopeUuid);
    if (found.error) return *found.error;
    envelope_record& env = *found.envelope;
    const auto& u = r.update;
    if (u.documents)
        for (const auto& d : *u.documents)
            if (!envelope_store::find_document(env, d.uuid)) return failure{error_code::DOCUMENT_NOT_FOUND};
    if (auto code = rules::check_draft(env.status)) return failure{*code};
    if (u.tags)
        if (auto refused = envelope_store::tags_refused(env.tags, *u.tags, {"update", "tags"})) return *refused;

    if (u.title) env.title = u.title->str();
    if (u.documents)
        for (const auto& d : *u.documents)
            detail::apply_document_update(*envelope_store::find_document(env, d.uuid), d);
    if (u.tags) rules::add_tags(env.tags, *u.tags);
    if (u.signatureOrder) env.signature_order = *u.signatureOrder;
    if (u.expirationPeriod) env.expiration_period = u.expirationPeriod->value;
    if (u.reminderFrequencyPeriod) env.reminder_frequency = u.reminderFrequencyPeriod->value;
    if (u.customInvitationMessage) env.custom_message = *u.customInvitationMessage;  // null clears
    if (u.useUserAsSenderName) env.use_user_as_sender_name = *u.useUserAsSenderName;
    c.touch(env.update_date);
    return envelope_update_response{env.update_date};
}

// ---------------------------------------------------------------------------------------------
// /public/envelope/send

namespace detail {
inline rules::send_facts send_facts_of(const envelope_record& env, const workspace_record& ws, const team_record& team,
                                       distribution_method method) {
    rules::send_facts f;
    f.status = env.status;
    f.recipients = env.recipients.size();
    for (const auto& r : env.recipients) {
        if (r.data.role == recipient_role::signer) ++f.signers;
        if (!rules::is_deliverable(r.data.email)) f.every_email_deliverable = false;
    }
    f.sandbox = ws.sandbox;
    f.subscription = team.subscription;
    f.api_credits = team.api_credits;
    f.email_quota = team.email_quota;
    f.invitation_emails = env.recipients.size();
    f.distribution_by_email = method == distribution_method::email;
    return f;
}

inline invitation new_invitation(const envelope_record& env, const recipient& r, std::int64_t now) {
    invitation inv;
    inv.valid = true;
    inv.creationDate = now;
    inv.expirationDate = rules::expiration_instant(now, env.expiration_period);
    inv.lastNotificationDate = nullable<std::int64_t>();
    inv.medium = std::string(enum_to_wire(env.distribution));
    inv.verificationType = r.verificationType;
    return inv;
}

inline bool has_approver(const envelope_record& env) {
    for (const auto& r : env.recipients)
        if (r.data.role == recipient_role::approver) return true;
    return false;
}
}  // namespace detail

inline outcome<envelope_send_response> handle(context& c, const envelope_send_request& r) {
    auto found = envelope_store::find_envelope(c, r.workspaceUuid, r.envelopeUuid);
    if (found.error) return *found.error;
    envelope_record& env = *found.envelope;
    const workspace_record& ws = *found.workspace;
    team_record& team = *c.team;
    const distribution_method method = distribution_method_or_default(r);
    if (auto code = rules::check_send(detail::send_facts_of(env, ws, team, method))) return failure{*code};

    const auto event = detail::has_approver(env) ? rules::envelope_event::sent_with_approvers
                                                 : rules::envelope_event::sent_without_approvers;
    envelope_store::set_status(c.st, env, rules::next_status(env.status, event).value_or(env.status));
    c.touch(env.update_date);
    env.sent_date = env.update_date;  // (between its creation and update dates, as check_state wants)
    env.sent_from_sandbox = ws.sandbox;
    env.distribution = method;
    env.reminders_sent = 0;
    timeline::schedule(c.st, env.uuid, env);  // its expiry, or its first reminder
    if (!ws.sandbox) team.api_credits -= 1;
    for (auto& rec : env.recipients) rec.data.invitation = detail::new_invitation(env, rec.data, c.now);

    // E-mails at send: the recipients whose turn it is, and the viewers.
    if (sends_email(env)) {
        const auto turn = envelope_store::whose_turn(env);
        for (std::size_t i = 0; i < env.recipients.size(); ++i)
            if (turn[i] || env.recipients[i].data.role == recipient_role::viewer)
                send_email(c, env, env.recipients[i], outbox_kind::invitation, c.now);
    }

    boost::json::object data;
    data["distributionMethod"] = enum_to_wire(method);
    log_envelope(c, env, envelope_log_event::ENVELOPE_SENT, owner_author(team), data);
    emit_webhook(c, env, webhook_event::ENVELOPE_SENT, std::move(data));
    return envelope_send_response{};
}

// ---------------------------------------------------------------------------------------------
// /public/envelope/create-from-template

namespace detail {
inline const template_record* template_in(const context& c, const workspace_record& ws, std::string_view uuid) {
    auto it = c.st.templates.find(std::string(uuid));
    if (it == c.st.templates.end() || it->second.workspace_uuid != ws.uuid) return nullptr;
    return &it->second;
}

inline const create_from_template_recipient* given_for(const envelope_create_from_template_request& r,
                                                       std::string_view label) {
    for (const auto& given : r.recipients)
        if (given.label.str() == label) return &given;
    return nullptr;
}

// A copy of a template document with new uuids; a block whose recipientLabel names one of the
// new signers is assigned to that signer (its e-mail and colour).
inline document_record copy_template_document(context& c, const document& source, const envelope_record& env,
                                              const envelope_create_from_template_request& r) {
    document_record d;
    d.doc = source;
    d.doc.uuid = c.ids.uuid();
    for (auto& [page, blocks] : d.doc.blocks) {
        for (auto& b : blocks) {
            b.uuid = c.ids.uuid();
            if (!b.recipientLabel) continue;
            const auto* given = given_for(r, *b.recipientLabel);
            if (!given) continue;
            for (const auto& signer : env.recipients)
                if (signer.data.email == given->email.str()) {
                    b.recipientEmail = signer.data.email;
                    b.color = signer.color;
                }
        }
    }
    return d;
}
}  // namespace detail

inline outcome<envelope_create_from_template_response> handle(context& c,
                                                              const envelope_create_from_template_request& r) {
    const workspace_record* ws = c.resolve_workspace(r.workspaceUuid);
    if (!ws) return failure{error_code::WORKSPACE_NOT_FOUND};
    const template_record* tpl = detail::template_in(c, *ws, r.templateUuid);
    if (!tpl) return failure{error_code::TEMPLATE_NOT_FOUND};
    std::vector<std::string> labels;
    for (const auto& given : r.recipients) labels.push_back(given.label.str());
    if (!rules::labels_match(tpl->labels, labels)) return failure{error_code::INVALID_RECIPIENT_LABELS};
    for (const auto& given : r.recipients)
        if (!rules::is_deliverable(given.email.str())) return failure{error_code::INVALID_EMAIL};
    if (auto full = envelope_store::no_room_for_envelope(c)) return *full;

    envelope_record env = envelope_store::new_envelope(c, *c.team, *ws, tpl->title);
    std::vector<envelope_store::recipient_input> signers;
    for (const auto& label : tpl->labels) {
        const auto* given = detail::given_for(r, label);
        if (given) signers.push_back({given->email.str(), given->firstname, given->lastname, {}, {}, {}});
    }
    envelope_store::append_recipients(c.st, env, std::move(signers));

    envelope_create_from_template_response out;
    for (const auto& source : tpl->documents) {
        env.documents.push_back(detail::copy_template_document(c, source, env, r));
        out.documentUuids.push_back(env.documents.back().doc.uuid);
    }
    out.envelopeUuid = envelope_store::commit_new_envelope(c, std::move(env), *c.team).uuid;
    return out;
}

// ---------------------------------------------------------------------------------------------
// /public/envelope/delete-attachment

inline outcome<envelope_delete_attachment_response> handle(context& c, const envelope_delete_attachment_request& r) {
    auto found = envelope_store::find_envelope(c, r.workspaceUuid, r.envelopeUuid);
    if (found.error) return *found.error;
    envelope_record& env = *found.envelope;
    const document_record* d = env.find_document(r.documentUuid);
    if (!d) return failure{error_code::DOCUMENT_NOT_FOUND};
    if (!d->is_attachment) return failure{error_code::DOCUMENT_NOT_ATTACHMENT};
    if (auto code = rules::check_draft(env.status)) return failure{*code};

    std::erase_if(env.documents, [&](const document_record& x) { return x.doc.uuid == r.documentUuid.str(); });
    c.touch(env.update_date);
    return envelope_delete_attachment_response{};
}

}  // namespace esign::reference::handlers
