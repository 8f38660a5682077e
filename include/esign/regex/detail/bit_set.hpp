// SPDX-License-Identifier: BSL-1.0
#pragma once
// A fixed-size set of small integers, stored as 64-bit words. Used both for
// sets of bytes (byte_set, 256 bits) and for sets of NFA positions.
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

namespace esign::regex::detail {

template <std::size_t Words>
struct bit_set {
    std::array<std::uint64_t, Words> words{};

    constexpr void insert(std::size_t i) noexcept { words[i / 64] |= std::uint64_t{1} << (i % 64); }

    constexpr bool contains(std::size_t i) const noexcept { return ((words[i / 64] >> (i % 64)) & 1U) != 0; }

    constexpr bool empty() const noexcept {
        for (auto w : words) {
            if (w != 0) {
                return false;
            }
        }
        return true;
    }

    constexpr bool intersects(const bit_set& other) const noexcept {
        for (std::size_t i = 0; i < Words; ++i) {
            if ((words[i] & other.words[i]) != 0) {
                return true;
            }
        }
        return false;
    }

    // Lowest element; the set must not be empty.
    constexpr std::size_t front() const noexcept {
        std::size_t i = 0;
        while (words[i] == 0) {
            ++i;
        }
        return i * 64 + static_cast<std::size_t>(std::countr_zero(words[i]));
    }

    // Calls f(i) for each element i, in increasing order.
    template <class F>
    constexpr void for_each(F f) const {
        for (std::size_t w = 0; w < Words; ++w) {
            for (auto bits = words[w]; bits != 0; bits &= bits - 1) {
                f(w * 64 + static_cast<std::size_t>(std::countr_zero(bits)));
            }
        }
    }

    constexpr bit_set& operator|=(const bit_set& other) noexcept {
        for (std::size_t i = 0; i < Words; ++i) {
            words[i] |= other.words[i];
        }
        return *this;
    }

    friend constexpr bit_set operator|(bit_set a, const bit_set& b) noexcept { return a |= b; }

    friend constexpr bit_set operator&(bit_set a, const bit_set& b) noexcept {
        for (std::size_t i = 0; i < Words; ++i) {
            a.words[i] &= b.words[i];
        }
        return a;
    }

    // Complement over all Words * 64 bits: meaningful for byte_set, whose
    // universe is exactly 256 bits.
    friend constexpr bit_set operator~(bit_set a) noexcept {
        for (auto& w : a.words) {
            w = ~w;
        }
        return a;
    }

    friend constexpr bool operator==(const bit_set&, const bit_set&) = default;
};

using byte_set = bit_set<4>;

constexpr byte_set byte_range(unsigned char low, unsigned char high) noexcept {
    byte_set s{};
    for (unsigned b = low; b <= high; ++b) {
        s.insert(b);
    }
    return s;
}

constexpr byte_set single_byte(unsigned char b) noexcept {
    byte_set s{};
    s.insert(b);
    return s;
}

}  // namespace esign::regex::detail
