// SPDX-License-Identifier: BSL-1.0
#pragma once
// A small synchronous HTTP/1.1 client for black-box tests of esign-reference-server (Beast), with
// a deadline on every operation, and a raw-socket sender for malformed requests.
//
//   esign::test::http_connection c(srv.host(), srv.port());
//   auto r = c.post("/public/workspace/list", "{}", {{"Authorization", "Bearer " + key}});
//   r.status, r.header("X-Request-Id"), r.body, r.json()
//
//   auto key = esign::test::create_team(srv.host(), srv.port()).api_key;
//   auto bytes = esign::test::raw_exchange(srv.host(), srv.port(), "GARBAGE\r\n\r\n");
//
// Only declarations here: the Asio/Beast state and the code that drives it are compiled once, in
// http_client.cpp, instead of in every test file.
#include <chrono>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/beast/http/verb.hpp>  // http::verb, http::to_string
#include <boost/json/value.hpp>
#include <boost/system/system_error.hpp>  // what a network failure or timeout throws

namespace esign::test {

namespace http = boost::beast::http;

using header_list = std::vector<std::pair<std::string, std::string>>;

namespace detail {

// Whether two strings are equal ignoring ASCII case (as HTTP compares header names).
constexpr bool ascii_iequals(std::string_view a, std::string_view b) noexcept {
    if (a.size() != b.size()) return false;
    constexpr auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    for (std::size_t i = 0; i < a.size(); ++i)
        if (lower(a[i]) != lower(b[i])) return false;
    return true;
}

}  // namespace detail

struct http_response {
    unsigned status = 0;
    header_list headers;  // in the order received
    std::string body;
    bool keep_alive = false;

    // The first header with this name (case-insensitive); nullopt when absent.
    std::optional<std::string> header(std::string_view name) const {
        for (const auto& [n, v] : headers)
            if (detail::ascii_iequals(n, name)) return v;
        return std::nullopt;
    }
    std::size_t header_count(std::string_view name) const {
        std::size_t n = 0;
        for (const auto& h : headers)
            if (detail::ascii_iequals(h.first, name)) ++n;
        return n;
    }
    // The body as JSON (throws when it is not JSON).
    boost::json::value json() const;
};

// Every answer this test program received, for coverage checks: the request path (without
// the query), the status, and the `error.code` of an error body (empty for a success).
struct wire_record {
    std::string path;
    unsigned status = 0;
    std::string code;
};

class wire_log {
public:
    static wire_log& instance();
    void record(std::string_view target, const http_response& r);
    std::vector<wire_record> records() const {
        std::lock_guard lock(mutex_);
        return records_;
    }
    void clear() {
        std::lock_guard lock(mutex_);
        records_.clear();
    }

private:
    mutable std::mutex mutex_;
    std::vector<wire_record> records_;
};

// One connection; requests on it reuse it while the server keeps it open (keep-alive).
// Movable, not copyable; a moved-from connection may only be destroyed or assigned to.
class http_connection {
public:
    http_connection(std::string host, unsigned short port,
                    std::chrono::milliseconds timeout = std::chrono::seconds(15));
    http_connection(http_connection&&) noexcept;
    http_connection& operator=(http_connection&&) noexcept;
    ~http_connection();

    // Sends one request and reads the answer. `Content-Type: application/json` is added for a
    // POST unless the headers set a Content-Type (use {"Content-Type", ""} to send none).
    // Throws boost::system::system_error on a network failure or timeout.
    http_response request(http::verb method, std::string target, std::string body = {}, const header_list& headers = {},
                          unsigned version = 11);

    http_response post(std::string target, std::string body, const header_list& headers = {}) {
        return request(http::verb::post, std::move(target), std::move(body), headers);
    }
    http_response get(std::string target, const header_list& headers = {}) {
        return request(http::verb::get, std::move(target), {}, headers);
    }

    // The local port of the current connection (to tell whether a connection was reused).
    std::optional<unsigned short> local_port() const;
    bool is_open() const;
    void close();

private:
    struct impl;
    std::unique_ptr<impl> impl_;
};

// One request on a fresh connection.
http_response post(const std::string& host, unsigned short port, std::string target, std::string body,
                   const header_list& headers = {});

inline header_list bearer(const std::string& key) { return {{"Authorization", "Bearer " + key}}; }

struct team {
    std::string team_uuid;
    std::string api_key;
    std::string default_workspace_uuid;
    std::string owner_uuid;
    std::string owner_email;
};

// POST /_control/team/create; throws std::runtime_error unless it answers 200.
team create_team(const std::string& host, unsigned short port, const std::string& body = "{}");

// ---- raw bytes ----------------------------------------------------------------------------

// A plain TCP connection for sending arbitrary bytes, with a deadline on every operation.
// Movable, not copyable; a moved-from connection may only be destroyed or assigned to.
class raw_connection {
public:
    // Connects; throws boost::system::system_error on a failure or timeout.
    raw_connection(const std::string& host, unsigned short port,
                   std::chrono::milliseconds timeout = std::chrono::seconds(10));
    raw_connection(raw_connection&&) noexcept;
    raw_connection& operator=(raw_connection&&) noexcept;
    ~raw_connection();

    // Throws boost::system::system_error on a failure or timeout.
    void send(std::string_view bytes);

    // No more bytes from us (the server sees end of stream).
    void shutdown_send();

    // Everything received until the server closes the connection or `wait` passes.
    std::string receive_all(std::chrono::milliseconds wait);

    // Everything received until it ends with `marker`, the server closes, or `wait` passes; reads
    // one byte at a time so that nothing after the marker is taken.
    std::string receive_until(std::string_view marker, std::chrono::milliseconds wait);

    // Whether the server closed the connection within `wait`, or before, as an earlier read saw
    // (data received meanwhile is dropped).
    bool closed_by_peer_within(std::chrono::milliseconds wait);

    void close();

private:
    struct impl;
    std::unique_ptr<impl> impl_;
};

// Sends `bytes` on a new connection, then (when `half_close`) ends our side, and returns what
// came back until the server closed or `wait` passed.
std::string raw_exchange(const std::string& host, unsigned short port, std::string_view bytes, bool half_close = true,
                         std::chrono::milliseconds wait = std::chrono::seconds(5));

}  // namespace esign::test
