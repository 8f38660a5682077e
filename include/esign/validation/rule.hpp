// SPDX-License-Identifier: BSL-1.0
#pragma once
// The rule of a type: what a value must be once it is a value of the type (a length, a pattern,
// a range), written once, with the type, and judged wherever a value is: by esign::check
// (validation/check.hpp) on a value built in code, by the JSON reader once it has read one, by
// the schema export and the fuzz generator through the type's facts (its bounds, its pattern).
//
// A type gives its rule as a static member:
//
//   static bool check(const T& value, problem_sink& out);   // true when the value is fine
//
// which adds each problem with out.add(kind, message, limit), at the value's own path (the sink
// knows it). A type that cannot have a member (an enum, a type of another library) specializes
// esign::rule_of<T> with the same static `check` instead (described enums do:
// validation/enum_names.hpp). A type without either has no rule: every value of it is fine.
#include <concepts>

#include <esign/validation/problem.hpp>

namespace esign {

// Primary template: no rule.
template <class T, class Enable = void>
struct rule_of {};

// A type whose rule is its own static member `check`.
template <class T>
concept has_member_rule = requires(const T& value, problem_sink& out) {
    { T::check(value, out) } -> std::same_as<bool>;
};

template <has_member_rule T>
struct rule_of<T> {
    static bool check(const T& value, problem_sink& out) { return T::check(value, out); }
};

// A type with a rule, either way.
template <class T>
concept has_rule = requires(const T& value, problem_sink& out) {
    { rule_of<T>::check(value, out) } -> std::same_as<bool>;
};

}  // namespace esign
