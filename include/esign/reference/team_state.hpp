// SPDX-License-Identifier: BSL-1.0
#pragma once
// A team's whole state as one value (contract.md §6.6): what /_control/team/snapshot answers
// as the `state` of its team object, and what /_control/team/restore and a --fixture team with
// a `state` install. The records are written as the backend stores them (state.hpp; member
// names as in the code), each map keyed by its records' uuids, so that snapshot → restore →
// snapshot gives the same bytes.
#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/describe/class.hpp>

#include <esign/reference/ids.hpp>
#include <esign/reference/state.hpp>
#include <esign/reference/webhook_job.hpp>
#include <esign/validation/problem.hpp>

namespace esign::reference {

struct team_state {
    std::int64_t clock_offset = 0;
    std::uint64_t next_seq = 1;
    std::optional<std::string> stream;  // where the team's seeded identifier stream stands (null: unseeded)
    std::map<std::string, workspace_record> workspaces;
    std::map<std::string, envelope_record> envelopes;
    std::map<std::string, template_record> templates;
    std::vector<contact_record> contacts;
    std::map<std::string, webhook_record> webhooks;
    std::vector<log_record> logs;
    std::vector<outbox_record> outbox;
    std::vector<delivery_record> deliveries;
    std::map<std::string, iframe_token_record> iframe_tokens;
    std::vector<webhook_job> pending_deliveries;  // queued, not yet attempted (due at once when installed)
};
BOOST_DESCRIBE_STRUCT(team_state, (),
                      (clock_offset, next_seq, stream, workspaces, envelopes, templates, contacts, webhooks, logs,
                       outbox, deliveries, iframe_tokens, pending_deliveries))

inline constexpr std::size_t max_webhooks_per_team = 20;

// The state of a team's store (its identifier stream and the deliveries queued for it given).
inline team_state capture_state(const state& st, const id_source& ids, std::vector<webhook_job> pending) {
    team_state out;
    out.clock_offset = st.clock_offset;
    out.next_seq = st.next_seq;
    out.stream = ids.save();
    out.workspaces = st.workspaces;
    out.envelopes.insert(st.envelopes.begin(), st.envelopes.end());  // in uuid order
    out.templates = st.templates;
    out.contacts = st.contacts;
    out.webhooks = st.webhooks;
    out.logs = st.logs;
    out.outbox.assign(st.outbox.begin(), st.outbox.end());
    out.deliveries.assign(st.deliveries.begin(), st.deliveries.end());
    out.iframe_tokens.insert(st.iframe_tokens.begin(), st.iframe_tokens.end());
    out.pending_deliveries = std::move(pending);
    return out;
}

// Whether `s` can be the state of a team whose default workspace is `default_workspace`: every
// map key names its record, every reference resolves, the per-team limits hold, the stream
// reads. The problems are at `at` + their member.
inline problem_list check_state(const team_state& s, std::string_view default_workspace, const problem_path& at) {
    problem_list out;
    auto add = [&](std::initializer_list<std::string_view> parts, problem_kind kind, std::string message) {
        problem_path path = at;
        for (auto p : parts) path.emplace_back(p);
        out.push_back(problem{std::move(path), kind, std::nullopt, std::move(message)});
    };
    auto keyed = [&](std::string_view member, const std::string& key, const std::string& uuid) {
        if (key != uuid) add({member, key, "uuid"}, problem_kind::rule, "differs from its key");
    };
    auto in_workspace = [&](std::initializer_list<std::string_view> path, const std::string& workspace) {
        if (!s.workspaces.count(workspace)) add(path, problem_kind::rule, "is not a workspace of the state");
    };
    if (!s.workspaces.count(std::string(default_workspace)))
        add({"workspaces"}, problem_kind::rule,
            "has no workspace " + std::string(default_workspace) + " (the team's default workspace)");
    for (const auto& [key, ws] : s.workspaces) keyed("workspaces", key, ws.uuid);
    for (const auto& [key, env] : s.envelopes) {
        keyed("envelopes", key, env.uuid);
        in_workspace({"envelopes", key, "workspace_uuid"}, env.workspace_uuid);
    }
    for (const auto& [key, tpl] : s.templates) {
        keyed("templates", key, tpl.uuid);
        in_workspace({"templates", key, "workspace_uuid"}, tpl.workspace_uuid);
    }
    for (std::size_t i = 0; i < s.contacts.size(); ++i)
        in_workspace({"contacts", std::to_string(i), "workspace_uuid"}, s.contacts[i].workspace_uuid);
    for (const auto& [key, hook] : s.webhooks) keyed("webhooks", key, hook.data.uuid);
    for (const auto& [token, t] : s.iframe_tokens)
        if (!s.envelopes.count(t.envelope_uuid))
            add({"iframe_tokens", token, "envelope_uuid"}, problem_kind::rule, "is not an envelope of the state");
    auto at_most = [&](std::string_view member, std::size_t size, std::size_t max) {
        if (size > max) add({member}, problem_kind::size, "must have at most " + std::to_string(max) + " items");
    };
    at_most("webhooks", s.webhooks.size(), max_webhooks_per_team);
    at_most("outbox", s.outbox.size(), max_kept_records);
    at_most("deliveries", s.deliveries.size(), max_kept_records);
    at_most("pending_deliveries", s.pending_deliveries.size(), max_pending_deliveries);
    if (s.stream && !id_source::can_load(*s.stream))
        add({"stream"}, problem_kind::rule, "is not the state of an identifier stream");
    return out;
}

// Replaces the records of `st` by those of a checked state; they take the uuid of the team
// that `st` holds (a snapshot of one team can seed another). The stream goes to `ids`.
inline void install_state(state& st, team_state s, id_source& ids) {
    const std::string& team = st.teams.begin()->second.uuid;
    st.clock_offset = s.clock_offset;
    std::uint64_t next = s.next_seq;
    auto after = [&](std::uint64_t seq) { next = std::max(next, seq + 1); };
    auto own = [&](auto& record) {
        record.team_uuid = team;
        after(record.seq);
    };
    for (auto& entry : s.workspaces) own(entry.second);
    for (auto& entry : s.envelopes) own(entry.second);
    for (auto& entry : s.templates) own(entry.second);
    for (auto& entry : s.webhooks) own(entry.second);
    for (auto& log : s.logs) own(log);
    for (const auto& c : s.contacts) after(c.seq);
    for (auto& mail : s.outbox) mail.team_uuid = team;
    st.next_seq = next;
    st.workspaces = std::move(s.workspaces);
    st.envelopes.clear();
    st.envelopes.reserve(s.envelopes.size());
    for (auto& [uuid, env] : s.envelopes) st.envelopes.emplace(uuid, std::move(env));
    st.due = {};  // made from the envelopes at first use
    st.templates = std::move(s.templates);
    st.contacts = std::move(s.contacts);
    st.index_contacts();
    st.webhooks = std::move(s.webhooks);
    st.logs = std::move(s.logs);
    st.index_logs();
    st.outbox.assign(s.outbox.begin(), s.outbox.end());
    st.deliveries.assign(s.deliveries.begin(), s.deliveries.end());
    st.iframe_tokens.clear();
    st.iframe_tokens.insert(s.iframe_tokens.begin(), s.iframe_tokens.end());
    if (s.stream) ids.load(*s.stream);
}

}  // namespace esign::reference
