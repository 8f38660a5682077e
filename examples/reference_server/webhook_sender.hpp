#pragma once
// Webhook deliveries (contract.md §3 "Webhooks"): worker threads take the jobs the backend hands
// out, POST them, and report each attempt back; the backend decides about retries.
//
// One attempt:
//   body     job.payload (application/json), or `payload=<form-urlencoded JSON>` when the webhook
//            is application/x-www-form-urlencoded;
//   headers  X-Webhook-Id: <webhook uuid>; X-Webhook-Signature: t=<ms>,v1=<hex> when a secret is
//            set (ms = the backend's clock at signing, v1 = HMAC-SHA256(secret, "t:<ms>:<body>"));
//   transport plain TCP for http://, TLS for https:// (certificate and host name checked unless
//            the webhook has sslVerify false); 5 s for everything (resolve, connect, TLS, write,
//            response header); redirects are not followed;
//   outcome  delivered = a 2xx status; the status is reported (0 when there was no response).
//
// The workers are separate from the HTTP threads: a slow or dead receiver never delays the API.
// Addresses a name resolves to are checked again when connecting (a name may point anywhere):
// link-local addresses (169.254.0.0/16, fe80::/10, cloud metadata) are never connected to, and
// with --public-webhooks-only neither are loopback, private, unspecified or multicast ones.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <fmt/format.h>

#include <esign/reference/backend.hpp>

#include "hmac.hpp"
#include "log.hpp"

namespace esign::server {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;

// ---- URLs ---------------------------------------------------------------------------------

struct webhook_url {
    bool tls = false;
    std::string host;         // without brackets, for resolving and TLS
    std::string port;         // decimal
    std::string host_header;  // as it goes in `Host:` (brackets for IPv6, port when not default)
    std::string target;       // path and query, "/" at least
    bool host_is_ip = false;
};

// http(s)://host[:port][/path][?query][#fragment]; IPv6 literals in brackets. No user info.
inline std::optional<webhook_url> parse_webhook_url(std::string_view url) {
    auto lower = [](std::string_view s) {
        std::string out(s);
        for (auto& c : out)
            if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        return out;
    };
    webhook_url out;
    const auto sep = url.find("://");
    if (sep == std::string_view::npos) return std::nullopt;
    const std::string scheme = lower(url.substr(0, sep));
    if (scheme == "http") out.tls = false;
    else if (scheme == "https") out.tls = true;
    else return std::nullopt;
    std::string_view rest = url.substr(sep + 3);
    if (auto hash = rest.find('#'); hash != std::string_view::npos) rest = rest.substr(0, hash);
    const auto end = rest.find_first_of("/?");
    std::string_view authority = rest.substr(0, end);
    std::string_view target = end == std::string_view::npos ? std::string_view{} : rest.substr(end);
    if (authority.empty() || authority.find('@') != std::string_view::npos) return std::nullopt;

    std::string_view host, port;
    if (authority.front() == '[') {
        const auto close = authority.find(']');
        if (close == std::string_view::npos || close == 1) return std::nullopt;
        host = authority.substr(1, close - 1);
        auto after = authority.substr(close + 1);
        if (!after.empty()) {
            if (after.front() != ':') return std::nullopt;
            port = after.substr(1);
        }
        boost::system::error_code ec;
        asio::ip::make_address_v6(std::string(host), ec);
        if (ec) return std::nullopt;
        out.host_is_ip = true;
    } else {
        const auto colon = authority.find(':');
        host = authority.substr(0, colon);
        if (colon != std::string_view::npos) port = authority.substr(colon + 1);
        if (host.empty()) return std::nullopt;
        for (char c : host) {
            const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                            c == '.' || c == '_' || c == '~' || c == '%';
            if (!ok) return std::nullopt;
        }
        boost::system::error_code ec;
        asio::ip::make_address_v4(std::string(host), ec);
        out.host_is_ip = !ec;
    }
    unsigned port_number = out.tls ? 443 : 80;
    if (!port.empty()) {
        if (port.size() > 5) return std::nullopt;
        port_number = 0;
        for (char c : port) {
            if (c < '0' || c > '9') return std::nullopt;
            port_number = port_number * 10 + static_cast<unsigned>(c - '0');
        }
        if (port_number == 0 || port_number > 65535) return std::nullopt;
    }
    out.host = std::string(host);
    out.port = std::to_string(port_number);
    out.host_header = authority.front() == '[' ? "[" + out.host + "]" : lower(host);
    if (port_number != (out.tls ? 443u : 80u)) out.host_header += ":" + out.port;
    out.target = target.empty() ? std::string("/") : std::string(target);
    if (out.target.front() == '?') out.target.insert(out.target.begin(), '/');
    for (char c : out.target)
        if (static_cast<unsigned char>(c) <= ' ' || c == 0x7f) return std::nullopt;  // no request smuggling
    return out;
}

// application/x-www-form-urlencoded (WHATWG): alphanumerics and *-._ stay, space is '+',
// every other byte %XX.
inline std::string form_urlencode(std::string_view text) {
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string out;
    out.reserve(text.size() * 3 / 2);
    for (char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '*' || c == '-' ||
            c == '.' || c == '_')
            out += ch;
        else if (c == ' ')
            out += '+';
        else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 0x0F];
        }
    }
    return out;
}

