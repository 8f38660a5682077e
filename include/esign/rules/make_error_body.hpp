// SPDX-License-Identifier: BSL-1.0
#pragma once
// The error body of every error response (interface.md "Errors", contract.md §1), built from
// a code and the error table (and, for INVALID_REQUEST_FORMAT, the problems found). Writing
// it as JSON text is json/error_body_text.hpp's.
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <esign/model/error_body.hpp>
#include <esign/rules/error_codes.hpp>
#include <esign/validation/problem.hpp>

namespace esign::rules {

namespace detail {

// `v` in decimal, zero-padded to `width` characters, a minus sign counted (as fmt's {:0N}).
inline void append_padded(std::string& out, std::int64_t v, std::size_t width) {
    char digits[20];
    const std::uint64_t magnitude =
        v < 0 ? std::uint64_t(0) - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
    const auto n = static_cast<std::size_t>(std::to_chars(digits, digits + sizeof digits, magnitude).ptr - digits);
    if (v < 0) out += '-';
    const std::size_t used = n + (v < 0 ? 1 : 0);
    if (used < width) out.append(width - used, '0');
    out.append(digits, n);
}

}  // namespace detail

// ISO 8601 UTC with milliseconds: 2026-11-22T03:49:38.123Z.
inline std::string iso8601_ms(std::int64_t unix_ms) {
    using namespace std::chrono;
    const sys_time<milliseconds> t{milliseconds{unix_ms}};
    const auto day = floor<days>(t);
    const year_month_day ymd{day};
    const hh_mm_ss<milliseconds> time{t - day};
    std::string out;
    out.reserve(24);
    detail::append_padded(out, static_cast<int>(ymd.year()), 4);
    out += '-';
    detail::append_padded(out, static_cast<unsigned>(ymd.month()), 2);
    out += '-';
    detail::append_padded(out, static_cast<unsigned>(ymd.day()), 2);
    out += 'T';
    detail::append_padded(out, time.hours().count(), 2);
    out += ':';
    detail::append_padded(out, time.minutes().count(), 2);
    out += ':';
    detail::append_padded(out, time.seconds().count(), 2);
    out += '.';
    detail::append_padded(out, time.subseconds().count(), 3);
    out += 'Z';
    return out;
}

struct error_context {
    std::string_view path;                                             // the request path
    std::string request_id;                                            // lowercase UUID
    std::int64_t now_ms = 0;                                           // the server's clock
    std::string_view documentation_base = default_documentation_base;  // documentationUrl, before the code
};

// An error body for `code`. `http_status` is the code's status unless a transport failure
// (404, 405, 413, 415) says otherwise; `message` replaces the table's message when given.
// The problems are taken by value: a caller done with them moves them in (their paths become
// the details without a copy, which keeps the memory of a hostile request's answer bounded).
inline error_body make_error_body(error_code code, const error_context& ctx, problem_list problems = {},
                                  std::string_view message = {}, unsigned http_status = 0) {
    const auto& row = info(code);
    error_body body;
    body.statusCode = http_status != 0 ? http_status : row.http_status;
    body.error.code = code;
    body.error.message = message.empty() ? std::string(row.message) : std::string(message);
    body.error.suggestion = std::string(row.suggestion);
    body.error.documentationUrl = documentation_url(code, ctx.documentation_base);
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

}  // namespace esign::rules
