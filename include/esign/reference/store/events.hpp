// SPDX-License-Identifier: BSL-1.0
#pragma once
// What happens as a side effect of an operation: activity logs, webhook events, e-mails.
// contract.md §3 says which operation records which log and emits which event; handlers call
// these only after every check passed.
#include <algorithm>
#include <string>
#include <string_view>
#include <utility>

#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include <esign/reference/context.hpp>
#include <esign/reference/signer_access.hpp>
#include <esign/reference/store/views.hpp>
#include <esign/validation/enum_names.hpp>

namespace esign::reference {

inline log_author owner_author(const team_record& team) {
    return log_author{team.owner_uuid, team.owner_email, owner_name(team)};
}
inline log_author recipient_author(const recipient& r) {
    return log_author{std::string(nil_uuid), r.email, display_name(r.firstname, r.lastname, r.email)};
}
inline log_author system_author() { return log_author{std::string(nil_uuid), "", "System"}; }

namespace detail {
// A log entry of the team `team_uuid` at the operation's time, with the next sequence number.
inline log_record new_log(context& c, const std::string& team_uuid, log_category category, std::string_view event_type,
                          log_author author, boost::json::object data) {
    log_record rec;
    rec.team_uuid = team_uuid;
    rec.entry.category = category;
    rec.entry.eventType = std::string(event_type);
    rec.entry.eventData = std::move(data);
    rec.entry.timestamp = c.now;
    rec.entry.author = std::move(author);
    rec.seq = c.st.sequence();
    return rec;
}
}  // namespace detail

inline void log_envelope(context& c, const envelope_record& env, envelope_log_event event, log_author author,
                         boost::json::object data = {}) {
    log_record rec = detail::new_log(c, env.team_uuid, log_category::envelope, enum_to_wire(event), std::move(author),
                                     std::move(data));
    rec.entry.envelopeUuid = env.uuid;
    rec.entry.workspaceUuid = env.workspace_uuid;
    c.st.add_log(std::move(rec));
}

inline void log_team(context& c, const team_record& team, team_log_event event, boost::json::object data = {}) {
    c.st.add_log(
        detail::new_log(c, team.uuid, log_category::team, enum_to_wire(event), owner_author(team), std::move(data)));
}

// Every active webhook of the envelope's team subscribed to `event` (no events = all) for the
// envelope's workspace (no workspaces = all) gets one delivery of the same event.
inline void emit_webhook(context& c, const envelope_record& env, webhook_event event, boost::json::object data = {}) {
    const std::string event_uuid = c.ids.uuid();
    data["workspaceUuid"] = env.workspace_uuid;
    data["envelopeUuid"] = env.uuid;
    for (auto& [uuid, hook] : c.st.webhooks) {
        if (hook.team_uuid != env.team_uuid || !hook.data.active) continue;
        const auto& events = hook.data.events;
        const auto& spaces = hook.data.workspaceUuids;
        if (!events.empty() && std::find(events.begin(), events.end(), event) == events.end()) continue;
        if (!spaces.empty() && std::find(spaces.begin(), spaces.end(), env.workspace_uuid) == spaces.end()) continue;

        boost::json::object payload;
        payload["eventUuid"] = event_uuid;
        payload["eventType"] = enum_to_wire(event);
        payload["eventTime"] = c.now;
        payload["webhookUuid"] = uuid;
        payload["teamUuid"] = env.team_uuid;
        payload["data"] = data;

        // Beyond the team's bound of pending deliveries the event is recorded, never attempted.
        const bool dropped = c.pending_deliveries + c.jobs.size() >= max_pending_deliveries;
        append_bounded(c.st.deliveries,
                       delivery_record{event_uuid, uuid, std::string(enum_to_wire(event)), 0, false, {}, dropped});
        if (dropped) continue;
        webhook_job job;
        job.event_uuid = event_uuid;
        job.webhook_uuid = uuid;
        job.event_type = std::string(enum_to_wire(event));
        job.payload = boost::json::serialize(payload);
        c.jobs.push_back(std::move(job));
    }
}

// Whether e-mails go out for this envelope: not sent from a sandbox, distributed by e-mail.
inline bool sends_email(const envelope_record& env) {
    return !env.sent_from_sandbox && env.distribution == distribution_method::email;
}

// One e-mail to a recipient, at time `at`. Invitations use one unit of the team's quota (never
// below 0); reminders use none.
inline void send_email(context& c, const envelope_record& env, recipient_record& r, outbox_kind kind, std::int64_t at) {
    append_bounded(c.st.outbox, outbox_record{r.data.email, kind, env.uuid, env.team_uuid, at});
    link_token_for(c.st, env.uuid, r.data.email);  // its signingUrl (contract.md §7.1), reused by reminders
    if (r.data.invitation) r.data.invitation->lastNotificationDate.emplace(at);
    if (kind == outbox_kind::invitation) {
        auto& team = c.st.teams.at(env.team_uuid);
        team.email_quota = std::max<std::int64_t>(0, team.email_quota - 1);
    }
}

}  // namespace esign::reference
