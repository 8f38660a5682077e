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
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/json.hpp>

namespace esign::test {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

using header_list = std::vector<std::pair<std::string, std::string>>;

struct http_response {
    unsigned status = 0;
    header_list headers;  // in the order received
    std::string body;
    bool keep_alive = false;

    // The first header with this name (case-insensitive); nullopt when absent.
    std::optional<std::string> header(std::string_view name) const {
        for (const auto& [n, v] : headers)
            if (beast::iequals(n, name)) return v;
        return std::nullopt;
    }
    std::size_t header_count(std::string_view name) const {
        std::size_t n = 0;
        for (const auto& h : headers)
            if (beast::iequals(h.first, name)) ++n;
        return n;
    }
    // The body as JSON (throws when it is not JSON).
    boost::json::value json() const { return boost::json::parse(body); }
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
    static wire_log& instance() {
        static wire_log log;
        return log;
    }
    void record(std::string_view target, const http_response& r) {
        wire_record rec{std::string(target.substr(0, target.find('?'))), r.status, {}};
        if (r.status != 200) {
            boost::system::error_code ec;
            const auto v = boost::json::parse(r.body, ec);
            if (!ec && v.is_object())
                if (const auto* e = v.as_object().if_contains("error"); e && e->is_object())
                    if (const auto* code = e->as_object().if_contains("code"); code && code->is_string())
                        rec.code = std::string(code->as_string());
        }
        std::lock_guard lock(mutex_);
        records_.push_back(std::move(rec));
    }
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
class http_connection {
public:
    http_connection(std::string host, unsigned short port, std::chrono::milliseconds timeout = std::chrono::seconds(15))
        : host_(std::move(host)), port_(port), timeout_(timeout) {}

    // Sends one request and reads the answer. `Content-Type: application/json` is added for a
    // POST unless the headers set a Content-Type (use {"Content-Type", ""} to send none).
    // Throws boost::system::system_error on a network failure or timeout.
    http_response request(http::verb method, std::string target, std::string body = {}, const header_list& headers = {},
                          unsigned version = 11) {
        ensure_connected();
        http::request<http::string_body> req{method, target, version};
        req.set(http::field::host, host_header());
        bool has_content_type = false;
        for (const auto& [name, value] : headers) {
            if (beast::iequals(name, "Content-Type")) {
                has_content_type = true;
                if (value.empty()) continue;
            }
            req.insert(name, value);
        }
        if (!has_content_type && method == http::verb::post) req.set(http::field::content_type, "application/json");
        req.body() = std::move(body);
        bool chunked = false;
        for (const auto& h : headers)
            if (beast::iequals(h.first, "Transfer-Encoding")) chunked = true;
        if (chunked)
            req.chunked(true);
        else if (method == http::verb::post || !req.body().empty())
            req.prepare_payload();

        run([&](auto done) { http::async_write(stream_, req, done); });
        http::response_parser<http::string_body> parser;
        parser.body_limit(64 * 1024 * 1024);
        if (method == http::verb::head) parser.skip(true);  // the answer to HEAD has no body
        run([&](auto done) { http::async_read(stream_, buffer_, parser, done); });
        auto res = parser.release();
        http_response out;
        out.status = res.result_int();
        for (const auto& f : res) out.headers.emplace_back(std::string(f.name_string()), std::string(f.value()));
        out.body = std::move(res.body());
        out.keep_alive = res.keep_alive();
        if (!out.keep_alive) close();
        wire_log::instance().record(target, out);
        return out;
    }

    http_response post(std::string target, std::string body, const header_list& headers = {}) {
        return request(http::verb::post, std::move(target), std::move(body), headers);
    }
    http_response get(std::string target, const header_list& headers = {}) {
        return request(http::verb::get, std::move(target), {}, headers);
    }

    // The local port of the current connection (to tell whether a connection was reused).
    std::optional<unsigned short> local_port() const {
        if (!stream_.socket().is_open()) return std::nullopt;
        beast::error_code ec;
        auto ep = stream_.socket().local_endpoint(ec);
        if (ec) return std::nullopt;
        return ep.port();
    }
    bool is_open() const { return stream_.socket().is_open(); }
    void close() {
        beast::error_code ignored;
        stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
        stream_.close();
        buffer_.clear();
    }

private:
    std::string host_header() const {
        const bool v6 = host_.find(':') != std::string::npos;
        return (v6 ? "[" + host_ + "]" : host_) + ":" + std::to_string(port_);
    }

    void ensure_connected() {
        if (stream_.socket().is_open()) return;
        buffer_.clear();
        tcp::resolver resolver(ioc_);
        auto endpoints = resolver.resolve(host_, std::to_string(port_));
        run([&](auto done) {
            stream_.async_connect(endpoints,
                                  [done](beast::error_code ec, const tcp::endpoint&) mutable { done(ec, 0); });
        });
    }

    // Runs one asynchronous operation to its end (the stream's timer bounds it).
    template <class Start>
    void run(Start start) {
        beast::error_code result = asio::error::would_block;
        stream_.expires_after(timeout_);
        start([&result](beast::error_code ec, std::size_t) { result = ec; });
        ioc_.restart();
        ioc_.run();
        if (result) {
            close();
            throw boost::system::system_error(result);
        }
    }

