// SPDX-License-Identifier: BSL-1.0
#pragma once
// The team: making one (create_team; the backend calls it, since it owns the keys), the calling
// team (/public/utils/whoami) and /_control/team/update (contract.md §5).
#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <esign/reference/context.hpp>
#include <esign/reference/store/events.hpp>
#include <esign/reference/handlers/workspaces.hpp>

namespace esign::reference {

// What the maker of a team fixes; create_team draws the identifiers left empty from c.ids. The
// API key is always given: keys never come from a team's (possibly seeded) stream.
struct team_identity {
    std::optional<std::string> uuid;
    std::string api_key;
    std::optional<std::string> default_workspace_uuid;
    std::optional<std::string> default_name;  // when absent: "Team <first 8 hex digits of its uuid>"
};

inline std::set<plan_feature> every_plan_feature() {
    const auto all = enum_values<plan_feature>();
    return {all.begin(), all.end()};
}

// The members of a plan that are given, onto a team (the others stay as they are).
inline void apply_plan(team_record& team, const control_team_plan& plan) {
    if (plan.apiCredits) team.api_credits = plan.apiCredits->value;
    if (plan.emailQuota) team.email_quota = plan.emailQuota->value;
    if (plan.subscription) team.subscription = *plan.subscription;
    if (plan.features) team.features = std::set<plan_feature>(plan.features->begin(), plan.features->end());
}

// Stores a team with its owner and its default workspace, and logs TEAM_CREATED and
// WORKSPACE_CREATED. Defaults (contract.md §5, and ours where it leaves them open):
//   name        fixed.default_name, else "Team <first 8 hex digits of the team's uuid>"
//   ownerEmail  "owner-<first 8 hex digits of the team's uuid>@example.com"
// The caller makes sure the api key is not taken; nothing here can fail.
inline team_record& create_team(context& c, const control_team_profile& r, const team_identity& fixed) {
    team_record team;
    team.uuid = fixed.uuid ? *fixed.uuid : c.ids.uuid();
    team.name = r.name ? *r.name : fixed.default_name ? *fixed.default_name : "Team " + team.uuid.substr(0, 8);
    team.api_key = fixed.api_key;
    team.owner_uuid = c.ids.uuid();
    team.owner_email = r.ownerEmail ? r.ownerEmail->str() : "owner-" + team.uuid.substr(0, 8) + "@example.com";
    team.owner_firstname = r.ownerFirstname;
    team.owner_lastname = r.ownerLastname;
    team.api_credits = default_api_credits;
    team.email_quota = default_email_quota;
    team.subscription = default_subscription;
    team.features = every_plan_feature();
    apply_plan(team, r.plan);
    team.creation_date = c.now;

    auto& stored = c.st.teams[team.uuid] = std::move(team);
    c.st.team_by_api_key[stored.api_key] = stored.uuid;
    log_team(c, stored, team_log_event::TEAM_CREATED, {{"teamUuid", stored.uuid}, {"name", stored.name}});

    new_workspace w;
    w.name = std::string(default_workspace_name);
    w.is_default = true;
    w.uuid = fixed.default_workspace_uuid;
    stored.default_workspace_uuid = create_workspace(c, stored, std::move(w)).uuid;
    return stored;
}

}  // namespace esign::reference

namespace esign::reference::handlers {

inline outcome<utils_whoami_response> handle(context& c, const utils_whoami_request&) {
    return utils_whoami_response{c.team->uuid, c.team->name, c.team->owner_email, c.team->owner_uuid};
}

// Absent members stay as they were. The team is the caller's (the backend finds it by teamUuid
// for the operator); a teamUuid naming another team is INVALID_REQUEST_FORMAT at ["teamUuid"].
inline outcome<control_team_update_response> handle(context& c, const control_team_update_request& r) {
    if (r.teamUuid && r.teamUuid->str() != c.team->uuid)
        return invalid_at({"teamUuid"}, problem_kind::rule, "is not your team");
    apply_plan(*c.team, r.plan);
    return control_team_update_response{};
}

}  // namespace esign::reference::handlers
