// SPDX-License-Identifier: BSL-1.0
#pragma once
// The human side of problems: one place for the wording, so every message reads alike.
#include <string>
#include <string_view>

#include <boost/json/kind.hpp>

namespace esign::json::detail {

inline std::string_view kind_name(boost::json::kind k) noexcept {
    switch (k) {
        case boost::json::kind::null:
            return "null";
        case boost::json::kind::bool_:
            return "a boolean";
        case boost::json::kind::int64:
        case boost::json::kind::uint64:
        case boost::json::kind::double_:
            return "a number";
        case boost::json::kind::string:
            return "a string";
        case boost::json::kind::array:
            return "an array";
        case boost::json::kind::object:
            return "an object";
    }
    return "a value";
}

inline std::string expected_but(std::string_view expected, boost::json::kind got) {
    std::string m = "expected ";
    m += expected;
    m += ", got ";
    m += kind_name(got);
    return m;
}

}  // namespace esign::json::detail

namespace esign::json::detail {
inline constexpr std::string_view duplicate_member_message = "appears more than once";
inline constexpr std::string_view unknown_member_message = "is not a member of this request";
inline constexpr std::string_view missing_member_message = "is required";
}  // namespace esign::json::detail
