// SPDX-License-Identifier: BSL-1.0
#pragma once
// A team's clock (contract.md §5): /_control/clock/advance and /_control/clock/now. Advancing
// applies what falls due (expiries, reminders) on the way.
#include <cstdint>
#include <optional>
#include <string>

#include <esign/reference/context.hpp>
#include <esign/reference/team/timeline.hpp>
#include <esign/rules/envelope_rules.hpp>

namespace esign::reference::handlers {

// ---------------------------------------------------------------------------------------------
// /_control/clock/advance and /_control/clock/now

// The clock never passes the largest date of ECMAScript (year 275760): far beyond any test, and
// every instant computed from it (expiries, reminders) stays far inside 64 bits.
inline constexpr std::int64_t latest_clock_ms = rules::latest_instant_ms;

// A team's clock stays within 100 years of the server's (contract.md §6.9), the bound a restore
// checks: a snapshot of any team the API made restores.
inline std::optional<failure> refuse_offset_beyond_bound(std::int64_t offset, std::int64_t milliseconds) {
    if (milliseconds <= rules::max_clock_offset_ms - offset) return std::nullopt;
    return invalid_at({"milliseconds"}, problem_kind::range,
                      "would move the team's clock more than " + std::to_string(rules::max_clock_offset_ms) +
                          " ms (100 years) from the server's");
}

inline outcome<control_clock_advance_response> handle(context& c, const control_clock_advance_request& r) {
    if (r.milliseconds < 0) return invalid_at({"milliseconds"}, problem_kind::range, "must be at least 0");
    if (r.milliseconds > latest_clock_ms - c.now)
        return invalid_at({"milliseconds"}, problem_kind::range,
                          "would move the clock past " + std::to_string(latest_clock_ms));
    if (auto beyond = refuse_offset_beyond_bound(c.st.clock_offset, r.milliseconds)) return *beyond;
    c.st.clock_offset += r.milliseconds;
    c.now += r.milliseconds;
    timeline::apply_due(c);
    return control_clock_advance_response{c.now};
}

inline outcome<control_clock_now_response> handle(context& c, const control_clock_now_request&) {
    return control_clock_now_response{c.now};
}

}  // namespace esign::reference::handlers
