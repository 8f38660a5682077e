// SPDX-License-Identifier: BSL-1.0
#pragma once
// The one URL grammar of esign (contract.md §6.7): an absolute URI of RFC 3986 with an
// authority, as the webhook `url` must be, and its parts. The type (absolute_uri), the refusal
// rule (rules/webhook_url.hpp) and the reference server's webhook sender
// (examples/reference_server/webhook_url.hpp) all judge a URL through parse_uri below.
//
// The grammar, RFC 3986 §3 with hier-part restricted to its authority form:
//
//   URI         = scheme ":" "//" authority path-abempty [ "?" query ] [ "#" fragment ]
//   scheme      = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
//   authority   = [ userinfo "@" ] host [ ":" port ]
//   host        = IP-literal / reg-name          (IPv4address is a reg-name too)
//   IP-literal  = "[" IPv6address "]"            (no IPvFuture, no zone identifier)
//   reg-name    = 1*( unreserved / pct-encoded / sub-delims )   (not empty)
//   port        = *DIGIT, whose value is 1 to 65535 (leading zeros allowed; an empty port
//                 after ':' is the default port, RFC 3986 §3.2.3)
//
// How it is checked: the whole grammar is one DFA (the pattern of detail/uri_pattern.hpp, made
// by the library's own regex engine like regex/email.hpp's, and frozen as a table in
// detail/uri_automaton.hpp: building it costs every translation unit ~1.6 s of the compiler's
// front end; a test checks the table is what the engine builds), except that it reads an IP
// literal only as "[" 1*( HEXDIG / ":" / "." ) "]"; the exact IPv6address rule (RFC 3986 §3.2.2, with an
// embedded dotted IPv4 tail) is parse_ipv6, which also gives the address's 16 bytes. The
// engine has no capture groups, so split_uri cuts an already matched string into its parts:
// the delimiters are unambiguous once the grammar holds.
//
// Not accepted, on purpose: IPvFuture ("[v1.x]"); IPv6 zone identifiers ("[fe80::1%25eth0]",
// RFC 6874), which name an interface of the sender's own host and mean nothing in a stored
// webhook target; port 0 and ports above 65535; an empty host ("http://:80/", "http:///x").
//
// What is a *valid* URL here is syntax only. Whether the server may deliver to it (scheme http
// or https, no user info, not a link-local/metadata address) is the business rule
// WEBHOOK_URL_REFUSED, rules/webhook_url.hpp.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <esign/types/ascii.hpp>
#include <esign/types/detail/uri_automaton.hpp>
#include <esign/types/detail/uri_pattern.hpp>

