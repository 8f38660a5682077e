// SPDX-License-Identifier: BSL-1.0
#pragma once
// One call on the wire: its attempts (a connection from the pool or a new one, the request, the
// answer), the waits between them, and the deadline over all. Bytes in, bytes out: no type of
// the model here, so this is compiled once for every operation (the typed side is client.hpp's).
// Two ways to run it, with the same request, answer and retry rule: asynchronously, a coroutine
// on the client's executor (run_call), and synchronously, on the calling thread with blocking
// I/O (run_call_blocking: no hop to another thread, no event loop; deadline_socket.hpp).
#include <openssl/err.h>
#include <openssl/ssl.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>

#include <esign/client/detail/connection.hpp>
#include <esign/client/detail/endpoint.hpp>
#include <esign/client/detail/retry.hpp>
#include <esign/client/error.hpp>
#include <esign/client/options.hpp>

namespace esign::client::detail {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = boost::beast::http;
using clock = std::chrono::steady_clock;

// What every call of one client shares.
struct shared_state {
    asio::any_io_executor executor;
    endpoint where;
    std::string authorization;  // the Authorization header, empty for none
    client_options options;
    std::optional<asio::ssl::context> tls;   // for https://
    connection_pool pool;                    // the asynchronous calls' connections
    blocking_connection_pool blocking_pool;  // the synchronous calls'

    shared_state(asio::any_io_executor ex, endpoint e, std::string auth, client_options o)
        : executor(std::move(ex)),
          where(std::move(e)),
          authorization(std::move(auth)),
          options(std::move(o)),
          pool(options.pool_size),
          blocking_pool(options.pool_size) {}
};

// The TLS context of a client: peer verification always on; the CA file given, else the
// system's trust store. An error is the client's to report (a CA file that does not load).
inline asio::ssl::context make_tls_context(const client_options& options, boost::system::error_code& ec) {
    asio::ssl::context ctx(asio::ssl::context::tls_client);
    ctx.set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                    asio::ssl::context::no_sslv3 | asio::ssl::context::no_tlsv1 | asio::ssl::context::no_tlsv1_1);
    ctx.set_verify_mode(asio::ssl::verify_peer, ec);
    if (!ec) {
        if (options.ca_file.empty())
            ctx.set_default_verify_paths(ec);
        else
            ctx.load_verify_file(options.ca_file, ec);
    }
    return ctx;
}

// Bytes answered by a call: the last attempt's status and body, or its transport failure.
struct raw_outcome {
    unsigned status = 0;
    std::string body;
    std::optional<transport_error> failure;
    std::vector<attempt> attempts;
};

struct attempt_outcome {
    unsigned status = 0;
    std::string body;
    std::string request_id;
    std::optional<std::chrono::milliseconds> retry_after;
    std::optional<transport_error> failure;
};

// How long an operation may take: its own limit, within what is left of the call.
inline std::chrono::milliseconds within(std::chrono::milliseconds limit, clock::time_point deadline) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now());
    return std::max(std::chrono::milliseconds{0}, std::min(limit, left));
}

inline transport_error failure(transport_error::kind what, boost::system::error_code ec, bool sent) {
    if (ec == beast::error::timeout) what = transport_error::kind::timeout;
    return transport_error{what, ec, sent};
}

// The request of an attempt.
inline http::request<http::string_body> make_request(const shared_state& s, const std::string& target,
                                                     const std::string& body) {
    http::request<http::string_body> request{http::verb::post, target, 11};
    request.set(http::field::host, s.where.host_header);
    request.set(http::field::content_type, "application/json");
    request.set(http::field::user_agent, "esign-client");
    if (!s.authorization.empty()) request.set(http::field::authorization, s.authorization);
    request.body() = body;
    request.prepare_payload();
    return request;
}

// What failed to write the request or read its answer, as a transport error.
inline transport_error write_failure(boost::system::error_code ec) {
    // Not all of it went out: the server cannot have acted on a request it did not get whole.
    return failure(transport_error::kind::closed, ec, false);
}
inline transport_error read_failure(boost::system::error_code ec) {
    const bool closed = ec == http::error::end_of_stream || ec == asio::error::eof ||
                        ec == asio::error::connection_reset || ec == asio::ssl::error::stream_truncated;
    return failure(closed ? transport_error::kind::closed : transport_error::kind::protocol, ec, true);
}

// The answer read into `out`; whether its connection may serve another request.
inline bool take_answer(http::response<http::string_body> response, attempt_outcome& out) {
    out.status = response.result_int();
    if (auto id = response.find("X-Request-Id"); id != response.end()) out.request_id = std::string(id->value());
    if (auto after = response.find(http::field::retry_after); after != response.end())
        out.retry_after = retry_after(after->value());
    out.body = std::move(response.body());
    return response.keep_alive();  // else the server said so: not for the pool
}

