// SPDX-License-Identifier: BSL-1.0
#pragma once
// One connection of esign-reference-server's HTTP/1.1 transport (contract.md §1, §5), on
// Boost.Beast: its requests, one at a time, and their answers.
//
// Transport only: which paths exist, which need a key, whether a key is valid, and every
// response body come from the backend. Per request, the first failing check answers:
//
//   1. the path (the target without '?query' or '#fragment') is not an operation   → 404
//      (GET /openapi.json serves the backend's OpenAPI document, 200, no key; other
//      methods on it → 405 with `Allow: GET`; no document → 404; GET and HEAD of the signing
//      page, the inspector (not with --no-control) and their assets answer them, see
//      static_assets.hpp; other methods → 405)
//   2. the method is not POST                                                        → 405, `Allow: POST`
//      (GET /_control/health answers 200 {"status":"ok"}, no credentials, unless --no-control)
//   3. `Authorization: Bearer <credentials>` may not call the operation (missing, malformed,
//      repeated or unknown where a team's are needed; see backend::authenticate) → 401 AUTHENTICATION_ERROR
//   4. Content-Type is not application/json (parameters allowed, case-insensitive)  → 415
//   5. Content-Length over --max-body (checked before reading), or a chunked body
//      growing over it while read                                                    → 413, connection closed
//   6. backend.handle(path, key, body) for everything else (400 body errors included).
//
// Responses always carry `Content-Type: application/json` and `X-Request-Id`.
//
// Robustness:
//   - request header (request line + fields) over 16 KiB → 431 with the error body
//     (INVALID_REQUEST_FORMAT, path "/"), connection closed; the chunk extensions and trailers
//     of a chunked body count with the header (Beast bounds neither): over 16 KiB together →
//     431 at the request's path, connection closed, with a key or without;
//   - what a connection buffers is bounded: the read buffer holds at most 16 KiB (the header
//     limit), and none while a plain connection waits for its next request (a TLS one keeps
//     one read of 4 KiB pending: decrypted bytes can wait inside the TLS layer, where a
//     readiness wait on the socket would not see them);
//   - over TLS (session_stream.hpp, tls.hpp) the handshake comes first, within the header
//     timeout; a connection that does not complete it is closed without an answer;
//   - malformed HTTP → connection closed without an answer;
//   - 30 s to receive each request header (idle keep-alive included), 60 s for a body, 30 s
//     to write a response (--header-timeout, --body-timeout, --write-timeout); on expiry the
//     connection is closed. No timeout runs while a fault rule's delay is waited;
//   - when an error is answered before the body was read, a body of at most --max-body is
//     read and dropped so the connection stays usable; a larger one (or `Expect:
//     100-continue`) closes the connection after the answer. Closing after an answer is
//     "lingering": our side is shut down first, then what the client still sends is read
//     and dropped for up to 2 s, so that the client sees the answer rather than a reset (over
//     TLS: close_notify is sent and the client's awaited for up to 2 s);
//   - exceptions never leave a session (the backend failing gives 500 INTERNAL_SERVER_ERROR).
//
// Teams never stall each other (contract.md §6.1): a team's requests run through its
// team_queue, one at a time; while one runs, the team's other requests wait in the queue
// without holding a server thread, so the other threads serve the other teams, the operator
// and health. The operator's requests run at once.
//
// At --max-connections, the connection idle the longest (waiting for its next request with
// nothing of it received) is closed to admit a new one (http_server.hpp, evict()).
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <utility>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <fmt/format.h>

#include <esign/reference/backend.hpp>
#include <esign/reference/spooled_text.hpp>
#include <esign/reference/team/queue.hpp>

#include "http_config.hpp"
#include "http_request.hpp"
#include "log.hpp"
#include "session_registry.hpp"
#include "session_stream.hpp"
#include "static_assets.hpp"

