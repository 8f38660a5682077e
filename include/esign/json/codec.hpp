// SPDX-License-Identifier: BSL-1.0
#pragma once
// The extension point of the JSON layer: codec<T> says how one C++ type is read and
// written. Specialize esign::json::codec for your own types, as you would fmt::formatter,
// with `encode` and one of the two ways to read:
//
//   static void read(const scalar&, T&, decoder&);                // a string, number, boolean or null
//   static void decode(const boost::json::value&, T&, decoder&);  // any value, as a DOM
//   static void encode(const T&, boost::json::value&);
//   static void check(const T&, problem_sink&);                   // optional: rules beyond the type's
//   static void write(const T&, text_buffer& out);                // optional: the text, appended
//   static boost::json::object schema(auto& context);             // optional: its JSON Schema
//
// A reader adds every problem it finds with decoder::add (at the current path) and never
// throws. `read` is called straight from the parser's events; `decode` gets the value built
// first.
//
// `check` (optional) holds rules a value of T must follow that its type cannot state itself (a
// type of another library without a rule_of<T>; an unsigned counter that JSON reads as a signed
// 64-bit integer). A type's own rule is better stated with the type (validation/rule.hpp): the
// codec of a string type with a rule is given (json/codecs.hpp), and esign::check judges it with
// or without JSON. A codec's `check` is called by esign::check where json/check.hpp is included,
// after the type's rule, and by the codec's reader where it chooses (`auto sink = d.sink();
// check(out, sink);`). It adds each problem with `out.add(kind, message, limit)`, at the value's
// own path, which the sink knows; it may return bool (whether the rules hold). For the rules
// across members of a struct, esign::check takes a value whose check finds a problem to be one
// that the reader does not keep (the member keeps what it held), unless T derives from
// std::string (a reader keeps a string that breaks its rules); see json/check.hpp.
//
// `write` (optional) appends the value's JSON text straight from the value, the same bytes
// `encode` and boost::json::serialize give (text_buffer's append and put, write_string,
// write_integer and write_double help: json/text_buffer.hpp); json::write uses it, and a codec
// without it is written through its `encode`.
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
//
// and, to be read by json::read's direct reader (json/detail/direct_reader.hpp, which reads a
// body without a problem by recursive descent and gives up at the first one), with
//
//   template <class Reader> static bool read_direct(Reader& in, T& out);  // false: give up
//
// A codec with `read` takes part without it; a container codec without it makes the direct
// reader give up on every body that holds its type (the decoder then reads them, as before).
#include <concepts>
#include <cstddef>
#include <string>

#include <boost/json/monotonic_resource.hpp>
#include <boost/json/value.hpp>

#include <esign/json/decoder.hpp>
#include <esign/json/scalar.hpp>
#include <esign/json/text_buffer.hpp>

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
concept text_codec = requires(const T& in, text_buffer& out) {
    codec<T>::write(in, out);
};

namespace detail {
// A `write` of the shape codecs had before text_buffer: it would be passed over without a word.
template <class T>
concept writes_to_std_string = requires(const T& in, std::string& out) {
    codec<T>::write(in, out);
};
}  // namespace detail

// Appends the JSON text of `in`: through its codec's `write`, or else its `encode` into a DOM
// that lives in a buffer of this call.
template <class T>
void write_value(const T& in, text_buffer& out) {
    static_assert(text_codec<T> || !detail::writes_to_std_string<T>,
                  "codec<T>::write appends to a json::text_buffer& (codec.hpp), not a std::string&");
    if constexpr (text_codec<T>) {
        codec<T>::write(in, out);
    } else {
        unsigned char buffer[1024];
        boost::json::monotonic_resource scratch(buffer, sizeof buffer);
        boost::json::value dom(&scratch);
        codec<T>::encode(in, dom);
        detail::write_serialized(&static_cast<const boost::json::value&>(dom), out);
    }
}

// Appends the JSON text of `in` to `out` (json::write). The text is about as long as the last
// one of its type this thread wrote: room for that is reserved, one allocation and no copy as
// the text grows.
template <class T>
void write_value(const T& in, std::string& out) {
    static thread_local std::size_t expected_size = 0;
    const std::size_t before = out.size();
    out.reserve(before + expected_size);
    {
        text_buffer buffer(out);
        write_value(in, buffer);
    }
    expected_size = out.size() - before;
}

}  // namespace esign::json
