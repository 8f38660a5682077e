// SPDX-License-Identifier: BSL-1.0
#pragma once
// Running an operation for a team: its handler under the team's lock (shared for a read-only one
// with nothing due, exclusive otherwise), the webhook jobs it made queued after the lock is
// released, and its failures on its clock. run_for_team has one overload per kind of handler;
// here the templates (a handler of the team's store, of its harness), apart from
// team_operations.hpp's non-template members, for the parts that compile the rows' runners
// (runners.hpp).
#include <cstdint>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <esign/model/operations.hpp>
#include <esign/reference/backend.hpp>
#include <esign/reference/backend/respond.hpp>
#include <esign/reference/handlers/all.hpp>
#include <esign/reference/handlers/harness.hpp>
#include <esign/reference/handlers/has_handler.hpp>

namespace esign::reference {

// The handler of the team's store: under the team's lock (shared for a read-only operation with
// nothing due, exclusive otherwise), due work applied first when it writes.
template <detail::handled_in<context> Request>
reply backend::run_for_team(team_shard& shard, const std::shared_ptr<team_shard>& owner, std::string_view path,
                            const Request& request, bool read_only) {
    std::vector<webhook_job> jobs;
    std::uint64_t generation = 0;
    std::int64_t team_now = 0;
    bool clock_moved = false;
    reply out;
    {
        std::unique_lock write_lock(shard.mutex, std::defer_lock);
        std::shared_lock read_lock(shard.mutex, std::defer_lock);
        const std::int64_t wall = options_.wall_clock();
        if (read_only) {
            read_lock.lock();
            if (is_due(shard, wall)) {
                read_lock.unlock();
                write_lock.lock();
            }
        } else {
            write_lock.lock();
        }
        if (shard.retired) return unauthenticated(path, true);
        generation = shard.generation;
        context ctx{shard.st, &shard.team(), shard.now(wall), shard.ids, options_, jobs, shard.pending};
        if (write_lock.owns_lock()) timeline::apply_due(ctx);
        auto result = handlers::handle(ctx, request);
        if (auto* f = std::get_if<failure>(&result)) {
            jobs.clear();  // a failing request changes nothing, emits nothing
            out = make_error(reply_ids<Request>(shard), path, f->code, std::move(f->details), f->message, 0, ctx.now);
        } else {
            out = respond(reply_ids<Request>(shard), path, std::get<0>(result), ctx.now);
        }
        team_now = ctx.now;
        if (write_lock.owns_lock() && shard.published_offset.load() != shard.st.clock_offset) {
            shard.publish_clock();  // the team's clock/advance
            clock_moved = true;
        }
    }
    for (auto& job : jobs) deliveries_.push(owner, std::move(job), generation, team_now);
    if (clock_moved) deliveries_.clock_moved();
    return out;
}

// The handler of the team's harness (§6.4, §6.5): its journal or fault rules.
template <detail::handled_in<harness_context> Request>
reply backend::run_for_team(team_shard& shard, const std::shared_ptr<team_shard>&, std::string_view path,
                            const Request& request, bool) {
    std::shared_lock lock(shard.mutex);  // the store is read (its webhooks), not changed
    if (shard.retired) return unauthenticated(path, true);
    const std::int64_t now = shard.now(options_.wall_clock());
    std::lock_guard harness_lock(shard.harness_mutex);
    harness_context ctx{shard.harness, shard.st, shard.ids};
    auto result = handlers::handle(ctx, request);
    if (auto* f = std::get_if<failure>(&result))
        return make_error(reply_ids<Request>(shard), path, f->code, std::move(f->details), f->message, 0, now);
    return respond(reply_ids<Request>(shard), path, std::get<0>(result), now);
}

template <class Request>
id_source& backend::reply_ids(team_shard& shard) {
    constexpr const auto& row = all_operations.get<operation_index_of<Request>()>();
    if constexpr (row.is_control && row.read_only)
        return server_ids_;
    else
        return shard.ids;
}

}  // namespace esign::reference
