// SPDX-License-Identifier: BSL-1.0
#pragma once
// A typed client of the API (issue 38): every row of esign::all_operations is a call, with the
// row's request type in and its response type out, over HTTP or HTTPS (Boost.Beast, OpenSSL).
// Not part of <esign/esign.hpp>: it needs Asio, Beast and OpenSSL (link OpenSSL::SSL).
//
//   esign::client::client api("http://127.0.0.1:8080", esign::client::credentials::api_key(key));
//   esign::envelope_get_request get;
//   get.envelopeUuid = uuid;
//   auto r = api.call(get);                     // call_result<envelope_get_response>
//   if (r) use(r->status);
//   else if (auto* e = r.error_if<esign::client::server_error>()) log(e->body.error.code);
//
// A request type names its row (a compile-time lookup in all_operations); were a request type
// shared by several rows, call(request) would not compile, and the row is named instead:
// `api.call(esign::all_operations.get<I>(), request)` (any row may be called that way).
//
// Before anything is sent the request is judged by esign::check: a request with problems comes
// back as request_error with no byte on the wire. An answer is judged by esign::json::read: one
// that breaks the row's response type is a response_error (its problems have paths).
//
// Asynchronous: async_call(request, token) with any Asio completion token (a callback,
// asio::use_future, asio::use_awaitable / deferred); the completion signature is
// void(call_result<Response>), and the handler runs on its associated executor. The network
// work runs on the client's own thread, or on the executor it was given. The synchronous
// call(request) runs on the calling thread itself (blocking I/O, the same timeouts and retries):
// it costs no hop between threads, and may be called from anywhere.
//
// Thread safety: one client may be shared by any number of threads, synchronous and
// asynchronous calls alike. Its keep-alive connections sit in two small pools (the synchronous
// calls', the asynchronous calls') behind a mutex; each call uses one connection at a time.
// Destroy the client once no call is in progress.
//
// Retries (client_options.max_attempts, exponential backoff with full jitter, within
// total_timeout): a connection that fails before the request is sent, and 429 or 503, for every
// row; another 5xx, or a failure after the request may have reached the server, only for a
// `read_only` row. A Retry-After of seconds replaces the backoff. result.attempts() lists every
// attempt with the request id the server gave it.
#include <cstddef>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <utility>

#include <boost/asio/async_result.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/prefer.hpp>
#include <boost/asio/associated_executor.hpp>
#include <boost/asio/execution/outstanding_work.hpp>

#include <esign/client/detail/endpoint.hpp>
#include <esign/client/detail/exchange.hpp>
#include <esign/client/detail/judge.hpp>
#include <esign/client/error.hpp>
#include <esign/client/options.hpp>
#include <esign/json/check.hpp>
#include <esign/json/encode.hpp>
#include <esign/model/operations.hpp>

namespace esign::client {

namespace detail {
// How many rows take Request.
template <class Request>
constexpr std::size_t rows_taking() noexcept {
    std::size_t n = 0;
    for_each_operation([&](const auto& op) {
        if constexpr (std::is_same_v<request_of<std::remove_cvref_t<decltype(op)>>, Request>) ++n;
    });
    return n;
}
}  // namespace detail

class client {
public:
    using executor_type = boost::asio::any_io_executor;

    // A client of the service at `base_url` (http://host:port or https://host:port, possibly
    // with a path prefix). Throws std::invalid_argument for a base URL it cannot use, or a CA
    // file that does not load: configuration, found before any call.
    client(std::string_view base_url, const credentials& creds = {}, client_options options = {})
        : own_io_(std::make_unique<boost::asio::io_context>(1)) {
        init(own_io_->get_executor(), base_url, creds, std::move(options));
        work_.emplace(own_io_->get_executor());
        thread_ = std::thread([io = own_io_.get()] { io->run(); });
    }
    // A client whose asynchronous calls run on `executor` (e.g. an io_context its caller runs),
    // with no thread of its own: an asynchronous call then costs no hop between threads.
    client(executor_type executor, std::string_view base_url, const credentials& creds = {},
           client_options options = {}) {
        init(std::move(executor), base_url, creds, std::move(options));
    }
    client(const client&) = delete;
    client& operator=(const client&) = delete;

    ~client() {
        if (own_io_) {
            work_.reset();
            own_io_->stop();
            thread_.join();
        }
        state_->pool.clear();
        state_->blocking_pool.clear();  // (their TLS streams hold timers of the executor)
    }

    executor_type get_executor() const noexcept { return state_->executor; }

