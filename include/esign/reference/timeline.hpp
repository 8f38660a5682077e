#pragma once
// Expiries and reminders that fall due as the clock moves (contract.md §3).
//
// An envelope that is approving or signing has at most one next event: its expiry
// (sentDate + expirationPeriod days), or, when it comes first, its next reminder round (every
// reminderFrequencyPeriod days after send; only for envelopes whose e-mails go out). Events of
// every envelope are applied in time order; at the same instant the older envelope goes first,
// and an envelope's expiry goes before its reminder, so a reminder due the instant the
// envelope expires is not sent. Each event is recorded at its due time.
#include <cstdint>
#include <optional>
#include <queue>
#include <string>
#include <string_view>
#include <vector>

#include <esign/reference/context.hpp>
#include <esign/reference/envelope_factory.hpp>
#include <esign/reference/events.hpp>
#include <esign/rules/envelope_rules.hpp>
#include <esign/rules/lifecycle.hpp>

namespace esign::reference::timeline {

struct due_event {
    std::int64_t at = 0;
    std::uint64_t seq = 0;      // the envelope's creation order breaks ties
    bool expiry = false;        // false: a reminder round
    std::string_view envelope;  // the envelope's uuid (a key of state::envelopes)
};

inline bool before(const due_event& a, const due_event& b) {
    if (a.at != b.at) return a.at < b.at;
    if (a.seq != b.seq) return a.seq < b.seq;
    return a.expiry && !b.expiry;
}

// The envelope's next event, if it has one.
inline std::optional<due_event> next_event_of(std::string_view uuid, const envelope_record& env) {
    if (!rules::is_in_progress(env.status) || !env.sent_date) return std::nullopt;
    const due_event expiry{rules::expiration_instant(*env.sent_date, env.expiration_period), env.seq, true, uuid};
    if (env.reminder_frequency && sends_email(env)) {
        const due_event reminder{
            rules::reminder_instant(*env.sent_date, *env.reminder_frequency, env.reminders_sent + 1), env.seq, false,
            uuid};
        if (before(reminder, expiry)) return reminder;
    }
    return expiry;
}

// The earliest event of every envelope.
inline std::optional<due_event> earliest(const state& st) {
    std::optional<due_event> first;
    for (const auto& [uuid, env] : st.envelopes)
        if (auto event = next_event_of(uuid, env); event && (!first || before(*event, *first))) first = event;
    return first;
}

// The earliest instant at which something falls due, if anything will.
inline std::optional<std::int64_t> next_due(const state& st) {
    auto event = earliest(st);
    if (!event) return std::nullopt;
    return event->at;
}

// Expired: pending recipients canceled, invitations gone, logged by the system.
inline void expire(context& c, envelope_record& env) {
    factory::end(c, env, rules::envelope_event::expired);
    log_envelope(c, env, envelope_log_event::ENVELOPE_EXPIRED, system_author());
}

// One reminder round: an e-mail to each recipient whose turn it is (pending, so not acted yet).
inline void remind(context& c, envelope_record& env) {
    ++env.reminders_sent;
    const auto turn = factory::whose_turn(env);
    for (std::size_t i = 0; i < env.recipients.size(); ++i)
        if (turn[i]) send_email(c, env, env.recipients[i], outbox_kind::reminder, c.now);
}

inline void apply(context& c, const due_event& event, envelope_record& env) {
    if (event.expiry) expire(c, env);
    else remind(c, env);
}

// Applies, in time order, every event due at or before c.now. An envelope's events depend on
// that envelope alone, so a queue holds each envelope's next due event; applying one either ends
// the envelope's events or moves its next reminder at least a day later.
inline void apply_due(context& c) {
    const std::int64_t now = c.now;
    auto later = [](const due_event& a, const due_event& b) { return before(b, a); };
    std::priority_queue<due_event, std::vector<due_event>, decltype(later)> queue(later);
    for (const auto& [uuid, env] : c.st.envelopes)
        if (auto event = next_event_of(uuid, env); event && event->at <= now) queue.push(*event);

    while (!queue.empty()) {
        const due_event event = queue.top();
        queue.pop();
        auto it = c.st.envelopes.find(std::string(event.envelope));
        if (it == c.st.envelopes.end()) continue;
        c.now = event.at;
        apply(c, event, it->second);
        if (auto next = next_event_of(it->first, it->second); next && next->at <= now) queue.push(*next);
    }
    c.now = now;
}

} // namespace esign::reference::timeline
