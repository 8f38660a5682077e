// SPDX-License-Identifier: BSL-1.0
#pragma once
// Encoding a typed value: absent optionals are left out, nullables are written as null.
#include <string>
#include <utility>

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

// The value's JSON text: written straight from the value by the codecs that can (`write`),
// through a DOM in a buffer of the call for the others; the bytes boost::json::serialize gives
// for encode(in). Only the text itself takes memory from the heap, so writing costs the same
// however large and fragmented the heap is (a reference backend holding a million envelopes).
template <codable T>
std::string write(const T& in) {
    std::string out;
    write_value(in, out);
    return out;
}

}  // namespace esign::json
