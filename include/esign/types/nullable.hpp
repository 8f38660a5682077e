// SPDX-License-Identifier: BSL-1.0
#pragma once
// Three states the interface tells apart:
//   std::optional<T>  absent or a value (the member may be left out)
//   nullable<T>       null or a value (the member is present, possibly null)
//   tri_state<T>      absent, null or a value (e.g. customInvitationMessage:
//                     absent = unchanged, null = cleared)
#include <optional>

namespace esign {

template <class T>
struct nullable : std::optional<T> {
    using std::optional<T>::optional;
    using std::optional<T>::operator=;
    constexpr nullable() = default;
    constexpr nullable(std::optional<T> o) : std::optional<T>(std::move(o)) {}
    // Exact match for a plain value (optional's converting templates alone are ambiguous here).
    nullable& operator=(const T& value) {
        std::optional<T>::operator=(value);
        return *this;
    }
    nullable& operator=(T&& value) {
        std::optional<T>::operator=(std::move(value));
        return *this;
    }
    bool is_null() const noexcept { return !this->has_value(); }
};

template <class T>
using tri_state = std::optional<nullable<T>>;

}  // namespace esign
