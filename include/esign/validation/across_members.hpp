// SPDX-License-Identifier: BSL-1.0
#pragma once
// The rules across the members of a struct: `void validate(const T&, problem_sink&)`, found by
// ADL (a recipient delivered by sms needs a phone). They are judged when every required member
// is present, even if another member has a problem: every problem is reported, not only the
// first ones (a hook must not assume its members are valid). The JSON reader (json/described.hpp)
// and esign::check (validation/check.hpp) both judge them through check_across_members.
#include <algorithm>
#include <cstddef>
#include <type_traits>

#include <boost/mp11/algorithm.hpp>

#include <esign/validation/described_members.hpp>
#include <esign/validation/problem.hpp>

namespace esign {

namespace detail {
template <class T>
concept has_validate = requires(const T& t, problem_sink& s) {
    validate(t, s);
};

template <class T>
using validated = std::bool_constant<has_validate<T>>;

// A rule across members judges values that decoded; where a member already has a problem that
// marks it bad (wrong type, null: marks_bad_value), a rule's problem at the same place would
// only repeat it.
inline void drop_rule_problems_on_bad_members(problem_list& problems, std::size_t first_problem,
                                              std::size_t first_rule_problem) {
    auto overlaps = [](const problem_path& a, const problem_path& b) {
        const std::size_t n = std::min(a.size(), b.size());
        return std::equal(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(n), b.begin());
    };
    auto rule_begin = problems.begin() + static_cast<std::ptrdiff_t>(first_rule_problem);
    auto keep_end = std::remove_if(rule_begin, problems.end(), [&](const problem& rule) {
        for (std::size_t i = first_problem; i < first_rule_problem; ++i)
            if (marks_bad_value(problems[i]) && overlaps(problems[i].path, rule.path)) return true;
        return false;
    });
    problems.erase(keep_end, problems.end());
}
}  // namespace detail

// Whether T, or a part of T flattened into it, has rules across its members.
template <class T>
constexpr bool has_rules_across_members() {
    if constexpr (boost::describe::has_describe_members<T>::value)
        return detail::has_validate<T> || boost::mp11::mp_any_of<flattened_parts<T>, detail::validated>::value;
    else
        return detail::has_validate<T>;
}

// The rules across the members of `value` (its validate hook, after those of its flattened
// parts, whose members are its own): `sink` is at the value's path, the value's own problems
// begin at `first_problem` in `problems`, and a rule's problem at a member that already has one
// that marks it bad is dropped. Called when every required member is present.
template <class T>
void check_across_members(const T& value, problem_list& problems, problem_sink& sink, std::size_t first_problem) {
    if constexpr (has_rules_across_members<T>()) {
        const std::size_t first_rule_problem = problems.size();
        for_each_flattened_part(value, [&](const auto& part) {
            if constexpr (detail::has_validate<std::remove_cvref_t<decltype(part)>>) validate(part, sink);
        });
        if constexpr (detail::has_validate<T>) validate(value, sink);
        detail::drop_rule_problems_on_bad_members(problems, first_problem, first_rule_problem);
    } else {
        (void)value, (void)problems, (void)sink, (void)first_problem;
    }
}

}  // namespace esign
