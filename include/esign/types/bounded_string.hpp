// SPDX-License-Identifier: BSL-1.0
#pragma once
// A string whose length, counted in Unicode code points, lies in [Min, Max].
// The bound is part of the type, so a reader of a struct sees the rule.
#include <cstddef>
#include <limits>
#include <string>
#include <string_view>

namespace esign {

inline constexpr std::size_t unbounded = std::numeric_limits<std::size_t>::max();

// Code points of valid UTF-8: every byte that is not a continuation byte starts one.
constexpr std::size_t code_point_count(std::string_view s) noexcept {
    std::size_t n = 0;
    for (unsigned char c : s) n += (c & 0xC0u) != 0x80u;
    return n;
}

template <std::size_t Min, std::size_t Max = unbounded>
struct bounded_string : std::string {
    static_assert(Min <= Max);
    static constexpr std::size_t min_length = Min;
    static constexpr std::size_t max_length = Max;
    using std::string::string;
    bounded_string() = default;
    bounded_string(std::string s) : std::string(std::move(s)) {}
    bounded_string(std::string_view s) : std::string(s) {}
    const std::string& str() const noexcept { return *this; }
};

// Every input identifier of the interface: exactly 36 characters, syntax not checked further.
using uuid36 = bounded_string<36, 36>;

}  // namespace esign
