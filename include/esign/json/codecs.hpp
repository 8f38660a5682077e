// SPDX-License-Identifier: BSL-1.0
#pragma once
// Codecs for the standard types and for esign's constrained vocabulary. Each reads one
// value, reports what is wrong with it at the current path, and never throws. The rules of a
// constrained type are the type's own (validation/rule.hpp: a length, a pattern, a range), which
// the reader calls once it has the value and esign::check calls on a value built in code: one
// function per rule for both, none here.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <type_traits>
#include <vector>

#include <esign/json/codec.hpp>
#include <esign/json/detail/messages.hpp>
#include <esign/validation/rule.hpp>
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
inline bool read_string(const scalar& s, std::string& out, decoder& d) {
    if (!s.is_string()) {
        d.add(problem_kind::type, expected_but("a string", s.kind));
        return false;
    }
    // Not assign: its general path allows the text to lie inside `out` (a scalar's never does)
    // and cost about 30 instructions more per string than appending to a cleared one.
    out.clear();
    out.append(s.text);
    return true;
}

// The value an optional holds, made (empty) when it holds none: a reader reads into it.
template <class Optional>
auto& value_in(Optional& o) {
    return o ? *o : o.emplace();
}

// A string type with a rule of its own (bounded_string, email, pattern_string, absolute_uri, a
// type of the user's): read as a string, then judged by its rule.
template <class T>
concept checked_string = std::is_base_of_v<std::string, T> && has_rule<T>;

// A double as fmt writes "{}": its shortest round-trip digits, in fixed notation when the
// decimal exponent is from -4 to 15 (0.0001, 1234.5, 1000000000000000) and as d.ddde±XX
// otherwise (1e-05, 1e+16); "inf", "-inf", "nan". The text that a DOM's number keeps in a
// scalar_text, as before this writer replaced fmt here.
inline std::string general_double_text(double v) {
    if (std::isnan(v)) return "nan";
    std::string out = std::signbit(v) ? "-" : "";
    v = std::fabs(v);
    if (std::isinf(v)) return out + "inf";
    char buf[32];
    const auto end = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific).ptr;
    const std::string_view text(buf, static_cast<std::size_t>(end - buf));  // d[.ddd]e±XX
    const auto e = text.find('e');
    std::string digits(text.substr(0, e));
    if (digits.size() > 1) digits.erase(1, 1);  // the point
    int exponent = 0;
    const char* first = text.data() + e + 1;
    std::from_chars(first + (*first == '+' ? 1 : 0), end, exponent);
    if (exponent < -4 || exponent >= 16) {
        out += digits[0];
        if (digits.size() > 1) (out += '.').append(digits, 1);
        out += exponent < 0 ? "e-" : "e+";
        const auto magnitude = std::to_string(exponent < 0 ? -exponent : exponent);
        if (magnitude.size() < 2) out += '0';
        return out += magnitude;
    }
    if (exponent >= 0) {
        const std::size_t whole = static_cast<std::size_t>(exponent) + 1;  // digits before the point
        if (whole >= digits.size()) return out.append(digits).append(whole - digits.size(), '0');
        return out.append(digits, 0, whole).append(".").append(digits, whole);
    }
    return out.append("0.").append(static_cast<std::size_t>(-exponent) - 1, '0').append(digits);
}

}  // namespace detail

template <>
struct codec<bool> {
    static void read(const scalar& s, bool& out, decoder& d) {
        if (s.kind == boost::json::kind::bool_)
            out = s.bool_;
        else
            d.add(problem_kind::type, detail::expected_but("a boolean", s.kind));
    }
    static void encode(bool in, boost::json::value& out) { out = in; }
    static void write(bool in, text_buffer& out) { in ? out.append("true") : out.append("false"); }
};

// Any 64-bit integer (timestamps, control operations' milliseconds).
template <>
struct codec<std::int64_t> {
    static void read(const scalar& s, std::int64_t& out, decoder& d) {
        if (!s.is_number()) return d.add(problem_kind::type, detail::expected_but("an integer", s.kind));
        if (auto i = integral_value(s))
            out = *i;
        else
            d.add(problem_kind::range, "must be an integer");
    }
    static void encode(std::int64_t in, boost::json::value& out) { out = in; }
    static void write(std::int64_t in, text_buffer& out) { write_integer(in, out); }
};

