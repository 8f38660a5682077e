// SPDX-License-Identifier: BSL-1.0
#pragma once
// Regular expressions compiled at compile time into a DFA.
//
//   using hex = esign::regex::compiled<"^#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$">;
//   static_assert(hex::match("#a1b2c3"));
//   bool ok = hex::match(user_input);              // run time, noexcept
//   bool ok2 = esign::regex::matches<"^[0-9]+$">(s);
//
// Semantics: std::regex ECMAScript syntax (subset, see detail/parser.hpp) on
// bytes, case-sensitive, always matching the WHOLE input (like
// std::regex_match): '$' does not match before a trailing "\n", '.' is any
// byte but '\n' and '\r'. Negative lookaheads (?!X) are allowed only at the
// start of the pattern (after '^'): the input must have no prefix matching X.
// Matching reads each byte once (linear time, no backtracking).
//
// Compile errors rather than silent differences: backreferences, \b \B,
// positive lookahead, lookbehind, lookahead elsewhere than at the start,
// \u \c \p escapes, and ECMAScript's Annex B leniencies (a literal '{', '}'
// or ']' must be escaped). Compile-time cost grows with the number of byte
// positions after expanding {n,m}: a few hundred fit the default constexpr
// limits of g++ and clang; [a-z]{1,1000} does not.
//
// A pattern that cannot be compiled is a compile error naming the problem;
// for instance compiled<"a(b">::match("") fails with
//   call to non-'constexpr' function '... regex_error_unbalanced_parenthesis()'
// (see detail/errors.hpp for the list).
#include <cstddef>
#include <string_view>

#include <esign/regex/detail/byte_classes.hpp>
#include <esign/regex/detail/dfa.hpp>
#include <esign/regex/detail/parser.hpp>
#include <esign/regex/detail/position_automaton.hpp>
#include <esign/regex/detail/subset_construction.hpp>
#include <esign/regex/fixed_string.hpp>

namespace esign::regex {

// Bound on the DFA size during construction (the final table is exact).
// Exceeding it is the compile error regex_error_too_many_dfa_states.
inline constexpr std::size_t default_max_states = 256;

template <fixed_string Pattern, std::size_t MaxStates = default_max_states>
class compiled {
    // One constant per stage: each is a separate constant evaluation with its
    // own constexpr step budget, and each sizes the arrays of the next.
    static constexpr auto syntax_ = detail::parse<detail::node_capacity(Pattern.view())>(Pattern.view());
    static constexpr std::size_t positions_ = detail::count_positions(syntax_);
    static constexpr auto nfa_ = detail::build_position_automaton<positions_>(syntax_);
    static constexpr auto classes_ = detail::partition_bytes(nfa_);
    static constexpr auto subsets_ = detail::determinize<classes_.count, MaxStates>(nfa_, classes_);
    static constexpr auto dfa_ = detail::make_dfa<subsets_.count, classes_.count>(subsets_, classes_);

public:
    static constexpr std::string_view pattern() noexcept { return Pattern.view(); }

    static constexpr bool match(std::string_view input) noexcept { return dfa_.match(input); }

    // The table itself, for tests and tools (detail::dfa).
    static constexpr const auto& automaton() noexcept { return dfa_; }
};

template <fixed_string Pattern>
constexpr bool matches(std::string_view input) noexcept {
    return compiled<Pattern>::match(input);
}

}  // namespace esign::regex