// After attempt number `n`: the call's outcome when it was the last (true), else the wait before
// the next one.
inline bool settle(raw_outcome& out, attempt_outcome& a, unsigned n, bool read_only, const client_options& options,
                   clock::time_point deadline, std::chrono::milliseconds& wait) {
    out.attempts.push_back(attempt{a.status, a.request_id});
    const bool again = a.failure ? retry_transport(*a.failure, read_only) : retry_status(a.status, read_only);
    wait = a.retry_after ? *a.retry_after : backoff(n, options.backoff_base, options.backoff_cap);
    if (again && n < options.max_attempts && clock::now() + wait < deadline) return false;
    out.status = a.status;
    out.body = std::move(a.body);
    out.failure = a.failure;
    return true;
}

// SNI for a name (never for an address), and the certificate checked against the host.
template <class TlsStream>
bool prepare_tls(const shared_state& s, TlsStream& tls, std::optional<transport_error>& error) {
    if (!s.where.ip_literal && !SSL_set_tlsext_host_name(tls.native_handle(), s.where.host.c_str())) {
        error = failure(transport_error::kind::tls,
                        {static_cast<int>(::ERR_get_error()), asio::error::get_ssl_category()}, false);
        return false;
    }
    tls.set_verify_mode(asio::ssl::verify_peer);
    tls.set_verify_callback(asio::ssl::host_name_verification(s.where.host));
    return true;
}

// ---- asynchronous ---------------------------------------------------------------------------
// The coroutines below, and start_call, are templates of an unused parameter (`Unused`) so that
// a file compiles them only where it starts an asynchronous call: g++ 12 emits the body of an
// inline coroutine, and all that it instantiates of Asio and Beast, in every file that includes
// it, used or not (17,000 functions and half of the 30 s of g++ that client.hpp cost a file).

// A new connection to the endpoint, or why there is none (nothing was sent).
template <class Unused = void>
asio::awaitable<std::unique_ptr<connection>> open(shared_state& s, clock::time_point deadline,
                                                  std::optional<transport_error>& error) {
    using kind = transport_error::kind;
    boost::system::error_code ec;
    asio::ip::tcp::resolver resolver(s.executor);
    const auto found =
        co_await resolver.async_resolve(s.where.host, s.where.port, asio::redirect_error(asio::use_awaitable, ec));
    if (ec) {
        error = failure(kind::resolve, ec, false);
        co_return nullptr;
    }
    auto c = std::make_unique<connection>();
    if (s.tls)
        c->tls.emplace(s.executor, *s.tls);
    else
        c->plain.emplace(s.executor);
    c->tcp().expires_after(within(s.options.connect_timeout, deadline));
    co_await c->tcp().async_connect(found, asio::redirect_error(asio::use_awaitable, ec));
    if (ec) {
        error = failure(kind::connect, ec, false);
        co_return nullptr;
    }
    c->tcp().socket().set_option(asio::ip::tcp::no_delay(true), ec);
    if (c->tls) {
        if (!prepare_tls(s, *c->tls, error)) co_return nullptr;
        co_await c->tls->async_handshake(asio::ssl::stream_base::client, asio::redirect_error(asio::use_awaitable, ec));
        if (ec) {
            error = failure(kind::tls, ec, false);
            co_return nullptr;
        }
    }
    co_return c;
}

// Sends the request on `c` and reads the answer.
template <class Stream>
asio::awaitable<void> exchange_on(Stream& stream, connection& c, http::request<http::string_body>& request,
                                  std::size_t max_body, attempt_outcome& out) {
    boost::system::error_code ec;
    co_await http::async_write(stream, request, asio::redirect_error(asio::use_awaitable, ec));
    if (ec) {
        out.failure = write_failure(ec);
        co_return;
    }
    http::response_parser<http::string_body> parser;
    parser.body_limit(max_body);
    co_await http::async_read(stream, c.buffer, parser, asio::redirect_error(asio::use_awaitable, ec));
    if (ec) {
        out.failure = read_failure(ec);
        co_return;
    }
    if (!take_answer(parser.release(), out)) c.tcp().close();
}

// One attempt: a pooled or new connection, the request, the answer; the connection goes back
// to the pool when the answer leaves it usable.
template <class Unused = void>
asio::awaitable<attempt_outcome> attempt_once(shared_state& s, const std::string& target, const std::string& body,
                                              clock::time_point deadline) {
    attempt_outcome out;
    auto c = s.pool.take();
    if (!c) {
        c = co_await open<Unused>(s, deadline, out.failure);
        if (!c) co_return out;
    }
    auto request = make_request(s, target, body);
    c->tcp().expires_after(within(s.options.read_timeout, deadline));
    if (c->tls)
        co_await exchange_on(*c->tls, *c, request, s.options.max_response_bytes, out);
    else
        co_await exchange_on(*c->plain, *c, request, s.options.max_response_bytes, out);
    if (!out.failure && c->tcp().socket().is_open()) {
        c->tcp().expires_never();
        s.pool.give_back(std::move(c));
    }
    co_return out;
}

