// SPDX-License-Identifier: BSL-1.0
#pragma once
// A vector whose size lies in [Min, Max] (e.g. 1 to 50 recipients per request).
#include <cstddef>
#include <utility>
#include <vector>

#include <esign/types/bounded_string.hpp>

namespace esign {

template <class T, std::size_t Min, std::size_t Max = unbounded>
struct bounded_vector : std::vector<T> {
    static_assert(Min <= Max, "bounded_vector<T, Min, Max> needs Min <= Max");
    static constexpr std::size_t min_size = Min;
    static constexpr std::size_t max_size = Max;
    using std::vector<T>::vector;
    bounded_vector() = default;
    bounded_vector(std::vector<T> v) : std::vector<T>(std::move(v)) {}
    const std::vector<T>& items() const noexcept { return *this; }

    // The vector, or every problem of it and of its items (at paths from the vector: ["3",
    // "email"]); see `make` in types/bounded_string.hpp.
    static auto make(std::vector<T> v) { return checked(bounded_vector(std::move(v))); }
};

}  // namespace esign
