// SPDX-License-Identifier: BSL-1.0
// The HTTP client of the black-box tests (http_client.hpp): the Asio/Beast code, compiled once for
// the whole test program. No test cases here.
#include "http_client.hpp"

#include <stdexcept>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/json/parse.hpp>

#include "beast_response.hpp"

namespace esign::test {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
using tcp = asio::ip::tcp;

}  // namespace

// ---- http_response, wire_log --------------------------------------------------------------

boost::json::value http_response::json() const { return boost::json::parse(body); }

wire_log& wire_log::instance() {
    static wire_log log;
    return log;
}

void wire_log::record(std::string_view target, const http_response& r) {
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

// ---- http_connection ----------------------------------------------------------------------

struct http_connection::impl {
    impl(std::string host, unsigned short port, std::chrono::milliseconds timeout)
        : host_(std::move(host)), port_(port), timeout_(timeout) {}

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

    http_response request(http::verb method, std::string target, std::string body, const header_list& headers,
                          unsigned version) {
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
        http_response out = response_of(parser.release());
        if (!out.keep_alive) close();
        wire_log::instance().record(target, out);
        return out;
    }

    std::optional<unsigned short> local_port() const {
        if (!stream_.socket().is_open()) return std::nullopt;
        beast::error_code ec;
        auto ep = stream_.socket().local_endpoint(ec);
        if (ec) return std::nullopt;
        return ep.port();
    }

    void close() {
        beast::error_code ignored;
        stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
        stream_.close();
        buffer_.clear();
    }

    std::string host_;
    unsigned short port_;
    std::chrono::milliseconds timeout_;
    asio::io_context ioc_;
    beast::tcp_stream stream_{ioc_};
    beast::flat_buffer buffer_;
};

http_connection::http_connection(std::string host, unsigned short port, std::chrono::milliseconds timeout)
    : impl_(std::make_unique<impl>(std::move(host), port, timeout)) {}
http_connection::http_connection(http_connection&&) noexcept = default;
http_connection& http_connection::operator=(http_connection&&) noexcept = default;
http_connection::~http_connection() = default;

http_response http_connection::request(http::verb method, std::string target, std::string body,
                                       const header_list& headers, unsigned version) {
    return impl_->request(method, std::move(target), std::move(body), headers, version);
}

std::optional<unsigned short> http_connection::local_port() const { return impl_->local_port(); }
bool http_connection::is_open() const { return impl_->stream_.socket().is_open(); }
void http_connection::close() { impl_->close(); }

// ---- free functions -----------------------------------------------------------------------

http_response post(const std::string& host, unsigned short port, std::string target, std::string body,
                   const header_list& headers) {
    http_connection c(host, port);
    return c.post(std::move(target), std::move(body), headers);
}

team create_team(const std::string& host, unsigned short port, const std::string& body) {
    auto r = post(host, port, "/_control/team/create", body);
    if (r.status != 200) throw std::runtime_error("team/create: " + std::to_string(r.status) + " " + r.body);
    auto v = r.json();
    auto str = [&](const char* name) -> std::string {
        if (auto* p = v.as_object().if_contains(name); p && p->is_string()) return std::string(p->as_string());
        return {};
    };
    return team{str("teamUuid"), str("apiKey"), str("defaultWorkspaceUuid"), str("ownerUuid"), str("ownerEmail")};
}

// ---- raw_connection -----------------------------------------------------------------------

struct raw_connection::impl {
    struct read_outcome {
        beast::error_code result;  // end of stream, reset, or beast::error::timeout past the deadline
        std::size_t n = 0;         // bytes received
    };

    explicit impl(std::chrono::milliseconds timeout) : timeout_(timeout) {}

    // One read of at most `size` bytes into `into`, given up at `deadline`.
    read_outcome read_some(char* into, std::size_t size, std::chrono::steady_clock::time_point deadline) {
        const auto left = deadline - std::chrono::steady_clock::now();
        if (left <= std::chrono::steady_clock::duration::zero()) return {beast::error::timeout, 0};
        read_outcome out{asio::error::would_block, 0};
        stream_.expires_after(left);
        stream_.async_read_some(asio::buffer(into, size), [&](beast::error_code ec, std::size_t got) {
            out.result = ec;
            out.n = got;
            if (ec && ec != beast::error::timeout) peer_closed_ = true;
        });
        ioc_.restart();
        ioc_.run();
        return out;
    }

    std::chrono::milliseconds timeout_;
    asio::io_context ioc_;
    beast::tcp_stream stream_{ioc_};
    // The server closed (end of stream or reset), as seen by an earlier read: a timeout closes
    // the stream on our side too, so a later read could not tell a close from its own timeout.
    bool peer_closed_ = false;
};

raw_connection::raw_connection(const std::string& host, unsigned short port, std::chrono::milliseconds timeout)
    : impl_(std::make_unique<impl>(timeout)) {
    auto& s = *impl_;
    tcp::resolver resolver(s.ioc_);
    auto endpoints = resolver.resolve(host, std::to_string(port));
    beast::error_code result = asio::error::would_block;
    s.stream_.expires_after(s.timeout_);
    s.stream_.async_connect(endpoints, [&](beast::error_code ec, const tcp::endpoint&) { result = ec; });
    s.ioc_.run();
    if (result) throw boost::system::system_error(result);
}
raw_connection::raw_connection(raw_connection&&) noexcept = default;
raw_connection& raw_connection::operator=(raw_connection&&) noexcept = default;
raw_connection::~raw_connection() = default;

void raw_connection::send(std::string_view bytes) {
    auto& s = *impl_;
    beast::error_code result = asio::error::would_block;
    s.stream_.expires_after(s.timeout_);
    asio::async_write(s.stream_, asio::buffer(bytes.data(), bytes.size()),
                      [&](beast::error_code ec, std::size_t) { result = ec; });
    s.ioc_.restart();
    s.ioc_.run();
    if (result) throw boost::system::system_error(result);
}

void raw_connection::shutdown_send() {
    beast::error_code ignored;
    impl_->stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
}

std::string raw_connection::receive_all(std::chrono::milliseconds wait) {
    std::string out;
    char buf[4096];
    const auto deadline = std::chrono::steady_clock::now() + wait;
    while (true) {
        const auto [result, n] = impl_->read_some(buf, sizeof buf, deadline);
        out.append(buf, n);
        if (result) break;  // end of stream, reset, or timeout
    }
    return out;
}

std::string raw_connection::receive_until(std::string_view marker, std::chrono::milliseconds wait) {
    std::string out;
    const auto deadline = std::chrono::steady_clock::now() + wait;
    while (!out.ends_with(marker)) {
        char byte = 0;
        const auto [result, n] = impl_->read_some(&byte, 1, deadline);
        if (n == 1) out += byte;
        if (result) break;
    }
    return out;
}

bool raw_connection::closed_by_peer_within(std::chrono::milliseconds wait) {
    if (impl_->peer_closed_) return true;  // seen by receive_all or receive_until already
    char buf[4096];
    const auto deadline = std::chrono::steady_clock::now() + wait;
    while (true) {
        const auto [result, n] = impl_->read_some(buf, sizeof buf, deadline);
        if (result == beast::error::timeout) return false;
        if (result) return true;
    }
}

void raw_connection::close() {
    beast::error_code ignored;
    impl_->stream_.socket().close(ignored);
}

std::string raw_exchange(const std::string& host, unsigned short port, std::string_view bytes, bool half_close,
                         std::chrono::milliseconds wait) {
    raw_connection c(host, port);
    c.send(bytes);
    if (half_close) c.shutdown_send();
    return c.receive_all(wait);
}

}  // namespace esign::test
