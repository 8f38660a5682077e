// SPDX-License-Identifier: BSL-1.0
#pragma once
// Rules of contract.md §2-§3 about an envelope's content and timing that the status and
// lifecycle tables do not cover: tags as a set, recipient order, the sms/phone rule, template
// labels, add-blocks page keys, and when invitations expire and reminders fall due.
#include <cstdint>
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

// The instant an envelope sent at `sent` expires (and its invitations with it): expiration_days
// days later. It is expired at that instant or later.
constexpr std::int64_t expiration_instant(std::int64_t sent, std::int64_t expiration_days) noexcept {
    return sent + expiration_days * milliseconds_per_day;
}

// The instant of reminder round `round` (1, 2, ...): every frequency_days days after send.
// A round due at or after the expiration instant is never sent (the envelope expired first).
constexpr std::int64_t reminder_instant(std::int64_t sent, std::int64_t frequency_days, std::int64_t round) noexcept {
    return sent + round * frequency_days * milliseconds_per_day;
}

}  // namespace esign::rules
