// SPDX-License-Identifier: BSL-1.0
#pragma once
// Encoding a typed value: absent optionals are left out, nullables are written as null.
#include <string>

#include <boost/json/serialize.hpp>

#include <esign/json/codecs.hpp>
#include <esign/json/described.hpp>

namespace esign::json {

template <codable T>
boost::json::value encode(const T& in) {
    boost::json::value out;
    encode_value(in, out);
    return out;
}

template <codable T>
std::string write(const T& in) {
    return boost::json::serialize(encode(in));
}

}  // namespace esign::json
