// SPDX-License-Identifier: BSL-1.0
#pragma once
// A member the interface accepts as a string, a number or a boolean, kept as text:
// a string as itself, a number or boolean as its JSON text (add-blocks defaultValue).
#include <esign/types/detail/string_value.hpp>

namespace esign {

struct scalar_text : detail::string_value {
    using detail::string_value::string_value;
};

}  // namespace esign
