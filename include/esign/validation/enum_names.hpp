// SPDX-License-Identifier: BSL-1.0
#pragma once
// Wire strings of described enums, and their rule (a value is one of the described enumerators). An enum whose wire strings are not C++ identifiers
// ("text-t", "application/json") provides `constexpr std::string_view wire_name(E)` in its
// own namespace; every other enum uses its described enumerator names.
#include <array>
#include <concepts>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include <boost/describe/enum.hpp>
#include <boost/describe/enumerators.hpp>
#include <boost/mp11/algorithm.hpp>

#include <esign/validation/detail/same_name.hpp>
#include <esign/validation/problem.hpp>
#include <esign/validation/rule.hpp>

namespace esign {

template <class E>
concept described_enum = std::is_enum_v<E> && boost::describe::has_describe_enumerators<E>::value;

// True when E provides wire_name(E) (found by ADL): its described names are not its wire strings.
template <class E>
concept has_wire_name = requires(E e) {
    { wire_name(e) } -> std::convertible_to<std::string_view>;
};
template <described_enum E>
constexpr std::string_view enum_to_wire(E e) noexcept {
    if constexpr (has_wire_name<E>) {
        return wire_name(e);
    } else {
        std::string_view name{};
        boost::mp11::mp_for_each<boost::describe::describe_enumerators<E>>([&](auto d) {
            if (d.value == e) name = d.name;
        });
        return name;
    }
}

template <described_enum E>
constexpr std::size_t enum_count() noexcept {
    return boost::mp11::mp_size<boost::describe::describe_enumerators<E>>::value;
}

// Every enumerator of E, in declaration order.
template <described_enum E>
constexpr auto enum_values() noexcept {
    std::array<E, enum_count<E>()> values{};
    std::size_t i = 0;
    boost::mp11::mp_for_each<boost::describe::describe_enumerators<E>>([&](auto d) { values[i++] = d.value; });
    return values;
}

// Every wire string of E, in declaration order (for messages, schemas and dictionaries).
template <described_enum E>
constexpr auto enum_wire_names() noexcept {
    std::array<std::string_view, enum_count<E>()> names{};
    std::size_t i = 0;
    boost::mp11::mp_for_each<boost::describe::describe_enumerators<E>>(
        [&](auto d) { names[i++] = enum_to_wire(d.value); });
    return names;
}

template <described_enum E>
constexpr std::optional<E> enum_from_wire(std::string_view s) noexcept {
    // Tables built once, at compile time: one comparison per enumerator at run time.
    constexpr auto names = enum_wire_names<E>();
    constexpr auto values = enum_values<E>();
    for (std::size_t i = 0; i < names.size(); ++i)
        if (detail::same_name(names[i], s)) return values[i];
    return std::nullopt;
}

// "must be one of: a, b, c": the problem of a string that is no wire string of E.
template <described_enum E>
std::string allowed_values_message() {
    std::string m = "must be one of: ";
    bool first = true;
    for (auto name : enum_wire_names<E>()) {
        if (!first) m += ", ";
        m += name;
        first = false;
    }
    return m;
}

// The enumerator whose wire string is `wire`, or nothing with its problem (kind enum_value).
template <described_enum E>
std::optional<E> enum_from_wire(std::string_view wire, problem_sink& out) {
    auto e = enum_from_wire<E>(wire);
    if (!e) out.add(problem_kind::enum_value, allowed_values_message<E>());
    return e;
}

// The rule of a described enum: one of its enumerators. A value outside them is judged by the
// wire string it is written as (enum_to_wire gives "" for it), as a reader judges an unknown string.
template <described_enum E>
struct rule_of<E> {
    static bool check(E value, problem_sink& out) {
        constexpr auto values = enum_values<E>();
        for (E e : values)
            if (e == value) return true;
        return enum_from_wire<E>(enum_to_wire(value), out).has_value();
    }
};

}  // namespace esign
