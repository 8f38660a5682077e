// SPDX-License-Identifier: BSL-1.0
#pragma once
// Wire strings of described enums. An enum whose wire strings are not C++ identifiers
// ("text-t", "application/json") provides `constexpr std::string_view wire_name(E)` in its
// own namespace; every other enum uses its described enumerator names.
#include <array>
#include <concepts>
#include <optional>
#include <string_view>
#include <type_traits>

#include <boost/describe/enum.hpp>
#include <boost/describe/enumerators.hpp>
#include <boost/mp11/algorithm.hpp>

#include <esign/types/detail/same_name.hpp>

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

}  // namespace esign
