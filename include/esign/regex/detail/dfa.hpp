#pragma once
// The final automaton: exactly as many states as the subset construction
// found, a (states x classes) table of small integers and a 256-entry map from
// byte to class. Matching is one table look-up per input byte. The table is
// not minimized: the subset construction's states are already few for the
// patterns in use, and a smaller table would not make matching faster.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include <esign/regex/detail/byte_classes.hpp>
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

    constexpr state_type step(state_type state, unsigned char byte) const noexcept {
        return next[state * Classes + class_of[byte]];
    }

    // Whole-input match.
    constexpr bool match(std::string_view input) const noexcept {
        state_type state = start;
        for (const char c : input) {
            state = step(state, static_cast<unsigned char>(c));
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
    for (std::size_t s = 0; s < States; ++s) {
        result.accepting[s] = subsets.accepting[s];
    }
    result.start = static_cast<state_type>(subsets.start);
    return result;
}

} // namespace esign::regex::detail
