// SPDX-License-Identifier: BSL-1.0
#pragma once
// fmt formatters, so any of esign's values prints as people expect:
//   fmt::print("{}", envelope_status::draft)          → draft        (any described enum: its wire string)
//   fmt::print("{}", esign::path_text{p.path})         → recipients[3].email
//   fmt::print("{}", problem)                          → recipients[3].email: must be a valid e-mail address (pattern)
//   fmt::print("{}", fmt::join(problems, "\n"))        → one line per problem (fmt::join: <fmt/format.h>)
//   fmt::print("{:>8}", language::fr)                  → "      fr" (a string's format spec)
//   esign::to_text(problem), esign::to_text(esign::path_text{p.path})  → the same, without fmt
#include <cstddef>
#include <string>
#include <string_view>

#include <fmt/core.h>  // (not format.h, which every file that includes esign.hpp would then parse)

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

namespace esign::detail {

// What the formatters below share: the format spec as written ("{:>8}" keeps ">8"), applied to
// the value's text as fmt applies it to a string. fmt::vformat_to is in fmt/core.h;
// fmt::formatter<std::string_view>::format, which these could derive from, is in fmt/format.h.
struct text_formatter {
    char spec[32]{'{', ':'};  // "{:" spec "}"
    std::size_t size = 2;

    constexpr auto parse(fmt::format_parse_context& ctx) -> decltype(ctx.begin()) {
        auto it = ctx.begin();
        for (; it != ctx.end() && *it != '}'; ++it) {
            if (*it == '{') ctx.on_error("esign's formatters take no dynamic width or precision");
            if (size + 2 > sizeof spec) ctx.on_error("format spec too long");
            spec[size++] = *it;
        }
        spec[size++] = '}';
        return it;
    }

    template <class FormatContext>
    auto write(std::string_view text, FormatContext& ctx) const {
        return fmt::vformat_to(ctx.out(), fmt::string_view(spec, size), fmt::make_format_args(text));
    }
};

}  // namespace esign::detail

template <class E>
requires esign::described_enum<E>
struct fmt::formatter<E, char> : esign::detail::text_formatter {
    template <class FormatContext>
    auto format(E value, FormatContext& ctx) const {
        return write(esign::enum_to_wire(value), ctx);
    }
};

template <>
struct fmt::formatter<esign::path_text, char> : esign::detail::text_formatter {
    template <class FormatContext>
    auto format(const esign::path_text& p, FormatContext& ctx) const {
        return write(esign::to_text(p), ctx);
    }
};

template <>
struct fmt::formatter<esign::problem, char> : esign::detail::text_formatter {
    template <class FormatContext>
    auto format(const esign::problem& p, FormatContext& ctx) const {
        return write(esign::to_text(p), ctx);
    }
};
