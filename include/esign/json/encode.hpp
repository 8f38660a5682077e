// SPDX-License-Identifier: BSL-1.0
#pragma once
// Encoding a typed value: absent optionals are left out, nullables are written as null.
#include <string>

#include <boost/json/monotonic_resource.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <esign/json/codecs.hpp>
#include <esign/json/described.hpp>

namespace esign::json {

template <codable T>
boost::json::value encode(const T& in) {
    boost::json::value out;
    encode_value(in, out);
    return out;
}

// The tree that `write` builds lives only until it is serialized: its nodes come from one
// arena (a stack buffer, then blocks of growing size), all freed at once.
template <codable T>
std::string write(const T& in) {
    unsigned char first_block[4096];
    boost::json::monotonic_resource arena(first_block, sizeof first_block);
    boost::json::value tree(&arena);
    encode_value(in, tree);
    return boost::json::serialize(tree);
}

}  // namespace esign::json
