// SPDX-License-Identifier: BSL-1.0
// esign-bare-server: the floor of what an HTTP/1.1 server on Boost.Beast costs, for
// bench/http_compare.py. It answers every request, whatever its method, path and body, with
// 200 and the same fixed body (Content-Type: application/json, an X-Request-Id header), and
// is threaded as esign-reference-server is (http_server.hpp, main.cpp): one io_context run
// by N threads, the acceptor and each connection on their own strand, keep-alive as the
// request asks, whole requests read before answering.
//
//   esign-bare-server [--listen HOST:PORT] [--threads N] [--body-bytes N]
//
// Defaults: 127.0.0.1:8080 (port 0 picks a free one), the number of hardware threads, 1024
// bytes. Prints `listening on http://HOST:PORT` when ready; SIGINT or SIGTERM stop it.
#include <algorithm>
#include <charconv>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

struct settings {
    std::string host = "127.0.0.1";
    unsigned short port = 8080;
    unsigned threads = 0;
    std::size_t body_bytes = 1024;
};

// A JSON object of exactly n bytes when n >= 8 ({"p":"xx...x"}), else n spaces.
std::string make_body(std::size_t n) {
    if (n < 8) return std::string(n, ' ');
    return "{\"p\":\"" + std::string(n - 8, 'x') + "\"}";
}

class session : public std::enable_shared_from_this<session> {
public:
    session(tcp::socket socket, const std::string& body) : stream_(std::move(socket)), body_(body) {}

    void read() {
        request_ = {};
        stream_.expires_after(std::chrono::seconds(30));
        http::async_read(stream_, buffer_, request_,
                         [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_read(ec); });
    }

private:
    void on_read(beast::error_code ec) {
        if (ec) return close();
        response_ = {};
        response_.version(request_.version() == 10 ? 10 : 11);
        response_.result(http::status::ok);
        response_.set(http::field::content_type, "application/json");
        response_.set("X-Request-Id", "00000000-0000-4000-8000-000000000000");
        response_.keep_alive(request_.keep_alive());
        response_.body() = body_;
        response_.prepare_payload();
        stream_.expires_after(std::chrono::seconds(30));
        http::async_write(stream_, response_, [self = shared_from_this()](beast::error_code e, std::size_t) {
            if (e || !self->response_.keep_alive()) return self->close();
            self->read();
        });
    }

    void close() {
        beast::error_code ignored;
        stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
        stream_.close();
    }

    beast::tcp_stream stream_;
    const std::string& body_;
    beast::flat_buffer buffer_;
    http::request<http::string_body> request_;
    http::response<http::string_body> response_;
};

void accept(tcp::acceptor& acceptor, asio::io_context& ioc, const std::string& body) {
    acceptor.async_accept(asio::make_strand(ioc), [&acceptor, &ioc, &body](beast::error_code ec, tcp::socket s) {
        if (ec == asio::error::operation_aborted) return;
        if (!ec) std::make_shared<session>(std::move(s), body)->read();
        accept(acceptor, ioc, body);
    });
}

bool parse_unsigned(std::string_view text, unsigned long long max, unsigned long long& out) {
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc{} && end == text.data() + text.size() && out <= max;
}

bool parse(int argc, char** argv, settings& s) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (i + 1 == argc) return false;
        const std::string_view value = argv[++i];
        unsigned long long n = 0;
        if (arg == "--listen") {
            const auto colon = value.rfind(':');
            if (colon == std::string_view::npos || !parse_unsigned(value.substr(colon + 1), 65535, n)) return false;
            s.host = std::string(value.substr(0, colon));
            s.port = static_cast<unsigned short>(n);
        } else if (arg == "--threads" && parse_unsigned(value, 1024, n) && n > 0) {
            s.threads = static_cast<unsigned>(n);
        } else if (arg == "--body-bytes" && parse_unsigned(value, 1 << 24, n)) {
            s.body_bytes = static_cast<std::size_t>(n);
        } else {
            return false;
        }
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    settings s;
    if (!parse(argc, argv, s)) {
        std::fprintf(stderr, "usage: esign-bare-server [--listen HOST:PORT] [--threads N] [--body-bytes N]\n");
        return 2;
    }
    if (s.threads == 0) s.threads = std::max(1u, std::thread::hardware_concurrency());
    std::signal(SIGPIPE, SIG_IGN);
    try {
        const std::string body = make_body(s.body_bytes);
        asio::io_context ioc(static_cast<int>(s.threads));
        tcp::acceptor acceptor(asio::make_strand(ioc));
        const tcp::endpoint wanted(asio::ip::make_address(s.host), s.port);
        acceptor.open(wanted.protocol());
        acceptor.set_option(asio::socket_base::reuse_address(true));
        acceptor.bind(wanted);
        acceptor.listen(asio::socket_base::max_listen_connections);
        const tcp::endpoint bound = acceptor.local_endpoint();
        accept(acceptor, ioc, body);

        asio::signal_set signals(ioc, SIGINT, SIGTERM);
        signals.async_wait([&ioc](beast::error_code, int) { ioc.stop(); });

        std::printf("listening on http://%s:%u\n", bound.address().to_string().c_str(),
                    static_cast<unsigned>(bound.port()));
        std::fflush(stdout);
        std::vector<std::thread> pool;
        for (unsigned i = 0; i < s.threads; ++i) pool.emplace_back([&ioc] { ioc.run(); });
        for (auto& t : pool) t.join();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "esign-bare-server: %s\n", e.what());
        return 1;
    }
    return 0;
}
