// SPDX-License-Identifier: BSL-1.0
#pragma once
// Encoding a typed value: absent optionals are left out, nullables are written as null.
#include <string>

#include <boost/json/monotonic_resource.hpp>
#include <boost/json/serialize.hpp>

#include <esign/json/codecs.hpp>
#include <esign/json/described.hpp>

namespace esign::json {

// The value as a DOM, its memory from `storage` (Boost.JSON's default resource when not given).
template <codable T>
boost::json::value encode(const T& in, boost::json::storage_ptr storage = {}) {
    boost::json::value out(std::move(storage));
    encode_value(in, out);
    return out;
}

// The value's JSON text. The DOM it is written through lives in a buffer of this call (a
// monotonic resource, growing past the buffer when needed), so the text is the only block taken
// from the heap: writing costs the same however large and fragmented the heap is (a reference
// backend holding a million envelopes).
template <codable T>
std::string write(const T& in) {
    unsigned char buffer[4096];
    boost::json::monotonic_resource scratch(buffer, sizeof buffer);
    return boost::json::serialize(encode(in, &scratch));
}

}  // namespace esign::json
