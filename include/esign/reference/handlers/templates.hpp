// SPDX-License-Identifier: BSL-1.0
#pragma once
// Templates: /_control/template/create (contract.md §5) and
// /public/template/list (§4).
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include <esign/reference/context.hpp>
#include <esign/reference/store/list_page.hpp>
#include <esign/reference/store/views.hpp>

namespace esign::reference {

// Stores a template in `ws`. `uuid` is fixed by a fixture; otherwise a new one
// is drawn. Labels are distinct (the content's validate hook checked it);
// nothing here can fail.
inline template_record& create_template(context& c, const workspace_record& ws, const control_template_content& r,
                                        const std::optional<std::string>& uuid = std::nullopt) {
    template_record t;
    t.uuid = uuid ? *uuid : c.ids.uuid();
    t.team_uuid = ws.team_uuid;
    t.workspace_uuid = ws.uuid;
    t.title = r.title.str();
    t.creation_date = c.now;
    t.update_date = c.now;
    for (const auto& input : r.documents) {
        document d;
        d.uuid = c.ids.uuid();
        d.title = input.title.str();
        d.pageCount = input.pageCount.value;
        t.documents.push_back(std::move(d));
    }
    for (const auto& label : r.recipientLabels.items()) t.labels.push_back(label.str());
    t.seq = c.st.sequence();
    return c.st.templates[t.uuid] = std::move(t);
}

inline template_summary template_view(const template_record& t) {
    template_summary s;
    copy_record(t, s);
    for (const auto& d : t.documents) s.documents.push_back(template_document{d.uuid, d.title});
    for (const auto& label : t.labels) s.recipients.push_back(template_recipient{label});
    return s;
}

}  // namespace esign::reference

namespace esign::reference::handlers {

inline outcome<control_template_create_response> handle(context& c, const control_template_create_request& r) {
    const workspace_record* ws = c.resolve_workspace(r.workspaceUuid);
    if (!ws) return failure{error_code::WORKSPACE_NOT_FOUND};
    if (!has_room(c.st.templates.size(), 1,
                  max_templates_per_team))  // the store holds one team's
        return failure{error_code::INVALID_REQUEST_FORMAT, {collection_full({}, "templates", max_templates_per_team)}};
    const template_record& t = create_template(c, *ws, r.content);
    control_template_create_response out;
    out.templateUuid = t.uuid;
    for (const auto& d : t.documents) out.documentUuids.push_back(d.uuid);
    return out;
}

// The workspace's templates in creation order, fixed_page_size per page.
inline outcome<template_list_response> handle(context& c, const template_list_request& r) {
    const workspace_record* ws = c.resolve_workspace(r.workspaceUuid);
    if (!ws) return failure{error_code::WORKSPACE_NOT_FOUND};
    template_list_response out;
    out.pagination = fill_page_in_creation_order(
        out.templates, c.st.templates, [&](const template_record& t) { return t.workspace_uuid == ws->uuid; },
        page_or_default(r.page), fixed_page_size, [](const template_record* t) { return template_view(*t); });
    return out;
}

}  // namespace esign::reference::handlers
