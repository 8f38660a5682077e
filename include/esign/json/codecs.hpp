#pragma once
// Codecs for the standard types and for esign's constrained vocabulary. Each reads one
// value, reports what is wrong with it at the current path, and never throws.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <esign/json/codec.hpp>
#include <esign/json/detail/messages.hpp>
#include <esign/json/detail/number.hpp>
#include <esign/types/absolute_uri.hpp>
#include <esign/types/bounded_string.hpp>
#include <esign/types/bounded_vector.hpp>
#include <esign/types/email.hpp>
#include <esign/types/nullable.hpp>
#include <esign/types/pattern_string.hpp>
#include <esign/types/ranged.hpp>
#include <esign/types/scalar_text.hpp>

namespace esign::json {

namespace detail {
// Reads a string into `out`; false (with a problem) when the value is not a string.
inline bool read_string(const boost::json::value& v, std::string& out, decoder& d) {
    if (!v.is_string()) {
        d.add(problem_kind::type, expected_but("a string", v.kind()));
        return false;
    }
    out.assign(v.get_string().data(), v.get_string().size());
    return true;
}

inline void check_length(std::string_view s, std::size_t min, std::size_t max, decoder& d) {
    std::size_t n = code_point_count(s);
    if (min == max && n != min)
        d.add(n < min ? problem_kind::too_short : problem_kind::too_long,
              fmt::format("must be exactly {} characters", min), static_cast<std::int64_t>(min));
    else if (n < min)
        d.add(problem_kind::too_short,
              min == 1 ? std::string("must not be empty") : fmt::format("must be at least {} characters", min),
              static_cast<std::int64_t>(min));
    else if (n > max)
        d.add(problem_kind::too_long, fmt::format("must be at most {} characters", max),
              static_cast<std::int64_t>(max));
}
} // namespace detail

template <>
struct codec<bool> {
    static void decode(const boost::json::value& v, bool& out, decoder& d) {
        if (v.is_bool()) out = v.get_bool();
        else d.add(problem_kind::type, detail::expected_but("a boolean", v.kind()));
    }
    static void encode(bool in, boost::json::value& out) { out = in; }
};

// Any 64-bit integer (timestamps, control operations' milliseconds).
template <>
struct codec<std::int64_t> {
    static void decode(const boost::json::value& v, std::int64_t& out, decoder& d) {
        if (!v.is_number()) return d.add(problem_kind::type, detail::expected_but("an integer", v.kind()));
        if (auto i = detail::integral_value(v)) out = *i;
        else d.add(problem_kind::range, "must be an integer");
    }
    static void encode(std::int64_t in, boost::json::value& out) { out = in; }
};

template <>
struct codec<double> {
    static void decode(const boost::json::value& v, double& out, decoder& d) {
        if (v.is_number()) out = v.to_number<double>();
        else d.add(problem_kind::type, detail::expected_but("a number", v.kind()));
    }
    static void encode(double in, boost::json::value& out) {
        // Whole numbers are written as integers (1, not 1E0): the reader sees what it sent.
        if (std::trunc(in) == in && std::fabs(in) < 9007199254740992.0) out = static_cast<std::int64_t>(in);
        else out = in;
    }
};

template <>
struct codec<std::string> {
    static void decode(const boost::json::value& v, std::string& out, decoder& d) { detail::read_string(v, out, d); }
    static void encode(const std::string& in, boost::json::value& out) { out = boost::json::string_view(in); }
};

template <>
struct codec<boost::json::object> {
    static void decode(const boost::json::value& v, boost::json::object& out, decoder& d) {
        if (v.is_object()) out = v.get_object();
        else d.add(problem_kind::type, detail::expected_but("an object", v.kind()));
    }
    static void encode(const boost::json::object& in, boost::json::value& out) { out = in; }
};

template <>
struct codec<boost::json::value> {
    static void decode(const boost::json::value& v, boost::json::value& out, decoder&) { out = v; }
    static void encode(const boost::json::value& in, boost::json::value& out) { out = in; }
};

template <std::int64_t Min, std::int64_t Max>
struct codec<ranged<Min, Max>> {
    static void decode(const boost::json::value& v, ranged<Min, Max>& out, decoder& d) {
        if (!v.is_number()) return d.add(problem_kind::type, detail::expected_but("an integer", v.kind()));
        auto i = detail::integral_value(v);
        if (!i) {
            // A whole number beyond 64 bits is out of range, not "not an integer".
            const double x = v.to_number<double>();
            if (x == std::trunc(x)) {
                if (x < 0) return d.add(problem_kind::range, fmt::format("must be at least {}", Min), Min);
                return d.add(problem_kind::range, fmt::format("must be at most {}", Max), Max);
            }
            return d.add(problem_kind::range, "must be an integer");
        }
        if (*i < Min) return d.add(problem_kind::range, fmt::format("must be at least {}", Min), Min);
        if (*i > Max) return d.add(problem_kind::range, fmt::format("must be at most {}", Max), Max);
        out.value = static_cast<std::int32_t>(*i);
    }
    static void encode(ranged<Min, Max> in, boost::json::value& out) { out = static_cast<std::int64_t>(in.value); }
};

template <std::size_t Min, std::size_t Max>
struct codec<bounded_string<Min, Max>> {
    static void decode(const boost::json::value& v, bounded_string<Min, Max>& out, decoder& d) {
        if (detail::read_string(v, out, d)) detail::check_length(out, Min, Max, d);
    }
    static void encode(const bounded_string<Min, Max>& in, boost::json::value& out) {
        out = boost::json::string_view(in);
    }
};

template <email_form Form, std::size_t Max>
struct codec<email<Form, Max>> {
    static void decode(const boost::json::value& v, email<Form, Max>& out, decoder& d) {
        if (!detail::read_string(v, out, d)) return;
        detail::check_length(out, 0, Max, d);
        if (!email<Form, Max>::matches(out)) d.add(problem_kind::pattern, "must be a valid e-mail address");
    }
    static void encode(const email<Form, Max>& in, boost::json::value& out) { out = boost::json::string_view(in); }
};

template <regex::fixed_string Pattern>
struct codec<pattern_string<Pattern>> {
    static void decode(const boost::json::value& v, pattern_string<Pattern>& out, decoder& d) {
        if (detail::read_string(v, out, d) && !pattern_string<Pattern>::matches(out))
            d.add(problem_kind::pattern, fmt::format("must match {}", Pattern.view()));
    }
    static void encode(const pattern_string<Pattern>& in, boost::json::value& out) {
        out = boost::json::string_view(in);
    }
};

template <>
struct codec<absolute_uri> {
    static void decode(const boost::json::value& v, absolute_uri& out, decoder& d) {
        if (detail::read_string(v, out, d) && !absolute_uri::matches(out))
            d.add(problem_kind::pattern, "must be an absolute URI");
    }
    static void encode(const absolute_uri& in, boost::json::value& out) { out = boost::json::string_view(in); }
};

template <>
struct codec<scalar_text> {
    static void decode(const boost::json::value& v, scalar_text& out, decoder& d) {
        if (v.is_string()) out.assign(v.get_string().data(), v.get_string().size());
        else if (v.is_number() && d.number_text()) out = *d.number_text();
        else if (v.is_bool()) out = v.get_bool() ? "true" : "false";
        else if (v.is_int64()) out = std::to_string(v.get_int64());
        else if (v.is_uint64()) out = std::to_string(v.get_uint64());
        else if (v.is_double()) out = fmt::format("{}", v.get_double());
        else d.add(problem_kind::type, detail::expected_but("a string, a number or a boolean", v.kind()));
    }
    static void encode(const scalar_text& in, boost::json::value& out) { out = boost::json::string_view(in); }
};

template <class T>
struct codec<nullable<T>> {
    static void decode(const boost::json::value& v, nullable<T>& out, decoder& d) {
        if (v.is_null()) return out.reset();
        decode_value(v, out.emplace(), d);
    }
    static void encode(const nullable<T>& in, boost::json::value& out) {
        if (in) encode_value(*in, out);
        else out = nullptr;
    }
};

namespace detail {
template <class T>
void decode_items(const boost::json::value& v, std::vector<T>& out, decoder& d) {
    if (!v.is_array()) return d.add(problem_kind::type, expected_but("an array", v.kind()));
    const auto& array = v.get_array();
    out.clear();
    out.resize(array.size());
    for (std::size_t i = 0; i < array.size(); ++i) d.at_index(i, [&] { decode_value(array[i], out[i], d); });
}
template <class T>
void encode_items(const std::vector<T>& in, boost::json::value& out) {
    auto& array = out.emplace_array();
    array.reserve(in.size());
    for (const auto& item : in) encode_value(item, array.emplace_back(nullptr));
}
} // namespace detail

template <class T>
struct codec<std::vector<T>> {
    static void decode(const boost::json::value& v, std::vector<T>& out, decoder& d) { detail::decode_items(v, out, d); }
    static void encode(const std::vector<T>& in, boost::json::value& out) { detail::encode_items(in, out); }
};

template <class T, std::size_t Min, std::size_t Max>
struct codec<bounded_vector<T, Min, Max>> {
    static void decode(const boost::json::value& v, bounded_vector<T, Min, Max>& out, decoder& d) {
        if (v.is_array()) {
            std::size_t n = v.get_array().size();
            if (n < Min)
                d.add(problem_kind::size, fmt::format("must have at least {} item{}", Min, Min == 1 ? "" : "s"),
                      static_cast<std::int64_t>(Min));
            else if (n > Max)
                d.add(problem_kind::size, fmt::format("must have at most {} items", Max), static_cast<std::int64_t>(Max));
        }
        detail::decode_items(v, out, d);
    }
    static void encode(const bounded_vector<T, Min, Max>& in, boost::json::value& out) { detail::encode_items(in, out); }
};

template <class T>
struct codec<std::map<std::string, T>> {
    static void decode(const boost::json::value& v, std::map<std::string, T>& out, decoder& d) {
        if (!v.is_object()) return d.add(problem_kind::type, detail::expected_but("an object", v.kind()));
        out.clear();
        for (const auto& member : v.get_object()) {
            std::string key(member.key());
            d.at(key, [&] { decode_value(member.value(), out[key], d); });
        }
    }
    static void encode(const std::map<std::string, T>& in, boost::json::value& out) {
        auto& object = out.emplace_object();
        for (const auto& [key, item] : in) encode_value(item, object[key]);
    }
};

} // namespace esign::json
