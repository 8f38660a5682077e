// SPDX-License-Identifier: BSL-1.0
// The HTTPS client of the black-box tests (https_client.hpp): the Asio/Beast/OpenSSL code,
// compiled once for the whole test program. No test cases here.
#include "https_client.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <openssl/ssl.h>

#include "beast_response.hpp"

namespace esign::test {

namespace https_client_detail {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;

ssl::context client_context(const tls_client_settings& settings) {
    ssl::context ctx(ssl::context::tls_client);
    ctx.set_verify_mode(ssl::verify_peer);
    ctx.load_verify_file(settings.ca_file);
    if (settings.tls11_only) {
        SSL_CTX_set_security_level(ctx.native_handle(), 0);
        SSL_CTX_set_cipher_list(ctx.native_handle(), "DEFAULT:@SECLEVEL=0");
        SSL_CTX_set_min_proto_version(ctx.native_handle(), TLS1_1_VERSION);
        SSL_CTX_set_max_proto_version(ctx.native_handle(), TLS1_1_VERSION);
    }
    return ctx;
}

}  // namespace https_client_detail

using namespace https_client_detail;

bool can_offer_tls11() {
#ifdef OPENSSL_NO_TLS1_1
    return false;
#else
    return true;
#endif
}

struct https_connection::impl {
    impl(const tls_client_settings& settings, std::chrono::milliseconds timeout)
        : timeout_(timeout), ctx_(client_context(settings)), stream_(ioc_, ctx_) {}

    // Runs one asynchronous operation to its end (the TCP stream's timer bounds it).
    template <class Start>
    void run(Start start) {
        beast::error_code result = asio::error::would_block;
        beast::get_lowest_layer(stream_).expires_after(timeout_);
        start([&result](beast::error_code ec, auto&&...) { result = ec; });
        ioc_.restart();
        ioc_.run();
        if (result) {
            close();
            throw boost::system::system_error(result);
        }
    }

    void connect(const std::string& host, unsigned short port, const std::string& server_name) {
        host_header_ = server_name + ":" + std::to_string(port);
        tcp::resolver resolver(ioc_);
        auto endpoints = resolver.resolve(host, std::to_string(port));
        run([&](auto done) {
            beast::get_lowest_layer(stream_).async_connect(
                endpoints, [done](beast::error_code ec, const tcp::endpoint&) mutable { done(ec); });
        });
        SSL_set_tlsext_host_name(stream_.native_handle(), server_name.c_str());
        stream_.set_verify_callback(ssl::host_name_verification(server_name));
        run([&](auto done) { stream_.async_handshake(ssl::stream_base::client, done); });
    }

    http_response request(http::verb method, std::string target, std::string body, const header_list& headers) {
        if (!is_open()) throw boost::system::system_error(asio::error::not_connected);
        http::request<http::string_body> req{method, target, 11};
        req.set(http::field::host, host_header_);
        for (const auto& [name, value] : headers) req.insert(name, value);
        if (method == http::verb::post && req.count(http::field::content_type) == 0)
            req.set(http::field::content_type, "application/json");
        req.body() = std::move(body);
        if (method == http::verb::post || !req.body().empty()) req.prepare_payload();
        run([&](auto done) { http::async_write(stream_, req, done); });
        http::response_parser<http::string_body> parser;
        parser.body_limit(64 * 1024 * 1024);
        run([&](auto done) { http::async_read(stream_, buffer_, parser, done); });
        http_response out = response_of(parser.release());
        if (!out.keep_alive) close();
        wire_log::instance().record(target, out);
        return out;
    }

    bool is_open() const { return beast::get_lowest_layer(stream_).socket().is_open(); }

    void close() {
        beast::error_code ignored;
        beast::get_lowest_layer(stream_).socket().shutdown(tcp::socket::shutdown_both, ignored);
        beast::get_lowest_layer(stream_).close();
    }

    std::chrono::milliseconds timeout_;
    asio::io_context ioc_;
    ssl::context ctx_;
    beast::ssl_stream<beast::tcp_stream> stream_;
    beast::flat_buffer buffer_;
    std::string host_header_;
};

https_connection::https_connection(const std::string& host, unsigned short port, const tls_client_settings& settings,
                                   std::chrono::milliseconds timeout)
    : impl_(std::make_unique<impl>(settings, timeout)) {
    impl_->connect(host, port, settings.server_name);
}
https_connection::https_connection(https_connection&&) noexcept = default;
https_connection& https_connection::operator=(https_connection&&) noexcept = default;
https_connection::~https_connection() = default;

http_response https_connection::request(http::verb method, std::string target, std::string body,
                                        const header_list& headers) {
    return impl_->request(method, std::move(target), std::move(body), headers);
}

std::string https_connection::protocol() const { return SSL_get_version(impl_->stream_.native_handle()); }
bool https_connection::is_open() const { return impl_->is_open(); }

std::string tls_handshake_error(const std::string& host, unsigned short port, const tls_client_settings& settings,
                                std::chrono::milliseconds timeout) {
    try {
        https_connection c(host, port, settings, timeout);
        return {};
    } catch (const boost::system::system_error& e) {
        return e.what();
    }
}

}  // namespace esign::test
