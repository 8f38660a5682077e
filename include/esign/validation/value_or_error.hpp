// SPDX-License-Identifier: BSL-1.0
#pragma once
// A value, or the error that stands in its place: the shape of every outcome esign gives
// (esign::result: the problems; the client's call_result: a call_error; the webhook receiver's
// webhook_verification: a webhook_error), written once. Errors are values here, never
// exceptions, on every path that handles user input; value() without a value is the caller's
// mistake (std::bad_variant_access), as with std::expected.
#include <utility>
#include <variant>

namespace esign {

template <class T, class E>
class [[nodiscard]] value_or_error {
public:
    value_or_error(T value) : state_(std::in_place_index<0>, std::move(value)) {}
    value_or_error(E error) : state_(std::in_place_index<1>, std::move(error)) {}

    bool has_value() const noexcept { return state_.index() == 0; }
    explicit operator bool() const noexcept { return has_value(); }

    T& value() & { return std::get<0>(state_); }
    const T& value() const& { return std::get<0>(state_); }
    T&& value() && { return std::get<0>(std::move(state_)); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }

protected:
    // The error; null when there is a value.
    const E* error_if_any() const noexcept { return std::get_if<1>(&state_); }
    E&& take_error() && { return std::get<1>(std::move(state_)); }

private:
    std::variant<T, E> state_;
};

}  // namespace esign