// Whether the sender may connect to `a` (see the top of this file).
inline bool may_connect_to(const asio::ip::address& address, bool public_only) {
    auto v4_allowed = [public_only](const asio::ip::address_v4& a) {
        const std::uint32_t v = a.to_uint();
        auto in = [v](std::uint32_t net, int bits) { return (v >> (32 - bits)) == (net >> (32 - bits)); };
        if (in(0xA9FE0000u, 16)) return false;  // 169.254.0.0/16 link-local, metadata
        if (!public_only) return true;
        return !(in(0x00000000u, 8) || in(0x7F000000u, 8) || in(0x0A000000u, 8) || in(0xAC100000u, 12) ||
                 in(0xC0A80000u, 16) || in(0x64400000u, 10) || in(0xE0000000u, 4) || in(0xF0000000u, 4));
    };
    if (address.is_v4()) return v4_allowed(address.to_v4());
    const auto a = address.to_v6();
    if (a.is_v4_mapped()) return v4_allowed(asio::ip::make_address_v4(asio::ip::v4_mapped, a));
    const auto b = a.to_bytes();
    if (b[0] == 0xfe && (b[1] & 0xc0) == 0x80) return false;  // fe80::/10
    if (!public_only) return true;
    if (a.is_loopback() || a.is_unspecified() || a.is_multicast() || a.is_site_local()) return false;
    if ((b[0] & 0xfe) == 0xfc) return false;  // fc00::/7 unique local
    return true;
}

// ---- one HTTP(S) POST with a deadline -----------------------------------------------------

struct attempt_result {
    unsigned status = 0;  // 0: no response
    std::string error;    // why there was no response
    bool aborted = false; // the sender is stopping: not an attempt
};

class webhook_client {
public:
    webhook_client() : verify_(ssl::context::tls_client), no_verify_(ssl::context::tls_client) {
        verify_.set_default_verify_paths();
        verify_.set_verify_mode(ssl::verify_peer);
        no_verify_.set_verify_mode(ssl::verify_none);
    }

    attempt_result post(const webhook_url& url, const http::request<http::string_body>& request, bool ssl_verify,
                        std::chrono::milliseconds timeout, const std::atomic<bool>& abort, bool public_only) {
        delivery d{*this, url, request, ssl_verify, public_only};
        return d.run(timeout, abort);
    }

private:
    struct delivery {
        delivery(webhook_client& c, const webhook_url& u, const http::request<http::string_body>& r, bool verify,
                 bool public_only_targets)
            : client(c), url(u), request(r), ssl_verify(verify), public_only(public_only_targets) {}

        webhook_client& client;
        const webhook_url& url;
        const http::request<http::string_body>& request;
        bool ssl_verify;
        bool public_only;

        asio::io_context ioc{1};
        tcp::resolver resolver{ioc};
        std::optional<beast::tcp_stream> plain;
        std::optional<beast::ssl_stream<beast::tcp_stream>> tls;
        beast::flat_buffer buffer;
        http::response_parser<http::string_body> parser;
        bool done = false;
        bool cancelled = false;
        attempt_result result;

        beast::tcp_stream& lowest() { return tls ? beast::get_lowest_layer(*tls) : *plain; }

        void finish(std::string error, unsigned status = 0) {
            done = true;
            result.error = std::move(error);
            result.status = status;
        }

        attempt_result run(std::chrono::milliseconds timeout, const std::atomic<bool>& abort) {
            using clock = std::chrono::steady_clock;
            const auto deadline = clock::now() + timeout;
            parser.header_limit(16 * 1024);
            try {
                if (url.tls) {
                    tls.emplace(ioc, ssl_verify ? client.verify_ : client.no_verify_);
                    if (!url.host_is_ip) SSL_set_tlsext_host_name(tls->native_handle(), url.host.c_str());
                    if (ssl_verify) tls->set_verify_callback(ssl::host_name_verification(url.host));
                } else {
                    plain.emplace(ioc);
                }
                lowest().expires_at(deadline);
                resolver.async_resolve(url.host, url.port,
                                       [this](beast::error_code ec, const tcp::resolver::results_type& results) {
                                           on_resolve(ec, results);
                                       });
                while (!done) {
                    const auto now = clock::now();
                    if (abort.load() || now >= deadline) break;
                    ioc.run_one_until(std::min(deadline, now + std::chrono::milliseconds(100)));
                    if (ioc.stopped()) break;
                }
            } catch (const std::exception& e) {
                if (!done) finish(e.what());
            }
            if (!done) {
                result.aborted = abort.load();
                finish(result.aborted ? "stopped" : "timed out");
            }
            // Cancel what is left, and run every handler to its end before anything is destroyed.
            cancelled = true;
            beast::error_code ignored;
            resolver.cancel();
            if (plain || tls) lowest().socket().close(ignored);
            try {
                ioc.restart();
                ioc.run();
            } catch (...) {
            }
            return result;
        }

