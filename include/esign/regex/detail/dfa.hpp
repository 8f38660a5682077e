// SPDX-License-Identifier: BSL-1.0
#pragma once
// The final automaton: exactly as many states as the subset construction
// found, a (states x classes) table of small integers and a 256-entry map from
// byte to class. Matching is one table look-up per input byte; at run time an
// automaton of at most 16 states is matched with byte shuffles instead
// (detail/shuffle_match.hpp), where the processor has them. The table is
// not minimized: the subset construction's states are already few for the
// patterns in use, and a smaller table would not make matching faster.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include <esign/regex/detail/byte_classes.hpp>
#include <esign/regex/detail/shuffle_match.hpp>
#include <esign/regex/detail/subset_construction.hpp>

namespace esign::regex::detail {

template <std::size_t States, std::size_t Classes>
struct dfa {
    static constexpr std::size_t state_count = States;  // including the dead state 0
    static constexpr std::size_t class_count = Classes;
    using state_type = std::conditional_t<(States <= 256), std::uint8_t, std::uint16_t>;

    std::array<std::uint8_t, 256> class_of{};
    std::array<state_type, States * Classes> next{};  // [state * Classes + class]
    std::array<bool, States> accepting{};
    state_type start = 0;

    // For each state, the classes that lead back to it, as bits: a run of such bytes (the
    // letters of an e-mail's local part) is read by a loop that checks each byte's class and
    // waits on no table look-up before the next byte.
    static constexpr bool runs = Classes <= 64;
    std::array<std::uint64_t, runs ? States : 1> self_loops{};

    // The same table as one row of next states per byte, for byte shuffles.
    static constexpr bool shuffles = States <= shuffle_max_states;
    struct no_shuffle_rows {};
    std::conditional_t<shuffles, detail::shuffle_rows, no_shuffle_rows> shuffle_rows{};

    constexpr state_type step(state_type state, unsigned char byte) const noexcept {
        return next[state * Classes + class_of[byte]];
    }

    // Whole-input match: the fastest way this processor has (the tests check that all agree).
    constexpr bool match(std::string_view input) const noexcept {
        if (!std::is_constant_evaluated()) {
            if constexpr (shuffles) {
                if (shuffles_available()) return match_by_shuffles(input);
            }
            if constexpr (runs) return match_runs(input);
        }
        return match_bytewise(input);
    }

    // One step per byte, the reference of the other ways.
    constexpr bool match_bytewise(std::string_view input) const noexcept {
        state_type state = start;
        for (const char c : input) {
            state = step(state, static_cast<unsigned char>(c));
            if (state == dead_state) return false;  // no way back: stop reading
        }
        return accepting[state];
    }

    // Needs shuffles_available().
    bool match_by_shuffles(std::string_view input) const noexcept {
        return accepting[run_by_shuffles(shuffle_rows, static_cast<std::uint8_t>(start), input)];
    }

    // A run of bytes that keep the state is read without table look-ups.
    bool match_runs(std::string_view input) const noexcept {
        const auto* bytes = reinterpret_cast<const unsigned char*>(input.data());
        const std::size_t n = input.size();
        state_type state = start;
        std::size_t i = 0;
        while (i < n) {
            const std::uint64_t stay = self_loops[state];
            while (i < n && ((stay >> class_of[bytes[i]]) & 1u) != 0) ++i;
            if (i == n) break;
            state = step(state, bytes[i++]);
            if (state == dead_state) return false;  // no way back: stop reading
        }
        return accepting[state];
    }
};

template <std::size_t States, std::size_t Classes, class Subsets>
constexpr dfa<States, Classes> make_dfa(const Subsets& subsets, const byte_classes& classes) noexcept {
    using table = dfa<States, Classes>;
    using state_type = typename table::state_type;
    table result{};
    result.class_of = classes.class_of;
    for (std::size_t i = 0; i < States * Classes; ++i) {
        result.next[i] = static_cast<state_type>(subsets.next[i]);
    }
    if constexpr (table::runs) {
        for (std::size_t st = 0; st < States; ++st)
            for (std::size_t c = 0; c < Classes; ++c)
                if (subsets.next[st * Classes + c] == st) result.self_loops[st] |= std::uint64_t{1} << c;
    }
    for (std::size_t s = 0; s < States; ++s) {
        result.accepting[s] = subsets.accepting[s];
    }
    result.start = static_cast<state_type>(subsets.start);
    if constexpr (table::shuffles)
        result.shuffle_rows = make_shuffle_rows<States, Classes>(subsets.next, classes.class_of);
    return result;
}

}  // namespace esign::regex::detail
