#pragma once
#include <cmath>
#include <cstdint>
#include <optional>

#include <boost/json/value.hpp>

namespace esign::json::detail {

// The value of a JSON number that has no fractional part (3 or 3.0) and fits in 64 bits;
// nullopt otherwise. Integers are strict: 3.5 is not an integer, "3" is not a number.
inline std::optional<std::int64_t> integral_value(const boost::json::value& v) noexcept {
    switch (v.kind()) {
    case boost::json::kind::int64: return v.get_int64();
    case boost::json::kind::uint64:
        if (v.get_uint64() > static_cast<std::uint64_t>(INT64_MAX)) return std::nullopt;
        return static_cast<std::int64_t>(v.get_uint64());
    case boost::json::kind::double_: {
        double d = v.get_double();
        // 2^63 is exactly representable; everything in [-2^63, 2^63) converts without UB.
        if (!std::isfinite(d) || d != std::trunc(d) || d < -9223372036854775808.0 || d >= 9223372036854775808.0)
            return std::nullopt;
        return static_cast<std::int64_t>(d);
    }
    default: return std::nullopt;
    }
}

} // namespace esign::json::detail
