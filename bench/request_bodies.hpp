// SPDX-License-Identifier: BSL-1.0
#pragma once
// The request bodies the decoding benchmarks read (decode_alternatives.cpp, ab/ab_decode.cpp):
// add-recipients with `count` recipients (valid up to 50), and add-blocks of about a given size
// (blocks have no upper bound: every size is valid).
#include <algorithm>
#include <cstddef>
#include <string>

#include <fmt/format.h>

namespace esign_bench {

inline constexpr const char* envelope_uuid = "0b1e6c1e-8f0a-4d36-9a57-2f2c4a3c9d11";
inline constexpr const char* document_uuid = "5a0c1d2e-3f40-4b5c-8d6e-7f8091a2b3c4";

inline std::string recipient(std::size_t i) {
    return fmt::format(R"({{"type":"manual","email":"signer.number{}@example.com","firstname":"Firstname{}",)"
                       R"("lastname":"Lastname-{}","language":"fr","verificationType":"{}"{}}})",
                       i, i, i, i % 3 == 0 ? "sms" : "email", i % 3 == 0 ? R"(,"phone":"+33612345678")" : "");
}

inline std::string add_recipients_body(std::size_t count) {
    std::string body = fmt::format(R"({{"envelopeUuid":"{}","recipients":[)", envelope_uuid);
    for (std::size_t i = 0; i < count; ++i) {
        if (i) body += ',';
        body += recipient(i);
    }
    return body + "]}";
}

inline std::string block(std::size_t i) {
    return fmt::format(R"({{"page":"{}","x":{}.25,"y":{}.5,"width":120,"height":24.5,)"
                       R"("recipientEmail":"signer.{}@example.com","required":{},"type":"text","text":"Field {}"}})",
                       1 + i % 12, 40 + i % 400, 100 + 3 * (i % 200), i % 50, i % 2 ? "true" : "false", i);
}

// An add-blocks body of about `bytes` bytes (at least one block).
inline std::string add_blocks_of_size(std::size_t bytes) {
    std::string body =
        fmt::format(R"({{"envelopeUuid":"{}","documentUuid":"{}","blocks":[)", envelope_uuid, document_uuid);
    const std::size_t head = body.size() + 2;
    for (std::size_t i = 0; i == 0 || body.size() + block(i).size() + 1 + 2 <= std::max(bytes, head); ++i) {
        if (i) body += ',';
        body += block(i);
    }
    return body + "]}";
}

}  // namespace esign_bench
