// SPDX-License-Identifier: BSL-1.0
#pragma once
// Recipients of a draft envelope: /public/envelope/add-recipients, update-recipient,
// delete-recipients.
#include <algorithm>
#include <string>
#include <vector>

#include <esign/model/members.hpp>
#include <esign/reference/context.hpp>
#include <esign/reference/store/envelope_store.hpp>
#include <esign/rules/email_domain.hpp>
#include <esign/rules/envelope_rules.hpp>

namespace esign::reference::handlers {

// ---------------------------------------------------------------------------------------------
// /public/envelope/add-recipients (all or nothing)

namespace detail {
// An e-mail already in the envelope, or twice in the request.
inline bool has_duplicate_recipient(envelope_record& env, const envelope_add_recipients_request& r) {
    const auto& items = r.recipients;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (env.find_recipient(items[i].email.str())) return true;
        for (std::size_t j = 0; j < i; ++j)
            if (items[j].email.str() == items[i].email.str()) return true;
    }
    return false;
}

inline added_recipient added_view(const recipient_record& r) {
    const recipient& d = r.data;
    return added_recipient{d.email, d.firstname, d.lastname, d.role, d.associatedContact, d.status, r.color};
}
}  // namespace detail

inline outcome<envelope_add_recipients_response> handle(context& c, const envelope_add_recipients_request& r) {
    auto found = envelope_store::find_draft(c, r.workspaceUuid, r.envelopeUuid);
    if (found.error) return *found.error;
    envelope_record& env = *found.envelope;
    if (detail::has_duplicate_recipient(env, r)) return failure{error_code::DUPLICATE_RECIPIENT};
    const bool wants_sms = std::any_of(r.recipients.begin(), r.recipients.end(), [](const add_recipients_item& item) {
        return item.verificationType == verification_type::sms;
    });
    if (wants_sms && !c.team->has(plan_feature::sms)) return failure{error_code::FEATURE_NOT_IN_CURRENT_PLAN};
    for (const auto& item : r.recipients)
        if (!rules::is_deliverable(item.email.str())) return failure{error_code::INVALID_EMAIL};
    if (!has_room(env.recipients.size(), r.recipients.size(), max_recipients_per_envelope))
        return failure{error_code::INVALID_REQUEST_FORMAT,
                       {collection_full({"recipients"}, "recipients", max_recipients_per_envelope, "envelope")}};

    std::vector<envelope_store::recipient_input> inputs;
    for (const auto& item : r.recipients)
        inputs.push_back(
            {item.email.str(), item.firstname, item.lastname, item.phone, item.language, item.verificationType});
    const std::size_t first_new = env.recipients.size();
    envelope_store::append_recipients(c.st, env, std::move(inputs));
    c.touch(env.update_date);

    envelope_add_recipients_response out;
    for (std::size_t i = first_new; i < env.recipients.size(); ++i)
        out.recipients.push_back(detail::added_view(env.recipients[i]));
    return out;
}

// ---------------------------------------------------------------------------------------------
// /public/envelope/update-recipient

namespace detail {
inline recipient_record* find_by_email_and_role(envelope_record& env, std::string_view email, recipient_role role) {
    for (auto& r : env.recipients)
        if (r.data.email == email && r.data.role == role) return &r;
    return nullptr;
}

inline updated_recipient updated_view(const recipient_record& r) {
    updated_recipient out;
    copy_members(r.data, out);  // phone: "" when not given, never null
    out.colorVariant = r.color;
    return out;
}
}  // namespace detail

inline outcome<envelope_update_recipient_response> handle(context& c, const envelope_update_recipient_request& r) {
    auto found = envelope_store::find_draft(c, r.workspaceUuid, r.envelopeUuid);
    if (found.error) return *found.error;
    envelope_record& env = *found.envelope;
    recipient_record* target = detail::find_by_email_and_role(env, r.email.str(), r.role);
    if (!target) return failure{error_code::RECIPIENT_NOT_FOUND};

    recipient after = target->data;
    apply_present(r.updates, after);  // every member of the updates names one of the recipient
    if (!phone_satisfies(after.verificationType, after.phone))
        return invalid_at({"updates", "phone"}, problem_kind::rule, std::string(sms_needs_phone_message));
    for (const auto& other : env.recipients)
        if (&other != target && other.data.email == after.email && other.data.role == after.role)
            return failure{error_code::DUPLICATE_RECIPIENT};
    // The plan is asked only when the update asks for sms (a recipient made sms while the plan
    // had the feature may still be edited).
    if (r.updates.verificationType == verification_type::sms && !c.team->has(plan_feature::sms))
        return failure{error_code::FEATURE_NOT_IN_CURRENT_PLAN};

    target->data = std::move(after);
    c.touch(env.update_date);
    return envelope_update_recipient_response{detail::updated_view(*target)};
}

// ---------------------------------------------------------------------------------------------
// /public/envelope/delete-recipients (all or nothing)

inline outcome<envelope_delete_recipients_response> handle(context& c, const envelope_delete_recipients_request& r) {
    auto found = envelope_store::find_draft(c, r.workspaceUuid, r.envelopeUuid);
    if (found.error) return *found.error;
    envelope_record& env = *found.envelope;
    for (const auto& item : r.recipients)
        if (!env.find_recipient(item.email.str())) return failure{error_code::RECIPIENT_NOT_FOUND};

    std::erase_if(env.recipients, [&](const recipient_record& rec) {
        return std::any_of(r.recipients.begin(), r.recipients.end(),
                           [&](const delete_recipients_item& item) { return item.email.str() == rec.data.email; });
    });
    c.touch(env.update_date);
    return envelope_delete_recipients_response{};
}

}  // namespace esign::reference::handlers