namespace esign::server {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace detail {

// A first read large enough for most headers with their body; later reads of the request use
// what the buffer then holds (at most the header limit).
inline constexpr std::size_t first_read_size = 4096;

// A random lowercase version 4 UUID, for the one response the backend does not make (the
// OpenAPI document). Not for identifiers of the API.
inline std::string random_request_id() {
    thread_local std::mt19937_64 engine{std::random_device{}()};
    std::array<std::uint8_t, 16> b{};
    for (std::size_t i = 0; i < 16; i += 8) {
        const std::uint64_t w = engine();
        for (std::size_t j = 0; j < 8; ++j) b[i + j] = static_cast<std::uint8_t>(w >> (8 * j));
    }
    return reference::uuid_v4(b);
}

}  // namespace detail

class http_session : public std::enable_shared_from_this<http_session> {
public:
    // Plain TCP when `tls` is null, else TLS with its settings (the server's, outliving sessions).
    http_session(tcp::socket socket, asio::ssl::context* tls, reference::backend& backend, const http_config& config,
                 logger& log, std::shared_ptr<session_registry> registry);
    ~http_session();

    void start();
    // Shutting down: an idle connection closes now, a busy one after its answer.
    void request_shutdown();
    // Making room (--max-connections): closes the connection now if it is still idle, else after
    // the answer to the request it began meanwhile.
    void evict();
    // Since when the connection has waited for its next request with nothing of it received
    // (its last answer, else its start; steady clock, ns since its epoch), or 0 while it is not
    // so idle. Read by the registry.
    const std::atomic<std::int64_t>& idle_since() const noexcept { return idle_since_; }
    // Drops the requests waiting in this connection's team queue: for a server whose threads
    // ended, so that no session outlives the io_context (called from no other thread).
    void discard_queued();

private:
    using parser_type = http::request_parser<http::string_body>;

    void read_header();
    void on_readable(beast::error_code ec);
    void on_first_read(beast::error_code ec, std::size_t n);
    void parse_header();
    void on_header(beast::error_code ec);
    void check_request();
    void read_body();
    void on_body(beast::error_code ec);
    void respond(const std::optional<reference::fault_decision>& fault);
    void run_request(const std::optional<reference::fault_decision>& fault);
    bool over_header_budget(beast::error_code ec) const;
    void header_budget_exceeded();
    void answer_early(reference::reply r, std::string_view allow = {});
    void on_discarded(beast::error_code ec);
    void send(reference::reply r, bool keep_alive, std::string_view allow = {});
    void send_spooled(bool close_after);
    void on_write(beast::error_code ec, bool close_after);
    void linger_close();
    void on_linger(beast::error_code ec);
    void close();
    void log_request(unsigned status);

    // The connection's deadline (see expire_after).
    void expire_after(std::chrono::steady_clock::duration d);
    void expire_never();
    void wait_for_deadline();
    void on_deadline(beast::error_code ec);

    session_stream stream_;
    // The server's: used by handlers only, which never run once the server is gone.
    reference::backend& backend_;
    const http_config& config_;
    logger& log_;
    std::shared_ptr<session_registry> registry_;
    beast::flat_buffer buffer_;  // at most config_.header_limit bytes (one read, or one header)
    std::optional<parser_type> parser_;
    // The request's header, chunk extensions and trailers so far, against config_.header_limit.
    std::size_t header_bytes_ = 0;
    std::size_t header_field_bytes_ = 0;  // fields_size() of the header alone (trailers add to it)
    std::function<void(std::uint64_t, beast::string_view, beast::error_code&)> on_chunk_header_;
    std::atomic<std::int64_t> idle_since_{0};
    // When the last answer began to be written (steady clock, ns; 0 before the first). The
    // connection counts as idle from then, not from the write's completion: a client that read
    // the answer and then opened another connection sees this one idle the longer of the two,
    // however late the completion runs.
    std::int64_t answered_at_ = 0;
    http::response<http::string_body> response_;
    // An answer's body in a file (reply::spooled, §6.7): sent after the head, spool_chunk bytes at
    // a time through spool_buffer_ (made for such an answer, freed after it).
    static constexpr std::size_t spool_chunk = std::size_t(64) << 10;
    std::shared_ptr<const reference::spooled_text> spooled_;
    std::uint64_t spooled_sent_ = 0;
    std::unique_ptr<char[]> spool_buffer_;
    std::optional<http::response<http::empty_body>> continue_;
    std::array<char, 4096> drain_{};
    asio::steady_timer delay_timer_;  // a fault rule's delay (§6.5), waited without a thread
    // One timer for every timeout of the connection: `deadline_` moves with each phase (a store)
    // and the timer, waiting for `waiting_until_`, is re-armed only when it would fire too late.
    // Beast's tcp_stream instead re-arms a timer for every read and write, and each re-arming
    // cancels a wait whose handler then runs: several reactor and strand operations a request.
    asio::steady_timer deadline_timer_;
    std::chrono::steady_clock::time_point deadline_ = std::chrono::steady_clock::time_point::max();
    std::chrono::steady_clock::time_point waiting_until_ = std::chrono::steady_clock::time_point::max();

