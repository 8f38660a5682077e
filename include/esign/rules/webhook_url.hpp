#pragma once
// WEBHOOK_URL_REFUSED (contract.md §3): a scheme other than http or https, user information
// in the URL, or a host that is an IP address in the link-local/metadata ranges
// (169.254.0.0/16, fe80::/10) in any notation — dotted, decimal, octal or hexadecimal IPv4,
// IPv4-mapped IPv6. With public_only, loopback and private targets are refused too (every
// address that is not a public one, see address_kind, and the name localhost).
// The address classification is also what the server applies to the addresses a webhook host
// resolves to (examples/reference_server/webhook_url.hpp, may_connect_to).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <arpa/inet.h>

namespace esign::rules {

struct url_parts {
    std::string scheme;  // lower case
    bool has_authority = false;
    bool has_userinfo = false;
    std::string host;    // lower case; IPv6 literals without brackets
};

inline url_parts split_url(std::string_view url) {
    url_parts parts;
    auto colon = url.find(':');
    if (colon == std::string_view::npos) return parts;
    for (char c : url.substr(0, colon)) parts.scheme += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    std::string_view rest = url.substr(colon + 1);
    if (rest.substr(0, 2) != "//") return parts;
    rest.remove_prefix(2);
    parts.has_authority = true;
    std::string_view authority = rest.substr(0, rest.find_first_of("/?#"));
    if (auto at = authority.rfind('@'); at != std::string_view::npos) {
        parts.has_userinfo = true;
        authority.remove_prefix(at + 1);
    }
    std::string_view host;
    if (!authority.empty() && authority.front() == '[') {
        host = authority.substr(1, authority.find(']') == std::string_view::npos ? std::string_view::npos
                                                                                  : authority.find(']') - 1);
        if (auto zone = host.find('%'); zone != std::string_view::npos) host = host.substr(0, zone);
    } else {
        host = authority.substr(0, authority.rfind(':'));
    }
    for (char c : host) parts.host += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    return parts;
}

// An IPv4 address as inet_aton reads it: 1 to 4 parts, each decimal, octal (leading 0) or
// hexadecimal (0x), the last part filling the remaining bytes; a trailing dot is allowed.
inline std::optional<std::uint32_t> parse_ipv4_any_notation(std::string_view host) {
    if (!host.empty() && host.back() == '.') host.remove_suffix(1);
    if (host.empty()) return std::nullopt;
    std::array<std::uint64_t, 4> part{};
    std::size_t count = 0;
    while (true) {
        if (count == 4) return std::nullopt;
        auto dot = host.find('.');
        std::string_view text = host.substr(0, dot);
        if (text.empty()) return std::nullopt;
        unsigned base = 10;
        if (text.size() > 1 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
            base = 16;
            text.remove_prefix(2);
        } else if (text.size() > 1 && text[0] == '0') {
            base = 8;
            text.remove_prefix(1);
        }
        std::uint64_t value = 0;
        for (char c : text) {
            unsigned digit;
            if (c >= '0' && c <= '9') digit = static_cast<unsigned>(c - '0');
            else if (c >= 'a' && c <= 'f') digit = static_cast<unsigned>(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F') digit = static_cast<unsigned>(c - 'A' + 10);
            else return std::nullopt;
            if (digit >= base) return std::nullopt;
            value = value * base + digit;
            if (value > 0xFFFFFFFFull) return std::nullopt;
        }
        part[count++] = value;
        if (dot == std::string_view::npos) break;
        host.remove_prefix(dot + 1);
    }
    std::uint64_t address = 0;
    for (std::size_t i = 0; i + 1 < count; ++i) {
        if (part[i] > 0xFF) return std::nullopt;
        address |= part[i] << (8 * (3 - i));
    }
    const unsigned last_bits = static_cast<unsigned>(8 * (4 - (count - 1)));
    if (last_bits < 64 && part[count - 1] >= (1ull << last_bits)) return std::nullopt;
    return static_cast<std::uint32_t>(address | part[count - 1]);
}

// ---- Addresses ------------------------------------------------------------------------------
// What an IP address is, for the webhook rule: the URL rule asks it of a host written as an IP
// address, and the server's webhook sender asks it again of every address a host name resolves
// to, before connecting. Pure functions over the address's bytes (network order).

enum class address_kind : std::uint8_t {
    global,        // none of the below: a public address
    link_local,    // 169.254.0.0/16 (cloud metadata), fe80::/10: refused in every mode
    loopback,      // 127.0.0.0/8, ::1
    private_use,   // 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16
    unspecified,   // 0.0.0.0/8 ("this network"), ::
    shared,        // 100.64.0.0/10 (carrier-grade NAT)
    multicast,     // 224.0.0.0/4, ff00::/8
    reserved,      // 240.0.0.0/4, broadcast included
    unique_local,  // fc00::/7
    site_local,    // fec0::/10 (deprecated, still private)
};

constexpr bool in_range(std::uint32_t ip, std::uint32_t net, unsigned prefix) noexcept {
    const std::uint32_t mask = prefix == 0 ? 0 : ~std::uint32_t{0} << (32 - prefix);
    return (ip & mask) == (net & mask);
}

// An IPv4 address as a number (a.b.c.d is a << 24 | b << 16 | c << 8 | d).
constexpr address_kind classify_ipv4(std::uint32_t ip) noexcept {
    if (in_range(ip, 0xA9FE0000u, 16)) return address_kind::link_local;
    if (in_range(ip, 0x7F000000u, 8)) return address_kind::loopback;
    if (in_range(ip, 0x0A000000u, 8) || in_range(ip, 0xAC100000u, 12) || in_range(ip, 0xC0A80000u, 16))
        return address_kind::private_use;
    if (in_range(ip, 0x00000000u, 8)) return address_kind::unspecified;
    if (in_range(ip, 0x64400000u, 10)) return address_kind::shared;
    if (in_range(ip, 0xE0000000u, 4)) return address_kind::multicast;
    if (in_range(ip, 0xF0000000u, 4)) return address_kind::reserved;
    return address_kind::global;
}

using ipv6_bytes = std::array<unsigned char, 16>;  // as boost::asio::ip::address_v6::to_bytes() gives them

// An IPv6 address; an IPv4-mapped one (::ffff:a.b.c.d) is its IPv4 address.
constexpr address_kind classify_ipv6(const ipv6_bytes& b) noexcept {
    bool zero_prefix = true;  // the first 10 bytes
    for (std::size_t i = 0; i < 10; ++i) zero_prefix = zero_prefix && b[i] == 0;
    if (zero_prefix && b[10] == 0xFF && b[11] == 0xFF)
        return classify_ipv4(std::uint32_t{b[12]} << 24 | std::uint32_t{b[13]} << 16 | std::uint32_t{b[14]} << 8 | b[15]);
    if (b[0] == 0xFE && (b[1] & 0xC0) == 0x80) return address_kind::link_local;
    if (b[0] == 0xFE && (b[1] & 0xC0) == 0xC0) return address_kind::site_local;
    if ((b[0] & 0xFE) == 0xFC) return address_kind::unique_local;
    if (b[0] == 0xFF) return address_kind::multicast;
    if (zero_prefix && b[10] == 0 && b[11] == 0 && b[12] == 0 && b[13] == 0 && b[14] == 0) {
        if (b[15] == 1) return address_kind::loopback;
        if (b[15] == 0) return address_kind::unspecified;
    }
    return address_kind::global;
}

// Link-local (metadata) targets are refused always; with public_only, every address that is
// not a public one (loopback, private, and the other ranges above).
constexpr bool refuses_address(address_kind kind, bool public_only) noexcept {
    return kind == address_kind::link_local || (public_only && kind != address_kind::global);
}

inline bool is_refused_webhook_url(std::string_view url, bool public_only) {
    const url_parts parts = split_url(url);
    if (parts.scheme != "http" && parts.scheme != "https") return true;
    if (!parts.has_authority || parts.host.empty() || parts.has_userinfo) return true;

    if (auto v4 = parse_ipv4_any_notation(parts.host)) return refuses_address(classify_ipv4(*v4), public_only);
    ipv6_bytes v6{};
    if (inet_pton(AF_INET6, parts.host.c_str(), v6.data()) == 1) return refuses_address(classify_ipv6(v6), public_only);
    std::string_view name = parts.host;
    if (name.ends_with('.')) name.remove_suffix(1);  // "localhost." is the same name (RFC 6761)
    if (public_only && (name == "localhost" || name.ends_with(".localhost"))) return true;
    return false;
}

} // namespace esign::rules