// The call: attempts until one is final, the attempts are spent, or the deadline is near.
template <class Unused = void>
asio::awaitable<raw_outcome> run_call(std::shared_ptr<shared_state> s, std::string path, std::string body,
                                      bool read_only) {
    const auto deadline = clock::now() + s->options.total_timeout;
    const std::string target = s->where.prefix + path;
    raw_outcome out;
    for (unsigned n = 1;; ++n) {
        auto a = co_await attempt_once<Unused>(*s, target, body, deadline);
        std::chrono::milliseconds wait{};
        if (settle(out, a, n, read_only, s->options, deadline, wait)) co_return out;
        asio::steady_timer timer(s->executor, wait);
        boost::system::error_code ec;
        co_await timer.async_wait(asio::redirect_error(asio::use_awaitable, ec));
    }
}

// Starts a call on the client's executor; `done` gets its outcome there. Not a template of the
// row: its one instantiation serves every row, so that the coroutine machinery is compiled once
// per file that starts asynchronous calls rather than once per row.
template <class Unused = void>
void start_call(std::shared_ptr<shared_state> s, std::string path, std::string body, bool read_only,
                std::function<void(raw_outcome)> done) {
    auto executor = s->executor;
    asio::co_spawn(executor, run_call<Unused>(std::move(s), std::move(path), std::move(body), read_only),
                   [done = std::move(done)](const std::exception_ptr& e, raw_outcome raw) {
                       if (e) std::rethrow_exception(e);  // run_call reports failures as values: only bad_alloc
                       done(std::move(raw));
                   });
}

// ---- synchronous, on the calling thread ------------------------------------------------------

// A new connection of the synchronous calls, or why there is none (nothing was sent).
inline std::unique_ptr<blocking_connection> open_blocking(shared_state& s, clock::time_point deadline,
                                                          std::optional<transport_error>& error) {
    using kind = transport_error::kind;
    boost::system::error_code ec;
    asio::ip::tcp::resolver resolver(s.executor);  // (its synchronous resolve runs here)
    const auto found = resolver.resolve(s.where.host, s.where.port, ec);
    if (ec) {
        error = failure(kind::resolve, ec, false);
        return nullptr;
    }
    auto c = std::make_unique<blocking_connection>();
    if (s.tls)
        c->tls.emplace(deadline_socket(s.executor), *s.tls);
    else
        c->plain.emplace(s.executor);
    c->socket().expires_at(clock::now() + within(s.options.connect_timeout, deadline));
    c->socket().connect(found, ec);
    if (ec) {
        error = failure(kind::connect, ec, false);
        return nullptr;
    }
    if (c->tls) {
        if (!prepare_tls(s, *c->tls, error)) return nullptr;
        c->tls->handshake(asio::ssl::stream_base::client, ec);
        if (ec) {
            error = failure(kind::tls, ec, false);
            return nullptr;
        }
    }
    return c;
}

template <class Stream>
void exchange_blocking(Stream& stream, blocking_connection& c, http::request<http::string_body>& request,
                       std::size_t max_body, attempt_outcome& out) {
    boost::system::error_code ec;
    http::write(stream, request, ec);
    if (ec) {
        out.failure = write_failure(ec);
        return;
    }
    http::response_parser<http::string_body> parser;
    parser.body_limit(max_body);
    http::read(stream, c.buffer, parser, ec);
    if (ec) {
        out.failure = read_failure(ec);
        return;
    }
    if (!take_answer(parser.release(), out)) c.socket().close();
}

inline attempt_outcome attempt_blocking(shared_state& s, const std::string& target, const std::string& body,
                                        clock::time_point deadline) {
    attempt_outcome out;
    auto c = s.blocking_pool.take();
    if (!c) {
        c = open_blocking(s, deadline, out.failure);
        if (!c) return out;
    }
    auto request = make_request(s, target, body);
    c->socket().expires_at(clock::now() + within(s.options.read_timeout, deadline));
    if (c->tls)
        exchange_blocking(*c->tls, *c, request, s.options.max_response_bytes, out);
    else
        exchange_blocking(*c->plain, *c, request, s.options.max_response_bytes, out);
    if (!out.failure && c->socket().is_open()) s.blocking_pool.give_back(std::move(c));
    return out;
}

// The call on the calling thread: the attempts and waits of run_call, blocking.
inline raw_outcome run_call_blocking(shared_state& s, std::string_view path, const std::string& body, bool read_only) {
    const auto deadline = clock::now() + s.options.total_timeout;
    const std::string target = s.where.prefix + std::string(path);
    raw_outcome out;
    for (unsigned n = 1;; ++n) {
        auto a = attempt_blocking(s, target, body, deadline);
        std::chrono::milliseconds wait{};
        if (settle(out, a, n, read_only, s.options, deadline, wait)) return out;
        std::this_thread::sleep_for(wait);
    }
}

}  // namespace esign::client::detail
