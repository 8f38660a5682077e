// SPDX-License-Identifier: BSL-1.0
#pragma once
// The body of every error response (interface.md "Errors", contract.md §1).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <boost/describe/class.hpp>

#include <esign/model/enums.hpp>
#include <esign/validation/problem.hpp>

namespace esign {

// One validation issue of INVALID_REQUEST_FORMAT: the keys from the body's root to the value,
// array indices as decimal strings, e.g. ["recipients","3","email"].
struct error_detail {
    std::vector<std::string> path;
    std::string message;
};
BOOST_DESCRIBE_STRUCT(error_detail, (), (path, message))

// The `error` member.
struct error_info {
    error_code code{error_code::INTERNAL_SERVER_ERROR};
    std::string message;
    std::string suggestion;
    std::string documentationUrl;
    std::optional<std::vector<error_detail>> details;  // only for INVALID_REQUEST_FORMAT; at most 100
};
BOOST_DESCRIBE_STRUCT(error_info, (), (code, message, suggestion, documentationUrl, details))

// The problems a decoder keeps are those reported: one constant for both.
inline constexpr std::size_t max_error_details = max_reported_problems;

struct error_body {
    std::int64_t statusCode{};
    error_info error;
    std::string requestId;  // lowercase UUID, also the X-Request-Id header
    std::string timestamp;  // ISO 8601 UTC with milliseconds, e.g. 2026-11-22T03:49:38.123Z
    std::string path;       // the request path
};
BOOST_DESCRIBE_STRUCT(error_body, (), (statusCode, error, requestId, timestamp, path))

}  // namespace esign
