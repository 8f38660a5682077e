// SPDX-License-Identifier: BSL-1.0
#pragma once
// Making, listing and resetting teams: the backend's constructor (its routes, and the teams of
// the fixture), a new team with fresh credentials (never from a seed, never twice), the
// server-wide reset (a new registry; the old teams retired), and every team's store merged for
// backend::inspect.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <esign/reference/backend.hpp>
#include <esign/reference/backend/respond.hpp>
#include <esign/reference/detail/backend_inline.hpp>
#include <esign/reference/fixture/fixture.hpp>

namespace esign::reference {

namespace detail {
// splitmix64: the seed of the n-th team made without one, under --seed.
constexpr std::uint64_t derived_seed(std::uint64_t seed, std::uint64_t n) noexcept {
    std::uint64_t z = seed + 0x9e3779b97f4a7c15ull * (n + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
}  // namespace detail

ESIGN_DETAIL_BACKEND_INLINE backend::backend(backend_options options)
    : options_(std::move(options)), server_ids_(options_.seed), deliveries_([this] { return options_.wall_clock(); }) {
    if (!options_.wall_clock)
        options_.wall_clock = [] {
            using namespace std::chrono;
            return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
        };
    build_routes();
    if (options_.fixture_json) {
        auto loaded = load_fixture(*options_.fixture_json, options_, options_.wall_clock());
        if (!loaded.problems.empty())
            fixture_problems_ = std::move(loaded.problems);
        else
            registry_ = fixture_registry(std::move(loaded));
    }
}

ESIGN_DETAIL_BACKEND_INLINE reply backend::create_team_shard(std::string_view path,
                                                             const control_team_create_request& request) {
    if (request.startTime && (*request.startTime < 0 || *request.startTime > handlers::latest_clock_ms))
        return operator_error(path, invalid_at({"startTime"}, problem_kind::range,
                                               "must be from 0 to " + std::to_string(handlers::latest_clock_ms)));
    auto shard = new_shard();
    control_team_create_response out;
    bool full = false;
    {
        // The place is counted and the team registered in one step under create_mutex_ (as is a
        // server-wide reset's new registry): teams made at once never exceed max_teams, and a
        // team made while a reset runs counts in the registry it joins.
        std::lock_guard lock(create_mutex_);
        if (registry_.in_order.size() >= options_.max_teams) {
            full = true;  // answered below, without the lock
        } else {
            team_identity identity;
            const std::uint64_t n = teams_made_++;
            if (request.seed)
                shard->ids.reseed(static_cast<std::uint64_t>(*request.seed));
            else if (options_.seed)
                shard->ids.reseed(detail::derived_seed(*options_.seed, n));
            // The default name counts the teams; a seeded team's does not depend on the others.
            if (!request.seed) identity.default_name = "Team " + std::to_string(n + 1);
            issue_keys(*shard);
            identity.api_key = shard->api_key;
            shard->start_time = request.startTime;
            shard->st.clock_offset = request.startTime ? 0 : global_offset_.load();
            shard->publish_clock();
            std::vector<webhook_job> none;
            context ctx{shard->st, nullptr, shard->now(options_.wall_clock()), shard->ids, options_, none};
            const team_record& team = create_team(ctx, request.profile, identity);
            shard->uuid = team.uuid;
            shard->mark_initial();
            out = control_team_create_response{team.uuid,        team.api_key,     team.default_workspace_uuid,
                                               team.owner_uuid,  team.owner_email, shard->access_key,
                                               shard->secret_key};
            std::unique_lock registry_lock(registry_mutex_);
            registry_.add(shard);
        }
    }
    if (full)
        return operator_error(path, failure{error_code::TEAM_LIMIT_REACHED,
                                            {},
                                            "The server holds its maximum number of teams (" +
                                                std::to_string(options_.max_teams) + ")."});
    return respond(server_ids_, path, out, now_ms());
}

ESIGN_DETAIL_BACKEND_INLINE std::shared_ptr<team_shard> backend::new_shard() const {
    auto shard = std::make_shared<team_shard>();
    shard->harness = team_harness(options_.journal_size);
    return shard;
}

ESIGN_DETAIL_BACKEND_INLINE void backend::issue_keys(team_shard& shard) {
    auto fresh = [&](std::string_view prefix, std::size_t length) {
        for (;;) {
            std::string key = std::string(prefix) + key_source_.url_safe(length);
            if (issued_.insert(key).second) return key;
        }
    };
    shard.api_key = fresh("esk_", 40);
    shard.access_key = fresh("esa_", 32);
    // A prefix as the other credentials have: a secret never begins like a key of another kind,
    // and one changed in its first character is always another secret.
    shard.secret_key = "ess_" + key_source_.url_safe(44);
}

// Under create_mutex_ (the constructor's call has no other thread to fear).
ESIGN_DETAIL_BACKEND_INLINE backend::registry backend::fixture_registry(loaded_fixture loaded) {
    registry out;
    for (auto& st : loaded.teams) {
        auto shard = new_shard();
        const std::uint64_t n = teams_made_++;
        if (options_.seed) shard->ids.reseed(detail::derived_seed(*options_.seed, n));
        if (auto stream = loaded.streams.find(st.teams.begin()->first); stream != loaded.streams.end())
            shard->ids.load(stream->second);
        shard->st = std::move(st);
        shard->uuid = shard->team().uuid;
        shard->api_key = shard->team().api_key;
        issued_.insert(shard->api_key);
        shard->access_key = "esa_" + key_source_.url_safe(32);
        shard->secret_key = "ess_" + key_source_.url_safe(44);
        shard->mark_initial();
        out.add(std::move(shard));
    }
    return out;
}

ESIGN_DETAIL_BACKEND_INLINE void backend::reset_all() {
    std::optional<loaded_fixture> loaded;
    if (options_.fixture_json) {
        loaded = load_fixture(*options_.fixture_json, options_, options_.wall_clock());
        if (!loaded->problems.empty()) loaded.reset();
    }
    std::vector<std::shared_ptr<team_shard>> old;
    {
        // Under create_mutex_ with the count of teams made: no team/create falls between the
        // count's restart and the new registry (see create_team_shard).
        std::lock_guard create_lock(create_mutex_);
        teams_made_ = 0;
        registry fresh;
        if (loaded) fresh = fixture_registry(std::move(*loaded));
        std::unique_lock lock(registry_mutex_);
        std::swap(registry_, fresh);
        old = std::move(fresh.in_order);
        global_offset_ = 0;
    }
    for (const auto& shard : old) {
        {
            std::unique_lock lock(shard->mutex);
            shard->retired = true;
            ++shard->generation;
        }
        deliveries_.drop(*shard);
    }
}

ESIGN_DETAIL_BACKEND_INLINE void backend::merge_into(state& all, const state& one) {
    for (const auto& [k, v] : one.teams) all.teams.emplace(k, v);
    for (const auto& [k, v] : one.team_by_api_key) all.team_by_api_key.emplace(k, v);
    for (const auto& [k, v] : one.workspaces) all.workspaces.emplace(k, v);
    for (const auto& [k, v] : one.envelopes) all.envelopes.emplace(k, v);
    for (const auto& [k, v] : one.templates) all.templates.emplace(k, v);
    all.contacts.insert(all.contacts.end(), one.contacts.begin(), one.contacts.end());
    for (const auto& [k, v] : one.webhooks) all.webhooks.emplace(k, v);
    all.logs.insert(all.logs.end(), one.logs.begin(), one.logs.end());
    all.outbox.insert(all.outbox.end(), one.outbox.begin(), one.outbox.end());
    all.deliveries.insert(all.deliveries.end(), one.deliveries.begin(), one.deliveries.end());
    for (const auto& [k, v] : one.iframe_tokens) all.iframe_tokens.emplace(k, v);
    all.next_seq = std::max(all.next_seq, one.next_seq);
}

ESIGN_DETAIL_BACKEND_INLINE std::vector<std::shared_ptr<team_shard>> backend::teams_in_order() const {
    std::shared_lock lock(registry_mutex_);
    return registry_.in_order;
}

}  // namespace esign::reference
