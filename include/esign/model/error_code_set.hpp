// SPDX-License-Identifier: BSL-1.0
#pragma once
// A set of error codes, usable in constant expressions: what an operation may answer.
#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include <esign/model/enums.hpp>
#include <esign/validation/enum_names.hpp>

namespace esign {

class error_code_set {
public:
    constexpr error_code_set() noexcept = default;
    constexpr error_code_set(std::initializer_list<error_code> codes) noexcept {
        for (auto code : codes) bits_ |= bit(code);
    }

    constexpr bool contains(error_code code) const noexcept { return (bits_ & bit(code)) != 0; }
    constexpr bool empty() const noexcept { return bits_ == 0; }
    friend constexpr error_code_set operator|(error_code_set a, error_code_set b) noexcept {
        a.bits_ |= b.bits_;
        return a;
    }
    friend constexpr bool operator==(error_code_set, error_code_set) noexcept = default;

    // Calls f(code) for every code of the set, in the order of error_code.
    template <class F>
    constexpr void for_each(F&& f) const {
        for (auto code : enum_values<error_code>())
            if (contains(code)) f(code);
    }

private:
    static_assert(enum_count<error_code>() <= 64, "error_code_set keeps one bit per code");
    static constexpr std::uint64_t bit(error_code code) noexcept {
        return std::uint64_t{1} << static_cast<std::size_t>(code);
    }
    std::uint64_t bits_ = 0;
};

// The codes every operation may answer (interface.md "Errors": the authentication,
// authorization and server groups, and INVALID_REQUEST_FORMAT).
inline constexpr error_code_set common_error_codes{
    error_code::AUTHENTICATION_ERROR,     error_code::DBSC_COOKIE_INVALID,    error_code::TUNNEL_ERROR,
    error_code::TUNNEL_SESSION_NOT_FOUND, error_code::AUTHORIZATION_ERROR,    error_code::FEATURE_NOT_IN_CURRENT_PLAN,
    error_code::INTERNAL_SERVER_ERROR,    error_code::INVALID_REQUEST_FORMAT,
};

}  // namespace esign