    // The number of idle keep-alive connections (for tests and diagnostics): the synchronous
    // calls' and the asynchronous calls', each pool holding up to pool_size.
    std::size_t idle_connections() const { return state_->pool.idle() + state_->blocking_pool.idle(); }

    // ---- asynchronous -------------------------------------------------------------------------

    // The call of `row` (a row of all_operations) with `request`.
    template <class Row, class Token>
    auto async_call(const Row& row, const typename Row::request_type& request, Token&& token) {
        using response = typename Row::response_type;
        auto [body, problems] = wire_form(request);
        return boost::asio::async_initiate<Token, void(call_result<response>)>(initiation<response>{state_}, token,
                                                                               std::string(row.path), row.read_only,
                                                                               std::move(body), std::move(problems));
    }

    // The call of the one row that takes Request.
    template <class Request, class Token>
    requires(!std::is_same_v<std::remove_cvref_t<Token>, Request>) auto async_call(const Request& request,
                                                                                   Token&& token) {
        return async_call(row_of<Request>(), request, std::forward<Token>(token));
    }

    // ---- synchronous --------------------------------------------------------------------------

    // Runs on the calling thread with blocking I/O, on connections of its own pool: no hop to the
    // client's thread, and callable from any thread, one that runs the client's executor too.
    template <class Row>
    call_result<typename Row::response_type> call(const Row& row, const typename Row::request_type& request) {
        using response = typename Row::response_type;
        auto [body, problems] = wire_form(request);
        if (!problems.empty()) return {call_error(request_error{std::move(problems)}), {}};
        return detail::judge<response>(detail::run_call_blocking(*state_, row.path, body, row.read_only));
    }

    template <class Request>
    auto call(const Request& request) {
        return call(row_of<Request>(), request);
    }

private:
    // What a call sends: the request's JSON, or, when esign::check finds problems, nothing (the
    // problems come back as request_error, no byte on the wire).
    template <class Request>
    static std::pair<std::string, problem_list> wire_form(const Request& request) {
        auto checked = esign::check(request);
        if (!checked) return {std::string{}, std::move(checked).take_problems()};
        return {json::write(request), problem_list{}};
    }

    template <class Request>
    static constexpr const auto& row_of() noexcept {
        static_assert(detail::rows_taking<Request>() != 0, "esign::client: no row of all_operations takes this type");
        static_assert(detail::rows_taking<Request>() == 1,
                      "esign::client: several rows take this request type: name the row, call(row, request)");
        return all_operations.get<operation_index_of<Request>()>();
    }

    // Starts the call; the handler gets the outcome on its own executor.
    template <class Response>
    struct initiation {
        std::shared_ptr<detail::shared_state> state;

        template <class Handler>
        void operator()(Handler handler, std::string path, bool read_only, std::string body,
                        problem_list problems) const {
            namespace asio = boost::asio;
            auto target = asio::prefer(asio::get_associated_executor(handler, state->executor),
                                       asio::execution::outstanding_work.tracked);
            if (!problems.empty()) {  // nothing goes on the wire
                asio::post(target, [h = std::move(handler), p = std::move(problems)]() mutable {
                    std::move(h)(call_result<Response>(call_error(request_error{std::move(p)}), {}));
                });
                return;
            }
            // std::function holds a copyable target: the handler (move-only, e.g. a promise) is shared.
            auto shared = std::make_shared<Handler>(std::move(handler));
            std::function<void(detail::raw_outcome)> done = [shared, target](detail::raw_outcome raw) {
                asio::dispatch(target, [shared, r = detail::judge<Response>(std::move(raw))]() mutable {
                    std::move (*shared)(std::move(r));
                });
            };
            detail::start_call(state, std::move(path), std::move(body), read_only, std::move(done));
        }
    };

    void init(executor_type executor, std::string_view base_url, const credentials& creds, client_options options) {
        auto where = detail::parse_base_url(base_url);
        if (!where) throw std::invalid_argument("esign::client: not an http:// or https:// base URL");
        state_ = std::make_shared<detail::shared_state>(std::move(executor), std::move(*where), creds.header(),
                                                        std::move(options));
        if (state_->where.tls) {
            boost::system::error_code ec;
            state_->tls.emplace(detail::make_tls_context(state_->options, ec));
            if (ec) throw std::invalid_argument("esign::client: TLS trust store: " + ec.message());
        }
    }

    std::unique_ptr<boost::asio::io_context> own_io_;  // the client's own, run by thread_ (first constructor)
    std::optional<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> work_;
    std::shared_ptr<detail::shared_state> state_;
    std::thread thread_;
};

}  // namespace esign::client
