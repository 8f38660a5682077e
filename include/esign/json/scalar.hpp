// SPDX-License-Identifier: BSL-1.0
#pragma once
// One JSON value that is not a container, as a reader sees it: from the parser while it
// reads bytes, or from a boost::json::value. A number carries its text as written when it
// comes from bytes ("2.50" stays "2.50"), and no text when it comes from a DOM.
#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>

#include <boost/json/kind.hpp>
#include <boost/json/value.hpp>

namespace esign::json {

struct scalar {
    boost::json::kind kind = boost::json::kind::null;
    std::string_view text;  // a string's value; a number as written (empty when unknown)
    std::int64_t int64 = 0;
    std::uint64_t uint64 = 0;
    double double_ = 0;
    bool bool_ = false;

    bool is_number() const noexcept {
        return kind == boost::json::kind::int64 || kind == boost::json::kind::uint64 ||
               kind == boost::json::kind::double_;
    }
    bool is_string() const noexcept { return kind == boost::json::kind::string; }

    // The number as a double (0 for other kinds).
    double to_double() const noexcept {
        switch (kind) {
            case boost::json::kind::int64:
                return static_cast<double>(int64);
            case boost::json::kind::uint64:
                return static_cast<double>(uint64);
            case boost::json::kind::double_:
                return double_;
            default:
                return 0;
        }
    }

    static scalar string(std::string_view s) noexcept { return with(boost::json::kind::string, s); }
    static scalar number(std::int64_t i, std::string_view text = {}) noexcept {
        scalar s = with(boost::json::kind::int64, text);
        s.int64 = i;
        return s;
    }
    static scalar number(std::uint64_t u, std::string_view text = {}) noexcept {
        scalar s = with(boost::json::kind::uint64, text);
        s.uint64 = u;
        return s;
    }
    static scalar number(double d, std::string_view text = {}) noexcept {
        scalar s = with(boost::json::kind::double_, text);
        s.double_ = d;
        return s;
    }
    static scalar boolean(bool b) noexcept {
        scalar s = with(boost::json::kind::bool_);
        s.bool_ = b;
        return s;
    }
    static scalar null() noexcept { return {}; }
    // Where a container arrives for a type that wants a scalar: only its kind, so the type's
    // codec words the "expected ..., got an object" problem itself.
    static scalar container(boost::json::kind k) noexcept { return with(k); }

    static scalar with(boost::json::kind k, std::string_view text = {}) noexcept {
        scalar s;
        s.kind = k;
        s.text = text;
        return s;
    }

    // A non-container boost::json::value (a container gives its kind only).
    static scalar of(const boost::json::value& v) noexcept {
        switch (v.kind()) {
            case boost::json::kind::string:
                return string(std::string_view(v.get_string().data(), v.get_string().size()));
            case boost::json::kind::int64:
                return number(v.get_int64());
            case boost::json::kind::uint64:
                return number(v.get_uint64());
            case boost::json::kind::double_:
                return number(v.get_double());
            case boost::json::kind::bool_:
                return boolean(v.get_bool());
            case boost::json::kind::null:
                return null();
            default:
                return container(v.kind());
        }
    }

    // The same value as a boost::json::value (a container kind gives null).
    boost::json::value to_value() const {
        switch (kind) {
            case boost::json::kind::string:
                return boost::json::string_view(text.data(), text.size());
            case boost::json::kind::int64:
                return int64;
            case boost::json::kind::uint64:
                return uint64;
            case boost::json::kind::double_:
                return double_;
            case boost::json::kind::bool_:
                return bool_;
            default:
                return nullptr;
        }
    }
};

// The value of a number that has no fractional part (3 or 3.0) and fits in 64 bits;
// nullopt otherwise. Integers are strict: 3.5 is not an integer, "3" is not a number.
inline std::optional<std::int64_t> integral_value(const scalar& s) noexcept {
    switch (s.kind) {
        case boost::json::kind::int64:
            return s.int64;
        case boost::json::kind::uint64:
            if (s.uint64 > static_cast<std::uint64_t>(INT64_MAX)) return std::nullopt;
            return static_cast<std::int64_t>(s.uint64);
        case boost::json::kind::double_: {
            const double d = s.double_;
            // 2^63 is exactly representable; everything in [-2^63, 2^63) converts without UB.
            if (!std::isfinite(d) || d != std::trunc(d) || d < -9223372036854775808.0 || d >= 9223372036854775808.0)
                return std::nullopt;
            return static_cast<std::int64_t>(d);
        }
        default:
            return std::nullopt;
    }
}

}  // namespace esign::json
