// SPDX-License-Identifier: BSL-1.0
#pragma once
// When a call is tried again, and how long it waits first. A row that changes state is never
// sent twice unless the server said it did nothing (429, 503) or it never left (a connection
// that failed before the request was written): the server has no idempotency keys.
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <optional>
#include <random>
#include <string_view>

#include <esign/client/error.hpp>

namespace esign::client::detail {

// Whether an answer with this HTTP status is tried again.
constexpr bool retry_status(unsigned status, bool read_only) noexcept {
    if (status == 429 || status == 503) return true;  // the server did nothing: any operation
    return read_only && status >= 500 && status < 600;
}

// Whether a transport failure is tried again. A certificate that failed the check fails again.
constexpr bool retry_transport(const transport_error& e, bool read_only) noexcept {
    if (e.what == transport_error::kind::tls) return false;
    return !e.sent || read_only;
}

// The wait before retry number `retry` (1 for the second attempt): "full jitter", uniform in
// [0, min(cap, base * 2^(retry-1))], so that many clients failing together do not retry together.
inline std::chrono::milliseconds backoff(unsigned retry, std::chrono::milliseconds base,
                                         std::chrono::milliseconds cap) {
    thread_local std::minstd_rand random{std::random_device{}()};
    std::int64_t ceiling = base.count();
    for (unsigned i = 1; i < retry && ceiling < cap.count(); ++i) ceiling *= 2;
    ceiling = std::min<std::int64_t>(ceiling, cap.count());
    if (ceiling <= 0) return std::chrono::milliseconds{0};
    return std::chrono::milliseconds{std::uniform_int_distribution<std::int64_t>(0, ceiling)(random)};
}

// Retry-After in its delta-seconds form (the HTTP-date form is not honoured: the reference
// server sends neither). nullopt when absent or not a number.
inline std::optional<std::chrono::milliseconds> retry_after(std::string_view value) noexcept {
    std::uint32_t seconds = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), seconds);
    if (value.empty() || ec != std::errc{} || end != value.data() + value.size()) return std::nullopt;
    return std::chrono::milliseconds{std::int64_t{seconds} * 1000};
}

}  // namespace esign::client::detail
