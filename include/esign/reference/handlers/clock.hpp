// SPDX-License-Identifier: BSL-1.0
#pragma once
// A team's clock (contract.md §5): /_control/clock/advance and /_control/clock/now. Advancing
// applies what falls due (expiries, reminders) on the way.
#include <cstdint>
#include <string>

#include <esign/reference/context.hpp>
#include <esign/reference/timeline.hpp>

namespace esign::reference::handlers {

// ---------------------------------------------------------------------------------------------
// /_control/clock/advance and /_control/clock/now

// The clock never passes the largest date of ECMAScript (year 275760): far beyond any test, and
// every instant computed from it (expiries, reminders) stays far inside 64 bits.
inline constexpr std::int64_t latest_clock_ms = 8'640'000'000'000'000;

inline outcome<control_clock_advance_response> handle(context& c, const control_clock_advance_request& r) {
    if (r.milliseconds < 0) return invalid_at({"milliseconds"}, problem_kind::range, "must be at least 0");
    if (r.milliseconds > latest_clock_ms - c.now)
        return invalid_at({"milliseconds"}, problem_kind::range,
                          "would move the clock past " + std::to_string(latest_clock_ms));
    c.st.clock_offset += r.milliseconds;
    c.now += r.milliseconds;
    timeline::apply_due(c);
    return control_clock_advance_response{c.now};
}

inline outcome<control_clock_now_response> handle(context& c, const control_clock_now_request&) {
    return control_clock_now_response{c.now};
}

}  // namespace esign::reference::handlers
