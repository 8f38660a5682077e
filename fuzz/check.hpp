// SPDX-License-Identifier: BSL-1.0
#pragma once
// What the harnesses share: a check that aborts (so libFuzzer and the replay program both
// see a failure) after printing what went wrong.
#include <cstdio>
#include <cstdlib>
#include <string_view>

#define ESIGN_FUZZ_CHECK(cond, ...)                                                                   \
    do {                                                                                              \
        if (!(cond)) {                                                                                \
            std::fprintf(stderr, "\nFUZZ CHECK FAILED: %s\n  at %s:%d\n", #cond, __FILE__, __LINE__); \
            std::fprintf(stderr, "  " __VA_ARGS__);                                                   \
            std::fprintf(stderr, "\n");                                                               \
            std::abort();                                                                             \
        }                                                                                             \
    } while (0)

#include <cmath>

#include <boost/json/value.hpp>

namespace esign_fuzz {

// JSON equality, except that two doubles may differ in their last bits: Boost 1.81's parser
// is not correctly rounded (boost::json::parse("2.6868225478227328E-253") gives
// 2.6868225478227325e-253, strtod gives ...328e-253), so a double that goes out as text and
// comes back may move by an ulp or two. Everything else must be exactly equal.
inline bool near_equal(const boost::json::value& a, const boost::json::value& b) {
    // A double that comes back whole (131071.99999999999 read as 131072) is then written as an
    // integer: compare numbers by value as soon as one of them is a double.
    if ((a.is_double() || b.is_double()) && a.is_number() && b.is_number()) {
        double x = a.to_number<double>(), y = b.to_number<double>();
        if (x == y) return true;
        // 4 ulp, relative for normal numbers, absolute (4 x the smallest subnormal) below.
        return std::fabs(x - y) <= 4 * 2.220446049250313e-16 * std::fmax(std::fabs(x), std::fabs(y)) ||
               std::fabs(x - y) <= 4 * 4.9406564584124654e-324;
    }
    if (a.kind() != b.kind()) return false;
    if (a.is_array()) {
        const auto& x = a.get_array();
        const auto& y = b.get_array();
        if (x.size() != y.size()) return false;
        for (std::size_t i = 0; i < x.size(); ++i)
            if (!near_equal(x[i], y[i])) return false;
        return true;
    }
    if (a.is_object()) {
        const auto& x = a.get_object();
        const auto& y = b.get_object();
        if (x.size() != y.size()) return false;
        for (const auto& m : x) {
            const boost::json::value* other = y.if_contains(m.key());
            if (!other || !near_equal(m.value(), *other)) return false;
        }
        return true;
    }
    return a == b;
}

}  // namespace esign_fuzz