        void on_resolve(beast::error_code ec, const tcp::resolver::results_type& results) {
            if (cancelled || done) return;
            if (ec) return finish("resolve: " + ec.message());
            std::vector<tcp::endpoint> allowed;
            for (const auto& entry : results)
                if (may_connect_to(entry.endpoint().address(), public_only)) allowed.push_back(entry.endpoint());
            if (allowed.empty()) return finish("refused: the host resolves to no address the sender may connect to");
            lowest().async_connect(allowed, [this](beast::error_code e, const tcp::endpoint&) { on_connect(e); });
        }

        void on_connect(beast::error_code ec) {
            if (cancelled || done) return;
            if (ec) return finish("connect: " + ec.message());
            if (tls) {
                tls->async_handshake(ssl::stream_base::client, [this](beast::error_code e) {
                    if (cancelled || done) return;
                    if (e) return finish("TLS: " + e.message());
                    write();
                });
                return;
            }
            write();
        }

        void write() {
            auto on_write = [this](beast::error_code ec, std::size_t) {
                if (cancelled || done) return;
                if (ec) return finish("write: " + ec.message());
                read();
            };
            if (tls) http::async_write(*tls, request, on_write);
            else http::async_write(*plain, request, on_write);
        }

        void read() {
            auto on_read = [this](beast::error_code ec, std::size_t) {
                if (cancelled || done) return;
                if (ec) return finish("response: " + ec.message());
                finish({}, parser.get().result_int());
            };
            if (tls) http::async_read_header(*tls, buffer, parser, on_read);
            else http::async_read_header(*plain, buffer, parser, on_read);
        }
    };

    ssl::context verify_;
    ssl::context no_verify_;
};

// ---- the sender ---------------------------------------------------------------------------

class webhook_sender {
public:
    webhook_sender(reference::backend& backend, unsigned threads, bool public_only, logger& log,
                   std::chrono::milliseconds timeout = std::chrono::seconds(5))
        : backend_(backend), threads_(threads == 0 ? 1 : threads), public_only_(public_only), log_(log),
          timeout_(timeout) {}

    webhook_sender(const webhook_sender&) = delete;
    webhook_sender& operator=(const webhook_sender&) = delete;
    ~webhook_sender() { stop(); }

    void start() {
        for (unsigned i = 0; i < threads_; ++i) workers_.emplace_back([this] { work(); });
    }

    // Ends the deliveries under way (not recorded as attempts) and the workers; idempotent.
    void stop() {
        stopping_ = true;
        backend_.stop();
        for (auto& t : workers_)
            if (t.joinable()) t.join();
        workers_.clear();
    }

    // The bytes, headers and target of one attempt (exposed for tests).
    static http::request<http::string_body> make_request(const reference::webhook_job& job, const webhook_url& url,
                                                         std::int64_t now_ms) {
        http::request<http::string_body> req{http::verb::post, url.target, 11};
        req.set(http::field::host, url.host_header);
        req.set(http::field::user_agent, "esign-reference-server");
        req.set(http::field::content_type, job.form_encoded ? "application/x-www-form-urlencoded" : "application/json");
        req.set("X-Webhook-Id", job.webhook_uuid);
        req.body() = job.form_encoded ? "payload=" + form_urlencode(job.payload) : job.payload;
        if (job.secret) req.set("X-Webhook-Signature", webhook_signature(*job.secret, now_ms, req.body()));
        req.set(http::field::connection, "close");
        req.prepare_payload();
        return req;
    }

private:
    void work() {
        webhook_client client;
        while (!stopping_) {
            std::optional<reference::webhook_job> job;
            try {
                job = backend_.next_webhook_job(std::chrono::milliseconds(500));
            } catch (const std::exception& e) {
                log_.error(fmt::format("webhook queue: {}", e.what()));
                std::this_thread::sleep_for(std::chrono::milliseconds(100));
                continue;
            }
            if (!job) continue;
            try {
                deliver(client, *job);
            } catch (const std::exception& e) {
                log_.error(fmt::format("webhook {}: {}", job->webhook_uuid, e.what()));
            }
        }
    }

    void deliver(webhook_client& client, const reference::webhook_job& job) {
        attempt_result result;
        if (auto url = parse_webhook_url(job.url)) {
            const auto request = make_request(job, *url, backend_.now_ms());
            result = client.post(*url, request, job.ssl_verify, timeout_, stopping_, public_only_);
        } else {
            result.error = "not an http(s) URL";
        }
        if (result.aborted) return;
        const bool delivered = result.status >= 200 && result.status < 300;
        backend_.record_webhook_attempt(job, result.status, delivered);
        log_.info(fmt::format("webhook {} {} attempt {} -> {}", job.webhook_uuid, job.event_type, job.attempt,
                              result.status != 0 ? std::to_string(result.status) : result.error));
    }

    reference::backend& backend_;
    unsigned threads_;
    bool public_only_;
    logger& log_;
    std::chrono::milliseconds timeout_;
    std::atomic<bool> stopping_{false};
    std::vector<std::thread> workers_;
};

} // namespace esign::server
