// SPDX-License-Identifier: BSL-1.0
#pragma once
// The client's base URL, cut with the library's own URI grammar (types/uri.hpp).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <esign/types/ascii.hpp>
#include <esign/types/uri.hpp>

namespace esign::client::detail {

struct endpoint {
    bool tls = false;
    std::string host;         // for the resolver, the certificate check and SNI (no brackets)
    bool ip_literal = false;  // a literal address: no SNI (RFC 6066 §3)
    std::string port;         // decimal
    std::string host_header;  // as the Host header wants it (brackets, the port unless default)
    std::string prefix;       // the base URL's path, without a trailing '/': put before each operation's path
};

// The endpoint of `url` (http://host[:port][/prefix] or https://...), or nullopt for anything
// else (another scheme, user info, a query or a fragment).
inline std::optional<endpoint> parse_base_url(std::string_view url) {
    const auto uri = parse_uri(url);
    if (!uri || uri->has_userinfo || !uri->fragment.empty() || uri->host.empty()) return std::nullopt;
    if (uri->target.find('?') != std::string_view::npos) return std::nullopt;
    const std::string scheme = lower_ascii(uri->scheme);
    if (scheme != "http" && scheme != "https") return std::nullopt;
    endpoint out;
    out.tls = scheme == "https";
    out.host = host_name(*uri);
    out.ip_literal = uri->ip_literal || uri->host.find_first_not_of("0123456789.") == std::string_view::npos;
    const std::uint16_t port = uri->port != 0 ? uri->port : (out.tls ? 443 : 80);
    out.port = std::to_string(port);
    out.host_header = uri->ip_literal ? "[" + out.host + "]" : out.host;
    if (uri->port != 0) out.host_header += ":" + out.port;
    out.prefix = std::string(uri->target);
    while (!out.prefix.empty() && out.prefix.back() == '/') out.prefix.pop_back();
    return out;
}

}  // namespace esign::client::detail
