// SPDX-License-Identifier: BSL-1.0
#pragma once
// The outcome of decoding: the value, or every problem found (result<void>, below: the outcome
// of a check, no value). Errors are values here, never exceptions, on every path that handles
// user input.
#include <utility>

#include <esign/validation/problem.hpp>
#include <esign/validation/value_or_error.hpp>

namespace esign {

template <class T>
class [[nodiscard]] result : public value_or_error<T, problem_list> {
public:
    using value_or_error<T, problem_list>::value_or_error;

    // Empty when there is a value.
    const problem_list& problems() const noexcept {
        static const problem_list none;
        const problem_list* found = this->error_if_any();
        return found ? *found : none;
    }
    problem_list&& take_problems() && { return std::move(*this).take_error(); }
};

// The outcome of a check (esign::check): nothing, or every problem found. An empty list is
// success.
template <>
class [[nodiscard]] result<void> {
public:
    result() = default;
    result(problem_list problems) : problems_(std::move(problems)) {}

    bool has_value() const noexcept { return problems_.empty(); }
    explicit operator bool() const noexcept { return has_value(); }

    // Empty when there is no problem.
    const problem_list& problems() const noexcept { return problems_; }
    problem_list&& take_problems() && { return std::move(problems_); }

private:
    problem_list problems_;
};

}  // namespace esign
