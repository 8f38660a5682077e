// SPDX-License-Identifier: BSL-1.0
#pragma once
// INVALID_EMAIL: an address that passes the pattern but whose top-level domain is "invalid"
// (RFC 2606 reserves it for addresses that must never work), compared case-insensitively.
#include <string_view>

#include <esign/types/ascii.hpp>

namespace esign::rules {

constexpr bool is_deliverable(std::string_view address) noexcept {
    auto dot = address.rfind('.');
    std::string_view tld = dot == std::string_view::npos ? address : address.substr(dot + 1);
    return !iequals_ascii(tld, "invalid");
}

}  // namespace esign::rules
