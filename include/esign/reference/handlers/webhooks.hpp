// SPDX-License-Identifier: BSL-1.0
#pragma once
// Webhooks, at team level: /public/webhook/create, update, list, delete (contract.md §3, §4),
// and their deliveries, /_control/webhook/deliveries (§5).
// The target url and the secret are stored but never returned.
#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <esign/reference/context.hpp>
#include <esign/reference/store/events.hpp>
#include <esign/reference/store/list_page.hpp>
#include <esign/rules/webhook_url.hpp>

namespace esign::reference {

// The team's webhook `uuid`; nullptr when unknown or another team's (WEBHOOK_NOT_FOUND).
inline webhook_record* find_webhook(context& c, const std::string& uuid) {
    auto it = c.st.webhooks.find(uuid);
    if (it == c.st.webhooks.end() || it->second.team_uuid != c.team->uuid) return nullptr;
    return &it->second;
}

inline std::size_t webhook_count(const state& st, const team_record& team) {
    return static_cast<std::size_t>(std::count_if(st.webhooks.begin(), st.webhooks.end(), [&](const auto& entry) {
        return entry.second.team_uuid == team.uuid;
    }));
}

// Whether every listed workspace is one of the caller's team (absent: nothing to check).
inline bool all_workspaces_known(context& c, const std::optional<std::vector<uuid36>>& uuids) {
    if (!uuids) return true;
    return std::all_of(uuids->begin(), uuids->end(),
                       [&](const uuid36& u) { return c.resolve_workspace(u) != nullptr; });
}

// A list that means a set (a webhook's events and workspaces): each item once, in the order first
// given. What is stored is then at most the set's size (the events of the enum, the team's
// workspaces), and so is what every event emitted looks through (store/events.hpp), however long the
// request's list was (contract.md §6.7).
template <class T>
std::vector<T> distinct(const std::vector<T>& items) {
    std::set<T> seen;
    std::vector<T> out;
    for (const auto& item : items)
        if (seen.insert(item).second) out.push_back(item);
    return out;
}

inline std::vector<std::string> uuid_strings(const std::vector<uuid36>& uuids) {
    return distinct(std::vector<std::string>(uuids.begin(), uuids.end()));
}

inline void log_webhook(context& c, team_log_event event, const std::string& uuid) {
    log_team(c, *c.team, event, {{"webhookUuid", uuid}});
}

}  // namespace esign::reference

