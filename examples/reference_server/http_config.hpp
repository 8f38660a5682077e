// SPDX-License-Identifier: BSL-1.0
#pragma once
// The limits and timeouts of esign-reference-server's HTTP transport (--max-body,
// --max-connections, --header-timeout, --body-timeout, --write-timeout; the others are fixed):
// what http_server and http_session enforce.
#include <chrono>
#include <cstddef>

namespace esign::server {

struct http_config {
    std::size_t max_body = 1 << 20;
    // Open at once; beyond, the connection idle the longest is closed to admit a new one, and
    // when none is idle the new ones wait in the listen backlog.
    std::size_t max_connections = 1024;
    // The request header with its chunk extensions and trailers; also the most a connection's
    // read buffer holds (Beast bounds neither extensions nor trailers by itself).
    std::size_t header_limit = 16 * 1024;
    std::chrono::milliseconds header_timeout{30'000};
    std::chrono::milliseconds body_timeout{60'000};
    std::chrono::milliseconds write_timeout{30'000};
    std::chrono::milliseconds linger_timeout{2'000};
};

}  // namespace esign::server
