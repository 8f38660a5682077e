// SPDX-License-Identifier: BSL-1.0
#pragma once
// The outcome of a call: the response, or an error that says which kind — the request's own
// problems (nothing was sent), the server's error body, a transport failure, or an answer that
// breaks the model — and, either way, every attempt made (with the request id the server gave).
#include <cstddef>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <boost/system/error_code.hpp>

#include <esign/model/error_body.hpp>
#include <esign/validation/enum_names.hpp>
#include <esign/validation/problem.hpp>
#include <esign/validation/value_or_error.hpp>

namespace esign::client {

// One attempt of a call: what it got, and the X-Request-Id of the answer (empty without one).
struct attempt {
    unsigned http_status = 0;  // 0: no answer (a transport failure)
    std::string request_id;
};

// The request breaks the model (esign::check): refused before anything was sent.
struct request_error {
    problem_list problems;
};

// The server answered with an error body (contract.md §1): body.error.code, .message,
// .details (paths), body.requestId, body.timestamp.
struct server_error {
    unsigned http_status = 0;
    error_body body;
};

// No usable answer: no connection, no TLS, no answer in time, or the connection closed.
struct transport_error {
    enum class kind { resolve, connect, tls, timeout, closed, protocol };
    kind what = kind::closed;
    boost::system::error_code ec;
    bool sent = false;  // whether the request may have reached the server
};

// An answer that breaks the model: the problems json::read found (each with its path), the
// status and the body as received.
struct response_error {
    unsigned http_status = 0;
    problem_list problems;
    std::string body;
};

using call_error = std::variant<request_error, server_error, transport_error, response_error>;

namespace detail {
inline std::string describe_problems(const problem_list& problems) {
    std::string out;
    for (const auto& p : problems) {
        out += out.empty() ? " " : "; ";
        for (const auto& segment : p.path) out += "/" + segment;
        out += (p.path.empty() ? "" : ": ") + p.message;
    }
    return out;
}
}  // namespace detail

// One line for people (a log, a test's message): the kind and what it says.
inline std::string describe(const call_error& error) {
    struct visitor {
        std::string operator()(const request_error& e) const {
            return "the request breaks the model:" + detail::describe_problems(e.problems);
        }
        std::string operator()(const server_error& e) const {
            return "HTTP " + std::to_string(e.http_status) + " " + std::string(enum_to_wire(e.body.error.code)) + ": " +
                   e.body.error.message + (e.body.error.details ? " (details)" : "") + " [" + e.body.requestId + "]";
        }
        std::string operator()(const transport_error& e) const {
            static constexpr const char* kinds[] = {"resolve", "connect", "tls", "timeout", "closed", "protocol"};
            return std::string("transport (") + kinds[static_cast<int>(e.what)] + (e.sent ? ", after sending" : "") +
                   "): " + e.ec.message();
        }
        std::string operator()(const response_error& e) const {
            return "HTTP " + std::to_string(e.http_status) +
                   ": the answer breaks the model:" + detail::describe_problems(e.problems);
        }
    };
    return std::visit(visitor{}, error);
}

// The response, or a call_error; attempts() in either case (empty for a request_error).
template <class Response>
class [[nodiscard]] call_result : public value_or_error<Response, call_error> {
public:
    call_result(Response value, std::vector<attempt> attempts)
        : value_or_error<Response, call_error>(std::move(value)), attempts_(std::move(attempts)) {}
    call_result(call_error error, std::vector<attempt> attempts)
        : value_or_error<Response, call_error>(std::move(error)), attempts_(std::move(attempts)) {}

    // Only when there is no value.
    const call_error& error() const { return *this->error_if_any(); }
    // The error of kind E, or nullptr (also when there is a value).
    template <class E>
    const E* error_if() const noexcept {
        const auto* e = this->error_if_any();
        return e ? std::get_if<E>(e) : nullptr;
    }

    const std::vector<attempt>& attempts() const noexcept { return attempts_; }

private:
    std::vector<attempt> attempts_;
};

}  // namespace esign::client