// 32-bit integers and unsigned 64-bit counters (the reference backend's records).
template <>
struct codec<std::int32_t> {
    static void read(const scalar& s, std::int32_t& out, decoder& d) {
        if (!s.is_number()) return d.add(problem_kind::type, detail::expected_but("an integer", s.kind));
        auto i = integral_value(s);
        if (!i) return d.add(problem_kind::range, "must be an integer");
        if (*i < INT32_MIN || *i > INT32_MAX) return d.add(problem_kind::range, "must be a 32-bit integer");
        out = static_cast<std::int32_t>(*i);
    }
    static void encode(std::int32_t in, boost::json::value& out) { out = static_cast<std::int64_t>(in); }
    static void write(std::int32_t in, text_buffer& out) { write_integer(in, out); }
};

template <>
struct codec<std::uint64_t> {
    static void read(const scalar& s, std::uint64_t& out, decoder& d) {
        if (!s.is_number()) return d.add(problem_kind::type, detail::expected_but("an integer", s.kind));
        auto sink = d.sink();
        std::uint64_t value = 0;
        if (s.kind == boost::json::kind::uint64) {
            value = s.uint64;
        } else {
            auto i = integral_value(s);
            if (!i || *i < 0) return refuse(sink);
            value = static_cast<std::uint64_t>(*i);
        }
        if (check(value, sink)) out = value;
    }
    // Read as a signed 64-bit integer, as every integer of the interface is: at most INT64_MAX.
    static bool check(std::uint64_t value, problem_sink& out) {
        if (value <= static_cast<std::uint64_t>(INT64_MAX)) return true;
        refuse(out);
        return false;
    }
    static void encode(std::uint64_t in, boost::json::value& out) { out = in; }
    static void write(std::uint64_t in, text_buffer& out) { write_integer(in, out); }

private:
    static void refuse(problem_sink& out) { out.add(problem_kind::range, "must be an integer of at least 0", 0); }
};

template <>
struct codec<double> {
    static void read(const scalar& s, double& out, decoder& d) {
        if (s.is_number())
            out = s.to_double();
        else
            d.add(problem_kind::type, detail::expected_but("a number", s.kind));
    }
    static void encode(double in, boost::json::value& out) {
        if (is_whole(in))
            out = static_cast<std::int64_t>(in);
        else
            out = in;
    }
    static void write(double in, text_buffer& out) {
        if (is_whole(in)) return write_integer(static_cast<std::int64_t>(in), out);
        write_double(in, out);
    }

private:
    // Whole numbers are written as integers (1, not 1E0): the reader sees what it sent.
    static bool is_whole(double in) { return std::trunc(in) == in && std::fabs(in) < 9007199254740992.0; }
};

template <>
struct codec<std::string> {
    static void read(const scalar& s, std::string& out, decoder& d) { detail::read_string(s, out, d); }
    static void encode(const std::string& in, boost::json::value& out) { out = boost::json::string_view(in); }
    static void write(const std::string& in, text_buffer& out) { write_string(in, out); }
};

template <>
struct codec<boost::json::object> {
    static void decode(const boost::json::value& v, boost::json::object& out, decoder& d) {
        if (v.is_object())
            out = v.get_object();
        else
            d.add(problem_kind::type, detail::expected_but("an object", v.kind()));
    }
    template <class Reader>
    static bool read_direct(Reader& in, boost::json::object& out) {
        boost::json::value v;
        if (!in.dom(v) || !v.is_object()) return false;  // not an object: the decoder says so
        out = std::move(v.get_object());
        return true;
    }
    static void encode(const boost::json::object& in, boost::json::value& out) { out = in; }
};

template <>
struct codec<boost::json::value> {
    static void decode(const boost::json::value& v, boost::json::value& out, decoder&) { out = v; }
    template <class Reader>
    static bool read_direct(Reader& in, boost::json::value& out) {
        return in.dom(out);
    }
    static void encode(const boost::json::value& in, boost::json::value& out) { out = in; }
};

template <std::int64_t Min, std::int64_t Max>
struct codec<ranged<Min, Max>> {
    static void read(const scalar& s, ranged<Min, Max>& out, decoder& d) {
        if (!s.is_number()) return d.add(problem_kind::type, detail::expected_but("an integer", s.kind));
        auto sink = d.sink();
        auto i = integral_value(s);
        if (!i) {
            // A whole number beyond 64 bits is out of range, not "not an integer".
            const double x = s.to_double();
            if (x == std::trunc(x)) {
                ranged<Min, Max>::check_value(x < 0 ? INT64_MIN : INT64_MAX, sink);
                return;
            }
            return d.add(problem_kind::range, "must be an integer");
        }
        if (ranged<Min, Max>::check_value(*i, sink)) out.value = static_cast<std::int32_t>(*i);
    }
    static void encode(ranged<Min, Max> in, boost::json::value& out) { out = static_cast<std::int64_t>(in.value); }
    static void write(ranged<Min, Max> in, text_buffer& out) { write_integer(in.value, out); }
};

