// SPDX-License-Identifier: BSL-1.0
#pragma once
// Decoding a request: from bytes, or from a boost::json::value you already have, into a
// typed value, or the list of every problem found, each at its path.
#include <string_view>

#include <esign/json/codecs.hpp>
#include <esign/json/described.hpp>
#include <esign/json/detail/direct_reader.hpp>
#include <esign/json/detail/dom_walk.hpp>
#include <esign/json/parse.hpp>

namespace esign::json {

// Reads `v` into `out` with decoder `d`, which collects the problems (for a caller that
// wants to keep the decoder, or decode into an existing value: its memory is reused, and without
// problems it holds what `decode` gives; see read_into for why problems may differ).
template <codable T>
void decode_value(const boost::json::value& v, T& out, decoder& d) {
    d.start(slot_for(out));
    detail::walk(v, d);
}

template <codable T>
result<T> decode(const boost::json::value& v, decode_options options = {}) {
    decoder d(options);
    T out{};
    decode_value(v, out, d);
    if (d.problem_count() != 0) return std::move(d.problems());
    return out;
}

namespace detail {
// The first try of read and read_into: true when `bytes`, which have no problem, were read into
// `out` by the direct reader (detail/direct_reader.hpp); false when it gave up, leaving `out`
// valid but unspecified.
template <codable T>
bool read_direct(std::string_view bytes, T& out, decode_options options, parse_limits limits) {
    decoder d(options);
    return direct_reader(bytes, d, limits.max_depth).read_body(out);
}

// The decoding of `bytes` into `out` that read and read_into share: every problem, or none.
template <codable T>
result<void> read_events(std::string_view bytes, T& out, decode_options options, parse_limits limits) {
    decoder d(options);
    d.start(slot_for(out));
    if (auto bad = parse_events(bytes, d, limits)) return problem_list{std::move(*bad)};
    if (d.problem_count() != 0) return std::move(d.problems());
    return {};
}
}  // namespace detail

// `read` (below) into a value you keep, e.g. one per thread: the strings, vectors and optionals
// already in it are read into, so their memory is reused, and a value read again and again
// allocates only where a body holds more than it held. On success `out` is what `read` gives; on
// failure, the problems are those `read` gives and `out` holds a valid but unspecified value.
template <codable T>
result<void> read_into(std::string_view bytes, T& out, decode_options options = {}, parse_limits limits = {}) {
    if (detail::read_direct(bytes, out, options, limits)) return {};
    if (auto r = detail::read_events(bytes, out, options, limits)) return r;
    // Refused: read again into a new value, so that the problems are exactly read's. (A refused
    // member keeps what it held before, and a rule across members could judge by it; until the
    // first problem, the value read into and a new one hold the same.)
    out = T{};
    return detail::read_events(bytes, out, options, limits);
}

// `read` is to `decode` what boost::json::parse is to value_to: it starts from bytes. It
// checks while it parses, straight into the typed value: no boost::json::value is built.
template <codable T>
result<T> read(std::string_view bytes, decode_options options = {}, parse_limits limits = {}) {
    T out{};
    if (detail::read_direct(bytes, out, options, limits)) return out;
    out = T{};  // the decoder finds the problems, as it finds them in a new value
    if (auto r = detail::read_events(bytes, out, options, limits); !r) return std::move(r).take_problems();
    return out;
}

}  // namespace esign::json
