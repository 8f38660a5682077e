// SPDX-License-Identifier: BSL-1.0
#pragma once
// What the typed client's tests (test_client.cpp, test_client_threads.cpp) share: the server's
// URL, options with short waits, a new team made through the operator's client.
#include <chrono>
#include <string>
#include <utility>

#include <catch2/catch.hpp>

#include <esign/client/client.hpp>

#include "server_process.hpp"

namespace esign::test {

inline std::string base_url(server_process& srv) { return "http://" + srv.host() + ":" + std::to_string(srv.port()); }

// Options for tests: short waits between attempts.
inline esign::client::client_options quick(unsigned attempts = 3) {
    using namespace std::chrono_literals;
    esign::client::client_options o;
    o.max_attempts = attempts;
    o.backoff_base = 5ms;
    o.backoff_cap = 20ms;
    o.read_timeout = 10s;
    o.total_timeout = 20s;
    return o;
}

// A new team through the operator's client: its credentials.
inline esign::control_team_create_response new_team(esign::client::client& op) {
    esign::control_team_create_request create;
    create.profile.name = "Acme";
    auto made = op.call(create);
    REQUIRE(made);
    return std::move(made).value();
}

}  // namespace esign::test
