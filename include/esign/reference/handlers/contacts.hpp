// SPDX-License-Identifier: BSL-1.0
#pragma once
// Contacts, stored per workspace: /public/contact/create, update, list, delete
// (contract.md §3, §4). Batches are all-or-nothing; one log entry per contact.
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include <esign/model/members.hpp>
#include <esign/reference/context.hpp>
#include <esign/reference/store/events.hpp>
#include <esign/reference/store/list_page.hpp>
#include <esign/rules/email_domain.hpp>

namespace esign::reference {

inline contact_record* find_contact(state& st, const workspace_record& ws, std::string_view email) {
    return st.find_contact(ws.uuid, email);
}

inline std::string with_email(std::string_view what, std::string_view email) {
    std::string m(what);
    m += " (";
    m += email;
    m += ')';
    return m;
}

inline void log_contact(context& c, const workspace_record& ws, team_log_event event, const contact& data) {
    log_team(c, *c.team, event, {{"workspaceUuid", ws.uuid}, {"contactUuid", data.uuid}, {"email", data.email}});
}

}  // namespace esign::reference

namespace esign::reference::handlers {

// Order: WORKSPACE_NOT_FOUND, CONTACT_EMAIL_ALREADY_EXISTS (in the workspace or twice in the
// request), INVALID_EMAIL; then every contact is stored, or none.
inline outcome<contact_create_response> handle(context& c, const contact_create_request& r) {
    const workspace_record* ws = c.resolve_workspace(r.workspaceUuid);
    if (!ws) return failure{error_code::WORKSPACE_NOT_FOUND};

    const auto& items = r.contacts.items();
    for (std::size_t i = 0; i < items.size(); ++i) {
        const std::string& email = items[i].email.str();
        const bool earlier_in_request = std::any_of(items.begin(), items.begin() + static_cast<std::ptrdiff_t>(i),
                                                    [&](const auto& other) { return other.email.str() == email; });
        if (earlier_in_request || find_contact(c.st, *ws, email))
            return failure{error_code::CONTACT_EMAIL_ALREADY_EXISTS,
                           {},
                           with_email("A contact with this e-mail already exists", email)};
    }
    for (const auto& item : items)
        if (!rules::is_deliverable(item.email.str()))
            return failure{error_code::INVALID_EMAIL, {}, with_email("An e-mail address is invalid", item.email.str())};
    if (!has_room(c.st.contacts.size(), items.size(), max_contacts_per_team))
        return failure{error_code::INVALID_REQUEST_FORMAT,
                       {collection_full({"contacts"}, "contacts", max_contacts_per_team)}};

    contact_create_response out;
    for (const auto& item : items) {
        contact_record rec;
        rec.data.uuid = c.ids.uuid();
        rec.data.email = item.email.str();
        rec.data.firstname = item.firstname;
        rec.data.lastname = item.lastname;
        rec.data.phone = item.phone.value_or(nullable<std::string>{});  // omitted means null
        apply_present(item, rec.data);                                  // the optional details given
        rec.workspace_uuid = ws->uuid;
        rec.seq = c.st.sequence();
        log_contact(c, *ws, team_log_event::CONTACT_CREATED, rec.data);
        out.contacts.push_back(rec.data);
        c.st.add_contact(std::move(rec));
    }
    return out;
}

// Only the members given change: firstname, lastname and phone (required, phone may be null),
// and each optional member present in the request.
inline outcome<contact_update_response> handle(context& c, const contact_update_request& r) {
    const workspace_record* ws = c.resolve_workspace(r.workspaceUuid);
    if (!ws) return failure{error_code::WORKSPACE_NOT_FOUND};
    const auto& given = r.contact;
    contact_record* rec = find_contact(c.st, *ws, given.email.str());
    if (!rec)
        return failure{error_code::CONTACT_NOT_FOUND, {}, with_email("The contact does not exist", given.email.str())};
    // Unreachable through the API today (contact/create refuses such an address), kept for the
    // contract's order.
    if (!rules::is_deliverable(given.email.str())) return failure{error_code::INVALID_EMAIL};

    rec->data.firstname = given.firstname;
    rec->data.lastname = given.lastname;
    rec->data.phone = given.phone;
    apply_present(given, rec->data);  // a detail given replaces the stored one
    log_contact(c, *ws, team_log_event::CONTACT_UPDATED, rec->data);
    return contact_update_response{rec->data};
}

// The workspace's contacts in creation order.
inline outcome<contact_list_response> handle(context& c, const contact_list_request& r) {
    const workspace_record* ws = c.resolve_workspace(r.workspaceUuid);
    if (!ws) return failure{error_code::WORKSPACE_NOT_FOUND};
    contact_list_response out;
    out.pagination = fill_page_in_creation_order(
        out.contacts, c.st.contacts, [&](const contact_record& rec) { return rec.workspace_uuid == ws->uuid; },
        page_or_default(r.page), limit_or_default(r.limit), [](const contact_record* rec) { return rec->data; });
    return out;
}

// Every e-mail must name a contact of the workspace (CONTACT_NOT_FOUND, and none is deleted).
// An e-mail given twice deletes its contact once.
inline outcome<contact_delete_response> handle(context& c, const contact_delete_request& r) {
    const workspace_record* ws = c.resolve_workspace(r.workspaceUuid);
    if (!ws) return failure{error_code::WORKSPACE_NOT_FOUND};
    for (const auto& email : r.emails.items())
        if (!find_contact(c.st, *ws, email.str()))
            return failure{error_code::CONTACT_NOT_FOUND, {}, with_email("The contact does not exist", email.str())};

    // Logged in the request's order, then deleted together: one walk over the team's contacts
    // however many the request names (at most 50, so finding one given twice looks at few).
    std::vector<std::size_t> gone;
    for (const auto& email : r.emails.items()) {
        const contact_record* rec = find_contact(c.st, *ws, email.str());
        const auto at = static_cast<std::size_t>(rec - c.st.contacts.data());
        if (std::find(gone.begin(), gone.end(), at) != gone.end()) continue;  // given twice: deleted once
        log_contact(c, *ws, team_log_event::CONTACT_DELETED, rec->data);
        gone.push_back(at);
    }
    c.st.erase_contacts(gone);
    return contact_delete_response{};
}

}  // namespace esign::reference::handlers
