// SPDX-License-Identifier: BSL-1.0
#pragma once
// The NFA: Glushkov's position automaton rather than Thompson's.
//
// Both are standard; this one has no epsilon moves and exactly one state per
// byte-reading occurrence in the (repetition-expanded) pattern, plus a start
// state. So the sets of states that the subset construction handles fit in a
// word or two, which keeps compile-time evaluation far inside the compilers'
// constexpr step limits.
//
// State p > 0 is entered by reading a byte of bytes[p]; follow[p] are the
// states that may come next; position 0 is the start state.
//
// Negative lookaheads (?!X) at the start are built into the same automaton as
// separate components reached from the start state: once any of them reaches
// one of X's last positions, some prefix of the input matched X. Those
// positions are `doomed`, and the subset construction sends every set holding
// one to the dead state. That is the product of "matches the body" with
// "no prefix matches X" for each X, built at compile time.
#include <array>
#include <cstddef>

#include <esign/regex/detail/bit_set.hpp>
#include <esign/regex/detail/errors.hpp>
#include <esign/regex/detail/syntax_tree.hpp>

namespace esign::regex::detail {

// Keeps compile time in check: (a{1000}){1000} would need a million states.
inline constexpr std::size_t max_positions = 2048;

template <std::size_t Positions>
struct position_automaton {
    static constexpr std::size_t size = Positions + 1;  // + the start state 0
    using state_set = bit_set<(size + 63) / 64>;

    std::array<byte_set, size> bytes{};
    std::array<state_set, size> follow{};
    state_set accepting{};  // may end the main expression (0 when it matches "")
    state_set doomed{};     // ends a lookahead body: the input is rejected
    state_set body{};       // start and main-expression states: a set with none can never accept
};

// How many copies of its child a repeat node expands to. X{n,} is X^(n-1) X+.
constexpr std::size_t repeat_copies(const node& n) noexcept {
    if (n.max == unbounded) return n.min == 0 ? 1 : static_cast<std::size_t>(n.min);
    return static_cast<std::size_t>(n.max);
}

// Number of byte-reading states below `index`, capped just above max_positions.
template <std::size_t Capacity>
constexpr std::size_t positions_below(const syntax_tree<Capacity>& tree, int index) noexcept {
    const node& n = tree.nodes[static_cast<std::size_t>(index)];
    if (n.kind == node_kind::bytes) return 1;
    if (n.kind == node_kind::repeat) {
        const std::size_t copies = repeat_copies(n);
        const std::size_t each = positions_below(tree, n.child);
        return copies != 0 && each > max_positions / copies ? max_positions + 1 : copies * each;
    }
    std::size_t total = 0;
    for (int c = n.child; c != no_node; c = tree.nodes[static_cast<std::size_t>(c)].sibling) {
        total += positions_below(tree, c);
        if (total > max_positions) return max_positions + 1;
    }
    return total;
}

template <std::size_t Capacity>
constexpr std::size_t count_positions(const syntax_tree<Capacity>& tree) {
    std::size_t total = positions_below(tree, tree.root);
    for (std::size_t i = 0; i < tree.lookahead_count; ++i) {
        total += positions_below(tree, tree.lookaheads[i]);
    }
    if (total > max_positions) regex_error_pattern_too_large();
    return total;
}

template <std::size_t Positions, std::size_t Capacity>
class glushkov_builder {
public:
    using automaton = position_automaton<Positions>;
    using state_set = typename automaton::state_set;

    constexpr explicit glushkov_builder(const syntax_tree<Capacity>& tree) noexcept : tree_(tree) {}

    constexpr automaton run() {
        const summary body = visit(tree_.root);
        nfa_.follow[0] = body.first;
        nfa_.accepting = body.last;
        if (body.nullable) nfa_.accepting.insert(0);
        for (std::size_t p = 0; p < next_position_; ++p) {
            nfa_.body.insert(p);
        }

        for (std::size_t i = 0; i < tree_.lookahead_count; ++i) {
            const summary ahead = visit(tree_.lookaheads[i]);
            nfa_.follow[0] |= ahead.first;
            nfa_.doomed |= ahead.last;
            if (ahead.nullable) nfa_.doomed.insert(0);  // (?!) rejects everything
        }
        if (next_position_ != automaton::size) regex_error_internal();
        return nfa_;
    }

private:
    // The classic Glushkov attributes of a sub-expression.
    struct summary {
        bool nullable = true;  // matches the empty string
        state_set first{};     // states that can read its first byte
        state_set last{};      // states that can read its last byte
    };

    const syntax_tree<Capacity>& tree_;
    automaton nfa_{};
    std::size_t next_position_ = 1;

    constexpr summary visit(int index) {
        const node& n = tree_.nodes[static_cast<std::size_t>(index)];
        switch (n.kind) {
            case node_kind::bytes:
                return new_position(n.bytes);
            case node_kind::repeat:
                return repeat(n);
            case node_kind::alternation: {
                summary any{.nullable = false};
                for (int c = n.child; c != no_node; c = sibling(c)) {
                    const summary s = visit(c);
                    any.nullable = any.nullable || s.nullable;
                    any.first |= s.first;
                    any.last |= s.last;
                }
                return any;
            }
            case node_kind::sequence:
                break;
        }
        summary all{};
        for (int c = n.child; c != no_node; c = sibling(c)) {
            all = then(all, visit(c));
        }
        return all;
    }

    constexpr int sibling(int index) const noexcept { return tree_.nodes[static_cast<std::size_t>(index)].sibling; }

    constexpr summary new_position(const byte_set& bytes) {
        const std::size_t p = next_position_++;
        nfa_.bytes[p] = bytes;
        summary s{.nullable = false};
        s.first.insert(p);
        s.last.insert(p);
        return s;
    }

    // a followed by b.
    constexpr summary then(const summary& a, const summary& b) {
        link(a.last, b.first);
        return {
            .nullable = a.nullable && b.nullable,
            .first = a.nullable ? a.first | b.first : a.first,
            .last = b.nullable ? a.last | b.last : b.last,
        };
    }

    constexpr void link(const state_set& from, const state_set& to) {
        from.for_each([&](std::size_t p) { nfa_.follow[p] |= to; });
    }

    // X{min,max} as min copies of X (the last one looping if unbounded), then
    // max - min nested optional copies: X{2,4} is X X (X (X)?)?. Each copy
    // gets its own states. Built from the right, so that each copy is linked
    // only to what directly follows it: linear work in the number of copies.
    constexpr summary repeat(const node& n) {
        if (n.max == unbounded && n.min == 0) {
            summary loop = visit(n.child);
            link(loop.last, loop.first);
            loop.nullable = true;
            return loop;
        }
        summary rest{};  // the empty string
        for (int i = n.max; i > n.min; --i) {
            rest = then(visit(n.child), rest);
            rest.nullable = true;
        }
        for (int i = n.min; i > 0; --i) {
            const summary copy = visit(n.child);
            if (n.max == unbounded && i == n.min) link(copy.last, copy.first);
            rest = then(copy, rest);
        }
        return rest;
    }
};

template <std::size_t Positions, std::size_t Capacity>
constexpr position_automaton<Positions> build_position_automaton(const syntax_tree<Capacity>& tree) {
    return glushkov_builder<Positions, Capacity>(tree).run();
}

}  // namespace esign::regex::detail
