// SPDX-License-Identifier: BSL-1.0
// Fuzzing the encoder, and esign::check against the decoder.
//
// Input: byte 0 picks the operation (mod operation_count) and, by data[0] / operation_count mod
// 4, what is built from the remaining bytes (the generator of value_generator.hpp):
//   0: a valid RESPONSE value: encode it, decode it back (decode<T> from the boost::json::value,
//      and read<T> from the written text, strict mode both ways), and compare the re-encoded
//      JSON; and esign::check finds nothing in it;
//   1: a response value with invalid values in it (too long strings, bad e-mails, enumerators
//      outside their enum, NaN, bytes that are not UTF-8, ...);
//   2: a REQUEST value from the generator of valid values (its rules across members may fail);
//   3: a request value with invalid values in it.
// In every mode: esign::check(value) gives exactly the problems of json::read<T>(json::write(value))
// (esign_fuzz::check_against_read: where write gives no JSON, check says so at the value's path
// and read gives one syntax problem).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <boost/json/serialize.hpp>

#include <esign/json/check.hpp>
#include <esign/json/decode.hpp>
#include <esign/json/encode.hpp>
#include <esign/model/operations.hpp>

#include "check.hpp"
#include "value_generator.hpp"

namespace {

using esign_fuzz::bytes;
using esign_fuzz::fill;

template <class T>
void check_invariant(const T& value, std::string_view what, std::string_view op_path) {
    const std::string mismatch = esign_fuzz::check_against_read(value);
    ESIGN_FUZZ_CHECK(mismatch.empty(), "%.*s %.*s: %s", int(op_path.size()), op_path.data(), int(what.size()),
                     what.data(), mismatch.c_str());
}

template <class T>
void check_response(bytes& b, std::string_view op_path) {
    T value{};
    fill(b, value);
    check_invariant(value, "response", op_path);
    if (b.invalid) return;
    const auto found = esign::check(value);
    ESIGN_FUZZ_CHECK(found.has_value(), "%.*s response: check refuses a valid value: %s", int(op_path.size()),
                     op_path.data(), esign_fuzz::describe(found.problems()).c_str());
    const boost::json::value encoded = esign::json::encode(value);
    const std::string written = esign::json::write(value);
    // write's text comes straight from the value (codec<T>::write): the bytes of the DOM's.
    ESIGN_FUZZ_CHECK(written == boost::json::serialize(encoded), "%.*s response: write gives %s, serialize(encode) %s",
                     int(op_path.size()), op_path.data(), written.c_str(), boost::json::serialize(encoded).c_str());

    esign::json::decode_options strict;
    strict.strict = true;
    for (int route = 0; route < 2; ++route) {
        auto back = route == 0 ? esign::json::decode<T>(encoded, strict) : esign::json::read<T>(written, strict);
        if (!back) {
            const auto& p = back.problems().front();
            std::string path;
            for (const auto& s : p.path) path += "/" + s;
            ESIGN_FUZZ_CHECK(back.has_value(), "%.*s response: %s refuses its own encoding: %s at '%s': %s; JSON: %s",
                             int(op_path.size()), op_path.data(), route == 0 ? "decode" : "read",
                             esign::enum_to_wire(p.kind).data(), path.c_str(), p.message.c_str(), written.c_str());
        }
        const boost::json::value again = esign::json::encode(*back);
        // decode<T> from the value must give it back exactly; through text, doubles may move
        // by an ulp (Boost 1.81's parser is not correctly rounded, see check.hpp).
        const bool same = route == 0 ? again == encoded : esign_fuzz::near_equal(again, encoded);
        ESIGN_FUZZ_CHECK(same, "%.*s response: %s round trip changed %s into %s", int(op_path.size()), op_path.data(),
                         route == 0 ? "decode" : "read", written.c_str(), boost::json::serialize(again).c_str());
    }
}

template <class T>
void check_request(bytes& b, std::string_view op_path) {
    T value{};
    fill(b, value);
    check_invariant(value, "request", op_path);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return -1;
    const std::size_t index = data[0] % esign::operation_count;
    const std::size_t mode = data[0] / esign::operation_count % 4;
    bytes b{data + 1, size - 1};
    b.invalid = mode % 2 == 1;
    std::size_t i = 0;
    esign::for_each_operation([&](const auto& op) {
        if (i++ != index) return;
        using operation = std::remove_cvref_t<decltype(op)>;
        if (mode < 2)
            check_response<typename operation::response_type>(b, op.path);
        else
            check_request<typename operation::request_type>(b, op.path);
    });
    return 0;
}

#include "replay_main.hpp"
