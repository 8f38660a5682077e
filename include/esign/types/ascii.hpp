// SPDX-License-Identifier: BSL-1.0
#pragma once
// ASCII case, the only case the interface's names know: URI schemes and hosts (RFC 3986
// §6.2.2.1), HTTP header names and tokens (RFC 9110 §5.1), the "invalid" top-level domain.
// Bytes outside A–Z are left as they are, whatever the locale. And the value of a hexadecimal
// digit, as percent-encoding writes it (RFC 3986 §2.1: either case).
#include <string>
#include <string_view>

namespace esign {

constexpr char to_lower_ascii(char c) noexcept { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
constexpr char to_upper_ascii(char c) noexcept { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c; }

inline std::string lower_ascii(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = to_lower_ascii(c);
    return out;
}

// The value of the hexadecimal digit c (0-9, a-f, A-F), or -1 when c is none.
constexpr int hex_digit_value(char c) noexcept {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// Whether a and b are the same text but for ASCII case.
constexpr bool iequals_ascii(std::string_view a, std::string_view b) noexcept {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (to_lower_ascii(a[i]) != to_lower_ascii(b[i])) return false;
    return true;
}

}  // namespace esign
