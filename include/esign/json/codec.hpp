// SPDX-License-Identifier: BSL-1.0
#pragma once
// The extension point of the JSON layer: codec<T> says how one C++ type is read and
// written. Specialize esign::json::codec for your own types, as you would fmt::formatter,
// with `encode` and one of the two ways to read:
//
//   static void read(const scalar&, T&, decoder&);                // a string, number, boolean or null
//   static void decode(const boost::json::value&, T&, decoder&);  // any value, as a DOM
//   static void encode(const T&, boost::json::value&);
//   static void check(const T&, problem_sink&);                   // optional: the rules of a T
//   static void write(const T&, std::string& out);                // optional: the text, appended
//   static boost::json::object schema(auto& context);             // optional: its JSON Schema
//
// A reader adds every problem it finds with decoder::add (at the current path) and never
// throws. `read` is called straight from the parser's events; `decode` gets the value built
// first.
//
// `check` (optional) holds the rules a value of T must follow once it is a T (a length, a
// pattern, a range), so that the two ways of judging a value share them: the reader calls it
// once it has the value (`auto sink = d.sink(); check(out, sink);`), and esign::check
// (json/check.hpp) calls it on a value built in code. It adds each problem with
// `out.add(kind, message, limit)`, at the value's own path, which the sink knows; it may return
// bool (whether the rules hold), which esign::check ignores. A codec without `check` has no
// rules: esign::check accepts every value of its type. For the rules across members of a
// struct, esign::check takes a value whose check finds a problem to be one that the reader
// does not keep (the member keeps what it held), unless T derives from std::string (a reader
// keeps a string that breaks its rules); see json/check.hpp.
//
// `write` (optional) appends the value's JSON text straight from the value, the same bytes
// `encode` and boost::json::serialize give (write_string, write_integer help); json::write uses
// it, and a codec without it is written through its `encode`.
//
// `schema` (optional) gives the type's JSON Schema for esign::schema::json_schema
// (schema/json_schema.hpp; `context` is its schema_context, `context.use<U>()` the schema of a
// type U it holds), so that a new type is described in this one place.
//
// Containers (described structs, std::optional, nullable, std::vector, bounded_vector,
// std::map<std::string, T>) read their contents as they arrive, through a third form that
// esign's own codecs use:
//
//   static void read_scalar(void* target, const scalar&, decoder&);
//   static const detail::container_reader* read_container(void*& target, bool is_array, decoder&);
#include <algorithm>
#include <charconv>
#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>

#include <boost/json/monotonic_resource.hpp>
#include <boost/json/serializer.hpp>
#include <boost/json/value.hpp>

#include <esign/json/decoder.hpp>
#include <esign/json/scalar.hpp>

namespace esign::json {

// Primary template: a type without a codec is a compile error naming it.
template <class T, class Enable = void>
struct codec;

template <class T>
concept codable = requires {
    sizeof(codec<T>);
};

// A codec that reads scalars as they are parsed.
template <class T>
concept scalar_codec = requires(const scalar& s, T& out, decoder& d) {
    codec<T>::read(s, out, d);
};

// A codec that reads a whole boost::json::value.
template <class T>
concept value_codec = requires(const boost::json::value& v, T& out, decoder& d) {
    codec<T>::decode(v, out, d);
};

// A codec with rules of its own on a value (`check`).
template <class T>
concept checking_codec = requires(const T& value, problem_sink& out) {
    codec<T>::check(value, out);
};

// A codec that reads a container's contents as they arrive.
template <class T>
concept container_codec = requires(void*& target, const scalar& s, decoder& d) {
    codec<T>::read_scalar(target, s, d);
    { codec<T>::read_container(target, true, d) } -> std::same_as<const detail::container_reader*>;
};

namespace detail {
template <class T>
void read_scalar(void* target, const scalar& s, decoder& d) {
    codec<T>::read(s, *static_cast<T*>(target), d);
}
// A container where a scalar codec's type is expected: the codec words the problem.
template <class T>
const container_reader* refuse_container(void*& target, bool is_array, decoder& d) {
    codec<T>::read(scalar::container(is_array ? boost::json::kind::array : boost::json::kind::object),
                   *static_cast<T*>(target), d);
    return nullptr;
}
template <class T>
void decode_scalar(void* target, const scalar& s, decoder& d) {
    codec<T>::decode(s.to_value(), *static_cast<T*>(target), d);
}
template <class T>
void decode_captured(void* target, const boost::json::value& v, decoder& d) {
    codec<T>::decode(v, *static_cast<T*>(target), d);
}
template <class T>
const container_reader* capture_container(void*& target, bool is_array, decoder& d) {
    d.begin_capture(target, &decode_captured<T>, is_array);
    return nullptr;
}
template <class T>
consteval value_reader reader_of() {
    if constexpr (scalar_codec<T>)
        return {&read_scalar<T>, &refuse_container<T>};
    else if constexpr (value_codec<T>)
        return {&decode_scalar<T>, &capture_container<T>};
    else {
        static_assert(container_codec<T>, "codec<T> needs read, decode, or read_scalar and read_container");
        return {&codec<T>::read_scalar, &codec<T>::read_container};
    }
}
}  // namespace detail

// How a value of type T is read: its codec, as the decoder calls it.
template <class T>
inline constexpr detail::value_reader reader_for = detail::reader_of<T>();

template <class T>
detail::slot slot_for(T& target) noexcept {
    return {&target, &reader_for<T>};
}

template <class T>
void encode_value(const T& in, boost::json::value& out) {
    codec<T>::encode(in, out);
}

// A codec that writes its text itself (`write`).
template <class T>
concept text_codec = requires(const T& in, std::string& out) {
    codec<T>::write(in, out);
};

namespace detail {
// Appends all that `serializer` has to give.
inline void append_serialized(boost::json::serializer& serializer, std::string& out) {
    char buffer[512];
    while (!serializer.done()) {
        const auto part = serializer.read(buffer);
        out.append(part.data(), part.size());
    }
}
}  // namespace detail

// A string as JSON: the bytes serialize gives. Boost.JSON escapes the control characters, '"'
// and '\\' only (its serializer's table), so a string without them is copied as it is; one with
// them goes through Boost.JSON's serializer.
inline void write_string(std::string_view in, std::string& out) {
    const bool verbatim = std::none_of(
        in.begin(), in.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == '"' || c == '\\'; });
    if (verbatim) {
        out += '"';
        out += in;
        out += '"';
        return;
    }
    boost::json::serializer serializer;
    serializer.reset(boost::json::string_view(in.data(), in.size()));
    detail::append_serialized(serializer, out);
}

// An integer in decimal, as serialize writes it.
template <std::integral I>
void write_integer(I in, std::string& out) {
    char buffer[24];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, in).ptr;
    out.append(buffer, end);
}

// Appends the JSON text of `in`: through its codec's `write`, or else its `encode` into a DOM
// that lives in a buffer of this call.
template <class T>
void write_value(const T& in, std::string& out) {
    if constexpr (text_codec<T>) {
        codec<T>::write(in, out);
    } else {
        unsigned char buffer[1024];
        boost::json::monotonic_resource scratch(buffer, sizeof buffer);
        boost::json::value dom(&scratch);
        codec<T>::encode(in, dom);
        boost::json::serializer serializer;
        serializer.reset(&dom);
        detail::append_serialized(serializer, out);
    }
}

}  // namespace esign::json
