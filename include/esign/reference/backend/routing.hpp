// SPDX-License-Identifier: BSL-1.0
#pragma once
// The backend's routing: a route per row of the table (its runner from add_runners, runners.hpp),
// the route of a path, the caller that credentials make for it (a team's
// keys, or the operator's control token, compared in constant time), and the steps of
// backend::handle for a route found once: the team's fault rule, then the operation, with its
// journal entry.
#include <array>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <esign/model/operations.hpp>
#include <esign/reference/backend.hpp>
#include <esign/reference/detail/backend_inline.hpp>

namespace esign::reference {

namespace detail {
// Compares a secret in time independent of where it differs (only its length shows).
inline bool same_secret(std::string_view given, std::string_view secret) noexcept {
    if (given.size() != secret.size() || secret.empty()) return false;
    unsigned char diff = 0;
    for (std::size_t i = 0; i < secret.size(); ++i) diff |= static_cast<unsigned char>(given[i] ^ secret[i]);
    return diff == 0;
}
}  // namespace detail

ESIGN_DETAIL_BACKEND_INLINE void backend::build_routes() {
    // Every part's runners, each part compiled where the program chooses (runners.hpp).
    std::array<runner, operation_count> runners{};
    [&]<std::size_t... Part>(std::index_sequence<Part...>) { (add_runners<Part>(runners), ...); }
    (std::make_index_sequence<runner_parts>{});
    for_each_operation_index([&](auto index) {
        static constexpr std::size_t row = decltype(index)::value;
        const auto& op = all_operations.get<row>();
        if (op.is_control && !options_.control_enabled) return;
        route r;
        r.path = op.path;
        r.access = op.access;
        r.read_only = op.read_only;
        r.is_public = op.access == operation_access::team;
        r.run = runners[row];
        routes_.emplace(op.path, r);
    });
}

ESIGN_DETAIL_BACKEND_INLINE std::optional<backend::caller> backend::authenticate(
    const route& r, std::optional<std::string_view> credentials) const {
    auto team = credentials ? team_by_credentials(*credentials) : nullptr;
    switch (r.access) {
        case operation_access::team:
        case operation_access::team_control:
            if (team) return caller{std::move(team)};
            return std::nullopt;
        case operation_access::team_or_server:
            if (team) return caller{std::move(team)};
            // A key that is no team's (one from before a reset) must not act on every team.
            if (is_operator(credentials, false)) return caller{};
            return std::nullopt;
        case operation_access::server:
            if (!team && is_operator(credentials, true)) return caller{};
            return std::nullopt;
        case operation_access::signer:
            return caller{};  // no credentials of its own: its body names the signer
    }
    return std::nullopt;
}

ESIGN_DETAIL_BACKEND_INLINE std::optional<fault_decision> backend::take_fault(const route& r, const caller& who) {
    if (!r.is_public || !who.team) return std::nullopt;
    std::lock_guard lock(who.team->harness_mutex);
    if (who.team->harness.faults.empty()) return std::nullopt;
    return who.team->harness.faults.fire_for_operation(r.path, who.team->ids);
}

ESIGN_DETAIL_BACKEND_INLINE reply backend::answer_fault(const route& r, const caller& who, std::string_view body,
                                                        const fault_decision& fault) {
    const std::int64_t time = team_clock(*who.team);
    reply out;
    if (fault.action == fault_action::error)
        out = team_error(*who.team, who.team->ids, r.path, failure{*fault.error});  // the test's own rule
    else {
        out.dropped = true;
        out.status = 0;
    }
    out.fault_uuid = fault.fault_uuid;
    record_in_journal(*who.team, time, r.path, body, out);
    return out;
}

ESIGN_DETAIL_BACKEND_INLINE reply backend::process(const route& r, const caller& who, std::string_view body) {
    if (!who.team || !r.is_public) return r.run(*this, who, body);
    const std::int64_t time = team_clock(*who.team);
    reply out = r.run(*this, who, body);
    record_in_journal(*who.team, time, r.path, body, out);
    return out;
}

ESIGN_DETAIL_BACKEND_INLINE const backend::route* backend::find_route(std::string_view path) const noexcept {
    auto it = routes_.find(path);
    return it == routes_.end() ? nullptr : &it->second;
}

ESIGN_DETAIL_BACKEND_INLINE std::shared_ptr<team_shard> backend::team_by_credentials(
    std::string_view credentials) const {
    std::shared_lock lock(registry_mutex_);
    if (auto colon = credentials.find(':'); colon != std::string_view::npos) {
        auto it = registry_.by_access_key.find(std::string(credentials.substr(0, colon)));
        if (it == registry_.by_access_key.end()) return nullptr;
        if (!detail::same_secret(credentials.substr(colon + 1), it->second->secret_key)) return nullptr;
        return it->second;
    }
    auto it = registry_.by_api_key.find(std::string(credentials));
    return it == registry_.by_api_key.end() ? nullptr : it->second;
}

ESIGN_DETAIL_BACKEND_INLINE bool backend::is_operator(std::optional<std::string_view> credentials,
                                                      bool any_without_token) const {
    if (options_.control_token) return credentials && detail::same_secret(*credentials, *options_.control_token);
    return !credentials || any_without_token;
}

}  // namespace esign::reference
