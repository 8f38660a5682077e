// SPDX-License-Identifier: BSL-1.0
#pragma once
// Pieces of the webhook sender that need no network: URL parsing, form encoding, and which
// addresses the sender may connect to (see webhook_sender.hpp).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <boost/asio/ip/address.hpp>

#include <esign/rules/webhook_url.hpp>
#include <esign/types/uri.hpp>

namespace esign::server {

namespace asio = boost::asio;

// ---- URLs ---------------------------------------------------------------------------------

struct webhook_url {
    bool tls = false;
    std::string host;         // without brackets, for resolving and TLS
    std::string port;         // decimal
    std::string host_header;  // as it goes in `Host:` (brackets for IPv6, port when not default)
    std::string target;       // path and query, "/" at least
    bool host_is_ip = false;
};

// A webhook target for the sender: a thin adapter over the one URL grammar (esign::parse_uri,
// include/esign/types/uri.hpp) and the refusal rule's view of the host. nullopt when the URL
// is not one of the grammar, its scheme is not http or https, it carries user info, or its
// host, once percent-decoded, holds a byte a resolver cannot take (a control byte or space).
// The fragment is dropped; the target is the path and query, "/" at least.
inline std::optional<webhook_url> parse_webhook_url(std::string_view url) {
    const std::optional<uri_view> uri = parse_uri(url);
    if (!uri || uri->has_userinfo) return std::nullopt;
    webhook_url out;
    const std::string scheme = lower_ascii(uri->scheme);
    if (scheme == "http")
        out.tls = false;
    else if (scheme == "https")
        out.tls = true;
    else
        return std::nullopt;

    out.host = host_name(*uri);
    if (!rules::is_resolvable_host(out.host)) return std::nullopt;
    out.host_is_ip = rules::host_address_kind(*uri, out.host).has_value();
    const unsigned default_port = out.tls ? 443 : 80;
    const unsigned port = uri->port == 0 ? default_port : uri->port;
    out.port = std::to_string(port);
    out.host_header = uri->ipv6 ? "[" + out.host + "]" : lower_ascii(uri->host);
    if (port != default_port) out.host_header += ":" + out.port;
    out.target = uri->target.empty() ? std::string("/") : std::string(uri->target);
    if (out.target.front() == '?') out.target.insert(out.target.begin(), '/');
    return out;
}

// application/x-www-form-urlencoded (WHATWG): alphanumerics and *-._ stay, space is '+',
// every other byte %XX.
inline std::string form_urlencode(std::string_view text) {
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string out;
    out.reserve(text.size() * 3 / 2);
    for (char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '*' || c == '-' ||
            c == '.' || c == '_')
            out += ch;
        else if (c == ' ')
            out += '+';
        else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 0x0F];
        }
    }
    return out;
}

// Whether the sender may connect to `address`, an address the webhook's host resolved to: the
// rule of a URL's IP host (esign::rules::classify_ipv4/6, refuses_address; an IPv6 address
// carrying an IPv4 one is classified as that IPv4 address) applied again, so a host name cannot
// lead to an address its URL could not name.
inline bool may_connect_to(const asio::ip::address& address, bool public_only) {
    const rules::address_kind kind = address.is_v4() ? rules::classify_ipv4(address.to_v4().to_uint())
                                                     : rules::classify_ipv6(address.to_v6().to_bytes());
    return !rules::refuses_address(kind, public_only);
}

}  // namespace esign::server
