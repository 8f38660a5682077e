// SPDX-License-Identifier: BSL-1.0
#pragma once
// Byte equivalence classes: two bytes are equivalent when every state of the
// NFA either reads both or neither. The DFA then has one column per class
// (a handful) instead of one per byte (256), which shrinks both the compile-time
// work and the final table.
#include <array>
#include <cstddef>
#include <cstdint>

#include <esign/regex/detail/bit_set.hpp>
#include <esign/regex/detail/position_automaton.hpp>

namespace esign::regex::detail {

struct byte_classes {
    std::array<std::uint8_t, 256> class_of{};
    std::array<std::uint8_t, 256> representative{};  // one byte of each class
    std::size_t count = 0;
};

template <std::size_t Positions>
constexpr byte_classes partition_bytes(const position_automaton<Positions>& nfa) noexcept {
    // Start from one class of all bytes and split classes by each state's byte set.
    std::array<byte_set, 256> members{};
    members[0] = ~byte_set{};
    std::size_t count = 1;
    for (std::size_t p = 1; p < nfa.size; ++p) {
        const byte_set& read = nfa.bytes[p];
        for (std::size_t k = 0, before = count; k < before; ++k) {
            const byte_set inside = members[k] & read;
            if (!inside.empty() && inside != members[k]) {
                members[count++] = members[k] & ~read;
                members[k] = inside;
            }
        }
    }

    byte_classes classes{};
    classes.count = count;
    for (std::size_t k = 0; k < count; ++k) {
        classes.representative[k] = static_cast<std::uint8_t>(members[k].front());
        members[k].for_each([&](std::size_t b) { classes.class_of[b] = static_cast<std::uint8_t>(k); });
    }
    return classes;
}

}  // namespace esign::regex::detail
