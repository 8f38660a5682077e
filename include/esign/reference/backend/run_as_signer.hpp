// SPDX-License-Identifier: BSL-1.0
#pragma once
// A signer row's request run (signer_operations.hpp says how): the team its secret names, then
// the operation as the team's, journaled. Templates only, apart from signer_operations.hpp's
// non-template member, for the parts that compile the rows' runners (runners.hpp).
#include <cstdint>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string_view>

#include <esign/json/encode.hpp>
#include <esign/reference/backend.hpp>
#include <esign/reference/backend/respond.hpp>
#include <esign/reference/backend/run_for_team.hpp>
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
