// SPDX-License-Identifier: BSL-1.0
#pragma once
// New recipients take the block colours in turn: the colour at index (number of recipients
// the envelope has just before this one is added) mod 10, in the order of interface.md.
#include <cstddef>

#include <esign/model/enums.hpp>
#include <esign/validation/enum_names.hpp>

namespace esign::rules {

constexpr block_color color_for_recipient(std::size_t recipients_before) noexcept {
    return static_cast<block_color>(recipients_before % enum_count<block_color>());
}

}  // namespace esign::rules
