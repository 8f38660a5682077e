// SPDX-License-Identifier: BSL-1.0
#pragma once
// The error body of every error response (interface.md "Errors", contract.md §1), built from
// a code (and, for INVALID_REQUEST_FORMAT, the problems found).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include <boost/json/serialize.hpp>
#include <fmt/format.h>

#include <esign/model/error_body.hpp>
#include <esign/rules/error_codes.hpp>
#include <esign/types/enum_names.hpp>
#include <esign/validation/problem.hpp>

namespace esign::json {

// ISO 8601 UTC with milliseconds: 2026-11-22T03:49:38.123Z.
inline std::string iso8601_ms(std::int64_t unix_ms) {
    using namespace std::chrono;
    const sys_time<milliseconds> t{milliseconds{unix_ms}};
    const auto day = floor<days>(t);
    const year_month_day ymd{day};
    const hh_mm_ss<milliseconds> time{t - day};
    return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z", static_cast<int>(ymd.year()),
                       static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()), time.hours().count(),
                       time.minutes().count(), time.seconds().count(), time.subseconds().count());
}

struct error_context {
    std::string_view path;    // the request path
    std::string request_id;   // lowercase UUID
    std::int64_t now_ms = 0;  // the server's clock
};

// An error body for `code`. `http_status` is the code's status unless a transport failure
// (404, 405, 413, 415) says otherwise; `message` replaces the table's message when given.
// The problems are taken by value: a caller done with them moves them in (their paths become
// the details without a copy, which keeps the memory of a hostile request's answer bounded).
inline error_body make_error_body(error_code code, const error_context& ctx, problem_list problems = {},
                                  std::string_view message = {}, unsigned http_status = 0) {
    const auto& row = rules::info(code);
    error_body body;
    body.statusCode = http_status != 0 ? http_status : row.http_status;
    body.error.code = code;
    body.error.message = message.empty() ? std::string(row.message) : std::string(message);
    body.error.suggestion = std::string(row.suggestion);
    body.error.documentationUrl = rules::documentation_url(code);
    if (code == error_code::INVALID_REQUEST_FORMAT && !problems.empty()) {
        auto& details = body.error.details.emplace();
        details.reserve(std::min(problems.size(), max_reported_problems));
        for (problem& p : problems) {
            if (details.size() == max_reported_problems) break;
            details.push_back(error_detail{std::move(p.path), std::move(p.message)});
        }
    }
    body.requestId = ctx.request_id;
    body.timestamp = iso8601_ms(ctx.now_ms);
    body.path = std::string(ctx.path);
    return body;
}

namespace detail {
// Hands the JSON text of an error body to put(std::string_view), piece by piece.
template <class Put>
void write_error_body(const error_body& body, Put&& put) {
    auto text = [&](std::string_view s) { put(boost::json::serialize(boost::json::string_view(s.data(), s.size()))); };
    put(R"({"statusCode":)");
    put(std::to_string(body.statusCode));
    put(R"(,"error":{"code":)");
    text(enum_to_wire(body.error.code));
    put(R"(,"message":)");
    text(body.error.message);
    put(R"(,"suggestion":)");
    text(body.error.suggestion);
    put(R"(,"documentationUrl":)");
    text(body.error.documentationUrl);
    if (body.error.details) {
        put(R"(,"details":[)");
        bool first = true;
        for (const auto& d : *body.error.details) {
            put(first ? R"({"path":[)" : R"(,{"path":[)");
            first = false;
            for (std::size_t i = 0; i < d.path.size(); ++i) {
                if (i) put(",");
                text(d.path[i]);
            }
            put(R"(],"message":)");
            text(d.message);
            put("}");
        }
        put("]");
    }
    put(R"(},"requestId":)");
    text(body.requestId);
    put(R"(,"timestamp":)");
    text(body.timestamp);
    put(R"(,"path":)");
    text(body.path);
    put("}");
}
}  // namespace detail

// The JSON text of an error body: the bytes json::write(body) gives, written straight from the
// body. An answer to a hostile request can hold 100 long paths: going through a
// boost::json::value would hold them once more, and a string that grows as it is written
// would hold them up to three times while it moves; so the text is measured first, then
// written into a string of that size (contract.md §6.7).
inline std::string write_error_body(const error_body& body) {
    std::size_t size = 0;
    detail::write_error_body(body, [&](std::string_view piece) { size += piece.size(); });
    std::string out;
    out.reserve(size);
    detail::write_error_body(body, [&](std::string_view piece) { out += piece; });
    return out;
}

}  // namespace esign::json
