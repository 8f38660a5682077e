// SPDX-License-Identifier: BSL-1.0
#pragma once
// What every string type of types/ is besides its rule: a std::string (so that every string
// operation, comparison and std::string parameter takes it as it is), built from any string,
// with str() to name the std::string. The types inherit these constructors
// (`using detail::string_value::string_value;`) and add their rule.
#include <string>
#include <string_view>
#include <utility>

namespace esign::detail {

struct string_value : std::string {
    using std::string::string;
    string_value() = default;
    string_value(std::string s) : std::string(std::move(s)) {}
    string_value(std::string_view s) : std::string(s) {}
    const std::string& str() const noexcept { return *this; }
};

}  // namespace esign::detail
