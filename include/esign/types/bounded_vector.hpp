// SPDX-License-Identifier: BSL-1.0
#pragma once
// A vector whose size lies in [Min, Max] (e.g. 1 to 50 recipients per request).
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <esign/types/bounded_string.hpp>
#include <esign/validation/check.hpp>
#include <esign/validation/problem.hpp>

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

    // The size rule, judged once the items are: `n` items (a reader counts those beyond the
    // maximum, which it does not store).
    static bool check_size(std::size_t n, problem_sink& out) {
        if (n < Min)
            out.add(problem_kind::size, "must have at least " + std::to_string(Min) + (Min == 1 ? " item" : " items"),
                    static_cast<std::int64_t>(Min));
        else if (n > Max)
            out.add(problem_kind::size, "must have at most " + std::to_string(Max) + " items",
                    static_cast<std::int64_t>(Max));
        else
            return true;
        return false;
    }
    static bool check(const bounded_vector& value, problem_sink& out) { return check_size(value.size(), out); }

    // The vector, or every problem of it and of its items (at paths from the vector: ["3",
    // "email"]); see `make` in types/bounded_string.hpp.
    static result<bounded_vector> make(std::vector<T> v) { return validation::checked(bounded_vector(std::move(v))); }
};

}  // namespace esign
