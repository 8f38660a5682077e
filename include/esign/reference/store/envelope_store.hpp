// SPDX-License-Identifier: BSL-1.0
#pragma once
// The envelope store (namespace envelope_store), what the envelope handlers share: finding the
// envelope a request names; new envelope,
// document and recipient records with the defaults of contract.md §3; whose turn it is;
// invitation e-mails; and how an envelope ends. Apart from the lookups, everything here changes
// the store: handlers call it only once every check has passed.
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <esign/reference/context.hpp>
#include <esign/reference/store/events.hpp>
#include <esign/rules/colors.hpp>
#include <esign/rules/envelope_rules.hpp>
#include <esign/rules/lifecycle.hpp>
#include <esign/rules/status_rules.hpp>

namespace esign::reference::envelope_store {

// ---------------------------------------------------------------------------------------------
// Finding what a request names (contract.md §3: WORKSPACE_NOT_FOUND, then ENVELOPE_NOT_FOUND)

struct envelope_lookup {
    workspace_record* workspace = nullptr;
    envelope_record* envelope = nullptr;
    std::optional<failure> error;
};

inline envelope_lookup find_envelope(context& c, const std::optional<uuid36>& workspace_uuid,
                                     const uuid36& envelope_uuid) {
    envelope_lookup found;
    found.workspace = c.resolve_workspace(workspace_uuid);
    if (!found.workspace) {
        found.error = failure{error_code::WORKSPACE_NOT_FOUND};
        return found;
    }
    found.envelope = c.envelope_in(*found.workspace, envelope_uuid);
    if (!found.envelope) found.error = failure{error_code::ENVELOPE_NOT_FOUND};
    return found;
}

// The same for an operation that changes a draft only: an envelope found but no longer a draft
// is the error too (the recipient operations; status_rules.hpp's check_draft).
inline envelope_lookup find_draft(context& c, const std::optional<uuid36>& workspace_uuid,
                                  const uuid36& envelope_uuid) {
    envelope_lookup found = find_envelope(c, workspace_uuid, envelope_uuid);
    if (!found.error)
        if (auto code = rules::check_draft(found.envelope->status)) found.error = failure{*code};
    return found;
}

// An envelope of any workspace of the team (the control operations name it by its uuid alone).
inline envelope_record* any_envelope(context& c, std::string_view uuid) {
    auto it = c.st.envelopes.find(uuid);
    return it == c.st.envelopes.end() ? nullptr : &it->second;
}

// A document of the envelope (attachments are not documents: envelope/get lists them apart).
inline document_record* find_document(envelope_record& env, std::string_view uuid) {
    document_record* d = env.find_document(uuid);
    return d && !d->is_attachment ? d : nullptr;
}

// ---------------------------------------------------------------------------------------------
// New records

inline document_record new_document(context& c, std::string title, std::int64_t page_count, bool is_attachment) {
    document_record d;
    d.doc.uuid = c.ids.uuid();
    d.doc.title = std::move(title);
    d.doc.pageCount = page_count;
    d.is_attachment = is_attachment;
    return d;
}

// The refusal of the tags `names` would add to an envelope holding `held` (tags are a set, rules::add_tags; bounds in
// team/limits.hpp): a name longer than an envelope_tag, at `at` + its index; more than
// max_tags_per_envelope on the envelope, at `at`. Repeated updates add up to that bound.
inline std::optional<failure> tags_refused(const std::vector<std::string>& held, const std::vector<std::string>& names,
                                           const problem_path& at) {
    problem_list problems;
    for (std::size_t i = 0; i < names.size() && problems.size() < max_reported_problems; ++i) {
        auto judged = esign::check(envelope_tag(names[i]));
        if (judged) continue;
        problem_path where = at;
        where.push_back(std::to_string(i));
        append_below(problems, where, judged.problems());
    }
    std::set<std::string_view> present(held.begin(), held.end());
    std::size_t added = 0;
    for (const auto& name : names) added += present.insert(name).second ? 1 : 0;
    if (!has_room(held.size(), added, max_tags_per_envelope))
        problems.push_back(collection_full(at, "tags", max_tags_per_envelope, "envelope"));
    if (problems.empty()) return std::nullopt;
    return failure{error_code::INVALID_REQUEST_FORMAT, std::move(problems), {}};
}

// A draft owned by the team's owner, with the defaults of a new envelope.
// The refusal of a new envelope when the team holds as many as it may (team/limits.hpp), for
// every operation that makes one.
inline std::optional<failure> no_room_for_envelope(const context& c) {
    if (has_room(c.st.envelopes.size(), 1, max_envelopes_per_team)) return std::nullopt;
    return failure{error_code::INVALID_REQUEST_FORMAT, {collection_full({}, "envelopes", max_envelopes_per_team)}};
}

inline envelope_record new_envelope(context& c, const team_record& team, const workspace_record& ws,
                                    std::string title) {
    envelope_record env;
    env.uuid = c.ids.uuid();
    env.team_uuid = team.uuid;
    env.workspace_uuid = ws.uuid;
    env.title = std::move(title);
    env.status = envelope_status::draft;
    env.creation_date = c.now;
    env.update_date = c.now;
    env.timestamp_enabled = team.has(plan_feature::timestamp);
    env.seq = c.st.sequence();
    return env;
}

inline bool is_contact(const state& st, std::string_view workspace_uuid, std::string_view email) {
    return st.find_contact(workspace_uuid, email) != nullptr;
}

// What a new recipient is made of; absent members take the defaults of contract.md §3.
struct recipient_input {
    std::string email;
    std::string firstname;
    std::string lastname;
    std::optional<std::string> phone;
    std::optional<esign::language> language;
    std::optional<verification_type> verification;
};

inline std::optional<std::int64_t> highest_order(const std::vector<recipient_record>& recipients) {
    std::optional<std::int64_t> highest;
    for (const auto& r : recipients)
        if (!highest || r.data.order > *highest) highest = r.data.order;
    return highest;
}

// A signer to append to `env`: its order and colour follow from the recipients before it.
inline recipient_record next_recipient(const state& st, const envelope_record& env, recipient_input in) {
    recipient_record r;
    r.data.associatedContact = is_contact(st, env.workspace_uuid, in.email);
    r.data.email = std::move(in.email);
    r.data.firstname = std::move(in.firstname);
    r.data.lastname = std::move(in.lastname);
    r.data.phone = in.phone.value_or("");
    r.data.role = recipient_role::signer;
    r.data.status = recipient_status::pending;
    r.data.order = rules::next_recipient_order(highest_order(env.recipients));
    r.data.language = in.language.value_or(language::en);
    r.data.verificationType = in.verification.value_or(verification_type::none);
    r.color = rules::color_for_recipient(env.recipients.size());
    return r;
}

// Appends a signer for each input, in order.
inline void append_recipients(const state& st, envelope_record& env, std::vector<recipient_input> inputs) {
    for (auto& in : inputs) {
        recipient_record r = next_recipient(st, env, std::move(in));
        env.recipients.push_back(std::move(r));
    }
}

// Stores a new envelope, with its log and webhook event.
inline envelope_record& commit_new_envelope(context& c, envelope_record env, const team_record& team) {
    std::string uuid = env.uuid;
    envelope_record& stored = c.st.envelopes[uuid] = std::move(env);
    if (c.st.due.valid) c.st.order.add(stored);  // else rebuilt whole before it is read
    boost::json::object data;
    data["title"] = stored.title;
    log_envelope(c, stored, envelope_log_event::ENVELOPE_CREATED, owner_author(team), data);
    emit_webhook(c, stored, webhook_event::ENVELOPE_CREATED, std::move(data));
    return stored;
}

// ---------------------------------------------------------------------------------------------
// Turns (rules::is_turn over the envelope's recipients)

inline std::vector<rules::party> parties_of(const envelope_record& env) {
    std::vector<rules::party> parties;
    parties.reserve(env.recipients.size());
    for (const auto& r : env.recipients) parties.push_back(rules::party{r.data.role, r.data.status, r.data.order});
    return parties;
}

inline bool is_turn(const envelope_record& env, std::size_t who) {
    const auto parties = parties_of(env);
    return rules::is_turn(parties, who, env.status, env.signature_order);
}

// For every recipient, in order: whether it may approve, sign or decline now.
inline std::vector<bool> whose_turn(const envelope_record& env) {
    const auto parties = parties_of(env);
    std::vector<bool> turn(parties.size());
    for (std::size_t i = 0; i < parties.size(); ++i)
        turn[i] = rules::is_turn(parties, i, env.status, env.signature_order);
    return turn;
}

inline bool none_pending(const envelope_record& env, recipient_role role) {
    for (const auto& r : env.recipients)
        if (r.data.role == role && r.data.status == recipient_status::pending) return false;
    return true;
}

// Invitation e-mails to the recipients whose turn it is and who were not e-mailed yet (a
// recipient is e-mailed once, when its turn comes; lastNotificationDate stays null until then).
inline void email_whose_turn(context& c, envelope_record& env) {
    if (!sends_email(env)) return;
    const auto turn = whose_turn(env);
    for (std::size_t i = 0; i < env.recipients.size(); ++i) {
        auto& r = env.recipients[i];
        if (turn[i] && r.data.invitation && r.data.invitation->lastNotificationDate.is_null())
            send_email(c, env, r, outbox_kind::invitation, c.now);
    }
}

// ---------------------------------------------------------------------------------------------
// Statuses

// Every change of a stored envelope's status goes through here, so that the list order by
// status (state::order) follows it.
inline void set_status(state& st, envelope_record& env, envelope_status to) {
    if (env.status == to) return;
    const envelope_status from = env.status;
    env.status = to;
    if (st.due.valid) st.order.moved(env, from);  // else rebuilt whole before it is read
}

// ---------------------------------------------------------------------------------------------
// Endings

// The envelope takes `event` to a final status (complete, declined, canceled, expired; the
// caller made sure the transition exists): the invitations are gone, and, except on completion
// (viewers stay pending), the still-pending recipients are canceled.
inline void end(context& c, envelope_record& env, rules::envelope_event event) {
    const auto to = rules::next_status(env.status, event);
    if (!to) return;
    set_status(c.st, env, *to);
    c.touch(env.update_date);
    for (auto& r : env.recipients) {
        r.data.invitation.reset();
        if (*to != envelope_status::complete && r.data.status == recipient_status::pending)
            r.data.status = recipient_status::canceled;
    }
}

}  // namespace esign::reference::envelope_store
