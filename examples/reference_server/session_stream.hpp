// SPDX-License-Identifier: BSL-1.0
#pragma once
// The byte stream of one connection of esign-reference-server: plain TCP, or TLS over it
// (--tls-cert/--tls-key, tls.hpp). One type for both, so that http_session's logic exists once
// and is compiled once: reads and writes go to whichever the connection has (a branch per
// operation), and what only TLS does (the handshake, close_notify) is asked for by name.
//
// Beast's ssl_stream is used rather than Asio's ssl::stream alone: it gathers a response's
// header and body into one TLS record where Asio's would write one record per buffer.
#include <cstddef>
#include <optional>
#include <utility>

#include <boost/asio/async_result.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

namespace esign::server {

class session_stream {
public:
    using socket_type = boost::asio::ip::tcp::socket;
    using tls_type = boost::beast::ssl_stream<socket_type>;
    using executor_type = socket_type::executor_type;

    // Plain TCP when `tls` is null, else TLS with the context's settings.
    session_stream(socket_type socket, boost::asio::ssl::context* tls) {
        if (tls)
            tls_.emplace(std::move(socket), *tls);
        else
            plain_.emplace(std::move(socket));
    }

    bool is_tls() const noexcept { return tls_.has_value(); }
    tls_type& tls() { return *tls_; }
    // The TCP socket under it (readiness waits, shutdown, close).
    socket_type& socket() noexcept { return tls_ ? tls_->next_layer() : *plain_; }
    executor_type get_executor() noexcept { return socket().get_executor(); }

    template <class MutableBuffers, class Token>
    auto async_read_some(const MutableBuffers& buffers, Token&& token) {
        return on_layer(buffers, std::forward<Token>(token),
                        [](auto& layer, const auto& b, auto handler) { layer.async_read_some(b, std::move(handler)); });
    }

    template <class ConstBuffers, class Token>
    auto async_write_some(const ConstBuffers& buffers, Token&& token) {
        return on_layer(buffers, std::forward<Token>(token), [](auto& layer, const auto& b, auto handler) {
            layer.async_write_some(b, std::move(handler));
        });
    }

private:
    // Starts an operation, `start(layer, buffers, handler)`, on whichever layer the connection has.
    template <class Buffers, class Token, class Start>
    auto on_layer(const Buffers& buffers, Token&& token, Start start) {
        return boost::asio::async_initiate<Token, void(boost::beast::error_code, std::size_t)>(
            [this, start](auto handler, const Buffers& b) {
                if (tls_)
                    start(*tls_, b, std::move(handler));
                else
                    start(*plain_, b, std::move(handler));
            },
            token, buffers);
    }

    std::optional<socket_type> plain_;
    std::optional<tls_type> tls_;
};

}  // namespace esign::server
