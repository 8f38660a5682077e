// SPDX-License-Identifier: BSL-1.0
#pragma once
// Whether two short names are equal (member names, enumerators' wire names): in at most two
// overlapping loads each for names up to 16 bytes. Names are short, and a call to memcmp, which
// string_view's == makes for any two names of one length, costs more than the comparison.
#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>

namespace esign::detail {

[[gnu::always_inline]] constexpr bool same_name(std::string_view a, std::string_view b) noexcept {
    if (std::is_constant_evaluated()) return a == b;
    const std::size_t n = a.size();
    if (n != b.size()) return false;
    auto same = [&]<class Word>(Word, std::size_t at) {
        Word x, y;
        std::memcpy(&x, a.data() + at, sizeof x);
        std::memcpy(&y, b.data() + at, sizeof y);
        return x == y;
    };
    if (n >= 8) {
        for (std::size_t i = 0; i + 8 < n; i += 8)
            if (!same(std::uint64_t{}, i)) return false;
        return same(std::uint64_t{}, n - 8);
    }
    if (n >= 4) return same(std::uint32_t{}, 0) && same(std::uint32_t{}, n - 4);
    if (n >= 2) return same(std::uint16_t{}, 0) && same(std::uint16_t{}, n - 2);
    return n == 0 || a[0] == b[0];
}

}  // namespace esign::detail
