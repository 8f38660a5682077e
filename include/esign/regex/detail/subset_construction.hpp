// SPDX-License-Identifier: BSL-1.0
#pragma once
// The subset construction: each DFA state is a set of NFA states.
//
// State 0 is the dead state: every set that can no longer lead to a match,
// because it holds no state of the main expression (only lookahead states, or
// none), or holds a doomed one (the input already has a prefix matching a
// negative lookahead). Known sets are found through a small open-addressing hash table,
// so the work stays proportional to states x classes.
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

#include <esign/regex/detail/byte_classes.hpp>
#include <esign/regex/detail/errors.hpp>
#include <esign/regex/detail/position_automaton.hpp>

namespace esign::regex::detail {

inline constexpr std::size_t dead_state = 0;

template <std::size_t Positions, std::size_t Classes, std::size_t MaxStates>
struct subset_automaton {
    static_assert(MaxStates >= 2 && MaxStates <= 65536,
                  "MaxStates is from 2 (the dead state and the start) to 65536 (state numbers are stored in 16 bits)");
    using state_set = typename position_automaton<Positions>::state_set;

    std::array<state_set, MaxStates> sets{};
    std::array<std::uint16_t, MaxStates * Classes> next{};  // [state * Classes + class]
    std::array<bool, MaxStates> accepting{};
    std::size_t count = 1;  // the dead state
    std::size_t start = dead_state;
};

template <std::size_t Words>
constexpr std::uint64_t hash(const bit_set<Words>& s) noexcept {
    std::uint64_t h = 0xcbf29ce484222325U;
    for (auto w : s.words) {
        h = (h ^ w) * 0x100000001b3U;
        h ^= h >> 29;
    }
    return h;
}

template <std::size_t Classes, std::size_t MaxStates, std::size_t Positions>
constexpr auto determinize(const position_automaton<Positions>& nfa, const byte_classes& classes) {
    using result = subset_automaton<Positions, Classes, MaxStates>;
    using state_set = typename result::state_set;
    result dfa{};

    // reads[k]: the NFA states entered by reading a byte of class k.
    std::array<state_set, Classes> reads{};
    for (std::size_t p = 1; p < nfa.size; ++p) {
        for (std::size_t k = 0; k < Classes; ++k) {
            if (nfa.bytes[p].contains(classes.representative[k])) reads[k].insert(p);
        }
    }

    // Slots hold state numbers; 0 (the dead state) marks a free slot.
    constexpr std::size_t slots = std::bit_ceil(2 * MaxStates);
    std::array<std::uint16_t, slots> index{};

    // The number of the state for set s, adding it if new.
    auto state_of = [&](const state_set& s) -> std::size_t {
        if (!s.intersects(nfa.body) || s.intersects(nfa.doomed)) return dead_state;
        auto slot = static_cast<std::size_t>(hash(s) % slots);
        while (index[slot] != 0) {
            if (dfa.sets[index[slot]] == s) return index[slot];
            slot = (slot + 1) % slots;
        }
        if (dfa.count == MaxStates) {
            regex_error_too_many_dfa_states();
            return dead_state;
        }
        dfa.sets[dfa.count] = s;
        index[slot] = static_cast<std::uint16_t>(dfa.count);
        return dfa.count++;
    };

    state_set start{};
    start.insert(0);
    dfa.start = state_of(start);

    // New states are appended, so walking the array is a breadth-first search.
    for (std::size_t i = 1; i < dfa.count; ++i) {
        dfa.accepting[i] = dfa.sets[i].intersects(nfa.accepting);
        state_set after{};  // states that may follow any state of the set
        dfa.sets[i].for_each([&](std::size_t p) { after |= nfa.follow[p]; });
        for (std::size_t k = 0; k < Classes; ++k) {
            dfa.next[i * Classes + k] = static_cast<std::uint16_t>(state_of(after & reads[k]));
        }
    }
    return dfa;
}

}  // namespace esign::regex::detail
