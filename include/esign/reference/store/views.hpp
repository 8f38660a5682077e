// SPDX-License-Identifier: BSL-1.0
#pragma once
// Responses built from records: the envelope's full and list forms, workspaces
// in their three shapes, and the names contract.md §3 forms (sender, log
// authors). A view is copy_record (the members a record shares with its
// resource) plus what the view computes.
#include <string>
#include <string_view>
#include <type_traits>

#include <boost/mp11/algorithm.hpp>

#include <esign/model/model.hpp>
#include <esign/reference/store/records.hpp>
#include <esign/validation/described_members.hpp>

namespace esign::reference {

namespace detail {
// How a record's member is named in its resource, for every record: the same
// words, the record's in snake_case (its snapshot's names), the resource's in
// camelCase (the API's): creation_date is creationDate, is_default isDefault,
// uuid uuid.
constexpr bool names_same_member(std::string_view record, std::string_view resource) noexcept {
    std::size_t j = 0;
    for (std::size_t i = 0; i < record.size(); ++i, ++j) {
        char c = record[i];
        if (c == '_' && i + 1 < record.size() && record[i + 1] >= 'a' && record[i + 1] <= 'z')
            c = static_cast<char>(record[++i] - 'a' + 'A');
        if (j >= resource.size() || resource[j] != c) return false;
    }
    return j == resource.size();
}
}  // namespace detail

// Every member of the resource `to` that the record `from` has under its
// snake_case name is assigned from it. Members of another type under the same
// name (an envelope's documents and recipients, records of their own) are the
// view's to build.
template <class Record, class Resource>
void copy_record(const Record& from, Resource& to) {
    boost::mp11::mp_for_each<described_members<Record>>([&](auto source) {
        using source_member = decltype(source);
        boost::mp11::mp_for_each<described_members<Resource>>([&](auto target) {
            using target_member = decltype(target);
            if constexpr (detail::names_same_member(source_member::name, target_member::name) &&
                          std::is_assignable_v<typename target_member::type&, const typename source_member::type&>)
                target_member::get(to) = source_member::get(from);
        });
    });
}

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
    copy_record(env, e);
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
    e.metrics = metrics_of(env);
    e.reminderFrequencyPeriod =
        env.reminder_frequency ? nullable<std::int64_t>(*env.reminder_frequency) : nullable<std::int64_t>();
    for (const auto& r : env.recipients) e.recipients.push_back(r.data);
    return e;
}

inline envelope_summary summary_view(const envelope_record& env, const team_record& team) {
    envelope_summary s;
    copy_record(env, s);
    s.owner = owner_summary{team.owner_uuid, team.owner_email, team.owner_firstname, team.owner_lastname};
    s.metrics = metrics_of(env);
    return s;
}

// (membersCount: one, the owner.)
inline workspace workspace_view(const workspace_record& ws) {
    workspace w;
    copy_record(ws, w);
    return w;
}
inline workspace_list_item workspace_list_view(const workspace_record& ws) {
    workspace_list_item w;
    copy_record(ws, w);
    return w;
}
inline workspace_created workspace_created_view(const workspace_record& ws) {
    workspace_created w;
    copy_record(ws, w);
    return w;
}

}  // namespace esign::reference
