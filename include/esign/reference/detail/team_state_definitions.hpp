// SPDX-License-Identifier: BSL-1.0
#pragma once
// The definitions of team/snapshot_state.hpp's check_state, name_team_in_payload and
// install_state: the rules of a state the API could have produced, checked member by member
// (every record type's), and its installation in a store.
#include <algorithm>
#include <array>
#include <cassert>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <esign/json/check.hpp>
#include <esign/reference/detail/backend_inline.hpp>
#include <esign/reference/team/limits.hpp>
#include <esign/reference/team/snapshot_state.hpp>
#include <esign/reference/team/timeline.hpp>
#include <esign/validation/enum_names.hpp>

namespace esign::reference {

namespace state_check {

// Where a member stands below the check's root: up to max_parts parts, views of strings that
// outlive its use (the state's own keys, names written here, an index's digits the caller keeps).
// It becomes a problem_path only when a problem is reported there, so a state without problems
// (every snapshot the API took) builds no path: restoring 1,000 envelopes spent a fifth of its
// time building paths that no problem needed.
class where {
public:
    static constexpr std::size_t max_parts = 8;  // the deepest: envelopes/K/recipients/I/data/invitation/...

    where(std::initializer_list<std::string_view> parts) noexcept { append(parts); }
    // This place and then `parts` below it.
    where operator()(std::initializer_list<std::string_view> parts) const noexcept {
        where w = *this;
        w.append(parts);
        return w;
    }
    problem_path below(const problem_path& root) const {
        problem_path p;
        p.reserve(root.size() + size_);
        p.assign(root.begin(), root.end());
        for (std::size_t i = 0; i < size_; ++i) p.emplace_back(parts_[i]);
        return p;
    }

private:
    void append(std::initializer_list<std::string_view> parts) noexcept {
        // The paths of this file are at most max_parts deep (a deeper one would lose its tail:
        // the assertion says so in the tests' builds).
        assert(size_ + parts.size() <= max_parts);
        for (auto part : parts)
            if (size_ < max_parts) parts_[size_++] = part;
    }
    std::array<std::string_view, max_parts> parts_{};
    std::size_t size_ = 0;
};

// The problems of a check, at the check's root + their place; at most max_reported_problems are
// kept (a state of a million bad records answers a bounded error body).
class problems {
public:
    explicit problems(const problem_path& root) : root_(root) {}

