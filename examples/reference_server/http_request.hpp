// SPDX-License-Identifier: BSL-1.0
#pragma once
// What the HTTP transport reads of a request's header, as pure functions: the path of the
// target, the bearer token, whether the body is JSON, whether the client expects 100-continue,
// and whether a refused Content-Length was a number too large.
#include <optional>
#include <string>
#include <string_view>

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <esign/types/ascii.hpp>

namespace esign::server {

namespace http = boost::beast::http;

namespace detail {

inline std::string_view trim_ows(std::string_view s) noexcept {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

// The path of a request target: origin-form "/a/b?x" → "/a/b"; absolute-form
// "http://host/a/b?x" → "/a/b". Not percent-decoded: "/public/%65nvelope/get" is unknown.
inline std::string_view request_path(std::string_view target) noexcept {
    if (auto cut = target.find_first_of("?#"); cut != std::string_view::npos) target = target.substr(0, cut);
    if (!target.starts_with('/')) {
        if (auto scheme = target.find("://"); scheme != std::string_view::npos) {
            auto rest = target.substr(scheme + 3);
            auto slash = rest.find('/');
            return slash == std::string_view::npos ? std::string_view("/") : rest.substr(slash);
        }
    }
    return target;
}

// The token of `Authorization: Bearer <token>` (scheme case-insensitive); nullopt when the
// header is missing, repeated, of another scheme, or the token is empty or has spaces.
template <class Fields>
std::optional<std::string_view> bearer_token(const Fields& fields) {
    if (fields.count(http::field::authorization) != 1) return std::nullopt;
    std::string_view value = trim_ows(fields[http::field::authorization]);
    constexpr std::string_view scheme = "bearer";
    if (value.size() <= scheme.size() || !iequals_ascii(value.substr(0, scheme.size()), scheme)) return std::nullopt;
    if (value[scheme.size()] != ' ' && value[scheme.size()] != '\t') return std::nullopt;
    std::string_view token = trim_ows(value.substr(scheme.size()));
    if (token.empty()) return std::nullopt;
    for (char c : token)
        if (static_cast<unsigned char>(c) <= ' ' || c == 0x7f) return std::nullopt;
    return token;
}

// Content-Type is application/json (exactly one header; parameters such as charset allowed).
template <class Fields>
bool is_json_content_type(const Fields& fields) {
    if (fields.count(http::field::content_type) != 1) return false;
    std::string_view value = fields[http::field::content_type];
    if (auto semi = value.find(';'); semi != std::string_view::npos) value = value.substr(0, semi);
    return iequals_ascii(trim_ows(value), "application/json");
}

template <class Fields>
bool expects_continue(const Fields& fields) {
    return fields.count(http::field::expect) != 0 &&
           iequals_ascii(trim_ows(fields[http::field::expect]), "100-continue");
}

// Whether the header bytes `data` (what was read of a request header) have a Content-Length
// field whose value is all decimal digits. Called once Beast refused the length: digits only
// then means a number too large for 64 bits (Beast refuses it as it would a value that is no
// number at all).
template <class Buffers>
bool has_oversized_content_length(const Buffers& data) {
    std::string text = boost::beast::buffers_to_string(data);
    std::size_t line = 0;
    while (line < text.size()) {
        std::size_t end = text.find("\r\n", line);
        if (end == std::string::npos) end = text.size();
        std::string_view field(text.data() + line, end - line);
        constexpr std::string_view name = "content-length:";
        if (field.size() > name.size() && iequals_ascii(field.substr(0, name.size()), name)) {
            std::string_view value = trim_ows(field.substr(name.size()));
            return !value.empty() && value.find_first_not_of("0123456789") == std::string_view::npos;
        }
        if (end == line) break;  // the empty line: end of the header
        line = end + 2;
    }
    return false;
}

}  // namespace detail

}  // namespace esign::server
