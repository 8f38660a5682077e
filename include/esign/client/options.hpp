// SPDX-License-Identifier: BSL-1.0
#pragma once
// What a client is made from besides its base URL: the credentials it sends and its limits
// (timeouts, retries, pool, trust). Plain values: no Asio here.
#include <chrono>
#include <cstddef>
#include <string>
#include <utility>

namespace esign::client {

// The team's credentials, sent as `Authorization: Bearer ...` with every call (contract.md §1,
// §6.8). None: the signer's operations, and the operator's on a server without --control-token.
class credentials {
public:
    credentials() = default;  // none: no Authorization header
    // The team's API key: `Bearer KEY`.
    static credentials api_key(std::string key) { return credentials("Bearer " + std::move(key)); }
    // The hosted service's API proxy form: `Bearer ACCESS:SECRET` (§6.8).
    static credentials access_key(const std::string& access, const std::string& secret) {
        return credentials("Bearer " + access + ":" + secret);
    }
    // The operator's --control-token (server-wide control operations).
    static credentials control_token(std::string token) { return credentials("Bearer " + std::move(token)); }

    // The Authorization header's value; empty for none.
    const std::string& header() const noexcept { return header_; }

private:
    explicit credentials(std::string header) : header_(std::move(header)) {}
    std::string header_;
};

struct client_options {
    std::chrono::milliseconds connect_timeout{5'000};  // resolve, connect and TLS handshake of one connection
    std::chrono::milliseconds read_timeout{30'000};    // sending one request and reading its answer
    std::chrono::milliseconds total_timeout{60'000};   // one call, every attempt and backoff included
    unsigned max_attempts = 3;                         // 1: never retried
    std::chrono::milliseconds backoff_base{100};       // the first retry waits up to this long ...
    std::chrono::milliseconds backoff_cap{5'000};      // ... doubling per attempt, up to this (full jitter)
    std::size_t pool_size = 4;                         // idle keep-alive connections kept (per pool: sync, async)
    std::size_t max_response_bytes = 64u << 20;        // a bigger answer is a transport error
    // HTTPS: a PEM file of the certificate authorities to trust; empty: the system's trust store.
    // The server's certificate and host name are always checked: there is no option to skip it.
    std::string ca_file;
};

}  // namespace esign::client
