// SPDX-License-Identifier: BSL-1.0
#pragma once
// What the in-process benchmarks share: a backend whose clock stands still and whose journal is
// off (so that only the measured work is measured), and a new team's API key.
#include <cstdint>
#include <optional>
#include <string>

#include <boost/json.hpp>

#include <esign/reference/backend.hpp>

namespace esign_bench {

inline esign::reference::backend_options still_backend_options() {
    esign::reference::backend_options o;
    o.wall_clock = [] { return std::int64_t{1'800'000'000'000}; };
    o.journal_size = 0;
    return o;
}

// A new team of `b` (keyless /_control/team/create); its API key.
inline std::string new_team_key(esign::reference::backend& b) {
    return std::string(
        boost::json::parse(b.handle("/_control/team/create", std::nullopt, "{}").body).at("apiKey").as_string());
}

}  // namespace esign_bench