    std::string path_;
    // The operation and its caller, resolved once before the body is read, and passed on.
    const reference::backend::route* route_ = nullptr;
    std::optional<reference::backend::caller> caller_;
    std::optional<reference::reply> pending_;  // an early answer waiting for its body to be dropped
    std::string pending_allow_;
    // The headers of a static asset's answer (static_assets.hpp), sent by send() instead of JSON's.
    std::vector<std::pair<std::string_view, std::string_view>> asset_headers_;
    bool reading_header_ = false;
    bool stopping_ = false;
    bool closed_ = false;
    std::chrono::steady_clock::time_point started_{};
};

inline http_session::http_session(tcp::socket socket, asio::ssl::context* tls, reference::backend& backend,
                                  const http_config& config, logger& log, std::shared_ptr<session_registry> registry)
    : stream_(std::move(socket), tls),
      backend_(backend),
      config_(config),
      log_(log),
      registry_(std::move(registry)),
      buffer_(config.header_limit),
      delay_timer_(stream_.get_executor()),
      deadline_timer_(stream_.get_executor()) {
    // Beast keeps no limit on chunk extensions: they count with the header.
    on_chunk_header_ = [this](std::uint64_t, beast::string_view extensions, beast::error_code& ec) {
        header_bytes_ += extensions.size();
        if (header_bytes_ > config_.header_limit) ec = http::error::header_limit;
    };
}

namespace detail {

// The bytes of a message's fields as sent ("name: value\r\n" each): what trailers add to it.
template <class Fields>
std::size_t fields_size(const Fields& fields) {
    std::size_t n = 0;
    for (const auto& f : fields) n += f.name_string().size() + f.value().size() + 4;
    return n;
}

}  // namespace detail

inline http_session::~http_session() { registry_->remove(this); }

inline void http_session::start() {
    if (!stream_.is_tls()) {
        // Reads after a readiness wait are tried without blocking (on_readable).
        beast::error_code ignored;
        stream_.socket().non_blocking(true, ignored);
        asio::dispatch(stream_.get_executor(), [self = shared_from_this()] { self->read_header(); });
        return;
    }
    // The handshake is part of receiving the first request: the header timeout covers it, and
    // shutting down closes a connection still in it (reading_header_).
    asio::dispatch(stream_.get_executor(), [self = shared_from_this()] {
        if (self->stopping_ || self->closed_) return self->close();
        self->reading_header_ = true;
        self->expire_after(self->config_.header_timeout);
        self->stream_.tls().async_handshake(asio::ssl::stream_base::server, [self](beast::error_code ec) {
            if (ec) return self->close();  // not TLS, refused protocol or cipher, timeout, shutdown
            self->read_header();
        });
    });
}

inline void http_session::request_shutdown() {
    asio::post(stream_.get_executor(), [self = shared_from_this()] {
        self->stopping_ = true;
        if (self->reading_header_) self->close();  // idle (or mid-header): the read ends with an error
        self->delay_timer_.cancel();               // a delayed request is not run: the connection closes
    });
}

inline void http_session::evict() {
    asio::post(stream_.get_executor(), [self = shared_from_this()] {
        self->stopping_ = true;
        beast::error_code ec;
        // Still waiting, and nothing came meanwhile (a request that did is answered first).
        if (self->idle_since_.load(std::memory_order_relaxed) != 0 && self->stream_.socket().available(ec) == 0)
            self->close();
    });
}

inline void http_session::discard_queued() {
    if (caller_ && caller_->team) caller_->team->queue.discard();
}

inline void http_session::read_header() {
    if (stopping_ || closed_) return close();
    parser_.emplace();
    parser_->header_limit(static_cast<std::uint32_t>(config_.header_limit));
    parser_->body_limit(boost::none);  // the size is checked after authentication (order of checks)
    parser_->on_chunk_header(on_chunk_header_);
    header_bytes_ = 0;
    header_field_bytes_ = 0;
    pending_.reset();
    pending_allow_.clear();
    route_ = nullptr;
    caller_.reset();
    path_.clear();
    reading_header_ = true;
    expire_after(config_.header_timeout);
    if (buffer_.size() != 0) return parse_header();  // the next request came with the last one
    // Idle: wait for the next request holding no read buffer (an idle connection costs little,
    // and only such a one is closed to make room at --max-connections).
    buffer_.shrink_to_fit();
    const std::int64_t since =
        answered_at_ != 0 ? answered_at_ : std::chrono::steady_clock::now().time_since_epoch().count();
    idle_since_.store(std::max<std::int64_t>(1, since), std::memory_order_relaxed);
    if (stream_.is_tls()) {
        stream_.async_read_some(
            buffer_.prepare(std::min(detail::first_read_size, buffer_.max_size())),
            [self = shared_from_this()](beast::error_code ec, std::size_t n) { self->on_first_read(ec, n); });
        return;
    }
    stream_.socket().async_wait(tcp::socket::wait_read,
                                [self = shared_from_this()](beast::error_code ec) { self->on_readable(ec); });
}

inline void http_session::on_readable(beast::error_code ec) {
    if (ec || closed_) {
        idle_since_.store(0, std::memory_order_relaxed);
        return close();
    }
    const std::size_t n = stream_.socket().read_some(
        buffer_.prepare(std::min(detail::first_read_size, buffer_.max_size())), ec);  // non-blocking
    if (ec == asio::error::would_block || ec == asio::error::try_again) {
        stream_.socket().async_wait(tcp::socket::wait_read,
                                    [self = shared_from_this()](beast::error_code e) { self->on_readable(e); });
        return;
    }
    on_first_read(ec, n);
}

// The first bytes of the next request (or the end of the connection).
inline void http_session::on_first_read(beast::error_code ec, std::size_t n) {
    idle_since_.store(0, std::memory_order_relaxed);
    if (ec || closed_) return close();  // end of stream: the client closed an idle connection
    buffer_.commit(n);
    parse_header();
}

// Parses what the buffer holds; the header usually came whole with the first read, else the
// rest is read asynchronously.
inline void http_session::parse_header() {
    beast::error_code ec;
    const std::size_t used = parser_->put(buffer_.data(), ec);
    buffer_.consume(used);
    header_bytes_ = used;
    if (ec == http::error::need_more) {
        http::async_read_header(stream_, buffer_, *parser_,
                                [self = shared_from_this()](beast::error_code e, std::size_t more) {
                                    self->header_bytes_ += more;
                                    self->on_header(e);
                                });
        return;
    }
    if (!ec && !parser_->is_header_done()) return close();  // cannot happen: put stops after the header
    on_header(ec);
}

inline void http_session::on_header(beast::error_code ec) {
    reading_header_ = false;
    if (ec == http::error::header_limit) {
        // Answer, then close: the rest of the header cannot be found reliably.
        started_ = std::chrono::steady_clock::now();
        path_ = "/";
        try {
            auto r = backend_.transport_error(
                "/", rules::transport_status::header_too_large,
                fmt::format("The request header is larger than {} bytes.", config_.header_limit));
            return send(std::move(r), false);
        } catch (...) {
            return close();
        }
    }
    if (ec == http::error::bad_content_length || ec == http::error::multiple_content_length) {
        // §6.7: a length over the limit, however many digits, is 413; one that is not a
        // number (or two that differ) is 400. The rest of the header cannot be trusted, so
        // only the path is judged first; then the connection closes.
        started_ = std::chrono::steady_clock::now();
        try {
            path_ = std::string(detail::request_path(parser_->get().target()));
            auto& backend = backend_;
            if (path_.empty() || !backend.knows_path(path_)) {
                if (path_.empty()) path_ = "/";
                return send(backend.no_route(path_), false);
            }
            if (ec == http::error::bad_content_length && detail::has_oversized_content_length(buffer_.data()))
                return send(
                    backend.transport_error(path_, rules::transport_status::payload_too_large,
                                            fmt::format("The request body is larger than {} bytes.", config_.max_body)),
                    false);
            return send(backend.transport_error(path_, rules::transport_status::bad_request,
                                                "Content-Length is not a number of bytes."),
                        false);
        } catch (...) {
            return close();
        }
    }
    if (ec) return close();  // end of stream, timeout, malformed HTTP, shutdown
    started_ = std::chrono::steady_clock::now();
    try {
        header_field_bytes_ = detail::fields_size(parser_->get());
        check_request();
    } catch (const std::exception& e) {
        log_.error(fmt::format("request: {}", e.what()));
        close();
    } catch (...) {
        close();
    }
}

inline void http_session::check_request() {
    auto& backend = backend_;
    const auto& req = parser_->get();
    path_ = std::string(detail::request_path(req.target()));

    // The signing page and the inspector (contract.md §7.1, §7.2; the inspector only with the
    // control plane), compiled in: static_assets.hpp.
    if (const auto* asset = static_assets::find(path_, backend.options().control_enabled)) {
        if (req.method() != http::verb::get && req.method() != http::verb::head)
            return answer_early(
                backend.transport_error(path_, rules::transport_status::method_not_allowed, "Use GET for this page."),
                static_assets::allowed_methods);
        auto a = static_assets::respond(*asset, req[http::field::if_none_match]);
        asset_headers_ = std::move(a.headers);
        return answer_early(reference::reply{a.status, std::move(a.body), detail::random_request_id()});
    }
    if (path_ == "/openapi.json") {
        if (auto doc = backend.openapi_json()) {
            if (req.method() != http::verb::get)
                return answer_early(backend.transport_error(path_, rules::transport_status::method_not_allowed,
                                                            "Use GET for /openapi.json."),
                                    "GET");
            return answer_early(reference::reply{200, std::move(*doc), detail::random_request_id()});
        }
    }
    if (path_ == "/_control/health" && backend.options().control_enabled) {
        if (req.method() != http::verb::get)
            return answer_early(backend.transport_error(path_, rules::transport_status::method_not_allowed,
                                                        "Use GET for /_control/health."),
                                "GET");
        return answer_early(reference::reply{200, R"({"status":"ok"})", detail::random_request_id()});
    }
    route_ = backend.find_route(path_);
    if (!route_) return answer_early(backend.no_route(path_));
    if (req.method() != http::verb::post)
        return answer_early(backend.transport_error(path_, rules::transport_status::method_not_allowed,
                                                    "Every operation uses the POST method."),
                            "POST");
    // A malformed or repeated Authorization header counts as present (never as "no credentials",
    // which may be the operator's).
    const auto token = detail::bearer_token(req);
    const bool has_header = req.count(http::field::authorization) != 0;
    std::optional<std::string_view> credentials = token;
    if (has_header && !token) credentials = std::string_view{};
    caller_ = backend.authenticate(*route_, credentials);
    if (!caller_) return answer_early(backend.unauthenticated(path_, credentials.has_value()));
    if (!detail::is_json_content_type(req))
        return answer_early(backend.transport_error(path_, rules::transport_status::unsupported_media_type,
                                                    "The request body must be application/json."));
    const auto length = parser_->content_length();
    if (length && *length > config_.max_body)
        return send(backend.transport_error(path_, rules::transport_status::payload_too_large,
                                            fmt::format("The request body is larger than {} bytes.", config_.max_body)),
                    false);
    read_body();
}

inline void http_session::read_body() {
    parser_->body_limit(config_.max_body);
    const bool expects_continue = detail::expects_continue(parser_->get());
    if (!expects_continue) {
        // A small body usually came with its header: parse what the buffer holds here rather
        // than through another asynchronous read (a strand dispatch and a timer each).
        beast::error_code ec;
        while (!parser_->is_done() && buffer_.size() != 0) {
            const std::size_t used = parser_->put(buffer_.data(), ec);
            buffer_.consume(used);
            if (ec == http::error::need_more) break;
            if (ec) return on_body(ec);
            if (used == 0) break;
        }
    }
    if (parser_->is_done()) return on_body({});
    auto read = [self = shared_from_this()] {
        self->expire_after(self->config_.body_timeout);
        http::async_read(self->stream_, self->buffer_, *self->parser_,
                         [self](beast::error_code ec, std::size_t) { self->on_body(ec); });
    };
    if (expects_continue) {
        continue_.emplace(http::status::continue_, parser_->get().version());
        expire_after(config_.write_timeout);
        http::async_write(stream_, *continue_, [self = shared_from_this(), read](beast::error_code ec, std::size_t) {
            if (ec) return self->close();
            read();
        });
        return;
    }
    read();
}

// Whether the header, the chunk extensions and the trailers of the request took more than the
// header limit together (or more than the read buffer holds at once).
inline bool http_session::over_header_budget(beast::error_code ec) const {
    if (ec == http::error::header_limit || ec == http::error::buffer_overflow) return true;
    if (ec || !parser_->chunked()) return false;
    const std::size_t fields = detail::fields_size(parser_->get());
    const std::size_t trailers = fields > header_field_bytes_ ? fields - header_field_bytes_ : 0;
    return header_bytes_ + trailers > config_.header_limit;
}

inline void http_session::header_budget_exceeded() {
    try {
        send(backend_.transport_error(
                 path_, rules::transport_status::header_too_large,
                 fmt::format("The request header, its chunk extensions and its trailers are larger than {} bytes.",
                             config_.header_limit)),
             false);
    } catch (...) {
        close();
    }
}

inline void http_session::on_body(beast::error_code ec) {
    if (over_header_budget(ec)) return header_budget_exceeded();
    if (ec == http::error::body_limit) {
        try {
            return send(
                backend_.transport_error(path_, rules::transport_status::payload_too_large,
                                         fmt::format("The request body is larger than {} bytes.", config_.max_body)),
                false);
        } catch (...) {
            return close();
        }
    }
    if (ec) return close();
    // A fault rule of the team may answer instead (contract.md §6.5); a delay is waited out on
    // a timer, so that a worker thread is never held by it.
    std::optional<reference::fault_decision> fault;
    try {
        fault = backend_.take_fault(*route_, *caller_);
    } catch (...) {
        return close();
    }
    if (fault && fault->action == fault_action::delay) {
        expire_never();  // the rule's delay is no timeout of the connection
        delay_timer_.expires_after(fault->delay);
        delay_timer_.async_wait([self = shared_from_this()](beast::error_code e) {
            if (e || self->stopping_) return self->close();
            self->respond(std::nullopt);
        });
        return;
    }
    respond(fault);
}

// Runs the request in its team's queue (the operator's and a signer's at once: they have no
// team), then answers on the connection's strand.
inline void http_session::respond(const std::optional<reference::fault_decision>& fault) {
    if (!caller_->team) return run_request(fault);
    expire_never();  // waiting for the team is no timeout of the connection
    std::shared_ptr<reference::team_queue> queue(caller_->team, &caller_->team->queue);
    reference::team_queue::submit(
        std::move(queue), [self = shared_from_this(), fault] { self->run_request(fault); },
        [executor = stream_.get_executor()](reference::team_queue::task t) { asio::post(executor, std::move(t)); },
        true,                // on the connection's strand already: a team with nothing under way runs it now
        route_->read_only);  // reads next to each other run together; a write runs alone
}

// Runs the request (or answers its fault rule) and sends the answer; a dropped one closes.
inline void http_session::run_request(const std::optional<reference::fault_decision>& fault) {
    if (closed_) return;  // closed while it waited for its team
    auto& backend = backend_;
    reference::reply r;
    try {
        const std::string& body = parser_->get().body();
        r = fault ? backend.answer_fault(*route_, *caller_, body, *fault) : backend.process(*route_, *caller_, body);
    } catch (const std::exception& e) {
        log_.error(fmt::format("{}: {}", logger::sanitize(path_), e.what()));
        try {
            r = backend_.internal_error(path_, "The server failed.");
        } catch (...) {
            return close();
        }
    } catch (...) {
        return close();
    }
    if (r.dropped) {
        log_request(0);
        return close();
    }
    // The body is no longer needed: free it before the answer is written.
    parser_->get().body().clear();
    parser_->get().body().shrink_to_fit();
    send(std::move(r), parser_->get().keep_alive());
}

// An answer found before the body was read: drop a body of at most --max-body first, so the
// connection stays usable; otherwise answer and close.
inline void http_session::answer_early(reference::reply r, std::string_view allow) {
    const auto& req = parser_->get();
    if (parser_->is_done()) return send(std::move(r), req.keep_alive(), allow);
    const auto length = parser_->content_length();
    if (detail::expects_continue(req) || (length && *length > config_.max_body))
        return send(std::move(r), false, allow);
    pending_ = std::move(r);
    pending_allow_ = std::string(allow);
    parser_->body_limit(config_.max_body);
    expire_after(config_.body_timeout);
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_discarded(ec); });
}

