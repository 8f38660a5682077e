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
    std::size_t max_connections = 1024;  // open at once; more wait in the listen backlog
    std::size_t header_limit = 16 * 1024;
    std::chrono::milliseconds header_timeout{30'000};
    std::chrono::milliseconds body_timeout{60'000};
    std::chrono::milliseconds write_timeout{30'000};
    std::chrono::milliseconds linger_timeout{2'000};
};

}  // namespace esign::server
