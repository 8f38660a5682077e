// SPDX-License-Identifier: BSL-1.0
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
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <esign/reference/context.hpp>
#include <esign/reference/store/envelope_store.hpp>
#include <esign/reference/store/events.hpp>
#include <esign/rules/envelope_rules.hpp>
#include <esign/rules/lifecycle.hpp>

namespace esign::reference::timeline {

using due_time = due_index::time;

// The bounds of an envelope's periods: the types of envelope/update's members.
using expiration_days = decltype(envelope_update_fields::expirationPeriod)::value_type;                 // ranged<1, 90>
using reminder_frequency_days = decltype(envelope_update_fields::reminderFrequencyPeriod)::value_type;  // ranged<1>

// The most reminder rounds an envelope gets: those of the longest expiration period at the
// shortest frequency fall before its expiry.
inline constexpr std::int64_t max_reminders_ever =
    rules::max_reminder_rounds(expiration_days::max_value, reminder_frequency_days::min_value);

// The envelope's next event, if it has one. Whatever a stored envelope holds (a restored state
// is checked, team/snapshot_state.hpp, but this does not rely on it), an envelope has at most
// max_reminders_ever reminder rounds and then its expiry: a reminder needs a frequency of at
// least a day and a count of rounds in [0, max_reminders_ever), so each round falls at least a
// day after the one before (the instants saturate rather than overflow, and a saturated round
// never comes before the expiry), and apply_due applies at most max_reminders_ever + 1 events of
// an envelope in its whole life.
inline std::optional<due_time> next_event_of(const envelope_record& env) {
    if (!rules::is_in_progress(env.status) || !env.sent_date) return std::nullopt;
    const due_time expiry{rules::expiration_instant(*env.sent_date, env.expiration_period), env.seq, true};
    if (env.reminder_frequency && *env.reminder_frequency >= 1 && env.reminders_sent >= 0 &&
        env.reminders_sent < max_reminders_ever && sends_email(env)) {
        const due_time reminder{
            rules::reminder_instant(*env.sent_date, *env.reminder_frequency, env.reminders_sent + 1), env.seq, false};
        if (reminder < expiry) return reminder;
    }
    return expiry;
}

// Puts the envelope's next event, if it has one, in the store's due index (at send).
inline void schedule(state& st, std::string_view uuid, const envelope_record& env) {
    if (!st.due.valid) return;  // rebuilt whole before it is read
    if (auto when = next_event_of(env)) st.due.entries.insert(due_index::entry{*when, std::string(uuid)});
}

// Makes the due index and the envelope order again from every envelope (a store put in place
// whole, or copied).
inline void rebuild_indexes(state& st) {
    st.due.entries.clear();
    st.due.valid = true;
    st.order.by_workspace.clear();
    st.order.by_status.clear();
    for (const auto& [uuid, env] : st.envelopes) {
        schedule(st, uuid, env);
        st.order.by_workspace[env.workspace_uuid].push_back(&env);
    }
    for (auto& [workspace, list] : st.order.by_workspace) {
        std::sort(list.begin(), list.end(), envelope_order::older);
        auto& lists = st.order.by_status[workspace];
        for (const envelope_record* env : list) lists[env->status].push_back(env);
    }
}

// The earliest instant at which something may fall due, if anything will. Without a valid index
// (not rebuilt yet) anything may: the lowest instant, so that the caller applies due events.
inline std::optional<std::int64_t> next_due(const state& st) {
    if (!st.due.valid) return std::numeric_limits<std::int64_t>::min();
    if (st.due.entries.empty()) return std::nullopt;
    return st.due.entries.begin()->when.at;
}

// Expired: pending recipients canceled, invitations gone, logged by the system.
inline void expire(context& c, envelope_record& env) {
    envelope_store::end(c, env, rules::envelope_event::expired);
    log_envelope(c, env, envelope_log_event::ENVELOPE_EXPIRED, system_author());
}

// One reminder round: an e-mail to each recipient whose turn it is (pending, so not acted yet).
inline void remind(context& c, envelope_record& env) {
    ++env.reminders_sent;
    const auto turn = envelope_store::whose_turn(env);
    for (std::size_t i = 0; i < env.recipients.size(); ++i)
        if (turn[i]) send_email(c, env, env.recipients[i], outbox_kind::reminder, c.now);
}

inline void apply(context& c, const due_time& event, envelope_record& env) {
    if (event.expiry)
        expire(c, env);
    else
        remind(c, env);
}

// Applies, in time order, every event due at or before c.now. An envelope's events depend on
// that envelope alone, so the due index holds each envelope's next event; applying one either
// ends the envelope's events or moves its next reminder at least a day later, back into the index
// (next_event_of): a call applies at most (max_reminders_ever + 1) events per envelope, and an
// entry that is not its envelope's next event is put back at most once, later.
inline void apply_due(context& c) {
    auto& due = c.st.due;
    if (!due.valid) rebuild_indexes(c.st);
    const std::int64_t now = c.now;
    while (!due.entries.empty() && due.entries.begin()->when.at <= now) {
        const due_index::entry first = std::move(due.entries.extract(due.entries.begin()).value());
        auto it = c.st.envelopes.find(first.envelope);
        if (it == c.st.envelopes.end()) continue;
        auto event = next_event_of(it->second);
        if (!event) continue;  // ended since it was scheduled
        if (*event != first.when) {
            schedule(c.st, it->first, it->second);  // its next event is later: in its place
            continue;
        }
        c.now = event->at;
        apply(c, *event, it->second);
        schedule(c.st, it->first, it->second);
    }
    c.now = now;
}

}  // namespace esign::reference::timeline
