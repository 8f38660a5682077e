// SPDX-License-Identifier: BSL-1.0
#pragma once
// A string literal held by value, so that it can be a template argument
// (a C++20 class-type non-type template parameter): compiled<"^a+$">.
#include <cstddef>
#include <string_view>

namespace esign::regex {

template <std::size_t N>
struct fixed_string {
    static_assert(N >= 1, "built from a string literal, which always ends with a NUL");

    // Public and non-mutable, as a structural type must be. Includes the literal's NUL.
    char chars[N]{};

    // Implicit on purpose: it is what lets users write compiled<"...">.
    constexpr fixed_string(const char (&literal)[N]) noexcept {
        for (std::size_t i = 0; i < N; ++i) {
            chars[i] = literal[i];
        }
    }

    constexpr std::size_t size() const noexcept { return N - 1; }
    constexpr std::string_view view() const noexcept { return {chars, N - 1}; }
};

template <std::size_t N>
fixed_string(const char (&)[N]) -> fixed_string<N>;

}  // namespace esign::regex
