// SPDX-License-Identifier: BSL-1.0
#pragma once
// Decoding a request: from bytes, or from a boost::json::value you already have, into a
// typed value, or the list of every problem found, each at its path.
#include <string_view>

#include <esign/json/codecs.hpp>
#include <esign/json/described.hpp>
#include <esign/json/detail/dom_walk.hpp>
#include <esign/json/parse.hpp>

namespace esign::json {

// Reads `v` into `out` with decoder `d`, which collects the problems (for a caller that
// wants to keep the decoder, or decode into an existing value).
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

// `read` is to `decode` what boost::json::parse is to value_to: it starts from bytes. It
// checks while it parses, straight into the typed value: no boost::json::value is built.
template <codable T>
result<T> read(std::string_view bytes, decode_options options = {}, parse_limits limits = {}) {
    decoder d(options);
    T out{};
    d.start(slot_for(out));
    if (auto bad = parse_events(bytes, d, limits)) return problem_list{std::move(*bad)};
    if (d.problem_count() != 0) return std::move(d.problems());
    return out;
}

}  // namespace esign::json
