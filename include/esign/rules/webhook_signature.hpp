// SPDX-License-Identifier: BSL-1.0
#pragma once
// The signature of a webhook delivery (contract.md §3, "Webhooks"), made by the reference server
// (examples/reference_server/webhook_sender.hpp) and checked by a receiver
// (esign/client/webhook_receiver.hpp):
//
//   X-Webhook-Signature: t=<ms>,v1=<lowercase hex HMAC-SHA256(secret, "t:<ms>:<raw body>")>
//
// <ms> is the sender's clock at signing (Unix time in milliseconds); the raw body is the bytes
// sent (for application/x-www-form-urlencoded, `payload=<encoded JSON>` as a whole).
//
// Needs OpenSSL (libcrypto): not included by esign/esign.hpp.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <openssl/evp.h>
#include <openssl/hmac.h>

namespace esign::rules {

inline constexpr std::string_view webhook_signature_header = "X-Webhook-Signature";

// Lowercase hex of HMAC-SHA256 keyed by `key` over `message`. Throws std::runtime_error only if
// OpenSSL fails (out of memory).
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
    out.reserve(std::size_t{length} * 2);
    for (unsigned int i = 0; i < length; ++i) {
        out += hex[digest[i] >> 4];
        out += hex[digest[i] & 0x0F];
    }
    return out;
}

// v1 of a signature: the hex HMAC of `body` signed at `unix_ms`.
inline std::string webhook_signature_v1(std::string_view secret, std::int64_t unix_ms, std::string_view body) {
    const std::string t = std::to_string(unix_ms);
    std::string message;
    message.reserve(t.size() + body.size() + 3);
    message += "t:";
    message += t;
    message += ':';
    message += body;
    return hmac_sha256_hex(secret, message);
}

// The value of X-Webhook-Signature for `body` signed at `unix_ms`.
inline std::string webhook_signature(std::string_view secret, std::int64_t unix_ms, std::string_view body) {
    return "t=" + std::to_string(unix_ms) + ",v1=" + webhook_signature_v1(secret, unix_ms, body);
}

// A header value taken apart: its time and every v1 (a sender rotating its secret may send
// several). Other schemes (`v0=...`) are skipped, as they would be by a receiver that does not
// know them.
struct webhook_signature_parts {
    std::int64_t unix_ms = 0;
    std::vector<std::string_view> v1;  // views into the header value
};

// nullopt unless the value is comma-separated `key=value` items (spaces around them allowed)
// with exactly one `t` (decimal digits, at most 18) and at least one `v1` (64 hex digits).
inline std::optional<webhook_signature_parts> parse_webhook_signature(std::string_view value) {
    webhook_signature_parts out;
    bool has_t = false;
    while (true) {
        const std::size_t comma = value.find(',');
        std::string_view item = value.substr(0, comma);
        while (!item.empty() && (item.front() == ' ' || item.front() == '\t')) item.remove_prefix(1);
        while (!item.empty() && (item.back() == ' ' || item.back() == '\t')) item.remove_suffix(1);
        const std::size_t eq = item.find('=');
        if (eq == std::string_view::npos || eq == 0) return std::nullopt;
        const std::string_view key = item.substr(0, eq);
        const std::string_view v = item.substr(eq + 1);
        if (key == "t") {
            if (has_t || v.empty() || v.size() > 18) return std::nullopt;
            std::int64_t ms = 0;
            for (char c : v) {
                if (c < '0' || c > '9') return std::nullopt;
                ms = ms * 10 + (c - '0');
            }
            out.unix_ms = ms;
            has_t = true;
        } else if (key == "v1") {
            if (v.size() != 64) return std::nullopt;
            for (char c : v)
                if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) return std::nullopt;
            out.v1.push_back(v);
        }
        if (comma == std::string_view::npos) break;
        value.remove_prefix(comma + 1);
    }
    if (!has_t || out.v1.empty()) return std::nullopt;
    return out;
}

}  // namespace esign::rules
