// SPDX-License-Identifier: BSL-1.0
#pragma once
// fmt formatters, so any of esign's values prints as people expect:
//   fmt::print("{}", envelope_status::draft)          → draft        (any described enum: its wire string)
//   fmt::print("{}", esign::path_text{p.path})         → recipients[3].email
//   fmt::print("{}", problem)                          → recipients[3].email: must be a valid e-mail address (pattern)
//   fmt::print("{}", fmt::join(problems, "\n"))        → one line per problem
//   esign::to_text(problem), esign::to_text(esign::path_text{p.path})  → the same, without fmt
#include <string>
#include <string_view>

#include <fmt/format.h>  // (not core.h: formatter<string_view>::format, which these derive from, is defined here)

#include <esign/validation/enum_names.hpp>
#include <esign/validation/problem.hpp>

namespace esign {

// A problem path for people: members joined by '.', array indices in brackets; the body's root is "(body)".
struct path_text {
    const problem_path& path;
};

namespace detail {
inline bool is_index(std::string_view s) noexcept {
    if (s.empty()) return false;
    for (char c : s)
        if (c < '0' || c > '9') return false;
    return true;
}
}  // namespace detail

// The text the formatters below print, as a plain string (for code that must not instantiate a
// formatter: GCC 12 at -O3 warns about fmt 9's own code in a custom formatter's parse).
inline std::string to_text(const path_text& p) {
    std::string text;
    for (const auto& part : p.path) {
        if (detail::is_index(part))
            text += "[" + part + "]";
        else {
            if (!text.empty()) text += '.';
            text += part;
        }
    }
    return text.empty() ? std::string("(body)") : text;
}

inline std::string to_text(const problem& p) {
    std::string text = to_text(path_text{p.path});
    text += ": ";
    text += p.message;
    text += " (";
    text += enum_to_wire(p.kind);
    text += ')';
    return text;
}

}  // namespace esign

template <class E>
requires esign::described_enum<E>
struct fmt::formatter<E, char> : fmt::formatter<std::string_view, char> {
    template <class FormatContext>
    auto format(E value, FormatContext& ctx) const {
        return fmt::formatter<std::string_view, char>::format(esign::enum_to_wire(value), ctx);
    }
};

template <>
struct fmt::formatter<esign::path_text, char> : fmt::formatter<std::string_view, char> {
    template <class FormatContext>
    auto format(const esign::path_text& p, FormatContext& ctx) const {
        return fmt::formatter<std::string_view, char>::format(esign::to_text(p), ctx);
    }
};

template <>
struct fmt::formatter<esign::problem, char> : fmt::formatter<std::string_view, char> {
    template <class FormatContext>
    auto format(const esign::problem& p, FormatContext& ctx) const {
        return fmt::formatter<std::string_view, char>::format(esign::to_text(p), ctx);
    }
};
