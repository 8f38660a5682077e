// SPDX-License-Identifier: BSL-1.0
#pragma once
// An integer in [Min, Max]. Every integer member of the interface also lies in the
// 32-bit signed range, so that is the widest range a ranged<> may have.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

#include <esign/validation/check.hpp>
#include <esign/validation/problem.hpp>

namespace esign {

inline constexpr std::int64_t int32_min = std::numeric_limits<std::int32_t>::min();
inline constexpr std::int64_t int32_max = std::numeric_limits<std::int32_t>::max();

template <std::int64_t Min = int32_min, std::int64_t Max = int32_max>
struct ranged {
    static_assert(int32_min <= Min && Min <= Max && Max <= int32_max,
                  "ranged<Min, Max> needs Min <= Max, both within the 32-bit signed range");
    static constexpr std::int64_t min_value = Min;
    static constexpr std::int64_t max_value = Max;
    std::int32_t value{static_cast<std::int32_t>(Min > 0 ? Min : (Max < 0 ? Max : 0))};

    constexpr ranged() = default;
    constexpr ranged(std::int32_t v) noexcept : value(v) {}
    constexpr operator std::int32_t() const noexcept { return value; }
    friend constexpr bool operator==(ranged, ranged) = default;

    // The range rule, on any integer (a reader judges one beyond 32 bits before it is a ranged).
    static bool check_value(std::int64_t i, problem_sink& out) {
        if (i < Min)
            out.add(problem_kind::range, "must be at least " + std::to_string(Min), Min);
        else if (i > Max)
            out.add(problem_kind::range, "must be at most " + std::to_string(Max), Max);
        else
            return true;
        return false;
    }
    static bool check(const ranged& value, problem_sink& out) { return check_value(value.value, out); }

    // The integer, or its problem (below Min, above Max); see `make` in types/bounded_string.hpp.
    // A value beyond 32 bits is out of range as the nearest 32-bit value is.
    static result<ranged> make(std::int64_t v) {
        return validation::checked(ranged(static_cast<std::int32_t>(std::clamp(v, int32_min, int32_max))));
    }
};

using int32 = ranged<>;
using positive_int = ranged<1>;

}  // namespace esign
