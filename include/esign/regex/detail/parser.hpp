// SPDX-License-Identifier: BSL-1.0
#pragma once
// Recursive-descent parser for the supported ECMAScript subset:
//
//   pattern     := '^'? ('(?!' alternation ')')* alternation '$'?
//   alternation := sequence ('|' sequence)*
//   sequence    := (atom quantifier?)*
//   atom        := byte | '.' | class | escape | '(' alternation ')' | '(?:' alternation ')'
//   quantifier  := ('*' | '+' | '?' | '{n}' | '{n,}' | '{n,m}') '?'?
//
// Matching is always of the whole input, so '^' and '$' only make sense at the
// pattern's edges and are rejected elsewhere. Lazy quantifiers match the same
// set of strings as greedy ones, so their '?' is accepted and ignored.
#include <cstddef>
#include <string_view>

#include <esign/regex/detail/bit_set.hpp>
#include <esign/regex/detail/errors.hpp>
#include <esign/regex/detail/syntax_tree.hpp>

namespace esign::regex::detail {

inline constexpr int max_repetition_count = 1000;

// What an escape or a class member stands for: a set, and whether that set is
// one byte (only those can be range endpoints).
struct class_atom {
    byte_set bytes{};
    bool single = false;
    unsigned char byte = 0;
};

constexpr class_atom several(const byte_set& bytes) noexcept { return {bytes, false, 0}; }

constexpr byte_set digit_bytes() noexcept { return byte_range('0', '9'); }

constexpr byte_set word_bytes() noexcept {
    return byte_range('a', 'z') | byte_range('A', 'Z') | digit_bytes() | single_byte('_');
}

constexpr byte_set space_bytes() noexcept {
    return byte_range('\t', '\r') | single_byte(' ');  // \t \n \v \f \r and space
}

// '.' as ECMAScript defines it on bytes: anything but a line terminator.
constexpr byte_set dot_bytes() noexcept { return ~(single_byte('\n') | single_byte('\r')); }

constexpr bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }

