// SPDX-License-Identifier: BSL-1.0
#pragma once
// Running an operation for a team: the overloads of run_for_team that are no templates (reset,
// snapshot, restore), and what every overload uses: the team's clock, its journal, whether work
// is due, its failures on its clock. (The handlers' overloads: run_for_team.hpp.)
#include <cstdint>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <esign/reference/backend.hpp>
#include <esign/reference/backend/run_for_team.hpp>
#include <esign/reference/detail/backend_inline.hpp>
#include <esign/reference/fixture/format.hpp>  // restore_document
#include <esign/reference/handlers/has_handler.hpp>

namespace esign::reference {

ESIGN_DETAIL_BACKEND_INLINE reply backend::run_for_team(team_shard& shard, const std::shared_ptr<team_shard>&,
                                                        std::string_view path, const control_team_reset_request&,
                                                        bool) {
    return reset_team(shard, path);
}

ESIGN_DETAIL_BACKEND_INLINE reply backend::run_for_team(team_shard& shard, const std::shared_ptr<team_shard>&,
                                                        std::string_view path, const control_team_snapshot_request&,
                                                        bool) {
    return snapshot_team(shard, path);
}

ESIGN_DETAIL_BACKEND_INLINE reply backend::run_for_team(team_shard& shard, const std::shared_ptr<team_shard>& owner,
                                                        std::string_view path, restore_document request, bool) {
    return restore_team(shard, owner, path, std::move(request.team));
}

ESIGN_DETAIL_BACKEND_INLINE reply backend::reset_team(team_shard& shard, std::string_view path) {
    reply out{200, json::write(empty_response{}), {}};
    {
        std::unique_lock lock(shard.mutex);
        if (shard.retired) return unauthenticated(path, true);
        out.request_id = shard.ids.uuid();  // drawn before the stream restarts
        shard.reset();
    }
    deliveries_.drop(shard);
    return out;
}

ESIGN_DETAIL_BACKEND_INLINE std::int64_t backend::team_clock(const team_shard& shard) const {
    std::shared_lock lock(shard.mutex);
    return shard.now(options_.wall_clock());
}

ESIGN_DETAIL_BACKEND_INLINE void backend::record_in_journal(team_shard& shard, std::int64_t time, std::string_view path,
                                                            std::string_view body, const reply& out) {
    std::lock_guard lock(shard.harness_mutex);
    shard.harness.journal.record(time, path, out.status, body, out.dropped ? std::string_view{} : out.body);
}

ESIGN_DETAIL_BACKEND_INLINE bool backend::is_due(const team_shard& shard, std::int64_t wall) {
    auto due = timeline::next_due(shard.st);
    return due && *due <= shard.now(wall);
}

ESIGN_DETAIL_BACKEND_INLINE reply backend::team_error(team_shard& shard, id_source& ids, std::string_view path,
                                                      failure f) {
    std::int64_t now = 0;
    {
        std::shared_lock lock(shard.mutex);
        now = shard.now(options_.wall_clock());
    }
    return make_error(ids, path, f.code, std::move(f.details), f.message, 0, now);
}

}  // namespace esign::reference
