// SPDX-License-Identifier: BSL-1.0
#pragma once
// INVALID_EMAIL: an address that passes the pattern but whose top-level domain is "invalid"
// (RFC 2606 reserves it for addresses that must never work), compared case-insensitively.
#include <string_view>

namespace esign::rules {

constexpr bool is_deliverable(std::string_view address) noexcept {
    auto dot = address.rfind('.');
    std::string_view tld = dot == std::string_view::npos ? address : address.substr(dot + 1);
    constexpr std::string_view reserved = "invalid";
    if (tld.size() != reserved.size()) return true;
    for (std::size_t i = 0; i < tld.size(); ++i) {
        char c = tld[i];
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        if (c != reserved[i]) return true;
    }
    return false;
}

}  // namespace esign::rules
