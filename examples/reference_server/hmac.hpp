// SPDX-License-Identifier: BSL-1.0
#pragma once
// HMAC-SHA256 (OpenSSL) and the webhook signature header (contract.md §3, "Webhooks"):
//   X-Webhook-Signature: t=<ms>,v1=<lowercase hex HMAC-SHA256(secret, "t:<ms>:<raw body>")>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include <openssl/evp.h>
#include <openssl/hmac.h>

namespace esign::server {

// Lowercase hex of HMAC-SHA256 keyed by `key` over `message`.
inline std::string hmac_sha256_hex(std::string_view key, std::string_view message) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    // A key of length 0 still needs a non-null pointer for some OpenSSL versions.
    static const unsigned char empty = 0;
    const void* key_data = key.empty() ? static_cast<const void*>(&empty) : static_cast<const void*>(key.data());
    if (HMAC(EVP_sha256(), key_data, static_cast<int>(key.size()),
             reinterpret_cast<const unsigned char*>(message.data()), message.size(), digest, &length) == nullptr)
        throw std::runtime_error("HMAC-SHA256 failed");
    static constexpr char hex[] = "0123456789abcdef";
    std::string out;
    out.reserve(length * 2);
    for (unsigned int i = 0; i < length; ++i) {
        out += hex[digest[i] >> 4];
        out += hex[digest[i] & 0x0F];
    }
    return out;
}

// The value of X-Webhook-Signature for `body` signed at `unix_ms`.
inline std::string webhook_signature(std::string_view secret, std::int64_t unix_ms, std::string_view body) {
    const std::string t = std::to_string(unix_ms);
    std::string message;
    message.reserve(t.size() + body.size() + 3);
    message += "t:";
    message += t;
    message += ':';
    message += body;
    return "t=" + t + ",v1=" + hmac_sha256_hex(secret, message);
}

}  // namespace esign::server