inline void http_session::on_discarded(beast::error_code ec) {
    reference::reply r = std::move(*pending_);
    pending_.reset();
    const std::string allow = std::move(pending_allow_);
    if (over_header_budget(ec)) return header_budget_exceeded();
    if (ec == http::error::body_limit) return send(std::move(r), false, allow);
    if (ec) return close();
    parser_->get().body().clear();
    send(std::move(r), parser_->get().keep_alive(), allow);
}

inline void http_session::send(reference::reply r, bool keep_alive, std::string_view allow) {
    const bool head = parser_ && parser_->is_header_done() && parser_->get().method() == http::verb::head;
    const unsigned version = (parser_ && parser_->is_header_done()) ? parser_->get().version() : 11;
    response_ = {};
    response_.version(version == 10 ? 10 : 11);
    response_.result(r.status);
    response_.set(http::field::content_type, "application/json");
    response_.set("X-Request-Id", r.request_id);
    if (!r.fault_uuid.empty()) response_.set("X-Esign-Fault", r.fault_uuid);
    if (!allow.empty()) response_.set(http::field::allow, allow);
    // A static asset's headers; not on an error found while its request's body was dropped.
    if (r.status < 400)
        for (const auto& [name, value] : asset_headers_) response_.set(name, value);
    asset_headers_.clear();
    response_.keep_alive(keep_alive && !stopping_);
    response_.body() = std::move(r.body);
    response_.prepare_payload();
    spooled_ = std::move(r.spooled);
    spooled_sent_ = 0;
    if (spooled_) response_.content_length(spooled_->size());  // the head first, then the file
    // A 304 (static_assets.hpp) has no body, and its length would be the 200's (RFC 9110 §8.6).
    if (r.status == 304) response_.erase(http::field::content_length);
    log_request(r.status);
    if (head) {
        response_.body().clear();  // the header keeps the length of the body not sent
        spooled_.reset();
    }

    const bool close_after = !response_.keep_alive();
    answered_at_ = std::chrono::steady_clock::now().time_since_epoch().count();
    expire_after(config_.write_timeout);
    http::async_write(stream_, response_, [self = shared_from_this(), close_after](beast::error_code ec, std::size_t) {
        if (ec || !self->spooled_) return self->on_write(ec, close_after);
        self->send_spooled(close_after);
    });
}

