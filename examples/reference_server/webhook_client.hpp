// SPDX-License-Identifier: BSL-1.0
#pragma once
// One webhook attempt over HTTP(S) with deadlines (webhook_sender.hpp makes the request and
// reports the outcome): plain TCP for http://, TLS for https:// (certificate and host name
// checked unless the webhook has sslVerify false); 2 s to resolve and connect, then 5 s for TLS,
// writing and the response header (contract.md §6.7); redirects are not followed. Addresses a
// name resolves to are checked again when connecting (may_connect_to, webhook_url.hpp). Once
// connected, the caller is asked whether the attempt is still wanted before anything is written.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include "webhook_url.hpp"

namespace esign::server {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;

struct attempt_result {
    unsigned status = 0;   // 0: no response
    std::string error;     // why there was no response
    bool aborted = false;  // the sender is stopping: not an attempt
    bool dropped = false;  // no longer wanted when about to write (its team was reset): not an attempt
};

class webhook_client {
public:
    webhook_client() : verify_(ssl::context::tls_client), no_verify_(ssl::context::tls_client) {
        verify_.set_default_verify_paths();
        verify_.set_verify_mode(ssl::verify_peer);
        no_verify_.set_verify_mode(ssl::verify_none);
    }

    // `still_wanted` is asked once connected, just before the request is written: false sends
    // nothing (result.dropped).
    attempt_result post(
        const webhook_url& url, const http::request<http::string_body>& request, bool ssl_verify,
        std::chrono::milliseconds connect_timeout, std::chrono::milliseconds answer_timeout,
        const std::atomic<bool>& abort, bool public_only,
        const std::function<bool()>& still_wanted = [] { return true; }) {
        delivery d{*this, url, request, ssl_verify, public_only, answer_timeout, still_wanted};
        return d.run(connect_timeout, abort);
    }

private:
    struct delivery {
        delivery(webhook_client& c, const webhook_url& u, const http::request<http::string_body>& r, bool verify,
                 bool public_only_targets, std::chrono::milliseconds answer, const std::function<bool()>& wanted)
            : client(c),
              url(u),
              request(r),
              ssl_verify(verify),
              public_only(public_only_targets),
              answer_timeout(answer),
              still_wanted(wanted) {}

        webhook_client& client;
        const webhook_url& url;
        const http::request<http::string_body>& request;
        bool ssl_verify;
        bool public_only;
        std::chrono::milliseconds answer_timeout;
        const std::function<bool()>& still_wanted;
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
            if (!still_wanted()) {
                result.dropped = true;
                return finish("dropped: its team was reset since it was queued");
            }
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

}  // namespace esign::server
