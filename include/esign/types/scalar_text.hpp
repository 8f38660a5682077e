// SPDX-License-Identifier: BSL-1.0
#pragma once
// A member the interface accepts as a string, a number or a boolean, kept as text:
// a string as itself, a number or boolean as its JSON text (add-blocks defaultValue).
#include <string>

namespace esign {

struct scalar_text : std::string {
    using std::string::string;
    scalar_text() = default;
    scalar_text(std::string s) : std::string(std::move(s)) {}
    const std::string& str() const noexcept { return *this; }
};

}  // namespace esign
