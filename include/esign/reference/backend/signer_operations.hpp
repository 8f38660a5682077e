// SPDX-License-Identifier: BSL-1.0
#pragma once
// The signer's operations (contract.md §7.1, operation_access::signer): no credentials; the
// token or session in the body names its team (its team key, signer_access.hpp), found in O(1)
// in the registry. The request then runs as the team's own operations do (run_for_team: the
// team's lock, its clock, due expiries and reminders applied, webhook jobs queued), on the
// calling thread rather than the team's queue, and is recorded in the team's journal with its
// secrets redacted. A secret that names no team of the registry is refused on the server's clock.
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <type_traits>

#include <esign/json/encode.hpp>
#include <esign/reference/backend.hpp>
#include <esign/reference/handlers/has_handler.hpp>  // run_for_team's overloads
#include <esign/reference/detail/backend_inline.hpp>
#include <esign/reference/handlers/embeds.hpp>
#include <esign/reference/signer_access.hpp>

namespace esign::reference {

namespace detail {
// The secret a signer request carries, its kind's prefix, and the code that refuses it.
template <class Request>
struct signer_secret_of {
    static std::string_view secret(const Request& r) { return r.session; }
    static constexpr std::string_view prefix = signer_session_prefix;
    static constexpr error_code refused = error_code::SIGNING_SESSION_INVALID;
};
template <>
struct signer_secret_of<embeds_session_start_request> {
    static std::string_view secret(const embeds_session_start_request& r) { return r.token; }
    static constexpr std::string_view prefix = {};  // an iframe token or a link token
    static constexpr error_code refused = error_code::SIGNING_TOKEN_UNKNOWN;
};
}  // namespace detail

ESIGN_DETAIL_BACKEND_INLINE std::shared_ptr<team_shard> backend::team_by_signer_secret(std::string_view secret,
                                                                                       std::string_view prefix) const {
    std::optional<std::string_view> key;
    if (prefix.empty()) {
        key = signer_team_key(secret, iframe_token_prefix);
        if (!key) key = signer_team_key(secret, signer_link_token_prefix);
    } else {
        key = signer_team_key(secret, prefix);
    }
    if (!key) return nullptr;
    std::shared_lock lock(registry_mutex_);
    auto it = registry_.by_signer_key.find(std::string(*key));
    return it == registry_.by_signer_key.end() ? nullptr : it->second;
}

template <class Request>
reply backend::run_as_signer(std::string_view path, const Request& request) {
    using secret = detail::signer_secret_of<Request>;
    auto shard = team_by_signer_secret(secret::secret(request), secret::prefix);
    if (!shard) return make_error(server_ids_, path, secret::refused, {}, {}, 0, now_ms());
    constexpr bool read_only = all_operations.get<operation_index_of<Request>()>().read_only;
    std::int64_t time = 0;
    {
        std::shared_lock lock(shard->mutex);
        // A team retired by a server-wide reset: its secrets are unknown, as its keys are.
        if (shard->retired) return make_error(server_ids_, path, secret::refused, {}, {}, 0, now_ms());
        time = shard->now(options_.wall_clock());
    }
    reply out = run_for_team(*shard, shard, path, request, read_only);
    // The request as read (its secret redacted by the journal, harness/journal.hpp), and the answer.
    record_in_journal(*shard, time, path, json::write(request), out);
    return out;
}

}  // namespace esign::reference
