// SPDX-License-Identifier: BSL-1.0
#pragma once
// The HTTP/1.1 transport of esign-reference-server (contract.md §1, §5), on Boost.Beast: the
// listening side. It accepts up to --max-connections connections at once, each an
// http_session (http_session.hpp: what is checked per request, in order, and how a connection
// ends), and shuts them down: idle ones at once, busy ones after their answer. When every place
// is taken, the connection idle the longest is closed to admit the new one (one client's idle
// keep-alive connections never lock the others out); when none is idle, new ones wait in the
// listen backlog. With use_tls() (--tls-cert/--tls-key, tls.hpp) every connection is TLS.
#include <chrono>
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <string>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <fmt/format.h>

#include <esign/reference/backend.hpp>

#include "http_config.hpp"
#include "http_session.hpp"
#include "log.hpp"
#include "session_registry.hpp"

namespace esign::server {

class http_server {
public:
    http_server(asio::io_context& ioc, reference::backend& backend, http_config config, logger& log)
        : ioc_(ioc),
          backend_(backend),
          config_(config),
          log_(log),
          acceptor_(asio::make_strand(ioc)),
          retry_timer_(acceptor_.get_executor()) {}

    // After the io_context's threads ended (main): requests still waiting in a team's queue hold
    // their sessions, which must go before the io_context does.
    ~http_server() {
        for (auto& s : registry_->close()) s->discard_queued();
    }

    http_server(const http_server&) = delete;
    http_server& operator=(const http_server&) = delete;

    // Binds and listens (throws boost::system::system_error); returns the bound endpoint.
    tcp::endpoint listen(const std::string& host, std::uint16_t port) {
        tcp::resolver resolver(ioc_);
        auto results =
            resolver.resolve(host, std::to_string(port), tcp::resolver::passive | tcp::resolver::numeric_service);
        boost::system::error_code last = asio::error::host_not_found;
        for (const auto& entry : results) {
            tcp::endpoint ep = entry.endpoint();
            boost::system::error_code ec;
            acceptor_.open(ep.protocol(), ec);
            if (!ec) acceptor_.set_option(asio::socket_base::reuse_address(true), ec);
            if (!ec) acceptor_.bind(ep, ec);
            if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
            if (!ec) return acceptor_.local_endpoint();
            last = ec;
            boost::system::error_code ignored;
            acceptor_.close(ignored);
        }
        throw boost::system::system_error(last, "cannot listen on " + host + ":" + std::to_string(port));
    }

    // Every connection accepted from now on speaks TLS with these settings (HTTPS only; before
    // start()).
    void use_tls(std::shared_ptr<asio::ssl::context> context) { tls_ = std::move(context); }
    bool uses_tls() const noexcept { return tls_ != nullptr; }

    void start() {
        asio::dispatch(acceptor_.get_executor(), [this] { accept(); });
    }

    // Stops accepting; idle connections close now, busy ones after their answer.
    void shutdown() {
        asio::post(acceptor_.get_executor(), [this] {
            stopping_ = true;
            boost::system::error_code ignored;
            acceptor_.close(ignored);
            retry_timer_.cancel();
        });
        for (auto& s : registry_->close()) s->request_shutdown();
    }

    reference::backend& backend() noexcept { return backend_; }
    const http_config& config() const noexcept { return config_; }
    logger& log() noexcept { return log_; }

    std::size_t open_sessions() const { return registry_->size(); }

private:
    void accept() {
        if (stopping_) return;
        acceptor_.async_accept(asio::make_strand(ioc_), [this](boost::system::error_code ec, tcp::socket socket) {
            if (stopping_ || ec == asio::error::operation_aborted) return;
            if (ec) {
                // Out of descriptors or memory, or the connection was gone already: try again
                // a little later rather than spin.
                log_.error(fmt::format("accept: {}", ec.message()));
                retry_timer_.expires_after(std::chrono::milliseconds(100));
                retry_timer_.async_wait([this](boost::system::error_code e) {
                    if (!e) accept();
                });
                return;
            }
            admit(std::move(socket));
        });
    }

    // Starts a session for a new connection, making room first when every place is taken: the
    // connection idle the longest is closed. When none is idle, the new connection waits (not
    // read) until a place frees, checked every 20 ms, and further ones wait in the listen backlog.
    void admit(tcp::socket socket) {
        if (stopping_) return;
        if (registry_->size() >= config_.max_connections) {
            if (auto idle = registry_->evict_oldest_idle()) {
                idle->evict();  // no longer counted: its place is the new connection's
            } else {
                waiting_.emplace(std::move(socket));
                retry_timer_.expires_after(std::chrono::milliseconds(20));
                retry_timer_.async_wait([this](boost::system::error_code e) {
                    tcp::socket next = std::move(*waiting_);
                    waiting_.reset();
                    if (!e) admit(std::move(next));  // else shutting down: it closes
                });
                return;
            }
        }
        try {
            auto session =
                std::make_shared<http_session>(std::move(socket), tls_.get(), backend_, config_, log_, registry_);
            if (register_session(session)) session->start();
        } catch (const std::exception& e) {
            log_.error(fmt::format("new connection: {}", e.what()));
        }
        accept();
    }

    // False when shutting down (the session is then dropped, closing its socket).
    bool register_session(const std::shared_ptr<http_session>& s) { return registry_->add(s, s->idle_since()); }

    asio::io_context& ioc_;
    reference::backend& backend_;
    std::shared_ptr<asio::ssl::context> tls_;  // null: plain HTTP
    http_config config_;
    logger& log_;
    tcp::acceptor acceptor_;
    asio::steady_timer retry_timer_;
    std::optional<tcp::socket> waiting_;  // accepted, waiting for a place (on the acceptor's strand)
    bool stopping_ = false;               // on the acceptor's strand

    std::shared_ptr<session_registry> registry_ = std::make_shared<session_registry>();
};

}  // namespace esign::server
