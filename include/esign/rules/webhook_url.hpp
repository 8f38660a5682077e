// SPDX-License-Identifier: BSL-1.0
#pragma once
// WEBHOOK_URL_REFUSED (contract.md §3, §6.7): a scheme other than http or https, user
// information in the URL, or a host that is an IP address in the link-local/metadata ranges
// (169.254.0.0/16, fe80::/10) in any notation — dotted, decimal, octal or hexadecimal IPv4,
// IPv6, and IPv4 embedded in IPv6 (::a.b.c.d, ::ffff:a.b.c.d, ::ffff:0:a.b.c.d, 64:ff9b::/96,
// 2002::/16; beyond the contract's list, the local-use NAT64 prefix 64:ff9b:1::/48, Teredo
// 2001::/32 and ISATAP interface identifiers, which carry one just as well), each classified
// like the IPv4 address it carries. With public_only, loopback and
// private targets are refused too (every address that is not a public one, see address_kind,
// and the name localhost). Beyond the contract's list, a host that percent-decodes to a space or
// a control byte is refused as well (is_resolvable_host): no delivery could ever reach it.
//
// The URL is read by the one grammar of types/uri.hpp (parse_uri); a string it does not accept
// is refused here too, though a decoded request never gets this far with one (absolute_uri
// makes it INVALID_REQUEST_FORMAT first: see types/absolute_uri.hpp for where the line lies).
// The address classification is also what the server applies to the addresses a webhook host
// resolves to (examples/reference_server/webhook_url.hpp, may_connect_to).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <esign/types/uri.hpp>

