// SPDX-License-Identifier: BSL-1.0
#pragma once
// esign::check where JSON is the wire format: the walk of validation/check.hpp (the types' rules,
// the rules across members) extended by what only JSON has, so that a value built in code gets
// every problem json::read would give it, with the path, kind, limit and message read would give:
//
//   esign::check(v).problems() == esign::json::read<T>(esign::json::write(v)).problems()
//
// for every value whose JSON is an object (a described struct, a map: read takes only an
// object; for any other T, check is decode<T>(encode(v))), in the same order. This header gives
// esign::check and esign::checked an overload for every type with a codec, more constrained than
// the validation layer's, which uses json_extension below. What it adds to the walk:
//   - a codec's own `check` (json/codec.hpp; the type's rule is judged too, first), e.g. that an
//     unsigned counter fits the signed 64-bit integers of the interface;
//   - an empty std::optional outside a struct (an item, the root) is written as null, so it gets
//     what read says of null there (T's own reader judges it); and a rule across members sees what
//     reading null makes of it;
//   - what write(v) cannot say as JSON is a problem of kind syntax at the value's path: a double
//     that is NaN or infinite, "must be a finite number" (Boost.JSON writes NaN and Infinity,
//     which no parser reads); a boost::json value nested deeper than read's limit
//     (parse_limits::max_depth, the root object being level 1), or holding a string or member
//     name that is not valid UTF-8. (A string that is not valid UTF-8 is judged by the
//     validation layer already.) There the invariant does not hold: read(write(v)) gives one
//     problem, syntax, at [] (the body is not JSON), where check gives each at its path, with the
//     value's other problems.
// Where else the invariant may not be exact: Boost.JSON's parser may read a double back a few ulp
// away (see fuzz/check.hpp), and -0.0 is written as 0, so a rule across members that compares a
// double with a bound may judge the two values differently right at the bound; and a member of
// struct type that its enclosing struct initializes to something other than a new value of its
// type (`inner x{.a = 5};`, which the model has not) is taken, by a rule across members, to start
// as a new value of its type. A codec of the user's (codec.hpp) is trusted to keep a value its
// check accepts and, unless its type derives from std::string, to drop one it refuses.
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <boost/json/value.hpp>

#include <esign/json/codecs.hpp>
#include <esign/json/described.hpp>
#include <esign/json/parse.hpp>
#include <esign/validation/check.hpp>
#include <esign/validation/problem.hpp>
#include <esign/validation/result.hpp>
#include <esign/validation/utf8.hpp>

namespace esign::json::detail {

using validation::checker;

inline constexpr std::string_view not_finite_message = "must be a finite number";

// What read makes of null where a T is expected, into `target` (T's own reader judges it); the
// problems, at paths relative to the value.
template <class T>
problem_list read_null(T& target) {
    decoder d;
    d.start(slot_for(target));
    d.on_scalar(scalar::null());
    return std::move(d.problems());
}

// A container of a boost::json value at level depth() + 1: refused beyond read's limit.
inline bool too_deep(checker& c) {
    constexpr std::size_t max_depth = parse_limits{}.max_depth;
    if (c.depth() + 1 <= max_depth) return false;
    c.add(problem_kind::syntax, "is nested deeper than " + std::to_string(max_depth) + " levels");
    return true;
}

inline void check_dom(const boost::json::value& value, checker& c);

inline void check_dom_object(const boost::json::object& object, checker& c) {
    if (too_deep(c)) return;
    for (const auto& member : object) {
        if (c.full()) return;
        const std::string_view key(member.key().data(), member.key().size());
        c.enter(key);
        if (!valid_utf8(key)) c.add(problem_kind::syntax, std::string(validation::not_utf8_message));
        check_dom(member.value(), c);
        c.leave();
    }
}

// Only what JSON cannot say: any boost::json value is read as it is.
inline void check_dom(const boost::json::value& value, checker& c) {
    switch (value.kind()) {
        case boost::json::kind::string: {
            const auto& s = value.get_string();
            if (!valid_utf8(std::string_view(s.data(), s.size())))
                c.add(problem_kind::syntax, std::string(validation::not_utf8_message));
            return;
        }
        case boost::json::kind::double_:
            if (!std::isfinite(value.get_double())) c.add(problem_kind::syntax, std::string(not_finite_message));
            return;
        case boost::json::kind::array: {
            if (too_deep(c)) return;
            const auto& array = value.get_array();
            for (std::size_t i = 0; i < array.size() && !c.full(); ++i) {
                c.enter(i);
                check_dom(array[i], c);
                c.leave();
            }
            return;
        }
        case boost::json::kind::object:
            return check_dom_object(value.get_object(), c);
        default:
            return;
    }
}

template <class T>
concept dom_type = std::is_same_v<T, boost::json::value> || std::is_same_v<T, boost::json::object>;

// The walk's extension (validation/check.hpp, no_extension) for JSON.
struct json_extension {
    template <class T>
    static constexpr bool knows = codable<T>;

    template <class T>
    static constexpr bool walks = dom_type<T>;
    template <class T>
    static void walk(const T& value, checker& c) {
        if constexpr (std::is_same_v<T, boost::json::object>)
            check_dom_object(value, c);
        else
            check_dom(value, c);
    }
    template <class T>
    static bool is_null(const T& value) {
        if constexpr (std::is_same_v<T, boost::json::value>)
            return value.is_null();
        else
            return false;
    }

    template <class T>
    static constexpr bool has_rules = checking_codec<T>;
    template <class T>
    static bool rules(const T& value, problem_sink& out) {
        const std::size_t before = out.count();
        codec<T>::check(value, out);  // it may return void
        return out.count() == before;
    }

    template <class T>
    static bool unsayable(const T& value, checker& c) {
        if constexpr (std::is_floating_point_v<T>) {
            if (!std::isfinite(value)) {
                c.add(problem_kind::syntax, std::string(not_finite_message));
                return true;
            }
        }
        (void)value, (void)c;
        return false;
    }

    // Written as null: what its reader says of null (outside a struct). Not kept as it is.
    template <class Optional>
    static bool empty_optional(checker& c) {
        Optional null_read;
        c.add_below(read_null(null_read));
        return false;
    }
    template <class Optional>
    static void empty_optional_as_read(Optional& value) {
        (void)read_null(value);
    }
};

}  // namespace esign::json::detail

namespace esign {

// Every problem of `value`, each at its path, as json::read<T>(json::write(value)) would report
// them (see the top of this file for the exact correspondence); nothing when it is valid.
template <class T>
requires json::codable<T> result<void> check(const T& value) {
    return validation::check<json::detail::json_extension>(value);
}

// `value` when check(value) finds nothing, else its problems.
template <class T>
requires json::codable<T> result<T> checked(T value) {
    return validation::checked<json::detail::json_extension>(std::move(value));
}

}  // namespace esign
