// SPDX-License-Identifier: BSL-1.0
#pragma once
// A string that matches a compile-time pattern (e.g. a colour "#a1b2c3").
#include <string>
#include <string_view>
#include <utility>

#include <esign/regex/regex.hpp>

namespace esign {

template <regex::fixed_string Pattern>
struct pattern_string : std::string {
    using std::string::string;
    pattern_string() = default;
    pattern_string(std::string s) : std::string(std::move(s)) {}
    pattern_string(std::string_view s) : std::string(s) {}
    const std::string& str() const noexcept { return *this; }

    static constexpr std::string_view pattern() noexcept { return Pattern.view(); }
    static constexpr bool matches(std::string_view s) noexcept { return regex::matches<Pattern>(s); }

    // The string, or its problems (no match, not valid UTF-8); see `make` in types/bounded_string.hpp.
    static auto make(std::string s) { return checked(pattern_string(std::move(s))); }
};

using hex_color = pattern_string<"^#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$">;
using page_key = pattern_string<"^[0-9]+$">;

}  // namespace esign
