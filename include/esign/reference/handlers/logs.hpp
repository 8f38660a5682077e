// SPDX-License-Identifier: BSL-1.0
#pragma once
// Activity logs: /public/logs/list (contract.md §3).
//   dataroom  LOG_CATEGORY_NOT_IMPLEMENTED, before anything else
//   user      implemented, holds no events yet
//   envelope  the team's envelope logs; workspaceUuid and envelopeUuid filter them
//   team      the team's team logs (workspaceUuid and envelopeUuid are envelope filters only,
//             and are ignored here)
// Sorted by timestamp (ties by insertion) or by insertion (sortBy id), in sortOrder.
#include <algorithm>
#include <bitset>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <esign/reference/context.hpp>
#include <esign/reference/store/list_page.hpp>

namespace esign::reference {

// The event types a logs/list request keeps: one bit per event type of its category, built once
// per request, so that judging a log takes a few steps however long the request's list is
// (contract.md §6.7: a request's work is bounded by its own size and its page, never by its list
// times the team's logs; a type given many times is one bit).
class event_type_set {
public:
    event_type_set() = default;
    // `types` empty or absent: every type.
    event_type_set(log_category category, const std::vector<std::string>* types) : category_(category) {
        if (!types || types->empty()) return;
        filters_ = true;
        for (const auto& t : *types)
            if (auto i = index(category_, t)) bits_.set(*i);
    }

    bool filters() const noexcept { return filters_; }
    std::size_t count() const noexcept { return bits_.count(); }  // distinct types kept

    bool keeps(std::string_view type) const noexcept {
        if (!filters_) return true;
        const auto i = index(category_, type);
        return i && bits_.test(*i);
    }

private:
    static constexpr std::size_t most = 64;
    static_assert(enum_count<envelope_log_event>() <= most && enum_count<team_log_event>() <= most);

    template <class Event>
    static std::optional<std::size_t> index_in(std::string_view type) noexcept {
        constexpr auto names = enum_wire_names<Event>();
        for (std::size_t i = 0; i < names.size(); ++i)
            if (names[i] == type) return i;
        return std::nullopt;
    }
    // The position of `type` among its category's event types; none for a category without a
    // list of them (user: no events yet; dataroom is refused before).
    static std::optional<std::size_t> index(log_category category, std::string_view type) noexcept {
        switch (category) {
            case log_category::envelope:
                return index_in<envelope_log_event>(type);
            case log_category::team:
                return index_in<team_log_event>(type);
            case log_category::dataroom:
            case log_category::user:
                return std::nullopt;
        }
        return std::nullopt;
    }

    log_category category_ = log_category::envelope;
    std::bitset<most> bits_;
    bool filters_ = false;
};

struct log_filter {
    log_category category = log_category::envelope;
    const std::string* team_uuid = nullptr;
    const std::string* workspace_uuid = nullptr;  // envelope category, when given
    const std::string* envelope_uuid = nullptr;   // envelope category, when given
    event_type_set event_types;                   // filters nothing unless the request gave types

    bool keeps(const log_record& rec) const {
        const log_entry& e = rec.entry;
        if (rec.team_uuid != *team_uuid || e.category != category) return false;
        if (workspace_uuid && e.workspaceUuid != *workspace_uuid) return false;
        if (envelope_uuid && e.envelopeUuid != *envelope_uuid) return false;
        return event_types.keeps(e.eventType);
    }
};

// Ascending by (timestamp, insertion) or by insertion alone, then reversed for desc: ties in
// timestamp are broken by insertion in the direction of the sort order.
inline void sort_logs(std::vector<const log_record*>& logs, log_sort_by by, sort_order order) {
    std::sort(logs.begin(), logs.end(), [by](const log_record* a, const log_record* b) {
        if (by == log_sort_by::timestamp && a->entry.timestamp != b->entry.timestamp)
            return a->entry.timestamp < b->entry.timestamp;
        return a->seq < b->seq;
    });
    if (order == sort_order::desc) std::reverse(logs.begin(), logs.end());
}

}  // namespace esign::reference

namespace esign::reference::handlers {

inline outcome<logs_list_response> handle(context& c, const logs_list_request& r) {
    if (r.category == log_category::dataroom) return failure{error_code::LOG_CATEGORY_NOT_IMPLEMENTED};

    log_filter filter;
    filter.category = r.category;
    filter.team_uuid = &c.team->uuid;
    filter.event_types = event_type_set(r.category, r.eventTypes ? &*r.eventTypes : nullptr);
    if (r.category == log_category::envelope) {
        const workspace_record* ws = nullptr;
        if (r.workspaceUuid) {
            ws = c.resolve_workspace(r.workspaceUuid);
            if (!ws) return failure{error_code::WORKSPACE_NOT_FOUND};
            filter.workspace_uuid = &ws->uuid;
        }
        if (r.envelopeUuid) {
            auto it = c.st.envelopes.find(r.envelopeUuid->str());
            const bool visible = it != c.st.envelopes.end() && it->second.team_uuid == c.team->uuid &&
                                 (!ws || it->second.workspace_uuid == ws->uuid);
            if (!visible) return failure{error_code::ENVELOPE_NOT_FOUND};
            filter.envelope_uuid = &it->second.uuid;
        }
    }

    const std::int32_t page = page_or_default(r.page);
    const std::int32_t limit = limit_or_default(r.limit);
    const sort_order order = r.sortOrder.value_or(default_log_sort_order);
    logs_list_response out;
    std::vector<const log_record*> found;
    const log_index& index = c.st.logs_by;
    if (index.indexed == c.st.logs.size() && index.in_order && c.st.teams.size() == 1) {
        // The store holds this team's logs only, in the order of both sorts: a category's
        // positions are its list (no filter by team needed), an envelope's hold its list.
        const log_index::positions& candidates = filter.envelope_uuid
                                                     ? log_index::in(index.by_envelope, *filter.envelope_uuid)
                                                     : log_index::in(index.by_category, filter.category);
        auto at = [&](std::size_t i) -> const log_record& {
            return c.st.logs[candidates[order == sort_order::asc ? i : candidates.size() - 1 - i]];
        };
        const bool filtered = filter.envelope_uuid || filter.workspace_uuid || filter.event_types.filters();
        if (!filtered) {
            out.pagination =
                fill_page(out.logs, candidates.size(), page, limit, [&](std::size_t i) { return at(i).entry; });
            return out;
        }
        for (std::size_t i = 0; i < candidates.size(); ++i)
            if (filter.keeps(at(i))) found.push_back(&at(i));
    } else {
        for (const auto& rec : c.st.logs)
            if (filter.keeps(rec)) found.push_back(&rec);
        sort_logs(found, r.sortBy.value_or(default_log_sort_by), order);
    }
    out.pagination = fill_page(out.logs, found, page, limit, [](const log_record* rec) { return rec->entry; });
    return out;
}

}  // namespace esign::reference::handlers
