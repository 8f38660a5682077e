// SPDX-License-Identifier: BSL-1.0
#pragma once
// Workspaces: /public/workspace/list, get, create, update (contract.md §3, §4).
// A workspace belongs to one team; a uuid of another team's workspace is WORKSPACE_NOT_FOUND.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include <esign/reference/context.hpp>
#include <esign/reference/store/list_page.hpp>
#include <esign/reference/store/events.hpp>
#include <esign/reference/store/views.hpp>

namespace esign::reference {

// The team's workspaces in creation order.
inline std::vector<const workspace_record*> workspaces_of(const state& st, const team_record& team) {
    return in_creation_order(st.workspaces, [&](const workspace_record& ws) { return ws.team_uuid == team.uuid; });
}

// What a new workspace is made of. `uuid` is fixed by a fixture; otherwise a new one is drawn.
struct new_workspace {
    std::string name;
    std::string color_hex = std::string(default_workspace_color);
    bool is_default = false;
    bool sandbox = false;
    std::optional<std::string> uuid;
};

// Stores a workspace of `team` and logs WORKSPACE_CREATED. Nothing here can fail.
inline workspace_record& create_workspace(context& c, const team_record& team, new_workspace w) {
    workspace_record ws;
    ws.uuid = w.uuid ? *w.uuid : c.ids.uuid();
    ws.team_uuid = team.uuid;
    ws.name = std::move(w.name);
    ws.color_hex = std::move(w.color_hex);
    ws.is_default = w.is_default;
    ws.sandbox = w.sandbox;
    ws.creation_date = c.now;
    ws.update_date = c.now;
    ws.seq = c.st.sequence();
    auto& stored = c.st.workspaces[ws.uuid] = std::move(ws);
    log_team(c, team, team_log_event::WORKSPACE_CREATED, {{"workspaceUuid", stored.uuid}, {"name", stored.name}});
    return stored;
}

}  // namespace esign::reference

namespace esign::reference::handlers {

inline outcome<workspace_list_response> handle(context& c, const workspace_list_request& r) {
    const auto spaces = workspaces_of(c.st, *c.team);
    workspace_list_response out;
    out.pagination = fill_page(out.workspaces, spaces, page_or_default(r.page), limit_or_default(r.limit),
                               [](const workspace_record* ws) { return workspace_list_view(*ws); });
    return out;
}

inline outcome<workspace_get_response> handle(context& c, const workspace_get_request& r) {
    const workspace_record* ws = c.resolve_workspace(r.workspaceUuid);
    if (!ws) return failure{error_code::WORKSPACE_NOT_FOUND};
    return workspace_get_response{workspace_view(*ws)};
}

inline outcome<workspace_create_response> handle(context& c, const workspace_create_request& r) {
    if (!has_room(c.st.workspaces.size(), 1, max_workspaces_per_team))  // the store holds one team's
        return failure{error_code::INVALID_REQUEST_FORMAT,
                       {collection_full({}, "workspaces", max_workspaces_per_team)}};
    new_workspace w;
    w.name = r.name.str();
    if (r.colorHex) w.color_hex = r.colorHex->str();
    return workspace_create_response{workspace_created_view(create_workspace(c, *c.team, std::move(w)))};
}

// The one public way to set the sandbox flag (contract.md §4).
inline outcome<workspace_update_response> handle(context& c, const workspace_update_request& r) {
    workspace_record* ws = c.resolve_workspace(r.workspaceUuid);
    if (!ws) return failure{error_code::WORKSPACE_NOT_FOUND};
    ws->sandbox = r.sandbox;
    c.touch(ws->update_date);
    log_team(c, *c.team, team_log_event::WORKSPACE_UPDATED, {{"workspaceUuid", ws->uuid}, {"sandbox", ws->sandbox}});
    return workspace_update_response{workspace_view(*ws)};
}

}  // namespace esign::reference::handlers