// The next part of a spooled body, read from its file into the connection's buffer; the answer
// is done when the file is sent (or cannot be read: the connection then closes, its answer cut
// short of its Content-Length, as a client can tell).
inline void http_session::send_spooled(bool close_after) {
    if (spooled_sent_ >= spooled_->size()) return on_write({}, close_after);
    if (!spool_buffer_) spool_buffer_ = std::make_unique<char[]>(spool_chunk);
    const std::size_t n = spooled_->read_at(spooled_sent_, spool_buffer_.get(), spool_chunk);
    if (n == 0) return close();
    expire_after(config_.write_timeout);
    asio::async_write(stream_, asio::buffer(spool_buffer_.get(), n),
                      [self = shared_from_this(), close_after](beast::error_code ec, std::size_t written) {
                          if (ec) return self->on_write(ec, close_after);
                          self->spooled_sent_ += written;
                          self->send_spooled(close_after);
                      });
}

inline void http_session::on_write(beast::error_code ec, bool close_after) {
    response_ = {};
    spooled_.reset();
    spool_buffer_.reset();  // an idle connection holds no part of an answer
    if (ec) return close();
    if (close_after || stopping_) return linger_close();
    read_header();
}

inline void http_session::linger_close() {
    expire_after(config_.linger_timeout);
    if (stream_.is_tls()) {
        // close_notify, then the client's (what it still sends meanwhile is dropped by OpenSSL).
        stream_.tls().async_shutdown([self = shared_from_this()](beast::error_code) { self->close(); });
        return;
    }
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    stream_.socket().async_read_some(
        asio::buffer(drain_), [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_linger(ec); });
}

