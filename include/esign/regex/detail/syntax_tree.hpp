// SPDX-License-Identifier: BSL-1.0
#pragma once
// The parsed pattern: a tree of nodes kept in a fixed-capacity array, children
// linked as lists (first child, next sibling) so that long sequences do not
// turn into deep recursion.
#include <array>
#include <cstddef>
#include <cstdint>

#include <esign/regex/detail/bit_set.hpp>

namespace esign::regex::detail {

inline constexpr int no_node = -1;
inline constexpr int unbounded = -1;  // repeat::max of {n,}, *, +

enum class node_kind : std::uint8_t {
    bytes,        // one byte out of `bytes`: a literal, '.', a class, an escape
    sequence,     // children one after another; no children = the empty string
    alternation,  // one of the children
    repeat,       // the only child, between min and max times
};

struct node {
    node_kind kind = node_kind::sequence;
    int child = no_node;    // first child
    int sibling = no_node;  // next child of the same parent
    int min = 0;
    int max = 0;
    byte_set bytes{};
};

template <std::size_t Capacity>
struct syntax_tree {
    std::array<node, Capacity> nodes{};
    std::size_t size = 0;
    int root = no_node;  // the expression the whole input must match

    // Bodies X of the leading (?!X) groups: no prefix of the input may match one.
    std::array<int, Capacity> lookaheads{};
    std::size_t lookahead_count = 0;
};

}  // namespace esign::regex::detail