    void add(const where& at, problem_kind kind, std::string message) {
        if (out_.size() < max_reported_problems)
            out_.push_back(problem{at.below(root_), kind, std::nullopt, std::move(message)});
    }
    // `value` judged by the model type T (the type of the request member that sets it, so the
    // same bounds: esign::check), its problems at `at`.
    template <class T, class V>
    void typed(const where& at, const V& value) {
        auto judged = esign::check(T(value));
        if (!judged) append_below(out_, at.below(root_), judged.problems());
    }
    // An instant within the clock's reach (rules::latest_instant_ms).
    void instant(const where& at, std::int64_t t) {
        if (t < -rules::latest_instant_ms || t > rules::latest_instant_ms)
            add(at, problem_kind::range,
                "must be an instant within ±" + std::to_string(rules::latest_instant_ms) + " ms");
    }
    // creation ≤ update, both instants.
    void dates(const where& record, std::int64_t creation, std::int64_t update) {
        instant(record({"creation_date"}), creation);
        instant(record({"update_date"}), update);
        if (update < creation) add(record({"update_date"}), problem_kind::rule, "is before creation_date");
    }
    problem_list take() && { return std::move(out_); }

private:
    const problem_path& root_;
    problem_list out_;
};

inline bool acted(recipient_status s) {
    return s == recipient_status::approved || s == recipient_status::signed_ || s == recipient_status::declined;
}

// The statuses a role's recipient can have: signers sign, approvers approve, viewers only view.
inline bool fits_role(recipient_role role, recipient_status s) {
    switch (role) {
        case recipient_role::signer:
            return s != recipient_status::approved;
        case recipient_role::approver:
            return s != recipient_status::signed_;
        case recipient_role::viewer:
            return s == recipient_status::pending || s == recipient_status::canceled;
    }
    return false;
}

// One envelope (see check_state for the rules), at `at`.
inline void envelope(problems& out, const where& at, const envelope_record& e) {
    using rules::is_in_progress;
    auto member = [&](std::string_view m) { return at({m}); };
    out.typed<decltype(control_envelope_content::title)>(member("title"), e.title);
    out.dates(at, e.creation_date, e.update_date);
    out.typed<timeline::expiration_days>(member("expiration_period"), e.expiration_period);
    // Tags as envelope/update keeps them (team/limits.hpp): names of an envelope_tag, distinct.
    if (e.tags.size() > max_tags_per_envelope)
        out.add(member("tags"), problem_kind::size,
                "must have at most " + std::to_string(max_tags_per_envelope) + " items");
    std::set<std::string_view> tags;
    for (std::size_t i = 0; i < e.tags.size(); ++i) {
        const std::string index = std::to_string(i);
        out.typed<envelope_tag>(at({"tags", index}), e.tags[i]);
        if (!tags.insert(e.tags[i]).second)
            out.add(at({"tags", index}), problem_kind::rule, "is a tag of the envelope already");
    }
    if (e.reminder_frequency)
        out.typed<timeline::reminder_frequency_days>(member("reminder_frequency"), *e.reminder_frequency);

    const bool sent = e.status != envelope_status::draft && e.status != envelope_status::uploading;
    if (e.status == envelope_status::uploading)
        out.add(member("status"), problem_kind::rule, "is not a status that an operation gives");
    if (e.sent_date) {
        out.instant(member("sent_date"), *e.sent_date);
        if (!sent)
            out.add(member("sent_date"), problem_kind::rule, "is set, and the envelope was never sent");
        else if (*e.sent_date < e.creation_date || *e.sent_date > e.update_date)
            out.add(member("sent_date"), problem_kind::rule, "is not between creation_date and update_date");
    } else if (sent && e.status != envelope_status::canceled) {
        out.add(member("sent_date"), problem_kind::rule, "is required once the envelope was sent");
    }
    // Reminder rounds fall every frequency days after send, strictly before the expiry; only for
    // an envelope sent with a frequency whose e-mails go out.
    const std::int64_t most = e.sent_date && e.reminder_frequency && sends_email(e)
                                  ? rules::max_reminder_rounds(e.expiration_period, *e.reminder_frequency)
                                  : 0;
    if (e.reminders_sent < 0 || e.reminders_sent > most)
        out.add(member("reminders_sent"), problem_kind::range,
                "must be from 0 to " + std::to_string(most) + " (the rounds that fall before the expiry)");

    // Recipients: their statuses follow the envelope's (contract.md §3, rules/lifecycle.hpp).
    struct count {
        std::size_t all = 0, pending = 0, acted = 0, declined = 0, canceled = 0;
        std::int64_t latest_acted = std::numeric_limits<std::int64_t>::min();
        std::int64_t earliest_waiting = std::numeric_limits<std::int64_t>::max();
    };
    std::array<count, enum_count<recipient_role>()> by_role{};  // (the decoder keeps roles within the enum)
    auto of_role = [&](recipient_role role) -> count& {
        return by_role[static_cast<std::size_t>(role) % by_role.size()];
    };
    std::set<std::pair<std::string_view, recipient_role>> seen;
    for (std::size_t i = 0; i < e.recipients.size(); ++i) {
        const recipient& r = e.recipients[i].data;
        const std::string index = std::to_string(i);
        auto at_r = [&](std::string_view m) { return at({"recipients", index, "data", m}); };
        out.typed<email255>(at_r("email"), r.email);
        if (!seen.emplace(r.email, r.role).second)
            out.add(at_r("email"), problem_kind::rule, "is a recipient of that role already");
        if (!fits_role(r.role, r.status))
            out.add(at_r("status"), problem_kind::rule, "is not a status of a recipient of that role");
        if (r.invitation) {
            if (!is_in_progress(e.status))
                out.add(at_r("invitation"), problem_kind::rule, "is set, and the envelope is not in progress");
            out.instant(at_r("invitation")({"creationDate"}), r.invitation->creationDate);
            if (!r.invitation->lastNotificationDate.is_null())
                out.instant(at_r("invitation")({"lastNotificationDate"}), *r.invitation->lastNotificationDate);
        }
        count& c = of_role(r.role);
        ++c.all;
        if (r.status == recipient_status::pending) ++c.pending;
        if (r.status == recipient_status::declined) ++c.declined;
        if (r.status == recipient_status::canceled) ++c.canceled;
        if (acted(r.status)) {
            ++c.acted;
            c.latest_acted = std::max(c.latest_acted, r.order);
        } else {
            c.earliest_waiting = std::min(c.earliest_waiting, r.order);
        }
    }
    const count signers = of_role(recipient_role::signer), approvers = of_role(recipient_role::approver),
                viewers = of_role(recipient_role::viewer);
    const std::size_t pending = signers.pending + approvers.pending + viewers.pending;
    const std::size_t declined = signers.declined + approvers.declined;
    const std::size_t canceled = signers.canceled + approvers.canceled + viewers.canceled;
    std::string wrong;  // what the recipients' statuses break, if anything
    if (sent && e.sent_date && signers.all == 0)
        wrong = "a sent envelope has a signer";
    else if (signers.acted > 0 && approvers.acted != approvers.all)
        wrong = "signers act once every approver approved";
    else if (declined > 1)
        wrong = "one recipient declines, at most";
    else
        switch (e.status) {
            case envelope_status::uploading:
            case envelope_status::draft:
                if (pending != e.recipients.size()) wrong = "every recipient of a draft is pending";
                break;
            case envelope_status::approving:
                if (signers.acted > 0 || declined > 0 || canceled > 0 || approvers.pending == 0)
                    wrong = "approving: some approver is pending, no one declined, no signer acted";
                break;
            case envelope_status::signing:
                if (declined > 0 || canceled > 0 || signers.pending == 0 || approvers.acted != approvers.all)
                    wrong = "signing: some signer is pending, every approver approved, no one declined";
                break;
            case envelope_status::complete:
                if (signers.acted != signers.all || declined > 0 || canceled > 0)
                    wrong = "complete: every approver approved and every signer signed";
                break;
            case envelope_status::declined:
                if (declined != 1 || pending > 0)
                    wrong = "declined: one recipient declined, the others pending no more";
                break;
            case envelope_status::canceled:
            case envelope_status::expired:
                if (declined > 0 || pending > 0) wrong = "canceled or expired: no recipient pending or declined";
                break;
        }
    // With signature order, a role's recipients act lowest order first.
    if (wrong.empty() && e.signature_order)
        for (const count& c : by_role)
            if (c.acted > 0 && c.latest_acted > c.earliest_waiting)
                wrong = "with signature order, a recipient acts only after those of lower order";
    if (!wrong.empty()) out.add(member("recipients"), problem_kind::rule, "do not fit the envelope's status: " + wrong);

    for (std::size_t i = 0; i < e.documents.size(); ++i) {
        const document& d = e.documents[i].doc;
        const std::string index = std::to_string(i);
        const where at_d = at({"documents", index, "doc"});
        out.typed<decltype(control_document_input::title)>(at_d({"title"}), d.title);
        if (!e.documents[i].is_attachment)  // (an attachment has no pages: 0)
            out.typed<decltype(control_document_input::pageCount)>(
                at_d({"pageCount"}),
                static_cast<std::int32_t>(std::clamp<std::int64_t>(d.pageCount, INT32_MIN, INT32_MAX)));
        else if (d.pageCount != 0)
            out.add(at_d({"pageCount"}), problem_kind::range, "must be 0 for an attachment");
        for (const auto& [page, blocks] : d.blocks)
            if (!rules::page_in_document(page, d.pageCount))
                out.add(at_d({"blocks", page}), problem_kind::rule, "is not a page of the document");
    }
}

}  // namespace state_check

// Whether `s` can be the state of a team whose default workspace is `default_workspace`: a state
// that the public API could have produced (contract.md §6.9). A snapshot taken through the API
// always passes; anything else is refused with every problem at `at` + its member (at most
// max_reported_problems of them). The rules:
//  - References: every map key names its record; the default workspace is a workspace of the
//    state, and the only one marked default; envelopes, templates, contacts name workspaces of
//    the state, webhooks' workspaceUuids too; iframe tokens name an envelope of the state;
//    pending deliveries carry a JSON object, their attempt at least 1 (the restore also bounds
//    it by the attempts a delivery gets).
//  - Bounds of the members that requests set, judged by the request members' own types
//    (esign::check): titles, names, colours, e-mails, webhook url, secret and title, labels,
//    page counts, expiration period (1-90 days), reminder frequency (at least a day); a block's
//    page is a page of its document; an envelope's tags distinct, each an envelope_tag, at most
//    max_tags_per_envelope of them.
//  - Times: every stored instant within the clock's reach (±rules::latest_instant_ms), creation
//    before update; the clock offset within ±100 years (rules::max_clock_offset_ms; §6.9).
//    Instants are not compared with the team's clock: a snapshot of one team may seed another
//    whose clock stands earlier.
//  - An envelope's status with its dates: sent_date absent on a draft, present once sent (except
//    a draft canceled), between creation and update; no `uploading`; reminders_sent from 0 to
//    the rounds that fall before the expiry (0 without a frequency, unsent, or without e-mails).
//  - Its recipients' statuses fit their roles and the envelope's status (contract.md §3: a
//    draft's are pending; approving: an approver pending, no signer acted; signing: every
//    approver approved, a signer pending; complete: every signer signed; declined: exactly one
//    declined; declined, canceled, expired: none pending), a sent envelope has a signer, one
//    (e-mail, role) per envelope, invitations only while in progress, and with signature order a
//    role's recipients acted lowest order first.
//  - Sequence numbers of records (workspaces, envelopes, templates, contacts, webhooks, logs) are
//    distinct and below next_seq; the stream reads; the per-team limits hold.
ESIGN_DETAIL_BACKEND_INLINE problem_list check_state(const team_state& s, std::string_view default_workspace,
                                                     const problem_path& at) {
    state_check::problems out(at);
    using state_check::where;
    auto keyed = [&](std::string_view member, const std::string& key, const std::string& uuid) {
        if (key != uuid) out.add({member, key, "uuid"}, problem_kind::rule, "differs from its key");
    };
    auto in_workspace = [&](const where& path, const std::string& workspace) {
        if (!s.workspaces.count(workspace)) out.add(path, problem_kind::rule, "is not a workspace of the state");
    };
    if (s.clock_offset < -rules::max_clock_offset_ms || s.clock_offset > rules::max_clock_offset_ms)
        out.add({"clock_offset"}, problem_kind::range,
                "must be within ±" + std::to_string(rules::max_clock_offset_ms) + " ms (100 years)");

    // The per-team bounds (team/limits.hpp; max_webhooks_per_team: model/webhook.hpp), as the
    // API keeps them: no state holds more than a team could have made. First, so that their
    // problems are among the max_reported_problems kept.
    auto at_most = [&](std::string_view member, std::size_t size, std::size_t max) {
        if (size > max) out.add({member}, problem_kind::size, "must have at most " + std::to_string(max) + " items");
    };
    at_most("workspaces", s.workspaces.size(), max_workspaces_per_team);
    at_most("envelopes", s.envelopes.size(), max_envelopes_per_team);
    at_most("templates", s.templates.size(), max_templates_per_team);
    at_most("contacts", s.contacts.size(), max_contacts_per_team);
    at_most("logs", s.logs.size(), max_kept_logs);
    at_most("webhooks", s.webhooks.size(), max_webhooks_per_team);
    at_most("outbox", s.outbox.size(), max_kept_records);
    at_most("deliveries", s.deliveries.size(), max_kept_records);
    at_most("pending_deliveries", s.pending_deliveries.size(), max_pending_deliveries);

    // Sequence numbers: distinct, below next_seq.
    std::unordered_set<std::uint64_t> seqs;
    auto sequenced = [&](const where& path, std::uint64_t seq) {
        if (seq >= s.next_seq)
            out.add(path, problem_kind::rule, "is not below next_seq");
        else if (!seqs.insert(seq).second)
            out.add(path, problem_kind::rule, "is the seq of another record");
    };
    if (s.next_seq > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        out.add({"next_seq"}, problem_kind::range, "must be below 2^63");

    if (!s.workspaces.count(std::string(default_workspace)))
        out.add({"workspaces"}, problem_kind::rule,
                "has no workspace " + std::string(default_workspace) + " (the team's default workspace)");
    for (const auto& [key, ws] : s.workspaces) {
        keyed("workspaces", key, ws.uuid);
        const where p{"workspaces", key};
        out.typed<decltype(workspace_create_request::name)>(p({"name"}), ws.name);
        out.typed<hex_color>(p({"color_hex"}), ws.color_hex);
        if (ws.is_default != (key == default_workspace))
            out.add(p({"is_default"}), problem_kind::rule, "must be true for the default workspace alone");
        out.dates(p, ws.creation_date, ws.update_date);
        sequenced(p({"seq"}), ws.seq);
    }
    for (const auto& [key, env] : s.envelopes) {
        keyed("envelopes", key, env.uuid);
        const where p{"envelopes", key};
        in_workspace(p({"workspace_uuid"}), env.workspace_uuid);
        state_check::envelope(out, p, env);
        sequenced(p({"seq"}), env.seq);
    }
    for (const auto& [key, tpl] : s.templates) {
        keyed("templates", key, tpl.uuid);
        const where p{"templates", key};
        in_workspace(p({"workspace_uuid"}), tpl.workspace_uuid);
        out.typed<decltype(control_template_content::title)>(p({"title"}), tpl.title);
        std::set<std::string_view> labels;
        for (std::size_t i = 0; i < tpl.labels.size(); ++i) {
            out.typed<bounded_string<1, 255>>(p({"labels", std::to_string(i)}), tpl.labels[i]);
            if (!labels.insert(tpl.labels[i]).second)
                out.add(p({"labels", std::to_string(i)}), problem_kind::rule, "recipient labels must be distinct");
        }
        out.dates(p, tpl.creation_date, tpl.update_date);
        sequenced(p({"seq"}), tpl.seq);
    }
    std::set<std::pair<std::string_view, std::string_view>> contact_emails;
    for (std::size_t i = 0; i < s.contacts.size(); ++i) {
        const contact_record& c = s.contacts[i];
        const std::string index = std::to_string(i);
        const where p{"contacts", index};
        in_workspace(p({"workspace_uuid"}), c.workspace_uuid);
        out.typed<email255>(p({"data", "email"}), c.data.email);
        if (!contact_emails.emplace(c.workspace_uuid, c.data.email).second)
            out.add(p({"data", "email"}), problem_kind::rule, "is a contact of that workspace already");
        sequenced(p({"seq"}), c.seq);
    }
    for (const auto& [key, hook] : s.webhooks) {
        keyed("webhooks", key, hook.data.uuid);
        const where p{"webhooks", key};
        out.typed<decltype(webhook_create_request::url)>(p({"url"}), hook.url);
        if (hook.secret) out.typed<webhook_secret>(p({"secret"}), *hook.secret);
        if (!hook.data.title.is_null()) out.typed<webhook_title>(p({"data", "title"}), *hook.data.title);
        for (std::size_t i = 0; i < hook.data.workspaceUuids.size(); ++i)
            in_workspace(p({"data", "workspaceUuids", std::to_string(i)}), hook.data.workspaceUuids[i]);
        out.instant(p({"data", "creationDate"}), hook.data.creationDate);
        out.instant(p({"data", "updateDate"}), hook.data.updateDate);
        if (hook.data.updateDate < hook.data.creationDate)
            out.add(p({"data", "updateDate"}), problem_kind::rule, "is before creationDate");
        sequenced(p({"seq"}), hook.seq);
    }
    for (std::size_t i = 0; i < s.logs.size(); ++i) {
        const std::string index = std::to_string(i);
        const where p{"logs", index};
        out.instant(p({"entry", "timestamp"}), s.logs[i].entry.timestamp);
        sequenced(p({"seq"}), s.logs[i].seq);
    }
    for (std::size_t i = 0; i < s.outbox.size(); ++i)
        out.instant({"outbox", std::to_string(i), "timestamp"}, s.outbox[i].timestamp);
    for (std::size_t i = 0; i < s.deliveries.size(); ++i)
        if (s.deliveries[i].attempts < 0)
            out.add({"deliveries", std::to_string(i), "attempts"}, problem_kind::range, "must be at least 0");
    // (A token's signer may have left its draft since: only its envelope is known to exist.)
    for (const auto& [token, t] : s.iframe_tokens) {
        if (!s.envelopes.count(t.envelope_uuid))
            out.add({"iframe_tokens", token, "envelope_uuid"}, problem_kind::rule, "is not an envelope of the state");
        out.instant({"iframe_tokens", token, "expires_at"}, t.expires_at);
    }
    for (std::size_t i = 0; i < s.pending_deliveries.size(); ++i) {
        const webhook_job& job = s.pending_deliveries[i];
        // (Its webhook may be gone: a deleted webhook's queued deliveries are dropped when due.)
        boost::system::error_code ec;
        const boost::json::value payload = boost::json::parse(job.payload, ec);
        if (ec || !payload.is_object())
            out.add({"pending_deliveries", std::to_string(i), "payload"}, problem_kind::rule,
                    "is not a JSON object (a webhook event)");
        if (job.attempt < 1)
            out.add({"pending_deliveries", std::to_string(i), "attempt"}, problem_kind::range, "must be at least 1");
    }
    if (s.stream && !id_source::can_load(*s.stream))
        out.add({"stream"}, problem_kind::rule, "is not the state of an identifier stream");
    return std::move(out).take();
}

// A webhook event of a restored team names that team (contract.md §6.9): its payload's teamUuid
// becomes `team` (a payload that is not an object, refused by check_state, stays as it is).
ESIGN_DETAIL_BACKEND_INLINE void name_team_in_payload(webhook_job& job, const std::string& team) {
    boost::system::error_code ec;
    boost::json::value payload = boost::json::parse(job.payload, ec);
    if (ec || !payload.is_object()) return;
    auto& o = payload.as_object();
    if (o.contains("teamUuid")) {
        o["teamUuid"] = team;
        job.payload = boost::json::serialize(payload);
    }
}

// Replaces the records of `st` by those of a checked state; they take the uuid of the team
// that `st` holds (a snapshot of one team can seed another). The stream goes to `ids`; the
// team's link tokens are `kept` (the state file's) and new ones (renew_signer_secrets).
ESIGN_DETAIL_BACKEND_INLINE void install_state(state& st, team_state s, id_source& ids,
                                               std::span<const signing_link> kept) {
    const std::string& team = st.teams.begin()->second.uuid;
    st.clock_offset = s.clock_offset;
    std::uint64_t next = s.next_seq;
    auto after = [&](std::uint64_t seq) { next = std::max(next, seq + 1); };
    auto own = [&](auto& record) {
        record.team_uuid = team;
        after(record.seq);
    };
    for (auto& entry : s.workspaces) own(entry.second);
    for (auto& entry : s.envelopes) own(entry.second);
    for (auto& entry : s.templates) own(entry.second);
    for (auto& entry : s.webhooks) own(entry.second);
    for (auto& log : s.logs) {
        own(log);
        // (TEAM_CREATED's eventData names its team: the restoring one, contract.md §6.9.)
        if (auto* named = log.entry.eventData.if_contains("teamUuid"); named && named->is_string()) *named = team;
    }
    for (const auto& c : s.contacts) after(c.seq);
    for (auto& mail : s.outbox) mail.team_uuid = team;
    st.next_seq = next;
    st.workspaces = std::move(s.workspaces);
    st.envelopes.clear();
    st.envelopes.reserve(s.envelopes.size());
    while (!s.envelopes.empty()) {  // each key moved, not copied
        auto node = s.envelopes.extract(s.envelopes.begin());
        st.envelopes.emplace(std::move(node.key()), std::move(node.mapped()));
    }
    st.due = {};  // made from the envelopes at first use
    st.templates = std::move(s.templates);
    st.contacts = std::move(s.contacts);
    st.index_contacts();
    st.webhooks = std::move(s.webhooks);
    st.logs = std::move(s.logs);
    st.index_logs();
    st.outbox.assign(s.outbox.begin(), s.outbox.end());
    st.deliveries.assign(s.deliveries.begin(), s.deliveries.end());
    // The team's secrets go, a snapshot's are not taken (they would be another team's, or the same
    // team's from another time); the restored e-mails get new links (signer_access.hpp), but for
    // those the state file kept.
    renew_signer_secrets(st, kept);
    if (s.stream) ids.load(*s.stream);
}

}  // namespace esign::reference