template <detail::checked_string T>
struct codec<T> {
    static void read(const scalar& s, T& out, decoder& d) {
        if (!detail::read_string(s, out, d)) return;
        auto sink = d.sink();
        rule_of<T>::check(out, sink);
    }
    static void encode(const T& in, boost::json::value& out) { out = boost::json::string_view(in); }
    static void write(const T& in, text_buffer& out) { write_string(in, out); }
};

template <>
struct codec<scalar_text> {
    // A number read from bytes keeps its text ("2.50"); one from a DOM is written anew.
    static void read(const scalar& s, scalar_text& out, decoder& d) {
        switch (s.kind) {
            case boost::json::kind::string:
                out.assign(s.text);
                return;
            case boost::json::kind::bool_:
                out = s.bool_ ? "true" : "false";
                return;
            case boost::json::kind::int64:
            case boost::json::kind::uint64:
            case boost::json::kind::double_:
                if (!s.text.empty())
                    out.assign(s.text);
                else if (s.kind == boost::json::kind::int64)
                    out = std::to_string(s.int64);
                else if (s.kind == boost::json::kind::uint64)
                    out = std::to_string(s.uint64);
                else
                    out = detail::general_double_text(s.double_);
                return;
            default:
                d.add(problem_kind::type, detail::expected_but("a string, a number or a boolean", s.kind));
        }
    }
    static void encode(const scalar_text& in, boost::json::value& out) { out = boost::json::string_view(in); }
    static void write(const scalar_text& in, text_buffer& out) { write_string(in, out); }
};

// ---- Containers: read as their contents arrive.

template <class T>
struct codec<std::optional<T>> {
    // Present: a value (an absent member is reset by the struct that holds it). A value already
    // there is read into, so that its memory is reused (json::read_into).
    static void read_scalar(void* target, const scalar& s, decoder& d) {
        reader_for<T>.scalar(&detail::value_in(*static_cast<std::optional<T>*>(target)), s, d);
    }
    static const detail::container_reader* read_container(void*& target, bool is_array, decoder& d) {
        target = &detail::value_in(*static_cast<std::optional<T>*>(target));
        return reader_for<T>.begin(target, is_array, d);
    }
    template <class Reader>
    static bool read_direct(Reader& in, std::optional<T>& out) {
        return in.value(detail::value_in(out));
    }
    static void encode(const std::optional<T>& in, boost::json::value& out) {
        if (in)
            encode_value(*in, out);
        else
            out = nullptr;
    }
    static void write(const std::optional<T>& in, text_buffer& out) {
        if (in)
            write_value(*in, out);
        else
            out.append("null");
    }
};

template <class T>
struct codec<nullable<T>> {
    static void read_scalar(void* target, const scalar& s, decoder& d) {
        auto& out = *static_cast<nullable<T>*>(target);
        if (s.kind == boost::json::kind::null) return out.reset();
        reader_for<T>.scalar(&detail::value_in(out), s, d);
    }
    static const detail::container_reader* read_container(void*& target, bool is_array, decoder& d) {
        target = &detail::value_in(*static_cast<nullable<T>*>(target));
        return reader_for<T>.begin(target, is_array, d);
    }
    template <class Reader>
    static bool read_direct(Reader& in, nullable<T>& out) {
        if (in.null()) {
            out.reset();
            return true;
        }
        return in.value(detail::value_in(out));
    }
    static void encode(const nullable<T>& in, boost::json::value& out) {
        if (in)
            encode_value(*in, out);
        else
            out = nullptr;
    }
    static void write(const nullable<T>& in, text_buffer& out) {
        if (in)
            write_value(*in, out);
        else
            out.append("null");
    }
};

namespace detail {
// std::vector<T> and bounded_vector<T, Min, Max>: items are read in place, one after another.
// The items beyond a bounded_vector's maximum are not stored nor read: they are only parsed
// (well-formedness, depth) and walked for duplicate member names, like an unknown member's
// value, and the array's size is one problem, "must have at most Max items" (contract.md §6.7).
template <class Vector>
struct vector_codec {
    using item_type = typename Vector::value_type;
    // Room for every item where the limit is small (1 to 50 recipients), else for a few.
    static constexpr std::size_t initial_capacity = [] {
        if constexpr (requires { Vector::max_size; })
            return Vector::max_size <= 64 ? Vector::max_size : 8;
        else
            return 8;
    }();
    static_assert(!std::is_same_v<item_type, bool>, "std::vector<bool> has no addressable items");