    std::string host_;
    unsigned short port_;
    std::chrono::milliseconds timeout_;
    asio::io_context ioc_;
    beast::tcp_stream stream_{ioc_};
    beast::flat_buffer buffer_;
};

// One request on a fresh connection.
inline http_response post(const std::string& host, unsigned short port, std::string target, std::string body,
                          const header_list& headers = {}) {
    http_connection c(host, port);
    return c.post(std::move(target), std::move(body), headers);
}

inline header_list bearer(const std::string& key) { return {{"Authorization", "Bearer " + key}}; }

struct team {
    std::string team_uuid;
    std::string api_key;
    std::string default_workspace_uuid;
    std::string owner_uuid;
    std::string owner_email;
};

// POST /_control/team/create; throws std::runtime_error unless it answers 200.
inline team create_team(const std::string& host, unsigned short port, const std::string& body = "{}") {
    auto r = post(host, port, "/_control/team/create", body);
    if (r.status != 200) throw std::runtime_error("team/create: " + std::to_string(r.status) + " " + r.body);
    auto v = r.json();
    auto str = [&](const char* name) -> std::string {
        if (auto* p = v.as_object().if_contains(name); p && p->is_string()) return std::string(p->as_string());
        return {};
    };
    return team{str("teamUuid"), str("apiKey"), str("defaultWorkspaceUuid"), str("ownerUuid"), str("ownerEmail")};
}

// ---- raw bytes ----------------------------------------------------------------------------

// A plain TCP connection for sending arbitrary bytes, with a deadline on every operation.
class raw_connection {
public:
    raw_connection(const std::string& host, unsigned short port,
                   std::chrono::milliseconds timeout = std::chrono::seconds(10))
        : timeout_(timeout) {
        tcp::resolver resolver(ioc_);
        auto endpoints = resolver.resolve(host, std::to_string(port));
        beast::error_code result = asio::error::would_block;
        stream_.expires_after(timeout_);
        stream_.async_connect(endpoints, [&](beast::error_code ec, const tcp::endpoint&) { result = ec; });
        ioc_.run();
        if (result) throw boost::system::system_error(result);
    }

    void send(std::string_view bytes) {
        beast::error_code result = asio::error::would_block;
        stream_.expires_after(timeout_);
        asio::async_write(stream_, asio::buffer(bytes.data(), bytes.size()),
                          [&](beast::error_code ec, std::size_t) { result = ec; });
        ioc_.restart();
        ioc_.run();
        if (result) throw boost::system::system_error(result);
    }

    // No more bytes from us (the server sees end of stream).
    void shutdown_send() {
        beast::error_code ignored;
        stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    }

    // Everything received until the server closes the connection or `wait` passes.
    std::string receive_all(std::chrono::milliseconds wait) {
        std::string out;
        char buf[4096];
        const auto deadline = std::chrono::steady_clock::now() + wait;
        while (true) {
            const auto [result, n] = read_some(buf, sizeof buf, deadline);
            out.append(buf, n);
            if (result) break;  // end of stream, reset, or timeout
        }
        return out;
    }

    // Everything received until it ends with `marker`, the server closes, or `wait` passes; reads
    // one byte at a time so that nothing after the marker is taken.
    std::string receive_until(std::string_view marker, std::chrono::milliseconds wait) {
        std::string out;
        const auto deadline = std::chrono::steady_clock::now() + wait;
        while (!out.ends_with(marker)) {
            char byte = 0;
            const auto [result, n] = read_some(&byte, 1, deadline);
            if (n == 1) out += byte;
            if (result) break;
        }
        return out;
    }

    // Whether the server closed the connection within `wait` (data received meanwhile is dropped).
    bool closed_by_peer_within(std::chrono::milliseconds wait) {
        char buf[4096];
        const auto deadline = std::chrono::steady_clock::now() + wait;
        while (true) {
            const auto [result, n] = read_some(buf, sizeof buf, deadline);
            if (result == beast::error::timeout) return false;
            if (result) return true;
        }
    }

    void close() {
        beast::error_code ignored;
        stream_.socket().close(ignored);
    }

private:
    struct read_outcome {
        beast::error_code result;  // end of stream, reset, or beast::error::timeout past the deadline
        std::size_t n = 0;         // bytes received
    };
    // One read of at most `size` bytes into `into`, given up at `deadline`.
    read_outcome read_some(char* into, std::size_t size, std::chrono::steady_clock::time_point deadline) {
        const auto left = deadline - std::chrono::steady_clock::now();
        if (left <= std::chrono::steady_clock::duration::zero()) return {beast::error::timeout, 0};
        read_outcome out{asio::error::would_block, 0};
        stream_.expires_after(left);
        stream_.async_read_some(asio::buffer(into, size), [&](beast::error_code ec, std::size_t got) {
            out.result = ec;
            out.n = got;
        });
        ioc_.restart();
        ioc_.run();
        return out;
    }

    std::chrono::milliseconds timeout_;
    asio::io_context ioc_;
    beast::tcp_stream stream_{ioc_};
};

// Sends `bytes` on a new connection, then (when `half_close`) ends our side, and returns what
// came back until the server closed or `wait` passed.
inline std::string raw_exchange(const std::string& host, unsigned short port, std::string_view bytes,
                                bool half_close = true, std::chrono::milliseconds wait = std::chrono::seconds(5)) {
    raw_connection c(host, port);
    c.send(bytes);
    if (half_close) c.shutdown_send();
    return c.receive_all(wait);
}

}  // namespace esign::test
