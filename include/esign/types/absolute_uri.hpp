#pragma once
// An absolute URI (RFC 3986: scheme ":" hier-part), e.g. a webhook target.
// Whether the target is acceptable (scheme, host) is a business rule: see rules/webhook_url.hpp.
#include <string>
#include <string_view>

namespace esign {

struct absolute_uri : std::string {
    using std::string::string;
    absolute_uri() = default;
    absolute_uri(std::string s) : std::string(std::move(s)) {}
    const std::string& str() const noexcept { return *this; }

    // scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ), then ':', then no space or control character.
    static constexpr bool matches(std::string_view s) noexcept {
        auto colon = s.find(':');
        if (colon == std::string_view::npos || colon == 0) return false;
        auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
        if (!alpha(s[0])) return false;
        for (char c : s.substr(1, colon - 1))
            if (!alpha(c) && !(c >= '0' && c <= '9') && c != '+' && c != '-' && c != '.') return false;
        if (colon + 1 == s.size()) return false;
        for (unsigned char c : s.substr(colon + 1))
            if (c <= 0x20 || c == 0x7F || c == '"' || c == '<' || c == '>' || c == '\\' || c == '^' ||
                c == '`' || c == '{' || c == '|' || c == '}')
                return false;
        return true;
    }
    static constexpr std::string_view pattern() noexcept { return "^[A-Za-z][A-Za-z0-9+.-]*:[^\\s]+$"; }
};

} // namespace esign