    static void read_scalar(void*, const scalar& s, decoder& d) {
        d.add(problem_kind::type, expected_but("an array", s.kind));
    }
    static const container_reader* read_container(void*& target, bool is_array, decoder& d) {
        if (!is_array) {
            d.add(problem_kind::type, expected_but("an array", boost::json::kind::object));
            return nullptr;
        }
        // The items already there are read into (json::read_into reuses their memory); those
        // beyond the array's are erased when it ends.
        static_cast<Vector*>(target)->reserve(initial_capacity);  // fewer moves of items as it grows
        return &items;
    }
    // json::read's direct reader: gives up at an item beyond the maximum, or short of the minimum.
    template <class Reader>
    static bool read_direct(Reader& in, Vector& out) {
        out.reserve(initial_capacity);
        std::size_t n = 0;
        const bool read = in.array([&] {
            if constexpr (requires { Vector::max_size; }) {
                if (n == Vector::max_size) return false;
            }
            if (n == out.size()) out.emplace_back();
            return in.value(out[n++]);
        });
        if (!read) return false;
        if (out.size() > n) out.erase(out.begin() + static_cast<std::ptrdiff_t>(n), out.end());
        if constexpr (requires { Vector::min_size; })
            return n >= Vector::min_size;
        else
            return true;
    }
    static void encode(const Vector& in, boost::json::value& out) {
        auto& array = out.emplace_array();
        array.reserve(in.size());
        for (const auto& item : in) encode_value(item, array.emplace_back(nullptr));
    }
    static void write(const Vector& in, text_buffer& out) {
        out.put('[');
        bool first = true;
        for (const auto& item : in) {
            if (!std::exchange(first, false)) out.put(',');
            write_value(item, out);
        }
        out.put(']');
    }

private:
    static slot item(frame& f, decoder&) {
        if constexpr (requires { Vector::max_size; }) {
            if (f.items > Vector::max_size) return {};  // f.items counts this one
        }
        auto& out = *static_cast<Vector*>(f.target);
        if (f.items <= out.size()) return slot_for(out[f.items - 1]);
        out.emplace_back();
        return slot_for(out.back());
    }
    static void end(frame& f, decoder& d) {
        auto& out = *static_cast<Vector*>(f.target);
        if (out.size() > f.items) out.erase(out.begin() + static_cast<std::ptrdiff_t>(f.items), out.end());
        if constexpr (requires { Vector::max_size; }) {
            auto sink = d.sink();
            Vector::check_size(f.items, sink);  // more than are stored when beyond the maximum
        }
    }
    static constexpr container_reader items{nullptr, &item, &end};
};
}  // namespace detail

template <class T>
struct codec<std::vector<T>> : detail::vector_codec<std::vector<T>> {};

template <class T, std::size_t Min, std::size_t Max>
struct codec<bounded_vector<T, Min, Max>> : detail::vector_codec<bounded_vector<T, Min, Max>> {};

template <class T>
struct codec<std::map<std::string, T>> {
    static void read_scalar(void*, const scalar& s, decoder& d) {
        d.add(problem_kind::type, detail::expected_but("an object", s.kind));
    }
    static const detail::container_reader* read_container(void*& target, bool is_array, decoder& d) {
        if (is_array) {
            d.add(problem_kind::type, detail::expected_but("an object", boost::json::kind::array));
            return nullptr;
        }
        static_cast<std::map<std::string, T>*>(target)->clear();
        return &members;
    }
    template <class Reader>
    static bool read_direct(Reader& in, std::map<std::string, T>& out) {
        out.clear();
        return in.object([&](std::string_view key) {
            auto [it, inserted] = out.try_emplace(std::string(key));
            return inserted && in.value(it->second);
        });
    }
    static void encode(const std::map<std::string, T>& in, boost::json::value& out) {
        auto& object = out.emplace_object();
        for (const auto& [key, item] : in) encode_value(item, object[key]);
    }
    static void write(const std::map<std::string, T>& in, text_buffer& out) {
        out.put('{');
        bool first = true;
        for (const auto& [key, item] : in) {
            if (!std::exchange(first, false)) out.put(',');
            write_string(key, out);
            out.put(':');
            write_value(item, out);
        }
        out.put('}');
    }

private:
    static detail::slot member(detail::frame& f, std::string_view key, decoder& d) {
        f.enter_key(key);
        auto [it, inserted] = static_cast<std::map<std::string, T>*>(f.target)->try_emplace(std::string(key));
        if (!inserted) {
            d.add_duplicate();
            return {};
        }
        return slot_for(it->second);
    }
    static void end(detail::frame&, decoder&) {}
    static constexpr detail::container_reader members{&member, nullptr, &end};
};

}  // namespace esign::json