namespace esign {

using ipv6_bytes = std::array<unsigned char, 16>;  // network order, as boost::asio's address_v6::to_bytes()

namespace detail {

// dec-octet "." dec-octet "." dec-octet "." dec-octet (RFC 3986: no leading zeros).
constexpr bool parse_dotted_ipv4(std::string_view s, unsigned char* out) noexcept {
    for (int part = 0; part < 4; ++part) {
        if (part > 0) {
            if (s.empty() || s.front() != '.') return false;
            s.remove_prefix(1);
        }
        std::size_t n = 0;
        unsigned value = 0;
        while (n < s.size() && n < 4 && s[n] >= '0' && s[n] <= '9')
            value = value * 10 + static_cast<unsigned>(s[n++] - '0');
        if (n == 0 || n > 3 || value > 255 || (n > 1 && s[0] == '0')) return false;
        out[part] = static_cast<unsigned char>(value);
        s.remove_prefix(n);
    }
    return s.empty();
}
}  // namespace detail

// RFC 3986 IPv6address (the text between the brackets of an IP literal): eight 16-bit groups
// of 1 to 4 hex digits, "::" once for one or more zero groups, the last 32 bits optionally as
// a dotted IPv4 address. Nothing else: no zone, no brackets, no surrounding space.
constexpr std::optional<ipv6_bytes> parse_ipv6(std::string_view s) noexcept {
    std::array<std::uint16_t, 8> group{};
    std::size_t count = 0;
    std::size_t gap = 9;  // the index where "::" stands, 9 = none
    std::size_t i = 0;
    if (s.starts_with("::")) {
        gap = 0;
        i = 2;
    } else if (s.starts_with(":")) {
        return std::nullopt;
    }
    while (i < s.size()) {
        const std::size_t end = std::min(s.find(':', i), s.size());
        const std::string_view token = s.substr(i, end - i);
        if (token.find('.') != std::string_view::npos) {  // the dotted tail: the last 32 bits
            if (end != s.size() || count > 6) return std::nullopt;
            std::array<unsigned char, 4> v4{};
            if (!detail::parse_dotted_ipv4(token, v4.data())) return std::nullopt;
            group[count++] = static_cast<std::uint16_t>(v4[0] << 8 | v4[1]);
            group[count++] = static_cast<std::uint16_t>(v4[2] << 8 | v4[3]);
            break;
        }
        if (token.empty() || token.size() > 4 || count == 8) return std::nullopt;
        unsigned value = 0;
        for (char c : token) {
            const int d = hex_digit_value(c);
            if (d < 0) return std::nullopt;
            value = value * 16 + static_cast<unsigned>(d);
        }
        group[count++] = static_cast<std::uint16_t>(value);
        if (end == s.size()) break;
        i = end + 1;
        if (i < s.size() && s[i] == ':') {  // "::"
            if (gap != 9) return std::nullopt;
            gap = count;
            ++i;
        } else if (i == s.size()) {
            return std::nullopt;  // a trailing single ':'
        }
    }
    if (gap == 9 ? count != 8 : count > 7) return std::nullopt;
    ipv6_bytes out{};
    const std::size_t after = gap == 9 ? 0 : count - gap;  // groups after "::" go to the end
    for (std::size_t g = 0; g < count; ++g) {
        const std::size_t at = (gap != 9 && g >= gap) ? 8 - after + (g - gap) : g;
        out[2 * at] = static_cast<unsigned char>(group[g] >> 8);
        out[2 * at + 1] = static_cast<unsigned char>(group[g] & 0xFF);
    }
    return out;
}

// The parts of a valid URI, as views into it (nothing decoded or lower-cased: see host_name
// and lower_ascii for that).
struct uri_view {
    std::string_view scheme;         // as written; compare lower-cased
    bool has_userinfo = false;       // "user[:password]@" before the host (even "@" alone)
    std::string_view host;           // reg-name as written, or the IPv6 text without brackets
    bool ip_literal = false;         // host was "[" IPv6address "]"
    std::optional<ipv6_bytes> ipv6;  // its address (set by parse_uri)
    std::uint16_t port = 0;          // 0: none given (the scheme's default)
    std::string_view target;         // path-abempty and "?" query, possibly empty
    std::string_view fragment;       // after '#', without it
};

// Cuts a string that the grammar matched into its parts. The delimiters are unambiguous:
// "://" ends the scheme; the authority ends at the first '/', '?' or '#'; neither user info nor
// host holds '@'; a reg-name holds no ':', an IP literal ends with ']'.
constexpr uri_view split_matched_uri(std::string_view s) noexcept {
    uri_view out;
    const std::size_t colon = s.find(':');
    out.scheme = s.substr(0, colon);
    std::string_view rest = s.substr(colon + 3);
    const std::size_t authority_end = std::min(rest.find_first_of("/?#"), rest.size());
    std::string_view authority = rest.substr(0, authority_end);
    std::string_view tail = rest.substr(authority_end);
    if (const std::size_t at = authority.find('@'); at != std::string_view::npos) {
        out.has_userinfo = true;
        authority.remove_prefix(at + 1);
    }
    std::string_view port;
    if (authority.front() == '[') {
        out.ip_literal = true;
        const std::size_t close = authority.find(']');
        out.host = authority.substr(1, close - 1);
        port = authority.substr(close + 1);
    } else {
        const std::size_t port_colon = std::min(authority.find(':'), authority.size());
        out.host = authority.substr(0, port_colon);
        port = authority.substr(port_colon);
    }
    unsigned number = 0;
    for (char c : port.substr(port.empty() ? 0 : 1)) number = number * 10 + static_cast<unsigned>(c - '0');
    out.port = static_cast<std::uint16_t>(number);  // at most 65535: the grammar says so
    const std::size_t hash = std::min(tail.find('#'), tail.size());
    out.target = tail.substr(0, hash);
    out.fragment = hash < tail.size() ? tail.substr(hash + 1) : std::string_view{};
    return out;
}

// The parts of `s` if it is a URI of the grammar above (IPv6 literal included), else nullopt.
// Linear in the length; never throws.
constexpr std::optional<uri_view> parse_uri(std::string_view s) noexcept {
    if (!detail::uri_automaton.match(s)) return std::nullopt;
    uri_view out = split_matched_uri(s);
    if (out.ip_literal) {
        out.ipv6 = parse_ipv6(out.host);
        if (!out.ipv6) return std::nullopt;
    }
    return out;
}

// The host as a resolver and the address rules see it: a reg-name percent-decoded
// (RFC 3986 §3.2.2) and lower-cased; an IPv6 literal's text lower-cased, without brackets.
inline std::string host_name(const uri_view& uri) {
    std::string out;
    out.reserve(uri.host.size());
    for (std::size_t i = 0; i < uri.host.size(); ++i) {
        if (uri.host[i] == '%' && i + 2 < uri.host.size()) {  // the grammar gave two hex digits
            out += static_cast<char>(hex_digit_value(uri.host[i + 1]) * 16 + hex_digit_value(uri.host[i + 2]));
            i += 2;
        } else {
            out += uri.host[i];
        }
    }
    return lower_ascii(out);
}

}  // namespace esign