inline void http_session::on_linger(beast::error_code ec) {
    if (ec) return close();
    stream_.socket().async_read_some(
        asio::buffer(drain_), [self = shared_from_this()](beast::error_code e, std::size_t) { self->on_linger(e); });
}

inline void http_session::close() {
    if (closed_) return;
    closed_ = true;
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.socket().close(ignored);
    deadline_timer_.cancel();
}

inline void http_session::expire_after(std::chrono::steady_clock::duration d) {
    deadline_ = std::chrono::steady_clock::now() + d;
    if (deadline_ < waiting_until_) wait_for_deadline();
}

inline void http_session::expire_never() { deadline_ = std::chrono::steady_clock::time_point::max(); }

inline void http_session::wait_for_deadline() {
    waiting_until_ = deadline_;
    deadline_timer_.expires_at(deadline_);  // an earlier wait ends with operation_aborted
    deadline_timer_.async_wait([self = shared_from_this()](beast::error_code ec) { self->on_deadline(ec); });
}

inline void http_session::on_deadline(beast::error_code ec) {
    if (ec == asio::error::operation_aborted || closed_) return;  // re-armed, or closed
    waiting_until_ = std::chrono::steady_clock::time_point::max();
    if (deadline_ == std::chrono::steady_clock::time_point::max()) return;
    if (std::chrono::steady_clock::now() >= deadline_) return close();
    wait_for_deadline();  // the deadline moved on since this wait began
}

inline void http_session::log_request(unsigned status) {
    auto& log = log_;
    if (!log.verbose()) return;
    std::string method = "?";
    if (parser_ && parser_->is_header_done()) method = std::string(parser_->get().method_string());
    const auto us =
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - started_).count();
    const std::size_t bytes = spooled_ ? spooled_->size() : response_.body().size();
    log.info(fmt::format("{} {} -> {} ({} bytes, {}.{:03} ms)", logger::sanitize(method, 20), logger::sanitize(path_),
                         status, bytes, us / 1000, us % 1000));
}

}  // namespace esign::server
