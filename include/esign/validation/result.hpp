// SPDX-License-Identifier: BSL-1.0
#pragma once
// The outcome of decoding: the value, or every problem found (result<void>, below: the outcome
// of a check, no value). Errors are values here, never exceptions, on every path that handles
// user input.
#include <utility>
#include <variant>

#include <esign/validation/problem.hpp>

namespace esign {

template <class T>
class [[nodiscard]] result {
public:
    result(T value) : state_(std::in_place_index<0>, std::move(value)) {}
    result(problem_list problems) : state_(std::in_place_index<1>, std::move(problems)) {}

    bool has_value() const noexcept { return state_.index() == 0; }
    explicit operator bool() const noexcept { return has_value(); }

    T& value() & { return std::get<0>(state_); }
    const T& value() const& { return std::get<0>(state_); }
    T&& value() && { return std::get<0>(std::move(state_)); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }

    // Empty when there is a value.
    const problem_list& problems() const noexcept {
        static const problem_list none;
        return has_value() ? none : *std::get_if<1>(&state_);  // get_if: no bad_variant_access path
    }
    problem_list&& take_problems() && { return std::get<1>(std::move(state_)); }

private:
    std::variant<T, problem_list> state_;
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
