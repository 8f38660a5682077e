// SPDX-License-Identifier: BSL-1.0
#pragma once
// Responses built from records: the envelope's full and list forms, workspaces in their three
// shapes, and the names contract.md §3 forms (sender, log authors).
#include <string>

#include <esign/model/model.hpp>
#include <esign/reference/state.hpp>

namespace esign::reference {

// "first last" from the non-empty parts, or `fallback` when both are empty.
inline std::string display_name(std::string_view first, std::string_view last, std::string_view fallback) {
    std::string name(first);
    if (!last.empty()) {
        if (!name.empty()) name += ' ';
        name += last;
    }
    return name.empty() ? std::string(fallback) : name;
}

inline std::string owner_name(const team_record& team) {
    return display_name(team.owner_firstname.value_or(""), team.owner_lastname.value_or(""), team.owner_email);
}

inline metrics metrics_of(const envelope_record& env) {
    metrics m;
    for (const auto& r : env.recipients) {
        if (r.data.role == recipient_role::signer) {
            ++m.signatureRequiredCount;
            if (r.data.status == recipient_status::signed_) ++m.signatureCount;
        } else if (r.data.role == recipient_role::approver) {
            ++m.approvalRequiredCount;
            if (r.data.status == recipient_status::approved) ++m.approvalCount;
        }
    }
    return m;
}

inline sender sender_of(const envelope_record& env, const team_record& team) {
    return sender{team.owner_email, env.use_user_as_sender_name ? owner_name(team) : team.name};
}

inline envelope full_view(const envelope_record& env, const team_record& team) {
    envelope e;
    e.uuid = env.uuid;
    e.title = env.title;
    e.status = env.status;
    e.creationDate = env.creation_date;
    e.updateDate = env.update_date;
    e.sentDate = env.sent_date;
    e.owner.uuid = team.owner_uuid;
    e.owner.email = team.owner_email;
    e.owner.firstname = nullable<std::string>(team.owner_firstname);
    e.owner.lastname = nullable<std::string>(team.owner_lastname);
    e.sender = sender_of(env, team);
    for (const auto& d : env.documents) {
        if (d.is_attachment)
            e.attachments.push_back(attachment{d.doc.uuid, d.doc.title});
        else
            e.documents.push_back(d.doc);
    }
    e.tags = env.tags;
    e.metrics = metrics_of(env);
    e.signatureOrder = env.signature_order;
    e.customMessage = env.custom_message;
    e.useUserAsSenderName = env.use_user_as_sender_name;
    e.timestampEnabled = env.timestamp_enabled;
    e.expirationPeriod = env.expiration_period;
    e.reminderFrequencyPeriod =
        env.reminder_frequency ? nullable<std::int64_t>(*env.reminder_frequency) : nullable<std::int64_t>();
    for (const auto& r : env.recipients) e.recipients.push_back(r.data);
    return e;
}

inline envelope_summary summary_view(const envelope_record& env, const team_record& team) {
    envelope_summary s;
    s.uuid = env.uuid;
    s.title = env.title;
    s.creationDate = env.creation_date;
    s.updateDate = env.update_date;
    s.sentDate = env.sent_date;
    s.status = env.status;
    s.workspaceUuid = env.workspace_uuid;
    s.owner = owner_summary{team.owner_uuid, team.owner_email, team.owner_firstname, team.owner_lastname};
    s.metrics = metrics_of(env);
    s.tags = env.tags;
    return s;
}

inline workspace workspace_view(const workspace_record& ws) {
    return workspace{ws.uuid, ws.name, ws.creation_date, ws.update_date, ws.is_default, ws.color_hex, ws.sandbox, 1};
}
inline workspace_list_item workspace_list_view(const workspace_record& ws) {
    return workspace_list_item{ws.uuid, ws.name, ws.creation_date, ws.update_date, ws.sandbox, 1};
}
inline workspace_created workspace_created_view(const workspace_record& ws) {
    return workspace_created{ws.uuid,       ws.name,      ws.creation_date, ws.update_date,
                             ws.is_default, ws.color_hex, ws.sandbox};
}

}  // namespace esign::reference
