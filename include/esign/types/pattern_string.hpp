// SPDX-License-Identifier: BSL-1.0
#pragma once
// A string that matches a compile-time pattern (e.g. a colour "#a1b2c3").
#include <string>
#include <string_view>
#include <utility>

#include <esign/regex/regex.hpp>
#include <esign/types/detail/string_value.hpp>
#include <esign/validation/check.hpp>
#include <esign/validation/problem.hpp>

namespace esign {

template <regex::fixed_string Pattern>
struct pattern_string : detail::string_value {
    using detail::string_value::string_value;

    static constexpr std::string_view pattern() noexcept { return Pattern.view(); }
    static constexpr bool matches(std::string_view s) noexcept { return regex::matches<Pattern>(s); }

    static bool check(const pattern_string& value, problem_sink& out) {
        if (matches(value)) return true;
        out.add(problem_kind::pattern, "must match " + std::string(Pattern.view()));
        return false;
    }
    // The string, or its problems (no match, not valid UTF-8); see `make` in types/bounded_string.hpp.
    static result<pattern_string> make(std::string s) { return validation::checked(pattern_string(std::move(s))); }
};

using hex_color = pattern_string<"^#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$">;
using page_key = pattern_string<"^[0-9]+$">;

}  // namespace esign
