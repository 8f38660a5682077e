// SPDX-License-Identifier: BSL-1.0
#pragma once
// The input of the harnesses that decode requests: byte 0 picks the operation (its index in the
// table, modulo the number of operations), byte 1 strict mode (its low bit), the rest is the body.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <esign/model/operations.hpp>

namespace esign::fuzz {

// Calls check(op, body, strict) with the operation the input names; -1 (not kept in the corpus)
// for an input too short to name one.
template <class Check>
int with_request_input(const std::uint8_t* data, std::size_t size, Check&& check) {
    if (size < 2) return -1;
    const std::size_t index = data[0] % operation_count;
    const bool strict = (data[1] & 1) != 0;
    const std::string_view body(reinterpret_cast<const char*>(data + 2), size - 2);
    std::size_t i = 0;
    for_each_operation([&](const auto& op) {
        if (i++ == index) check(op, body, strict);
    });
    return 0;
}

}  // namespace esign::fuzz