namespace esign::reference::handlers {

// Order (contract.md §3): WORKSPACE_NOT_FOUND, WEBHOOK_LIMIT_REACHED,
// FEATURE_NOT_IN_CURRENT_PLAN, WEBHOOK_URL_REFUSED.
inline outcome<webhook_create_response> handle(context& c, const webhook_create_request& r) {
    if (!all_workspaces_known(c, r.workspaceUuids)) return failure{error_code::WORKSPACE_NOT_FOUND};
    if (webhook_count(c.st, *c.team) >= max_webhooks_per_team) return failure{error_code::WEBHOOK_LIMIT_REACHED};
    if (!c.team->has(plan_feature::webhooks)) return failure{error_code::FEATURE_NOT_IN_CURRENT_PLAN};
    if (rules::is_refused_webhook_url(r.url.str(), c.options.public_webhooks_only))
        return failure{error_code::WEBHOOK_URL_REFUSED};

    webhook_record rec;
    rec.data.uuid = c.ids.uuid();
    rec.data.title = r.title ? nullable<std::string>(r.title->str()) : nullable<std::string>();
    rec.data.active = r.active;
    rec.data.sslVerify = r.sslVerify;
    rec.data.contentType = r.contentType;
    rec.data.events = r.events ? distinct(*r.events) : std::vector<webhook_event>{};
    rec.data.workspaceUuids = r.workspaceUuids ? uuid_strings(*r.workspaceUuids) : std::vector<std::string>{};
    rec.data.creationDate = c.now;
    rec.data.updateDate = c.now;
    rec.team_uuid = c.team->uuid;
    rec.url = r.url.str();
    rec.secret = r.secret ? std::optional<std::string>(*r.secret) : std::nullopt;
    rec.seq = c.st.sequence();

    log_webhook(c, team_log_event::WEBHOOK_CREATED, rec.data.uuid);
    const webhook created = rec.data;
    c.st.webhooks[created.uuid] = std::move(rec);
    return webhook_create_response{created};
}

// Order: WEBHOOK_NOT_FOUND, WORKSPACE_NOT_FOUND (its workspaceUuids),
// FEATURE_NOT_IN_CURRENT_PLAN, WEBHOOK_URL_REFUSED. Only the members given change;
// `secret`: absent unchanged, null removed.
inline outcome<webhook_update_response> handle(context& c, const webhook_update_request& r) {
    webhook_record* rec = find_webhook(c, r.uuid.str());
    if (!rec) return failure{error_code::WEBHOOK_NOT_FOUND};
    if (!all_workspaces_known(c, r.workspaceUuids)) return failure{error_code::WORKSPACE_NOT_FOUND};
    if (!c.team->has(plan_feature::webhooks)) return failure{error_code::FEATURE_NOT_IN_CURRENT_PLAN};
    if (r.url && rules::is_refused_webhook_url(r.url->str(), c.options.public_webhooks_only))
        return failure{error_code::WEBHOOK_URL_REFUSED};

    webhook& w = rec->data;
    if (r.url) rec->url = r.url->str();
    if (r.contentType) w.contentType = *r.contentType;
    if (r.sslVerify) w.sslVerify = *r.sslVerify;
    if (r.active) w.active = *r.active;
    if (r.secret) rec->secret = *r.secret;
    if (r.events) w.events = distinct(*r.events);
    if (r.workspaceUuids) w.workspaceUuids = uuid_strings(*r.workspaceUuids);
    if (r.title) w.title = r.title->str();
    c.touch(w.updateDate);
    log_webhook(c, team_log_event::WEBHOOK_UPDATED, w.uuid);
    return webhook_update_response{w};
}

// The team's webhooks in creation order, optionally only the active (or inactive) ones.
inline outcome<webhook_list_response> handle(context& c, const webhook_list_request& r) {
    const auto keep = [&](const webhook_record& rec) {
        return rec.team_uuid == c.team->uuid && (!r.active || rec.data.active == *r.active);
    };
    webhook_list_response out;
    out.pagination =
        fill_page_in_creation_order(out.webhooks, c.st.webhooks, keep, page_or_default(r.page),
                                    limit_or_default(r.limit), [](const webhook_record* rec) { return rec->data; });
    return out;
}

inline outcome<webhook_delete_response> handle(context& c, const webhook_delete_request& r) {
    webhook_record* rec = find_webhook(c, r.uuid.str());
    if (!rec) return failure{error_code::WEBHOOK_NOT_FOUND};
    const std::string uuid = rec->data.uuid;
    c.st.webhooks.erase(uuid);
    log_webhook(c, team_log_event::WEBHOOK_DELETED, uuid);
    return webhook_delete_response{};
}

// ---------------------------------------------------------------------------------------------
// /_control/webhook/deliveries

// The deliveries of one webhook (an unknown one has none), or of every webhook.
inline outcome<control_webhook_deliveries_response> handle(context& c, const control_webhook_deliveries_request& r) {
    control_webhook_deliveries_response out;
    for (const auto& d : c.st.deliveries) {
        if (r.webhookUuid && d.webhook_uuid != r.webhookUuid->str()) continue;
        auto event = enum_from_wire<webhook_event>(d.event_type);
        if (!event) continue;  // every recorded event is a webhook event; never skips in practice
        out.deliveries.push_back(webhook_delivery{d.event_uuid, d.webhook_uuid, *event, d.attempts, d.delivered,
                                                  nullable<std::int64_t>(d.last_status), d.dropped});
    }
    return out;
}

}  // namespace esign::reference::handlers
