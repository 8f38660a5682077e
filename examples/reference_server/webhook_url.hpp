#pragma once
// Pieces of the webhook sender that need no network: URL parsing, form encoding, and which
// addresses the sender may connect to (see webhook_sender.hpp).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <boost/asio/ip/address.hpp>

#include <esign/rules/webhook_url.hpp>

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

// http(s)://host[:port][/path][?query][#fragment]; IPv6 literals in brackets. No user info.
inline std::optional<webhook_url> parse_webhook_url(std::string_view url) {
    auto lower = [](std::string_view s) {
        std::string out(s);
        for (auto& c : out)
            if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        return out;
    };
    webhook_url out;
    const auto sep = url.find("://");
    if (sep == std::string_view::npos) return std::nullopt;
    const std::string scheme = lower(url.substr(0, sep));
    if (scheme == "http") out.tls = false;
    else if (scheme == "https") out.tls = true;
    else return std::nullopt;
    std::string_view rest = url.substr(sep + 3);
    if (auto hash = rest.find('#'); hash != std::string_view::npos) rest = rest.substr(0, hash);
    const auto end = rest.find_first_of("/?");
    std::string_view authority = rest.substr(0, end);
    std::string_view target = end == std::string_view::npos ? std::string_view{} : rest.substr(end);
    if (authority.empty() || authority.find('@') != std::string_view::npos) return std::nullopt;

    std::string_view host, port;
    if (authority.front() == '[') {
        const auto close = authority.find(']');
        if (close == std::string_view::npos || close == 1) return std::nullopt;
        host = authority.substr(1, close - 1);
        auto after = authority.substr(close + 1);
        if (!after.empty()) {
            if (after.front() != ':') return std::nullopt;
            port = after.substr(1);
        }
        boost::system::error_code ec;
        asio::ip::make_address_v6(std::string(host), ec);
        if (ec) return std::nullopt;
        out.host_is_ip = true;
    } else {
        const auto colon = authority.find(':');
        host = authority.substr(0, colon);
        if (colon != std::string_view::npos) port = authority.substr(colon + 1);
        if (host.empty()) return std::nullopt;
        for (char c : host) {
            const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                            c == '.' || c == '_' || c == '~' || c == '%';
            if (!ok) return std::nullopt;
        }
        boost::system::error_code ec;
        asio::ip::make_address_v4(std::string(host), ec);
        out.host_is_ip = !ec;
    }
    unsigned port_number = out.tls ? 443 : 80;
    if (!port.empty()) {
        if (port.size() > 5) return std::nullopt;
        port_number = 0;
        for (char c : port) {
            if (c < '0' || c > '9') return std::nullopt;
            port_number = port_number * 10 + static_cast<unsigned>(c - '0');
        }
        if (port_number == 0 || port_number > 65535) return std::nullopt;
    }
    out.host = std::string(host);
    out.port = std::to_string(port_number);
    out.host_header = authority.front() == '[' ? "[" + out.host + "]" : lower(host);
    if (port_number != (out.tls ? 443u : 80u)) out.host_header += ":" + out.port;
    out.target = target.empty() ? std::string("/") : std::string(target);
    if (out.target.front() == '?') out.target.insert(out.target.begin(), '/');
    for (char c : out.target)
        if (static_cast<unsigned char>(c) <= ' ' || c == 0x7f) return std::nullopt;  // no request smuggling
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
// rule of a URL's IP host (esign::rules::classify_ipv4/6, refuses_address) applied again, so a
// host name cannot lead to an address its URL could not name.
inline bool may_connect_to(const asio::ip::address& address, bool public_only) {
    const rules::address_kind kind = address.is_v4() ? rules::classify_ipv4(address.to_v4().to_uint())
                                                     : rules::classify_ipv6(address.to_v6().to_bytes());
    return !rules::refuses_address(kind, public_only);
}

} // namespace esign::server
