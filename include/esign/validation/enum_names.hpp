// SPDX-License-Identifier: BSL-1.0
#pragma once
// Wire strings of described enums, and their rule (a value is one of the described enumerators).
// An enumerator's wire string is its described name, less a trailing underscore (how an
// enumerator is named after a C++ keyword: `signed_` is "signed"). An enum whose wire strings are
// not identifiers says how its names are spelled on the wire by one function in its own
// namespace, found by ADL: `constexpr wire_spelling wire_spelling_of(E) noexcept`.
#include <array>
#include <concepts>
#include <cstddef>
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

// How an enum's described names become its wire strings (a trailing underscore always dropped).
enum class wire_spelling {
    as_named,    // the name itself: `pending` is "pending"
    dashes,      // every '_' a '-': `text_t` is "text-t"
    media_type,  // the first '_' a '/', the others '-': `application_x_www_form_urlencoded` is
                 // "application/x-www-form-urlencoded"
};

// True when E says how its names are spelled (wire_spelling_of(E), found by ADL).
template <class E>
concept has_wire_spelling = requires(E e) {
    { wire_spelling_of(e) } -> std::same_as<wire_spelling>;
};

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

namespace detail {

template <described_enum E>
constexpr wire_spelling spelling_of() noexcept {
    if constexpr (has_wire_spelling<E>)
        return wire_spelling_of(E{});
    else
        return wire_spelling::as_named;
}

constexpr std::string_view without_keyword_mark(std::string_view name) noexcept {
    return name.ends_with('_') ? name.substr(0, name.size() - 1) : name;
}

// Every wire string of E, spelled once at compile time: `text` holds them one after another,
// the i-th enumerator's from starts[i] to starts[i + 1].
template <described_enum E>
struct wire_text {
    static constexpr std::size_t length = [] {
        std::size_t n = 0;
        boost::mp11::mp_for_each<boost::describe::describe_enumerators<E>>(
            [&](auto d) { n += without_keyword_mark(d.name).size(); });
        return n;
    }();
    std::array<char, length> text{};
    std::array<std::size_t, enum_count<E>() + 1> starts{};
};

template <described_enum E>
constexpr wire_text<E> spell_wire_text() noexcept {
    wire_text<E> out;
    std::size_t at = 0, i = 0;
    boost::mp11::mp_for_each<boost::describe::describe_enumerators<E>>([&](auto d) {
        out.starts[i++] = at;
        bool slash_written = false;
        for (char c : without_keyword_mark(d.name)) {
            if (c == '_' && spelling_of<E>() == wire_spelling::media_type && !slash_written) {
                c = '/';
                slash_written = true;
            } else if (c == '_' && spelling_of<E>() != wire_spelling::as_named) {
                c = '-';
            }
            out.text[at++] = c;
        }
    });
    out.starts[i] = at;
    return out;
}

template <described_enum E>
inline constexpr wire_text<E> wire_text_of = spell_wire_text<E>();

// Whether the enumerators are 0, 1, 2, ... in order (most are): a value is its name's index.
template <class E, std::size_t N>
constexpr bool numbered_from_zero(const std::array<E, N>& values) noexcept {
    for (std::size_t i = 0; i < N; ++i)
        if (static_cast<std::size_t>(values[i]) != i) return false;
    return true;
}

}  // namespace detail

// Every wire string of E, in declaration order (for messages, schemas and dictionaries).
template <described_enum E>
constexpr auto enum_wire_names() noexcept {
    constexpr const auto& spelled = detail::wire_text_of<E>;
    std::array<std::string_view, enum_count<E>()> names{};
    for (std::size_t i = 0; i < names.size(); ++i)
        names[i] = std::string_view(spelled.text.data() + spelled.starts[i], spelled.starts[i + 1] - spelled.starts[i]);
    return names;
}

// The wire string of e, or "" for a value that is no enumerator of E.
template <described_enum E>
constexpr std::string_view enum_to_wire(E e) noexcept {
    constexpr auto names = enum_wire_names<E>();
    constexpr auto values = enum_values<E>();
    if constexpr (detail::numbered_from_zero(values)) {  // the common case: the value is its name's index
        const auto i = static_cast<std::size_t>(e);
        return i < names.size() ? names[i] : std::string_view{};
    } else {
        for (std::size_t i = 0; i < values.size(); ++i)
            if (values[i] == e) return names[i];
        return {};
    }
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
