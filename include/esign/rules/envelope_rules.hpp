// SPDX-License-Identifier: BSL-1.0
#pragma once
// Rules of contract.md §2-§3 about an envelope's content and timing that the status and
// lifecycle tables do not cover: tags as a set, recipient order, the sms/phone rule, template
// labels, add-blocks page keys, and when invitations expire and reminders fall due.
#include <cstdint>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <esign/model/enums.hpp>

namespace esign::rules {

inline constexpr std::int64_t milliseconds_per_day = 86'400'000;

// Tags are a set: the names not yet present are added, in request order, duplicates ignored.
inline void add_tags(std::vector<std::string>& tags, const std::vector<std::string>& names) {
    std::set<std::string> present(tags.begin(), tags.end());
    for (const auto& name : names)
        if (present.insert(name).second) tags.push_back(name);
}

// A new recipient's order: 1 + the highest order in the envelope, 1 for the first.
constexpr std::int64_t next_recipient_order(std::optional<std::int64_t> highest) noexcept {
    return highest ? *highest + 1 : 1;
}

// create-from-template: the labels given must be the template's set of labels, each once.
inline bool labels_match(const std::vector<std::string>& template_labels, const std::vector<std::string>& given) {
    const std::set<std::string_view> expected(template_labels.begin(), template_labels.end());
    std::set<std::string_view> seen;
    for (const auto& label : given)
        if (!expected.contains(label) || !seen.insert(label).second) return false;
    return seen.size() == expected.size();
}

// add-blocks `page`: decimal digits naming a page from 1 to page_count ("01" is page 1).
constexpr std::optional<std::int64_t> page_in_document(std::string_view key, std::int64_t page_count) noexcept {
    if (key.empty()) return std::nullopt;
    std::int64_t page = 0;
    for (char digit : key) {
        if (digit < '0' || digit > '9') return std::nullopt;
        page = page * 10 + (digit - '0');
        if (page > page_count) return std::nullopt;  // also stops long keys before any overflow
    }
    if (page < 1) return std::nullopt;
    return page;
}

// Instants are unix milliseconds. The team's clock never passes the largest date of ECMAScript
// (year 275760; handlers/clock.hpp), nor stands before 1970 by more than that: a stored date
// (a restored state's) outside [-latest_instant_ms, latest_instant_ms] is one no operation made.
inline constexpr std::int64_t latest_instant_ms = 8'640'000'000'000'000;

// A team's clock offset (contract.md §6.9: restore, fixture, state file) is within ±100 years.
inline constexpr std::int64_t max_clock_offset_ms = 3'155'760'000'000;

namespace detail {
// a + b × c, saturated at the bounds of 64 bits: instants computed from a stored date and a
// stored count stay defined (no signed overflow) whatever a restored state holds.
constexpr std::int64_t saturated_add_product(std::int64_t a, std::int64_t b, std::int64_t c) noexcept {
    constexpr std::int64_t hi = std::numeric_limits<std::int64_t>::max();
    constexpr std::int64_t lo = std::numeric_limits<std::int64_t>::min();
    std::int64_t product = 0;
    if (__builtin_mul_overflow(b, c, &product)) return (b < 0) == (c < 0) ? hi : lo;
    std::int64_t sum = 0;
    if (__builtin_add_overflow(a, product, &sum)) return product > 0 ? hi : lo;
    return sum;
}
}  // namespace detail

// The instant an envelope sent at `sent` expires (and its invitations with it): expiration_days
// days later. It is expired at that instant or later. (Saturated: see detail above.)
constexpr std::int64_t expiration_instant(std::int64_t sent, std::int64_t expiration_days) noexcept {
    return detail::saturated_add_product(sent, expiration_days, milliseconds_per_day);
}

// The instant of reminder round `round` (1, 2, ...): every frequency_days days after send.
// A round due at or after the expiration instant is never sent (the envelope expired first).
constexpr std::int64_t reminder_instant(std::int64_t sent, std::int64_t frequency_days, std::int64_t round) noexcept {
    const std::int64_t days = detail::saturated_add_product(0, round, frequency_days);
    return detail::saturated_add_product(sent, days, milliseconds_per_day);
}

// The most reminder rounds an envelope can have had: every round falls strictly before its
// expiry, so round × frequency < expiration days. 0 without a valid frequency.
constexpr std::int64_t max_reminder_rounds(std::int64_t expiration_days, std::int64_t frequency_days) noexcept {
    if (frequency_days < 1 || expiration_days < 1) return 0;
    return (expiration_days - 1) / frequency_days;
}

}  // namespace esign::rules
