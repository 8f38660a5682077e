// SPDX-License-Identifier: BSL-1.0
#pragma once
// A string whose length, counted in Unicode code points, lies in [Min, Max].
// The bound is part of the type, so a reader of a struct sees the rule.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>

#include <esign/types/detail/string_value.hpp>
#include <esign/validation/check.hpp>
#include <esign/validation/problem.hpp>
#include <esign/validation/utf8.hpp>

namespace esign {

inline constexpr std::size_t unbounded = std::numeric_limits<std::size_t>::max();

// The length rule of every bounded string (and of the e-mail and URI types' lengths), in code
// points: true when it holds, else its problem (too short, too long, not exactly `min`).
inline bool check_length(std::string_view s, std::size_t min, std::size_t max, problem_sink& out) {
    // A code point is 1 to 4 bytes: most strings are judged by their size alone.
    if (s.size() <= max && (s.size() + 3) / 4 >= min) return true;
    std::size_t n = code_point_count(s);
    if (min == max && n != min)
        out.add(n < min ? problem_kind::too_short : problem_kind::too_long,
                "must be exactly " + std::to_string(min) + " characters", static_cast<std::int64_t>(min));
    else if (n < min)
        out.add(problem_kind::too_short,
                min == 1 ? std::string("must not be empty") : "must be at least " + std::to_string(min) + " characters",
                static_cast<std::int64_t>(min));
    else if (n > max)
        out.add(problem_kind::too_long, "must be at most " + std::to_string(max) + " characters",
                static_cast<std::int64_t>(max));
    else
        return true;
    return false;
}

// Each constrained type (here and in the other headers of types/) carries its rule, `check`
// (validation/rule.hpp), and its facts (bounds, pattern) as static members, which the JSON
// reader, the schema export and the fuzz generator read. Checked construction, `make`, gives the
// value or every problem it has (esign::validation::checked), e.g.
// bounded_string<1, 100>::make(text); building the type directly (bounded_string<1, 100>{text})
// checks nothing, as before.

template <std::size_t Min, std::size_t Max = unbounded>
struct bounded_string : detail::string_value {
    static_assert(Min <= Max, "bounded_string<Min, Max> needs Min <= Max");
    static constexpr std::size_t min_length = Min;
    static constexpr std::size_t max_length = Max;
    using detail::string_value::string_value;

    // Too short or too long, in code points.
    static bool check(const bounded_string& value, problem_sink& out) { return check_length(value, Min, Max, out); }
    // The string, or its problems (those of `check`; not valid UTF-8).
    static result<bounded_string> make(std::string s) { return validation::checked(bounded_string(std::move(s))); }
};

// Every input identifier of the interface: exactly 36 characters, syntax not checked further.
using uuid36 = bounded_string<36, 36>;

}  // namespace esign
