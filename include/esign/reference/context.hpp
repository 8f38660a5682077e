// SPDX-License-Identifier: BSL-1.0
#pragma once
// What a handler works with: the store, the calling team, the time, ids, and the webhook jobs
// it makes. A handler checks everything first and changes the store only once nothing can
// fail any more, so a failing request changes nothing.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <esign/model/model.hpp>
#include <esign/reference/store/ids.hpp>
#include <esign/reference/options.hpp>
#include <esign/reference/store/records.hpp>
#include <esign/reference/delivery/webhook_job.hpp>
#include <esign/validation/problem.hpp>

namespace esign::reference {

// A business error: a code, and for INVALID_REQUEST_FORMAT found by a rule that needs the
// stored state (a page out of range, sms without a phone), the problems with their paths.
struct failure {
    error_code code{};
    problem_list details{};
    std::string message{};  // replaces the table's message when not empty
};

inline failure invalid_at(problem_path path, problem_kind kind, std::string message) {
    return failure{
        error_code::INVALID_REQUEST_FORMAT, {problem{std::move(path), kind, std::nullopt, std::move(message)}}, {}};
}

// A handler's answer: the response, or a failure.
template <class Response>
using outcome = std::variant<Response, failure>;

struct context {
    state& st;          // the calling team's store (its shard)
    team_record* team;  // the calling team; null only while a fixture builds teams
    std::int64_t now;   // unix ms, the team's clock
    id_source& ids;     // the team's identifier stream
    const backend_options& options;
    std::vector<webhook_job>& jobs;      // deliveries to queue once the request succeeded
    std::size_t pending_deliveries = 0;  // the team's deliveries queued already (bounded)

    // Workspace resolution: the team's default workspace when absent; nullptr when the uuid is
    // not a workspace of the caller's team (WORKSPACE_NOT_FOUND).
    workspace_record* resolve_workspace(const std::optional<uuid36>& uuid) {
        if (!team) return nullptr;
        const std::string& key = uuid ? uuid->str() : team->default_workspace_uuid;
        auto it = st.workspaces.find(key);
        if (it == st.workspaces.end() || it->second.team_uuid != team->uuid) return nullptr;
        return &it->second;
    }

    // An envelope of that workspace; nullptr when unknown or elsewhere (ENVELOPE_NOT_FOUND).
    envelope_record* envelope_in(const workspace_record& ws, std::string_view uuid) {
        auto it = st.envelopes.find(uuid);
        if (it == st.envelopes.end() || it->second.workspace_uuid != ws.uuid) return nullptr;
        return &it->second;
    }

    team_record& team_of(const envelope_record& env) { return st.teams.at(env.team_uuid); }

    // Stamps a change made now on a record's update date: now, or the date already there when
    // it is later. A state restored from (or seeded by) a team whose clock stood later holds
    // dates after this team's now; an update date never goes back before its record's creation
    // or last change (check_state refuses such a snapshot, team/snapshot_state.hpp).
    void touch(std::int64_t& update_date) const { update_date = std::max(now, update_date); }
};

}  // namespace esign::reference