constexpr bool is_alnum(char c) noexcept { return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

constexpr int hex_value(char c) noexcept {
    if (is_digit(c)) return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

template <std::size_t Capacity>
class parser {
public:
    constexpr explicit parser(std::string_view text) noexcept : text_(text) {}

    constexpr syntax_tree<Capacity> run() {
        eat('^');
        while (eat("(?!")) {
            tree_.lookaheads[tree_.lookahead_count++] = group_body();
        }
        tree_.root = alternation();
        if (!at_end()) {
            regex_error_unbalanced_parenthesis();  // only a stray ')' stops alternation() early
        }
        return tree_;
    }

private:
    std::string_view text_;
    std::size_t pos_ = 0;
    syntax_tree<Capacity> tree_{};

    constexpr bool at_end() const noexcept { return pos_ == text_.size(); }
    constexpr char peek() const noexcept { return at_end() ? '\0' : text_[pos_]; }
    constexpr char next() noexcept { return text_[pos_++]; }

    constexpr bool eat(char c) noexcept {
        if (at_end() || text_[pos_] != c) return false;
        ++pos_;
        return true;
    }

    constexpr bool eat(std::string_view s) noexcept {
        if (text_.substr(pos_).substr(0, s.size()) != s) return false;
        pos_ += s.size();
        return true;
    }

    constexpr int add(node n) {
        if (tree_.size == Capacity) {
            regex_error_internal();  // Capacity is an upper bound on the node count
            return no_node;
        }
        tree_.nodes[tree_.size] = n;
        return static_cast<int>(tree_.size++);
    }

    // Appends `item` to the children of `parent`, whose current last child is `last`.
    constexpr void append(int parent, int& last, int item) noexcept {
        if (last == no_node) {
            at(parent).child = item;
        } else {
            at(last).sibling = item;
        }
        last = item;
    }

    constexpr node& at(int index) noexcept { return tree_.nodes[static_cast<std::size_t>(index)]; }

    constexpr int alternation() {
        const int alt = add({.kind = node_kind::alternation});
        int last = no_node;
        do {
            append(alt, last, sequence());
        } while (eat('|'));
        return alt;
    }

    constexpr int sequence() {
        const int seq = add({.kind = node_kind::sequence});
        int last = no_node;
        while (!at_end() && peek() != '|' && peek() != ')') {
            if (peek() == '$') {
                if (pos_ + 1 != text_.size()) {
                    regex_error_anchor_not_at_pattern_edge();
                }
                ++pos_;
                break;
            }
            append(seq, last, quantified(atom()));
        }
        return seq;
    }

    // After "(", "(?:" or "(?!": the body and its closing parenthesis.
    constexpr int group_body() {
        const int body = alternation();
        if (!eat(')')) {
            regex_error_unbalanced_parenthesis();
        }
        return body;
    }

    constexpr int atom() {
        const char c = next();
        switch (c) {
            case '.':
                return add_bytes(dot_bytes());
            case '[':
                return add_bytes(bracket());
            case '\\':
                return add_bytes(escape(false).bytes);
            case '(':
                if (eat("?:")) return group_body();
                if (eat("?!")) regex_error_lookahead_not_at_pattern_start();
                if (eat('?')) regex_error_unsupported_group_kind();
                return group_body();
            case '*':
            case '+':
            case '?':
            case '{':
                regex_error_nothing_to_repeat();
                return no_node;
            case ']':
            case '}':
                regex_error_unescaped_bracket_or_brace();
                return no_node;
            case '^':
                regex_error_anchor_not_at_pattern_edge();
                return no_node;
            default:
                return add_bytes(single_byte(static_cast<unsigned char>(c)));
        }
    }

    constexpr int add_bytes(const byte_set& bytes) { return add({.kind = node_kind::bytes, .bytes = bytes}); }

    constexpr int quantified(int item) {
        int min = 0;
        int max = unbounded;
        if (eat('*')) {
            min = 0;
        } else if (eat('+')) {
            min = 1;
        } else if (eat('?')) {
            max = 1;
        } else if (eat('{')) {
            counted(min, max);
        } else {
            return item;
        }
        eat('?');  // lazy: same language
        const char c = peek();
        if (c == '*' || c == '+' || c == '?' || c == '{') {
            regex_error_nothing_to_repeat();  // ECMAScript rejects a** too
        }
        return add({.kind = node_kind::repeat, .child = item, .min = min, .max = max});
    }

    // After '{': "n}", "n,}" or "n,m}".
    constexpr void counted(int& min, int& max) {
        min = number();
        if (eat('}')) {
            max = min;
            return;
        }
        if (!eat(',')) regex_error_malformed_repetition();
        if (eat('}')) return;  // {n,}: max stays unbounded
        max = number();
        if (!eat('}')) regex_error_malformed_repetition();
        if (max < min) regex_error_reversed_repetition_bounds();
    }

    constexpr int number() {
        if (!is_digit(peek())) {
            regex_error_malformed_repetition();
            return 0;
        }
        int value = 0;
        while (is_digit(peek())) {
            value = value * 10 + (next() - '0');
            if (value > max_repetition_count) {
                regex_error_repetition_count_too_large();
                return 0;
            }
        }
        return value;
    }

    // After '[': members up to and including ']'. As in ECMAScript, "[]"
    // matches nothing and "[^]" any byte; '-' first or last is literal.
    constexpr byte_set bracket() {
        const bool negated = eat('^');
        byte_set bytes{};
        while (!eat(']')) {
            if (at_end()) {
                regex_error_unterminated_character_class();
                return bytes;
            }
            const class_atom low = member();
            if (peek() == '-' && pos_ + 1 < text_.size() && text_[pos_ + 1] != ']') {
                ++pos_;
                const class_atom high = member();
                if (!low.single || !high.single) regex_error_class_escape_in_range();
                if (low.byte > high.byte) regex_error_reversed_character_range();
                bytes |= byte_range(low.byte, high.byte);
            } else {
                bytes |= low.bytes;
            }
        }
        return negated ? ~bytes : bytes;
    }

    constexpr class_atom member() {
        if (at_end()) {
            regex_error_unterminated_character_class();
            return {};
        }
        if (eat('\\')) return escape(true);
        return literal(next());
    }

    static constexpr class_atom literal(char c) noexcept {
        const auto b = static_cast<unsigned char>(c);
        return {single_byte(b), true, b};
    }

    // After '\'.
    constexpr class_atom escape(bool in_class) {
        if (at_end()) {
            regex_error_trailing_backslash();
            return {};
        }
        const char c = next();
        switch (c) {
            case 'd':
                return several(digit_bytes());
            case 'D':
                return several(~digit_bytes());
            case 'w':
                return several(word_bytes());
            case 'W':
                return several(~word_bytes());
            case 's':
                return several(space_bytes());
            case 'S':
                return several(~space_bytes());
            case 'n':
                return literal('\n');
            case 'r':
                return literal('\r');
            case 't':
                return literal('\t');
            case 'f':
                return literal('\f');
            case 'v':
                return literal('\v');
            case '0':
                if (is_digit(peek())) regex_error_unknown_escape();  // legacy octal
                return literal('\0');
            case 'x':
                return hex_escape();
            case 'b':
                if (in_class) return literal('\b');  // ECMAScript: backspace inside a class
                regex_error_word_boundary_unsupported();
                return {};
            case 'B':
                regex_error_word_boundary_unsupported();
                return {};
            default:
                if (is_digit(c)) regex_error_backreferences_unsupported();
                if (is_alnum(c)) regex_error_unknown_escape();
                return literal(c);  // \. \\ \- \( ...: the character itself
        }
    }

    // After "\x": exactly two hex digits.
    constexpr class_atom hex_escape() {
        const int high = hex_value(peek());
        if (high < 0 || pos_ + 1 >= text_.size() || hex_value(text_[pos_ + 1]) < 0) {
            regex_error_malformed_hex_escape();
            return {};
        }
        const int low = hex_value(text_[pos_ + 1]);
        pos_ += 2;
        const auto b = static_cast<unsigned char>(high * 16 + low);
        return {single_byte(b), true, b};
    }
};

// Every pattern character adds at most one node, except '(' which adds two
// (its alternation and first sequence); the top level adds two more.
constexpr std::size_t node_capacity(std::string_view pattern) noexcept {
    std::size_t capacity = pattern.size() + 2;
    for (const char c : pattern) {
        if (c == '(') ++capacity;
    }
    return capacity;
}

template <std::size_t Capacity>
constexpr syntax_tree<Capacity> parse(std::string_view pattern) {
    return parser<Capacity>(pattern).run();
}

}  // namespace esign::regex::detail
