// SPDX-License-Identifier: BSL-1.0
#pragma once
// Loading a --fixture (the format: fixture_format.hpp), at start and again on /_control/reset:
// one store per team, or (when the fixture has problems) none, with every problem at its path.
// Identifiers that the fixture does not fix are drawn from a source seeded by the fixture's
// text, so every load of the same fixture gives the same uuids.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <esign/json/decode.hpp>
#include <esign/reference/context.hpp>
#include <esign/reference/fixture_format.hpp>
#include <esign/reference/fixture_loader.hpp>
#include <esign/reference/team_state.hpp>

namespace esign::reference {

// One store per team of a store that holds several: each record goes with its team.
inline std::vector<state> split_by_team(state&& all) {
    std::vector<state> out;
    std::map<std::string, std::size_t> index;  // team uuid -> position in out
    for (auto& [uuid, team] : all.teams) {
        index.emplace(uuid, out.size());
        state& st = out.emplace_back();
        st.next_seq = all.next_seq;
        st.team_by_api_key[team.api_key] = uuid;
        st.teams.emplace(uuid, std::move(team));
    }
    auto of = [&](const std::string& team_uuid) -> state& { return out[index.at(team_uuid)]; };
    std::map<std::string, std::string> team_of_workspace;
    for (auto& [uuid, ws] : all.workspaces) {
        team_of_workspace[uuid] = ws.team_uuid;
        of(ws.team_uuid).workspaces.emplace(uuid, std::move(ws));
    }
    std::map<std::string, std::string> team_of_envelope;
    for (auto& [uuid, env] : all.envelopes) {
        team_of_envelope[uuid] = env.team_uuid;
        of(env.team_uuid).envelopes.emplace(uuid, std::move(env));
    }
    for (auto& [uuid, tpl] : all.templates) of(tpl.team_uuid).templates.emplace(uuid, std::move(tpl));
    for (auto& contact : all.contacts)
        of(team_of_workspace.at(contact.workspace_uuid)).contacts.push_back(std::move(contact));
    std::map<std::string, std::string> team_of_webhook;
    for (auto& [uuid, hook] : all.webhooks) {
        team_of_webhook[uuid] = hook.team_uuid;
        of(hook.team_uuid).webhooks.emplace(uuid, std::move(hook));
    }
    for (auto& log : all.logs) of(log.team_uuid).logs.push_back(std::move(log));
    for (auto& mail : all.outbox) of(mail.team_uuid).outbox.push_back(std::move(mail));
    for (auto& d : all.deliveries) of(team_of_webhook.at(d.webhook_uuid)).deliveries.push_back(std::move(d));
    for (auto& [token, t] : all.iframe_tokens) of(team_of_envelope.at(t.envelope_uuid)).iframe_tokens.emplace(token, t);
    for (state& st : out) {
        st.index_logs();
        st.index_contacts();
    }
    return out;
}

// A fixture, loaded: one store per team, or (when there are problems) nothing.
struct loaded_fixture {
    problem_list problems;
    std::vector<state> teams;
    std::map<std::string, std::string> streams{};  // team uuid -> its identifier stream (from a state)
};

// Loads the fixture `json_text` as it is at `now`: every team, or (when there are problems) none.
inline loaded_fixture load_fixture(std::string_view json_text, const backend_options& options, std::int64_t now) {
    auto doc = json::read<fixture_document>(json_text, json::decode_options{true});
    if (!doc) return {doc.problems(), {}};

    state built;
    id_source ids(fixture_detail::seed_of(json_text));
    std::vector<webhook_job> jobs;  // stays empty: webhooks are made last, nothing emits after them
    context fc{built, nullptr, now, ids, options, jobs};
    problem_list problems;
    fixture_detail::loader load(fc, problems);
    for (std::size_t i = 0; i < doc->teams.size(); ++i) load.team(doc->teams[i], {"teams", std::to_string(i)});
    if (!problems.empty()) return {std::move(problems), {}, {}};
    loaded_fixture out{{}, split_by_team(std::move(built)), {}};
    // Teams given by their state: their records, checked, replace what team/create made.
    for (std::size_t i = 0; i < doc->teams.size(); ++i) {
        auto& given = doc->teams[i].team.state;
        if (!given) continue;
        for (auto& st : out.teams) {
            team_record& team = st.teams.begin()->second;
            if (team.uuid != load.made[i]) continue;
            auto found = check_state(*given, team.default_workspace_uuid, {"teams", std::to_string(i), "state"});
            problems.insert(problems.end(), found.begin(), found.end());
            if (!found.empty()) break;
            if (given->stream) out.streams[team.uuid] = *given->stream;
            id_source unused;
            install_state(st, std::move(*given), unused);
            break;
        }
    }
    if (!problems.empty()) return {std::move(problems), {}, {}};
    return out;
}

}  // namespace esign::reference
