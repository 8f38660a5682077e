// SPDX-License-Identifier: BSL-1.0
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
//            the webhook has sslVerify false); 2 s to resolve and connect, then 5 s for TLS,
//            writing and the response header (contract.md §6.7); redirects are not followed;
//   outcome  delivered = a 2xx status; the status is reported (0 when there was no response).
//
// The workers are separate from the HTTP threads: a slow or dead receiver never delays the API.
// They take jobs from the backend's per-team queues in turn (round-robin), so one team's dead
// receivers delay another team's deliveries by at most one attempt per worker.
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
#include "webhook_url.hpp"

namespace esign::server {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;

// ---- one HTTP(S) POST with a deadline -----------------------------------------------------

struct attempt_result {
    unsigned status = 0;   // 0: no response
    std::string error;     // why there was no response
    bool aborted = false;  // the sender is stopping: not an attempt
};

class webhook_client {
public:
    webhook_client() : verify_(ssl::context::tls_client), no_verify_(ssl::context::tls_client) {
        verify_.set_default_verify_paths();
        verify_.set_verify_mode(ssl::verify_peer);
        no_verify_.set_verify_mode(ssl::verify_none);
    }

    attempt_result post(const webhook_url& url, const http::request<http::string_body>& request, bool ssl_verify,
                        std::chrono::milliseconds connect_timeout, std::chrono::milliseconds answer_timeout,
                        const std::atomic<bool>& abort, bool public_only) {
        delivery d{*this, url, request, ssl_verify, public_only, answer_timeout};
        return d.run(connect_timeout, abort);
    }

private:
    struct delivery {
        delivery(webhook_client& c, const webhook_url& u, const http::request<http::string_body>& r, bool verify,
                 bool public_only_targets, std::chrono::milliseconds answer)
            : client(c),
              url(u),
              request(r),
              ssl_verify(verify),
              public_only(public_only_targets),
              answer_timeout(answer) {}

        webhook_client& client;
        const webhook_url& url;
        const http::request<http::string_body>& request;
        bool ssl_verify;
        bool public_only;
        std::chrono::milliseconds answer_timeout;
        std::chrono::steady_clock::time_point deadline;  // of the current phase: connect, then answer

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

        attempt_result run(std::chrono::milliseconds connect_timeout, const std::atomic<bool>& abort) {
            using clock = std::chrono::steady_clock;
            deadline = clock::now() + connect_timeout;
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
            } catch (...) {}
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
            deadline = std::chrono::steady_clock::now() + answer_timeout;
            lowest().expires_at(deadline);
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
            if (tls)
                http::async_write(*tls, request, on_write);
            else
                http::async_write(*plain, request, on_write);
        }

        void read() {
            auto on_read = [this](beast::error_code ec, std::size_t) {
                if (cancelled || done) return;
                if (ec) return finish("response: " + ec.message());
                finish({}, parser.get().result_int());
            };
            if (tls)
                http::async_read_header(*tls, buffer, parser, on_read);
            else
                http::async_read_header(*plain, buffer, parser, on_read);
        }
    };

    ssl::context verify_;
    ssl::context no_verify_;
};

// ---- the sender ---------------------------------------------------------------------------

class webhook_sender {
public:
    webhook_sender(reference::backend& backend, unsigned threads, bool public_only, logger& log,
                   std::chrono::milliseconds connect_timeout = std::chrono::seconds(2),
                   std::chrono::milliseconds answer_timeout = std::chrono::seconds(5))
        : backend_(backend),
          threads_(threads == 0 ? 1 : threads),
          public_only_(public_only),
          log_(log),
          connect_timeout_(connect_timeout),
          answer_timeout_(answer_timeout) {}

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
    static http::request<http::string_body> make_request(const reference::webhook_attempt& a, const webhook_url& url) {
        http::request<http::string_body> req{http::verb::post, url.target, 11};
        req.set(http::field::host, url.host_header);
        req.set(http::field::user_agent, "esign-reference-server");
        req.set(http::field::content_type, a.form_encoded ? "application/x-www-form-urlencoded" : "application/json");
        req.set("X-Webhook-Id", a.job.webhook_uuid);
        req.body() = a.form_encoded ? "payload=" + form_urlencode(a.job.payload) : a.job.payload;
        if (a.secret) req.set("X-Webhook-Signature", webhook_signature(*a.secret, a.now_ms, req.body()));
        req.set(http::field::connection, "close");
        req.prepare_payload();
        return req;
    }

private:
    void work() {
        webhook_client client;
        while (!stopping_) {
            std::optional<reference::webhook_attempt> job;
            try {
                job = backend_.next_webhook_attempt(std::chrono::milliseconds(500));
            } catch (const std::exception& e) {
                log_.error(fmt::format("webhook queue: {}", e.what()));
                std::this_thread::sleep_for(std::chrono::milliseconds(100));
                continue;
            }
            if (!job) continue;
            try {
                deliver(client, *job);
            } catch (const std::exception& e) {
                log_.error(fmt::format("webhook {}: {}", job->job.webhook_uuid, e.what()));
            }
        }
    }

    void deliver(webhook_client& client, const reference::webhook_attempt& a) {
        attempt_result result;
        if (auto url = parse_webhook_url(a.url)) {
            const auto request = make_request(a, *url);
            result =
                client.post(*url, request, a.ssl_verify, connect_timeout_, answer_timeout_, stopping_, public_only_);
        } else {
            result.error = "not an http(s) URL";
        }
        if (result.aborted) return;
        const bool delivered = result.status >= 200 && result.status < 300;
        backend_.record_webhook_attempt(a, result.status, delivered);
        log_.info(fmt::format("webhook {} {} attempt {} -> {}", a.job.webhook_uuid, a.job.event_type, a.job.attempt,
                              result.status != 0 ? std::to_string(result.status) : result.error));
    }

    reference::backend& backend_;
    unsigned threads_;
    bool public_only_;
    logger& log_;
    std::chrono::milliseconds connect_timeout_;
    std::chrono::milliseconds answer_timeout_;
    std::atomic<bool> stopping_{false};
    std::vector<std::thread> workers_;
};

}  // namespace esign::server
