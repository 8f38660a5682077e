// SPDX-License-Identifier: BSL-1.0
// Compile-fail tests (tests/compile_fail/run.py): every way a pattern of esign::regex can be
// wrong is a compile error naming the problem (include/esign/regex/detail/errors.hpp).
// Each `#ifdef ESIGN_FAIL_<case>` below is compiled on its own with that macro defined, and must
// fail with a diagnostic matching its `expect:` (a Python regular expression) and naming no other
// regex_error_; the file with no case defined (each #elif: the pattern put right, compiled in
// this control only) must compile without a warning.
//
// Not here: regex_error_internal, reached only by a bug of the library (the parser's node
// capacity or the position count being wrong), which no pattern can provoke.
#include <esign/regex/regex.hpp>

namespace rx = esign::regex;

#ifdef ESIGN_FAIL_group_not_closed  // expect: regex_error_unbalanced_parenthesis
static_assert(rx::compiled<"a(b">::match("ab"));
#elif !defined(ESIGN_FAIL)
static_assert(rx::compiled<"a(b)">::match("ab"));
#endif

#ifdef ESIGN_FAIL_stray_closing_parenthesis  // expect: regex_error_unbalanced_parenthesis
static_assert(rx::compiled<"a)b">::match("ab"));
#elif !defined(ESIGN_FAIL)
static_assert(rx::compiled<R"(a\)b)">::match("a)b"));
#endif

#ifdef ESIGN_FAIL_unescaped_bracket  // expect: regex_error_unescaped_bracket_or_brace
static_assert(rx::compiled<"a]">::match("a]"));
#elif !defined(ESIGN_FAIL)
static_assert(rx::compiled<R"(a\])">::match("a]"));
#endif

#ifdef ESIGN_FAIL_unescaped_brace  // expect: regex_error_unescaped_bracket_or_brace
static_assert(rx::compiled<"a}">::match("a}"));
#elif !defined(ESIGN_FAIL)
static_assert(rx::compiled<R"(a\})">::match("a}"));
#endif

#ifdef ESIGN_FAIL_unterminated_class  // expect: regex_error_unterminated_character_class
static_assert(rx::compiled<"[ab">::match("a"));
#elif !defined(ESIGN_FAIL)
static_assert(rx::compiled<"[ab]">::match("a"));
#endif

#ifdef ESIGN_FAIL_reversed_range  // expect: regex_error_reversed_character_range
static_assert(rx::compiled<"[z-a]">::match("m"));
#elif !defined(ESIGN_FAIL)
static_assert(rx::compiled<"[a-z]">::match("m"));
#endif

#ifdef ESIGN_FAIL_class_escape_in_range  // expect: regex_error_class_escape_in_range
static_assert(rx::compiled<R"([\d-z])">::match("5"));
#elif !defined(ESIGN_FAIL)
static_assert(rx::compiled<R"([\d\-z])">::match("5"));
#endif

#ifdef ESIGN_FAIL_nothing_to_repeat  // expect: regex_error_nothing_to_repeat
static_assert(rx::compiled<"*a">::match("a"));
#elif !defined(ESIGN_FAIL)
static_assert(rx::compiled<"a*">::match("a"));
#endif

#ifdef ESIGN_FAIL_repeated_quantifier  // expect: regex_error_nothing_to_repeat
static_assert(rx::compiled<"a**">::match("a"));
#elif !defined(ESIGN_FAIL)
static_assert(rx::compiled<"a*?">::match("a"));
#endif

#ifdef ESIGN_FAIL_count_not_a_number  // expect: regex_error_malformed_repetition
static_assert(rx::compiled<"a{x}">::match("a"));
#elif !defined(ESIGN_FAIL)
static_assert(rx::compiled<"a{1}">::match("a"));
#endif

#ifdef ESIGN_FAIL_count_not_closed  // expect: regex_error_malformed_repetition
static_assert(rx::compiled<"a{1,2">::match("a"));
#elif !defined(ESIGN_FAIL)
static_assert(rx::compiled<"a{1,2}">::match("a"));
#endif

#ifdef ESIGN_FAIL_reversed_bounds  // expect: regex_error_reversed_repetition_bounds
static_assert(rx::compiled<"a{3,2}">::match("aa"));
#elif !defined(ESIGN_FAIL)
static_assert(rx::compiled<"a{2,3}">::match("aa"));
#endif

#ifdef ESIGN_FAIL_count_too_large  // expect: regex_error_repetition_count_too_large
static_assert(rx::compiled<"a{1001,}">::match("a"));
#elif !defined(ESIGN_FAIL)
static_assert(rx::compiled<"a{10,}">::match("aaaaaaaaaaa"));  // (1000 compiles, but slowly)
#endif

