// SPDX-License-Identifier: BSL-1.0
#pragma once
// Receiving webhooks in C++: a delivery's signature checked exactly as the reference server (and
// the hosted service) makes it, its time against the caller's clock, and its body read into the
// typed event (contract.md §3, "Webhooks"; esign/rules/webhook_signature.hpp).
//
//   esign::client::webhook_receiver receiver(secret);               // tolerance: 5 minutes
//   auto event = receiver.verify(raw_body, request["X-Webhook-Signature"],
//                                std::chrono::system_clock::now());
//   if (!event) return reply(400, event.error().message);            // event.error().reason
//   handle(event->eventType, event->data.envelopeUuid);
//
// In order, the first failing check refuses the delivery:
//   1. the header is `t=<ms>,v1=<64 hex>` (more `v1` items, from a sender rotating its secret,
//      and items of other schemes are allowed)                        → malformed_header
//   2. one v1 is HMAC-SHA256(secret, "t:<ms>:<raw body>"), compared in constant time
//                                                                    → bad_signature
//   3. |now - t| is at most the tolerance (a replay of an old delivery, or a clock far off)
//                                                                    → outside_tolerance
//   4. the body (JSON, or the form field `payload=<JSON>` of an application/x-www-form-urlencoded
//      webhook) is an event: esign::json::read's problems, each at its path → invalid_event
// The signature is checked before anything of the body is trusted or parsed.
//
// Errors are values; nothing here throws but std::bad_alloc (and std::runtime_error should
// OpenSSL itself fail). Needs OpenSSL (libcrypto), so esign/esign.hpp does not include it.
// A receiver is immutable: one may be shared by threads.
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include <boost/describe/enum.hpp>
#include <openssl/crypto.h>

#include <esign/json/decode.hpp>
#include <esign/model/webhook_event.hpp>
#include <esign/rules/webhook_signature.hpp>
#include <esign/types/ascii.hpp>
#include <esign/validation/enum_names.hpp>
#include <esign/validation/problem.hpp>
#include <esign/validation/value_or_error.hpp>

namespace esign::client {

enum class webhook_refusal {
    malformed_header,   // no signature, or not `t=<ms>,v1=<hex>`
    bad_signature,      // no v1 is the HMAC of this body with this secret
    outside_tolerance,  // signed too long before (or after) the caller's `now`
    invalid_event,      // signed, but the body is not an event (see problems)
};

BOOST_DESCRIBE_ENUM(webhook_refusal, malformed_header, bad_signature, outside_tolerance, invalid_event)

// The reason's name, as in the enum ("bad_signature"), for logs.
inline constexpr std::string_view to_string(webhook_refusal r) noexcept { return enum_to_wire(r); }

struct webhook_error {
    webhook_refusal reason{};
    std::string message;    // for logs and people
    problem_list problems;  // invalid_event: every problem of the body, at its path
};

// The event, or why the delivery was refused: esign::result's interface, with a typed reason.
class [[nodiscard]] webhook_verification : public value_or_error<webhook_event_payload, webhook_error> {
public:
    using value_or_error<webhook_event_payload, webhook_error>::value_or_error;

    // Only when there is no value.
    const webhook_error& error() const& { return *this->error_if_any(); }
};

inline constexpr std::chrono::milliseconds default_webhook_tolerance = std::chrono::minutes(5);

namespace detail {

// The JSON of a delivery's body: the body itself, or the value of its form field `payload`
// (application/x-www-form-urlencoded: '+' is a space, %XX a byte). A malformed escape is kept
// as it is: the JSON reader then reports what is wrong.
inline std::string event_json(std::string_view body) {
    constexpr std::string_view field = "payload=";
    if (!body.starts_with(field)) return std::string(body);
    body.remove_prefix(field.size());
    body = body.substr(0, body.find('&'));
    std::string out;
    out.reserve(body.size());
    for (std::size_t i = 0; i < body.size(); ++i) {
        const char c = body[i];
        if (c == '+') {
            out += ' ';
        } else if (c == '%' && i + 2 < body.size() && hex_digit_value(body[i + 1]) >= 0 &&
                   hex_digit_value(body[i + 2]) >= 0) {
            out += static_cast<char>(hex_digit_value(body[i + 1]) * 16 + hex_digit_value(body[i + 2]));
            i += 2;
        } else {
            out += c;
        }
    }
    return out;
}

// Whether `given` (64 hex digits, either case) is `expected` (64 lowercase hex digits), in time
// that does not depend on where they differ.
inline bool same_digest(std::string_view given, const std::string& expected) {
    if (given.size() != expected.size()) return false;
    std::string lower(given);
    for (char& c : lower)
        if (c >= 'A' && c <= 'F') c = static_cast<char>(c - 'A' + 'a');
    return CRYPTO_memcmp(lower.data(), expected.data(), expected.size()) == 0;
}

}  // namespace detail

// Checks one delivery: `raw_body` as received (before any parsing), `signature` the value of its
// X-Webhook-Signature header (empty when it had none), `secret` the webhook's, `now` the
// receiver's clock.
inline webhook_verification verify_webhook(std::string_view raw_body, std::string_view signature,
                                           std::string_view secret, std::chrono::system_clock::time_point now,
                                           std::chrono::milliseconds tolerance = default_webhook_tolerance) {
    const auto parts = rules::parse_webhook_signature(signature);
    if (!parts)
        return webhook_error{
            webhook_refusal::malformed_header,
            signature.empty() ? "no X-Webhook-Signature" : "X-Webhook-Signature is not t=<ms>,v1=<hex>",
            {}};
    const std::string expected = rules::webhook_signature_v1(secret, parts->unix_ms, raw_body);
    bool matched = false;
    for (std::string_view v1 : parts->v1) matched |= detail::same_digest(v1, expected);  // every one: no early exit
    if (!matched)
        return webhook_error{
            webhook_refusal::bad_signature, "the signature does not match the body and the secret", {}};
    const std::int64_t now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count();
    const std::int64_t skew = now_ms >= parts->unix_ms ? now_ms - parts->unix_ms : parts->unix_ms - now_ms;
    if (skew > tolerance.count())
        return webhook_error{webhook_refusal::outside_tolerance,
                             "signed " + std::to_string(skew) + " ms " +
                                 (now_ms >= parts->unix_ms ? "before" : "after") + " now; the tolerance is " +
                                 std::to_string(tolerance.count()) + " ms",
                             {}};
    auto event = json::read<webhook_event_payload>(detail::event_json(raw_body));
    if (!event)
        return webhook_error{webhook_refusal::invalid_event, "the body is not a webhook event",
                             std::move(event).take_problems()};
    return std::move(event).value();
}

// One webhook's secret and tolerance, for every delivery to it.
class webhook_receiver {
public:
    explicit webhook_receiver(std::string secret, std::chrono::milliseconds tolerance = default_webhook_tolerance)
        : secret_(std::move(secret)), tolerance_(tolerance) {}

    webhook_verification verify(std::string_view raw_body, std::string_view signature,
                                std::chrono::system_clock::time_point now) const {
        return verify_webhook(raw_body, signature, secret_, now, tolerance_);
    }

private:
    std::string secret_;
    std::chrono::milliseconds tolerance_;
};

}  // namespace esign::client
