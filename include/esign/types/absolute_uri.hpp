// SPDX-License-Identifier: BSL-1.0
#pragma once
// A webhook target URL: an absolute URI of RFC 3986 with an authority, at most 2048 characters
// (contract.md §6.7). The grammar and its parts are types/uri.hpp, the one URL grammar that
// the refusal rule and the reference server's sender use too.
//
// Where INVALID_REQUEST_FORMAT ends and WEBHOOK_URL_REFUSED begins. §6.7 says a url must be
// an absolute URI with an http or https scheme and an authority, "anything else" being
// INVALID_REQUEST_FORMAT; §3 says a scheme other than http or https, or user info, is
// WEBHOOK_URL_REFUSED. Both hold when the type judges the *form* and the rule the *target*:
//   - this type (decoding, INVALID_REQUEST_FORMAT at the member's path): not a URI of the
//     grammar, no authority ("http:x", "mailto:a@b"), an empty host, a port outside 1-65535,
//     a malformed IPv6 literal, a zone identifier, IPvFuture, more than 2048 characters;
//   - the rule (rules/webhook_url.hpp, WEBHOOK_URL_REFUSED): a well-formed URI whose scheme is
//     not http or https ("ftp://x"), which carries user info, or whose host is a refused
//     address.
// So "ftp://hooks.example.com/" is a URL the server refuses to call, not a malformed request.
//
// Too long: its rule (`check`) reports more than max_length characters as kind `too_long`, like
// any bounded string, and every other failure of matches() as kind `pattern` ("must be an
// absolute URI"); max_length is also the schema's maxLength.
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

#include <esign/types/bounded_string.hpp>
#include <esign/types/detail/string_value.hpp>
#include <esign/types/uri.hpp>
#include <esign/validation/check.hpp>
#include <esign/validation/problem.hpp>

namespace esign {

struct absolute_uri : detail::string_value {
    static constexpr std::size_t max_length = 2048;    // characters (a valid URI is ASCII)
    static constexpr bool ascii = true;                // every valid value: its lengths are in bytes
    static constexpr std::string_view format = "uri";  // JSON Schema's name for it

    using detail::string_value::string_value;

    static constexpr bool matches(std::string_view s) noexcept {
        return s.size() <= max_length && parse_uri(s).has_value();
    }
    // The DFA's pattern (ECMAScript, as JSON Schema takes it). It reads an IPv6 literal only as
    // "[" hex digits, ':' and '.' "]": parse_ipv6 checks the rest (see types/uri.hpp).
    static constexpr std::string_view pattern() noexcept { return detail::uri_pattern.view(); }

    // Too long is said as such (like any bounded string); anything else that is no URI is a pattern.
    static bool check(const absolute_uri& value, problem_sink& out) {
        if (value.size() > max_length && code_point_count(value) > max_length)
            return check_length(value, 0, max_length, out);
        if (matches(value)) return true;
        out.add(problem_kind::pattern, "must be an absolute URI");
        return false;
    }
    // The URI, or its problems (too long, not an absolute URI, not valid UTF-8); see `make` in
    // types/bounded_string.hpp.
    static result<absolute_uri> make(std::string s) { return validation::checked(absolute_uri(std::move(s))); }
};

}  // namespace esign