namespace esign::rules {

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
            if (c >= '0' && c <= '9')
                digit = static_cast<unsigned>(c - '0');
            else if (c >= 'a' && c <= 'f')
                digit = static_cast<unsigned>(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F')
                digit = static_cast<unsigned>(c - 'A' + 10);
            else
                return std::nullopt;
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

using ipv6_bytes = esign::ipv6_bytes;  // as boost::asio::ip::address_v6::to_bytes() gives them

// The IPv4 address an IPv6 address carries, where one of these forms says it does (bytes in
// network order; the IPv4 address as classify_ipv4 takes it):
//   ::ffff:a.b.c.d      IPv4-mapped (RFC 4291)
//   ::a.b.c.d           IPv4-compatible (RFC 4291, deprecated), but not :: and ::1
//   ::ffff:0:a.b.c.d    IPv4-translated (RFC 2765)
//   64:ff9b::a.b.c.d    the NAT64 well-known prefix 64:ff9b::/96 (RFC 6052)
//   2002:AABB:CCDD::/48 6to4 (RFC 3056): bytes 2 to 5 are the IPv4 address
//   2001:0:S:S:F:P:C:C  Teredo (RFC 4380): the client's address is the last 32 bits, inverted
//   P:P:P:P:0000:5efe:a.b.c.d and P:P:P:P:0200:5efe:a.b.c.d  ISATAP (RFC 5214), any prefix
// The local-use NAT64 prefix 64:ff9b:1::/48 (RFC 8215) is not here: where the address sits
// depends on the length of the prefix its operator chose (nat64_local_kind).
constexpr std::optional<std::uint32_t> embedded_ipv4(const ipv6_bytes& b) noexcept {
    auto zero = [&](std::size_t from, std::size_t to) {
        for (std::size_t i = from; i < to; ++i)
            if (b[i] != 0) return false;
        return true;
    };
    auto v4_at = [&](std::size_t i) {
        return std::uint32_t{b[i]} << 24 | std::uint32_t{b[i + 1]} << 16 | std::uint32_t{b[i + 2]} << 8 | b[i + 3];
    };
    if (zero(0, 10) && b[10] == 0xFF && b[11] == 0xFF) return v4_at(12);                                // mapped
    if (zero(0, 12) && !(zero(12, 15) && b[15] <= 1)) return v4_at(12);                                 // compatible
    if (zero(0, 8) && b[8] == 0xFF && b[9] == 0xFF && zero(10, 12)) return v4_at(12);                   // translated
    if (b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xFF && b[3] == 0x9B && zero(4, 12)) return v4_at(12);  // NAT64
    if (b[0] == 0x20 && b[1] == 0x02) return v4_at(2);                                                  // 6to4
    if (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x00 && b[3] == 0x00) return ~v4_at(12);                // Teredo
    if ((b[8] == 0x00 || b[8] == 0x02) && b[9] == 0x00 && b[10] == 0x5E && b[11] == 0xFE) return v4_at(12);  // ISATAP
    return std::nullopt;
}

// The more restrictive of two kinds: link-local first (refused in every mode), then any
// non-public kind (refused with public_only), then global.
constexpr address_kind stricter(address_kind a, address_kind b) noexcept {
    if (a == address_kind::link_local || b == address_kind::link_local) return address_kind::link_local;
    return a != address_kind::global ? a : b;
}

// An address of the local-use NAT64 prefix 64:ff9b:1::/48 (RFC 8215): the IPv4 address sits
// where RFC 6052 puts it for the prefix length its operator chose, /48, /56, /64 or /96 (the
// lengths within a /48), which the address does not tell; every place is read, and the address
// is link-local if any of them holds a link-local address. Otherwise it is `reserved`: the prefix
// is not globally reachable (RFC 8215), so public_only refuses it whatever it carries.
constexpr std::optional<address_kind> nat64_local_kind(const ipv6_bytes& b) noexcept {
    if (!(b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xFF && b[3] == 0x9B && b[4] == 0x00 && b[5] == 0x01))
        return std::nullopt;
    auto v4 = [&](std::size_t i0, std::size_t i1, std::size_t i2, std::size_t i3) {
        return std::uint32_t{b[i0]} << 24 | std::uint32_t{b[i1]} << 16 | std::uint32_t{b[i2]} << 8 | b[i3];
    };
    // RFC 6052 section 2.2: byte 8 (bits 64 to 71) is never part of the address.
    const std::uint32_t candidates[] = {v4(6, 7, 9, 10), v4(7, 9, 10, 11), v4(9, 10, 11, 12), v4(12, 13, 14, 15)};
    for (std::uint32_t candidate : candidates)
        if (classify_ipv4(candidate) == address_kind::link_local) return address_kind::link_local;
    return address_kind::reserved;
}

// An IPv6 address's own kind, by its prefix alone.
constexpr address_kind classify_ipv6_prefix(const ipv6_bytes& b) noexcept {
    bool zero_prefix = true;  // the first 15 bytes
    for (std::size_t i = 0; i < 15; ++i) zero_prefix = zero_prefix && b[i] == 0;
    if (zero_prefix && b[15] == 1) return address_kind::loopback;
    if (zero_prefix && b[15] == 0) return address_kind::unspecified;
    if (b[0] == 0xFE && (b[1] & 0xC0) == 0x80) return address_kind::link_local;
    if (b[0] == 0xFE && (b[1] & 0xC0) == 0xC0) return address_kind::site_local;
    if ((b[0] & 0xFE) == 0xFC) return address_kind::unique_local;
    if (b[0] == 0xFF) return address_kind::multicast;
    return address_kind::global;
}

// An IPv6 address; one that carries an IPv4 address (embedded_ipv4, nat64_local_kind) is that
// IPv4 address, or its own prefix's kind when that is stricter (an ISATAP identifier may follow
// any prefix, fe80::/10 included).
constexpr address_kind classify_ipv6(const ipv6_bytes& b) noexcept {
    if (auto kind = nat64_local_kind(b)) return *kind;
    if (auto v4 = embedded_ipv4(b)) return stricter(classify_ipv4(*v4), classify_ipv6_prefix(b));
    return classify_ipv6_prefix(b);
}

// Link-local (metadata) targets are refused always; with public_only, every address that is
// not a public one (loopback, private, and the other ranges above).
constexpr bool refuses_address(address_kind kind, bool public_only) noexcept {
    return kind == address_kind::link_local || (public_only && kind != address_kind::global);
}

// The kind of a URL's host when it is an IP address (an IPv6 literal, or an IPv4 address in
// any notation), nullopt for a name. `host` is host_name(uri): percent-decoded, lower case.
inline std::optional<address_kind> host_address_kind(const uri_view& uri, std::string_view host) {
    if (uri.ipv6) return classify_ipv6(*uri.ipv6);
    if (auto v4 = parse_ipv4_any_notation(host)) return classify_ipv4(*v4);
    return std::nullopt;
}

// Whether a resolver can take `host` (host_name(uri)): a percent-encoded reg-name may decode
// to a space or a control byte ("%00", "%0a"), which no resolver takes and which would cut the
// name short where a C string is passed on. Such a URL is well-formed but can never be
// delivered, so the rule refuses it too, and the sender never connects for it.
constexpr bool is_resolvable_host(std::string_view host) noexcept {
    for (char c : host)
        if (static_cast<unsigned char>(c) <= ' ' || c == 0x7f) return false;
    return !host.empty();
}

inline bool is_refused_webhook_url(std::string_view url, bool public_only) {
    const std::optional<uri_view> uri = parse_uri(url);
    if (!uri) return true;  // not a URL of the grammar (the type refuses it before this rule)
    const std::string scheme = lower_ascii(uri->scheme);
    if (scheme != "http" && scheme != "https") return true;
    if (uri->has_userinfo) return true;

    const std::string host = host_name(*uri);
    if (!is_resolvable_host(host)) return true;
    if (auto kind = host_address_kind(*uri, host)) return refuses_address(*kind, public_only);
    std::string_view name = host;
    if (name.ends_with('.')) name.remove_suffix(1);  // "localhost." is the same name (RFC 6761)
    if (public_only && (name == "localhost" || name.ends_with(".localhost"))) return true;
    return false;
}

}  // namespace esign::rules
