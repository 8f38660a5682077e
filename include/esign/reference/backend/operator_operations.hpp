// SPDX-License-Identifier: BSL-1.0
#pragma once
// The operator's operations (contract.md §5, without a team's key), one run_as_operator overload
// each: they visit the teams one at a time (never two teams' locks at once), or find the one team
// a request names.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <esign/reference/backend.hpp>
#include <esign/reference/backend/respond.hpp>
#include <esign/reference/backend/run_for_team.hpp>
#include <esign/reference/detail/backend_inline.hpp>
#include <esign/reference/handlers/all.hpp>

namespace esign::reference {

namespace detail {
// The teams of `teams` (not retired) that have envelope `uuid`: one lookup per team, one team's
// lock at a time.
inline std::vector<std::shared_ptr<team_shard>> teams_holding(const std::vector<std::shared_ptr<team_shard>>& teams,
                                                              const std::string& uuid) {
    std::vector<std::shared_ptr<team_shard>> out;
    for (const auto& shard : teams) {
        std::shared_lock lock(shard->mutex);
        if (!shard->retired && shard->st.envelopes.count(uuid)) out.push_back(shard);
    }
    return out;
}
}  // namespace detail

ESIGN_DETAIL_BACKEND_INLINE reply backend::run_as_operator(std::string_view path, const control_reset_request&) {
    reset_all();
    return respond(server_ids_, path, empty_response{}, now_ms());
}

ESIGN_DETAIL_BACKEND_INLINE reply backend::run_as_operator(std::string_view path,
                                                           const control_team_create_request& request) {
    return create_team_shard(path, request);
}

ESIGN_DETAIL_BACKEND_INLINE reply backend::run_as_operator(std::string_view path,
                                                           const control_team_update_request& request) {
    if (!request.teamUuid) return operator_error(path, invalid_at({"teamUuid"}, problem_kind::missing, "is required"));
    auto shard = first_team_with_uuid(request.teamUuid->str());
    if (!shard) return operator_error(path, invalid_at({"teamUuid"}, problem_kind::rule, "is not a team"));
    return run_for_team(*shard, shard, path, request, false);
}

ESIGN_DETAIL_BACKEND_INLINE reply backend::run_as_operator(std::string_view path,
                                                           const control_recipient_act_request& request) {
    return run_in_team_holding_envelope(path, request);
}

ESIGN_DETAIL_BACKEND_INLINE reply backend::run_as_operator(std::string_view path,
                                                           const control_envelope_cancel_request& request) {
    return run_in_team_holding_envelope(path, request);
}

template <class Request>
reply backend::run_in_team_holding_envelope(std::string_view path, const Request& request) {
    // §6.9: the team that holds the envelope, among those teamUuid names when given (seeded
    // teams may share a uuid). Restored snapshots put one envelope uuid in several teams:
    // then the operator must name one, and nothing changes until it does.
    std::vector<std::shared_ptr<team_shard>> candidates;
    if (request.teamUuid) {
        std::shared_lock lock(registry_mutex_);
        auto [first, last] = registry_.by_uuid.equal_range(request.teamUuid->str());
        for (auto it = first; it != last; ++it) candidates.push_back(it->second);
        if (candidates.empty())
            return operator_error(path, invalid_at({"teamUuid"}, problem_kind::rule, "is not a team"));
    } else {
        candidates = teams_in_order();
    }
    const auto holders = detail::teams_holding(candidates, request.envelopeUuid.str());
    if (holders.empty()) return operator_error(path, failure{error_code::ENVELOPE_NOT_FOUND});
    if (holders.size() > 1)
        return operator_error(path, request.teamUuid ? invalid_at({"teamUuid"}, problem_kind::rule,
                                                                  "names more than one team with this envelope")
                                                     : invalid_at({"teamUuid"}, problem_kind::missing,
                                                                  "is required: more than one team has this envelope"));
    return run_for_team(*holders.front(), holders.front(), path, request, false);
}

ESIGN_DETAIL_BACKEND_INLINE reply backend::run_as_operator(std::string_view path, const control_clock_now_request&) {
    const std::int64_t now = now_ms();
    return respond(server_ids_, path, control_clock_now_response{now}, now);
}

ESIGN_DETAIL_BACKEND_INLINE reply backend::run_as_operator(std::string_view path,
                                                           const control_outbox_list_request& request) {
    control_outbox_list_response all;
    for_each_team_response(request, [&](control_outbox_list_response&& one) {
        for (auto& e : one.emails) all.emails.push_back(std::move(e));
    });
    std::stable_sort(all.emails.begin(), all.emails.end(),
                     [](const outbox_email& a, const outbox_email& b) { return a.timestamp < b.timestamp; });
    return respond(server_ids_, path, all, now_ms());
}

ESIGN_DETAIL_BACKEND_INLINE reply backend::run_as_operator(std::string_view path,
                                                           const control_webhook_deliveries_request& request) {
    control_webhook_deliveries_response all;
    for_each_team_response(request, [&](control_webhook_deliveries_response&& one) {
        for (auto& d : one.deliveries) all.deliveries.push_back(std::move(d));
    });
    return respond(server_ids_, path, all, now_ms());
}

template <class Request, class Sink>
void backend::for_each_team_response(const Request& request, Sink&& sink) {
    for (const auto& shard : teams_in_order()) {
        std::vector<webhook_job> none;
        std::shared_lock lock(shard->mutex);
        if (shard->retired) continue;
        context ctx{shard->st, &shard->team(), shard->now(options_.wall_clock()), shard->ids, options_, none};
        auto result = handlers::handle(ctx, request);
        if (auto* response = std::get_if<0>(&result)) sink(std::move(*response));
    }
}

// Every team's clock moves (frozen ones too) and its due work is applied; so does the server's,
// which teams made later start from.
ESIGN_DETAIL_BACKEND_INLINE reply backend::run_as_operator(std::string_view path,
                                                           const control_clock_advance_request& request) {
    if (request.milliseconds < 0)
        return operator_error(path, invalid_at({"milliseconds"}, problem_kind::range, "must be at least 0"));
    const auto teams = teams_in_order();
    std::int64_t latest = now_ms();
    std::int64_t farthest = global_offset_.load();  // the offset teams made later start from
    for (const auto& shard : teams) {
        std::shared_lock lock(shard->mutex);
        latest = std::max(latest, shard->now(options_.wall_clock()));
        farthest = std::max(farthest, shard->st.clock_offset);
    }
    if (request.milliseconds > handlers::latest_clock_ms - latest)
        return operator_error(path, invalid_at({"milliseconds"}, problem_kind::range,
                                               "would move a clock past " + std::to_string(handlers::latest_clock_ms)));
    if (auto beyond = handlers::refuse_offset_beyond_bound(farthest, request.milliseconds))
        return operator_error(path, std::move(*beyond));
    global_offset_ += request.milliseconds;
    for (const auto& shard : teams) {
        // No reply per team: the operator's request draws nothing from a team's stream
        // but the identifiers of what falls due. A team whose own advance raced this one
        // past the limit keeps its clock (the handler refuses).
        std::vector<webhook_job> jobs;
        std::uint64_t generation = 0;
        std::int64_t team_now = 0;
        {
            std::unique_lock lock(shard->mutex);
            if (shard->retired) continue;
            generation = shard->generation;
            context ctx{shard->st, &shard->team(), shard->now(options_.wall_clock()), shard->ids, options_,
                        jobs,      shard->pending};
            if (std::holds_alternative<failure>(handlers::handle(ctx, request))) jobs.clear();
            shard->publish_clock();
            team_now = ctx.now;
        }
        for (auto& job : jobs) deliveries_.push(shard, std::move(job), generation, team_now);
    }
    deliveries_.clock_moved();
    const std::int64_t now = now_ms();
    return respond(server_ids_, path, control_clock_advance_response{now}, now);
}

ESIGN_DETAIL_BACKEND_INLINE reply backend::operator_error(std::string_view path, failure f) {
    return make_error(server_ids_, path, f.code, std::move(f.details), f.message, 0, now_ms());
}

ESIGN_DETAIL_BACKEND_INLINE std::shared_ptr<team_shard> backend::first_team_with_uuid(const std::string& uuid) const {
    std::shared_lock lock(registry_mutex_);
    auto it = registry_.by_uuid.find(uuid);
    return it == registry_.by_uuid.end() ? nullptr : it->second;
}

}  // namespace esign::reference
