// SPDX-License-Identifier: BSL-1.0
#pragma once
// Deciding whether two DFAs accept the same strings, with a shortest input on
// which they differ when they do not: a breadth-first search of the product
// automaton over the pairs of states reachable together.
#include <array>
#include <cstddef>
#include <string_view>

namespace esign::regex::detail {

template <std::size_t MaxLength>
struct difference {
    bool found = false;  // false: the two automata accept the same strings
    std::array<char, MaxLength> bytes{};
    std::size_t length = 0;

    constexpr std::string_view input() const noexcept { return {bytes.data(), length}; }
};

template <class A, class B>
constexpr auto first_difference(const A& a, const B& b) noexcept {
    constexpr std::size_t pairs = A::state_count * B::state_count;
    difference<pairs> result{};

    // One byte for each pair of classes that some byte falls into.
    std::array<bool, A::class_count * B::class_count> seen{};
    std::array<unsigned char, 256> alphabet{};
    std::size_t letters = 0;
    for (unsigned byte = 0; byte < 256; ++byte) {
        const std::size_t both = a.class_of[byte] * B::class_count + b.class_of[byte];
        if (!seen[both]) {
            seen[both] = true;
            alphabet[letters++] = static_cast<unsigned char>(byte);
        }
    }

    // Pair (x, y) is numbered x * B::state_count + y; the queue is `order`.
    std::array<bool, pairs> visited{};
    std::array<std::size_t, pairs> parent{};
    std::array<unsigned char, pairs> via{};
    std::array<std::size_t, pairs> order{};
    std::size_t queued = 0;

    const std::size_t origin = a.start * B::state_count + b.start;
    visited[origin] = true;
    order[queued++] = origin;
    for (std::size_t head = 0; head < queued; ++head) {
        const std::size_t pair = order[head];
        const auto x = static_cast<typename A::state_type>(pair / B::state_count);
        const auto y = static_cast<typename B::state_type>(pair % B::state_count);
        if (a.accepting[x] != b.accepting[y]) {
            result.found = true;
            for (std::size_t p = pair; p != origin; p = parent[p]) {
                result.bytes[result.length++] = static_cast<char>(via[p]);
            }
            for (std::size_t i = 0, j = result.length; i + 1 < j; ++i, --j) {
                const char t = result.bytes[i];
                result.bytes[i] = result.bytes[j - 1];
                result.bytes[j - 1] = t;
            }
            return result;
        }
        for (std::size_t l = 0; l < letters; ++l) {
            const std::size_t to = a.step(x, alphabet[l]) * B::state_count + b.step(y, alphabet[l]);
            if (!visited[to]) {
                visited[to] = true;
                parent[to] = pair;
                via[to] = alphabet[l];
                order[queued++] = to;
            }
        }
    }
    return result;
}

template <class A, class B>
constexpr bool equivalent(const A& a, const B& b) noexcept {
    return !first_difference(a, b).found;
}

}  // namespace esign::regex::detail
