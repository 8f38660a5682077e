// SPDX-License-Identifier: BSL-1.0
#pragma once
// Running an operation for a team: its request read (a restore's strictly), then its handler
// under the team's lock (shared for a read-only one with nothing due, exclusive otherwise), the
// webhook jobs it made queued after the lock is released, and its failures on its clock.
#include <cstdint>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include <esign/reference/backend.hpp>
#include <esign/reference/handlers/all.hpp>
#include <esign/reference/handlers/harness.hpp>

namespace esign::reference {

namespace detail {
template <class Request>
concept has_handler = requires(context& c, const Request& r) {
    handlers::handle(c, r);
};
template <class Request>
concept has_harness_handler = requires(harness_context& c, const Request& r) {
    handlers::handle(c, r);
};
}  // namespace detail

template <class Request>
reply backend::run(std::string_view path, const caller& who, std::string_view body, bool read_only) {
    if constexpr (std::is_same_v<Request, control_team_restore_request>) {
        // The team object is read straight into the backend's types (one pass, no JSON
        // tree in between), always strictly: a typo in a snapshot is not ignored. Members
        // beside "team" are ignored unless --strict, as in every request: when one was
        // refused, the body is read again without them.
        if (!who.team) return unauthenticated(path, false);  // not reached: a team's operation
        auto doc = json::read<restore_document>(body, json::decode_options{true});
        if (!doc && !options_.strict && has_unknown_top_level_member(doc.problems())) doc = read_team_alone(body);
        if (!doc)
            return team_error(*who.team, path,
                              failure{error_code::INVALID_REQUEST_FORMAT, std::move(doc).take_problems()});
        return restore_team(*who.team, who.team, path, std::move(doc->team));
    } else {
        auto request = json::read<Request>(body, json::decode_options{options_.strict});
        if (who.team) {
            if (!request)
                return team_error(*who.team, path,
                                  failure{error_code::INVALID_REQUEST_FORMAT, std::move(request).take_problems()});
            return run_for_team(*who.team, who.team, path, *request, read_only);
        }
        if (!request)
            return make_error(server_ids_, path, error_code::INVALID_REQUEST_FORMAT, std::move(request).take_problems(),
                              {}, 0, now_ms());
        // hook for signer rows: a signer's operation finds its team by the body's secret.
        if constexpr (std::get<operation_index_of<Request>()>(all_operations).access == operation_access::signer)
            return run_as_signer(path, *request);
        else
            return run_as_operator(path, *request);
    }
}

template <class Request>
reply backend::run_for_team(team_shard& shard, const std::shared_ptr<team_shard>& owner, std::string_view path,
                            const Request& request, bool read_only) {
    if constexpr (std::is_same_v<Request, control_team_reset_request>) {
        reply out{200, json::write(empty_response{}), {}};
        {
            std::unique_lock lock(shard.mutex);
            if (shard.retired) return unauthenticated(path, true);
            out.request_id = shard.ids.uuid();  // drawn before the stream restarts
            shard.reset();
        }
        deliveries_.drop(shard);
        return out;
    } else if constexpr (std::is_same_v<Request, control_team_snapshot_request>) {
        return snapshot_team(shard, path);
    } else if constexpr (detail::has_harness_handler<Request>) {
        std::shared_lock lock(shard.mutex);  // the store is read (its webhooks), not changed
        if (shard.retired) return unauthenticated(path, true);
        const std::int64_t now = shard.now(options_.wall_clock());
        std::lock_guard harness_lock(shard.harness_mutex);
        harness_context ctx{shard.harness, shard.st, shard.ids};
        auto result = handlers::handle(ctx, request);
        if (auto* f = std::get_if<failure>(&result))
            return make_error(shard.ids, path, f->code, std::move(f->details), f->message, 0, now);
        return respond(shard.ids, path, std::get<0>(result), now);
    } else if constexpr (!detail::has_handler<Request>) {
        return team_error(shard, path, failure{error_code::INTERNAL_SERVER_ERROR, {}, "Not an operation of a team."});
    } else {
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
                out = make_error(shard.ids, path, f->code, std::move(f->details), f->message, 0, ctx.now);
            } else {
                out = respond(shard.ids, path, std::get<0>(result), ctx.now);
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
}

inline std::int64_t backend::team_clock(const team_shard& shard) const {
    std::shared_lock lock(shard.mutex);
    return shard.now(options_.wall_clock());
}

inline void backend::record_in_journal(team_shard& shard, std::int64_t time, std::string_view path,
                                       std::string_view body, const reply& out) {
    std::lock_guard lock(shard.harness_mutex);
    shard.harness.journal.record(time, path, out.status, body, out.dropped ? std::string_view{} : out.body);
}

inline bool backend::is_due(const team_shard& shard, std::int64_t wall) {
    auto due = timeline::next_due(shard.st);
    return due && *due <= shard.now(wall);
}

inline reply backend::team_error(team_shard& shard, std::string_view path, failure f) {
    std::int64_t now = 0;
    {
        std::shared_lock lock(shard.mutex);
        now = shard.now(options_.wall_clock());
    }
    return make_error(shard.ids, path, f.code, std::move(f.details), f.message, 0, now);
}

}  // namespace esign::reference