#ifdef ESIGN_FAIL_trailing_backslash  // expect: regex_error_trailing_backslash
static_assert(rx::compiled<R"(a\)">::match("a"));
#elif !defined(ESIGN_FAIL)
static_assert(rx::compiled<R"(a\\)">::match("a\\"));
#endif

#ifdef ESIGN_FAIL_unknown_escape  // expect: regex_error_unknown_escape
static_assert(rx::compiled<R"(\q)">::match("q"));
#elif !defined(ESIGN_FAIL)
static_assert(rx::compiled<R"(\.)">::match("."));
#endif

#ifdef ESIGN_FAIL_octal_escape  // expect: regex_error_unknown_escape
static_assert(rx::compiled<R"(\01)">::match("\1"));
#elif !defined(ESIGN_FAIL)
static_assert(rx::compiled<R"(\x01)">::match("\1"));
#endif

#ifdef ESIGN_FAIL_hex_escape_one_digit  // expect: regex_error_malformed_hex_escape
static_assert(rx::compiled<R"(\x4)">::match("\x04"));
#elif !defined(ESIGN_FAIL)
static_assert(rx::compiled<R"(\x04)">::match("\x04"));
#endif

#ifdef ESIGN_FAIL_backreference  // expect: regex_error_backreferences_unsupported
static_assert(rx::compiled<R"((a)\1)">::match("aa"));
#elif !defined(ESIGN_FAIL)
static_assert(rx::compiled<R"((a)a)">::match("aa"));
#endif

#ifdef ESIGN_FAIL_word_boundary  // expect: regex_error_word_boundary_unsupported
static_assert(rx::compiled<R"(\ba)">::match("a"));
#elif !defined(ESIGN_FAIL)
static_assert(rx::compiled<R"([\b]a)">::match("\ba"));  // in a class, \b is a backspace
#endif

#ifdef ESIGN_FAIL_not_word_boundary  // expect: regex_error_word_boundary_unsupported
static_assert(rx::compiled<R"(a\B)">::match("a"));
#elif !defined(ESIGN_FAIL)
static_assert(rx::compiled<R"(a\W)">::match("a-"));
#endif

#ifdef ESIGN_FAIL_caret_inside  // expect: regex_error_anchor_not_at_pattern_edge
static_assert(rx::compiled<"a^b">::match("ab"));
#elif !defined(ESIGN_FAIL)
static_assert(rx::compiled<"^ab">::match("ab"));
#endif

#ifdef ESIGN_FAIL_dollar_inside  // expect: regex_error_anchor_not_at_pattern_edge
static_assert(rx::compiled<"a$b">::match("ab"));
#elif !defined(ESIGN_FAIL)
static_assert(rx::compiled<"ab$">::match("ab"));
#endif

#ifdef ESIGN_FAIL_lookahead_inside  // expect: regex_error_lookahead_not_at_pattern_start
static_assert(rx::compiled<"a(?!b)c">::match("ac"));
#elif !defined(ESIGN_FAIL)
static_assert(rx::compiled<"^(?!b)ac">::match("ac"));
#endif

#ifdef ESIGN_FAIL_positive_lookahead  // expect: regex_error_unsupported_group_kind
static_assert(rx::compiled<"(?=a)a">::match("a"));
#elif !defined(ESIGN_FAIL)
static_assert(rx::compiled<"(?:a)a">::match("aa"));
#endif

#ifdef ESIGN_FAIL_named_group  // expect: regex_error_unsupported_group_kind
static_assert(rx::compiled<"(?<n>a)">::match("a"));
#elif !defined(ESIGN_FAIL)
static_assert(rx::compiled<"(a)">::match("a"));
#endif

// 1000 + 1000 + 49 byte positions, one over detail::max_positions (2048). (The control is
// smaller: a pattern of 2048 positions compiles, but slowly.)
#ifdef ESIGN_FAIL_too_many_positions  // expect: regex_error_pattern_too_large
static_assert(!rx::compiled<"a{1000}b{1000}c{49}">::match("a"));
#elif !defined(ESIGN_FAIL)
static_assert(!rx::compiled<"a{10}b{10}c{9}">::match("a"));
#endif

// "abc" needs 5 states (the dead state, the start, after a, after ab, after abc).
#ifdef ESIGN_FAIL_too_many_states  // expect: regex_error_too_many_dfa_states
static_assert(rx::compiled<"abc", 4>::match("abc"));
#elif !defined(ESIGN_FAIL)
static_assert(rx::compiled<"abc", 5>::match("abc"));
#endif

#ifdef ESIGN_FAIL_max_states_below_two  // expect: MaxStates is from 2
static_assert(!rx::compiled<"[]", 1>::match(""));
#elif !defined(ESIGN_FAIL)
static_assert(!rx::compiled<"[]", 2>::match(""));
#endif
