// SPDX-License-Identifier: BSL-1.0
#pragma once
// How a bad pattern becomes a compile error.
//
// Patterns are only ever compiled during constant evaluation. Each function
// below is deliberately NOT constexpr, so reaching one stops the evaluation and
// both compilers print its name, e.g.
//   g++:     error: call to non-'constexpr' function
//            'void esign::regex::detail::regex_error_unbalanced_parenthesis()'
//   clang++: note: non-constexpr function 'regex_error_unbalanced_parenthesis'
//            cannot be used in a constant expression
// They do nothing at run time, where they are never called. tests/compile_fail/regex_errors.cpp
// has a pattern that reaches each (but regex_error_internal, a bug of the library).

namespace esign::regex::detail {

inline void regex_error_unbalanced_parenthesis() noexcept {}
inline void regex_error_unescaped_bracket_or_brace() noexcept {}  // write \] or \}
inline void regex_error_unterminated_character_class() noexcept {}
inline void regex_error_reversed_character_range() noexcept {}    // [z-a]
inline void regex_error_class_escape_in_range() noexcept {}       // [\d-z]
inline void regex_error_nothing_to_repeat() noexcept {}           // *a, a**, (|+)
inline void regex_error_malformed_repetition() noexcept {}        // a{, a{x}, a{1,2
inline void regex_error_reversed_repetition_bounds() noexcept {}  // a{3,2}
inline void regex_error_repetition_count_too_large() noexcept {}  // above 1000
inline void regex_error_trailing_backslash() noexcept {}
inline void regex_error_unknown_escape() noexcept {}              // \q, \u..., \c...
inline void regex_error_malformed_hex_escape() noexcept {}        // \x needs two hex digits
inline void regex_error_backreferences_unsupported() noexcept {}  // \1 (not regular)
inline void regex_error_word_boundary_unsupported() noexcept {}   // \b \B
inline void regex_error_anchor_not_at_pattern_edge() noexcept {}  // ^ only first, $ only last
inline void regex_error_lookahead_not_at_pattern_start() noexcept {}
inline void regex_error_unsupported_group_kind() noexcept {}  // (?= (?<= (?<name>
inline void regex_error_pattern_too_large() noexcept {}       // too many NFA positions
inline void regex_error_too_many_dfa_states() noexcept {}     // raise compiled<>'s MaxStates
inline void regex_error_internal() noexcept {}                // a bug in this library

}  // namespace esign::regex::detail
