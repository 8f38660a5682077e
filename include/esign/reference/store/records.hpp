// SPDX-License-Identifier: BSL-1.0
#pragma once
// Everything the reference backend stores, as plain records. Handlers read and change these;
// responses are built from them by store/views.hpp. Records keep the model's resource types where
// the stored thing is exactly the resource (documents, blocks, recipients, contacts, webhooks).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <boost/describe/class.hpp>

#include <esign/model/model.hpp>
#include <esign/reference/store/signing_links.hpp>
#include <esign/reference/team/limits.hpp>

namespace esign::reference {

struct team_record {
    std::string uuid;
    std::string name;
    std::string api_key;
    std::string owner_uuid;
    std::string owner_email;
    std::optional<std::string> owner_firstname;
    std::optional<std::string> owner_lastname;
    std::int64_t api_credits = 1000;
    std::int64_t email_quota = 1000;
    bool subscription = true;
    std::set<plan_feature> features{plan_feature::sms, plan_feature::timestamp, plan_feature::webhooks};
    std::string default_workspace_uuid;
    std::int64_t creation_date = 0;

    bool has(plan_feature f) const { return features.count(f) != 0; }
};

struct workspace_record {
    std::string uuid;
    std::string team_uuid;
    std::string name;
    std::string color_hex;
    bool is_default = false;
    bool sandbox = false;
    std::int64_t creation_date = 0;
    std::int64_t update_date = 0;
    std::uint64_t seq = 0;  // creation order
};
// Records are described: a team's snapshot (team/snapshot_state.hpp) writes and reads them as they are.
BOOST_DESCRIBE_STRUCT(workspace_record, (),
                      (uuid, team_uuid, name, color_hex, is_default, sandbox, creation_date, update_date, seq))

struct document_record {
    esign::document doc;  // uuid, title, blocks, settings, pageCount
    bool is_attachment = false;
};
BOOST_DESCRIBE_STRUCT(document_record, (), (doc, is_attachment))

struct recipient_record {
    esign::recipient data;  // as returned by envelope/get (invitation included when current)
    block_color color = block_color::primary;
    bool opened = false;  // ENVELOPE_OPENED is logged the first time only
};
BOOST_DESCRIBE_STRUCT(recipient_record, (), (data, color, opened))

struct envelope_record {
    std::string uuid;
    std::string team_uuid;
    std::string workspace_uuid;
    std::string title;
    envelope_status status = envelope_status::draft;
    std::int64_t creation_date = 0;
    std::int64_t update_date = 0;
    std::optional<std::int64_t> sent_date;
    std::vector<document_record> documents;  // documents and attachments, in creation order
    std::vector<std::string> tags;
    bool signature_order = false;
    std::optional<std::string> custom_message;
    bool use_user_as_sender_name = false;
    bool timestamp_enabled = true;
    std::int32_t expiration_period = 30;
    std::optional<std::int32_t> reminder_frequency;
    std::vector<recipient_record> recipients;
    // Set at send: whether e-mails go out (not from a sandbox, distribution e-mail).
    bool sent_from_sandbox = false;
    distribution_method distribution = distribution_method::email;
    std::int64_t reminders_sent = 0;  // reminder rounds already applied
    std::uint64_t seq = 0;            // creation order (ties in creationDate)

    recipient_record* find_recipient(std::string_view email) {
        for (auto& r : recipients)
            if (r.data.email == email) return &r;
        return nullptr;
    }
    document_record* find_document(std::string_view uuid) {
        for (auto& d : documents)
            if (d.doc.uuid == uuid) return &d;
        return nullptr;
    }
};
BOOST_DESCRIBE_STRUCT(envelope_record, (),
                      (uuid, team_uuid, workspace_uuid, title, status, creation_date, update_date, sent_date, documents,
                       tags, signature_order, custom_message, use_user_as_sender_name, timestamp_enabled,
                       expiration_period, reminder_frequency, recipients, sent_from_sandbox, distribution,
                       reminders_sent, seq))

struct template_record {
    std::string uuid;
    std::string team_uuid;
    std::string workspace_uuid;
    std::string title;
    std::int64_t creation_date = 0;
    std::int64_t update_date = 0;
    std::vector<esign::document> documents;
    std::vector<std::string> labels;  // recipient labels, in order
    std::uint64_t seq = 0;
};
BOOST_DESCRIBE_STRUCT(template_record, (),
                      (uuid, team_uuid, workspace_uuid, title, creation_date, update_date, documents, labels, seq))

struct contact_record {
    esign::contact data;
    std::string workspace_uuid;
    std::uint64_t seq = 0;
};
BOOST_DESCRIBE_STRUCT(contact_record, (), (data, workspace_uuid, seq))

struct webhook_record {
    esign::webhook data;
    std::string team_uuid;
    std::string url;
    std::optional<std::string> secret;
    std::uint64_t seq = 0;
};
BOOST_DESCRIBE_STRUCT(webhook_record, (), (data, team_uuid, url, secret, seq))

struct log_record {
    std::string team_uuid;
    esign::log_entry entry;
    std::uint64_t seq = 0;  // insertion order: sortBy id
};
BOOST_DESCRIBE_STRUCT(log_record, (), (team_uuid, entry, seq))

struct outbox_record {
    std::string to;
    outbox_kind kind = outbox_kind::invitation;
    std::string envelope_uuid;
    std::string team_uuid;
    std::int64_t timestamp = 0;
};
BOOST_DESCRIBE_STRUCT(outbox_record, (), (to, kind, envelope_uuid, team_uuid, timestamp))

struct delivery_record {
    std::string event_uuid;
    std::string webhook_uuid;
    std::string event_type;
    std::int64_t attempts = 0;
    bool delivered = false;
    std::optional<std::int64_t> last_status;
    bool dropped = false;  // too many pending deliveries when the event came: never attempted
};
BOOST_DESCRIBE_STRUCT(delivery_record, (),
                      (event_uuid, webhook_uuid, event_type, attempts, delivered, last_status, dropped))

struct iframe_token_record {
    std::string envelope_uuid;
    std::string signer_email;
    std::int64_t expires_at = 0;
};
BOOST_DESCRIBE_STRUCT(iframe_token_record, (), (envelope_uuid, signer_email, expires_at))

// An e-mail link token and whom it stands for: what the state file keeps of a team's signer
// secrets, so that the links of its e-mails go on working after a restart (contract.md §7.3).
struct signing_link {
    std::string token;
    uuid36 envelope_uuid;
    std::string email;
};
BOOST_DESCRIBE_STRUCT(signing_link, (), (token, envelope_uuid, email))

// The team's signer secrets besides its iframe tokens (state::iframe_tokens): each collection
// bounded (team/limits.hpp), the oldest dropped first, in O(1) amortized per change.
struct signer_store {
    // The team's part of every token and session it issues (team_shard::signer_key): a secret
    // finds its team without looking at any other, and two teams never issue the same one.
    std::string team_key;
    // iframe tokens in the order they were issued (their expiries, one lifetime after, in the
    // same order while the team's clock moves on), and those exchanged already.
    std::deque<std::pair<std::int64_t, std::string>> iframe_expiries;
    std::unordered_set<std::string> used_iframe_tokens;
    // E-mail link tokens: one per envelope and recipient, reused by every e-mail to them.
    signing_links links;
    // Signer sessions, oldest first.
    std::unordered_map<std::string, signer_grant> sessions;
    std::deque<std::string> session_order;
};

// Appends a record to a bounded log, dropping the oldest beyond max_kept_records.
template <class Record>
void append_bounded(std::deque<Record>& records, Record record) {
    records.push_back(std::move(record));
    while (records.size() > max_kept_records) records.pop_front();
}

// The envelopes' next expiries and reminders, earliest first (team/timeline.hpp keeps it), so that a
// request finds what fell due without looking at every envelope. An entry is never later than
// its envelope's next event (one that ended leaves a stale entry, dropped when it comes up).
// Not part of a snapshot: a store put in place whole starts with `valid` false, and the first
// request that may apply events rebuilds it, and the envelope order below, from the envelopes.
// A copy of a store (a team's initial state, its reset) starts invalid as well.
struct due_index {
    // When an event falls: by time; at the same instant the older envelope first, and an
    // envelope's expiry before its reminder.
    struct time {
        std::int64_t at = 0;
        std::uint64_t seq = 0;  // the envelope's creation order
        bool expiry = false;    // false: a reminder round
        friend bool operator==(const time&, const time&) = default;
        friend bool operator<(const time& a, const time& b) {
            if (a.at != b.at) return a.at < b.at;
            if (a.seq != b.seq) return a.seq < b.seq;
            return a.expiry && !b.expiry;
        }
    };
    struct entry {
        time when;
        std::string envelope;
    };
    struct earlier {
        bool operator()(const entry& a, const entry& b) const {
            if (a.when != b.when) return a.when < b.when;
            return a.envelope < b.envelope;
        }
    };
    std::set<entry, earlier> entries;
    bool valid = false;  // this index and the envelope order (rebuilt together)

    due_index() = default;
    due_index(const due_index&) noexcept {}
    due_index& operator=(const due_index&) noexcept {
        entries.clear();
        valid = false;
        return *this;
    }
    due_index(due_index&&) noexcept = default;
    due_index& operator=(due_index&&) noexcept = default;
};

// Each workspace's envelopes in the order of envelope/list read backwards (the list is newest
// creationDate first, ties newest creation first), so that a page is read in place, without
// sorting or looking at other workspaces' envelopes; and the same per status, so that a page
// filtered by one status is read in place too. Oldest first: a new envelope, nearly always the
// newest, is appended. Valid when the due index is (team/timeline.hpp rebuilds both); it points into
// the store's envelopes, so a copy of a store starts without it.
struct envelope_order {
    using list = std::vector<const envelope_record*>;
    std::unordered_map<std::string, list> by_workspace;
    std::unordered_map<std::string, std::map<envelope_status, list>> by_status;  // by workspace

    envelope_order() = default;
    envelope_order(const envelope_order&) noexcept {}
    envelope_order& operator=(const envelope_order&) noexcept {
        by_workspace.clear();
        by_status.clear();
        return *this;
    }
    envelope_order(envelope_order&&) noexcept = default;
    envelope_order& operator=(envelope_order&&) noexcept = default;

    static bool older(const envelope_record* a, const envelope_record* b) {
        if (a->creation_date != b->creation_date) return a->creation_date < b->creation_date;
        return a->seq < b->seq;
    }

    // Puts `env` in its place in `in`.
    static void put(list& in, const envelope_record& env) {
        // Nearly always the newest: appended without searching (a search touches ~log2(n)
        // envelopes, a cache miss each); in its place when a clock went back.
        if (in.empty() || !older(&env, in.back()))
            in.push_back(&env);
        else
            in.insert(std::upper_bound(in.begin(), in.end(), &env, older), &env);
    }

    // Takes `env` out of `in`. Found by a search; what follows it moves up, little for the
    // recent envelopes that most changes of status are about.
    static void take(list& in, const envelope_record& env) {
        auto it = std::lower_bound(in.begin(), in.end(), &env, older);
        while (it != in.end() && *it != &env && !older(&env, *it)) ++it;  // among equals
        if (it != in.end() && *it == &env) in.erase(it);
    }

    void add(const envelope_record& env) {
        put(by_workspace[env.workspace_uuid], env);
        put(by_status[env.workspace_uuid][env.status], env);
    }

    // `env`'s status changed from `from` (its place in the list, by creation, did not).
    void moved(const envelope_record& env, envelope_status from) {
        auto& lists = by_status[env.workspace_uuid];
        take(lists[from], env);
        put(lists[env.status], env);
    }

    const list& of(const std::string& workspace) const {
        static const list none;
        auto it = by_workspace.find(workspace);
        return it == by_workspace.end() ? none : it->second;
    }
    const list& of(const std::string& workspace, envelope_status status) const {
        static const list none;
        auto lists = by_status.find(workspace);
        if (lists == by_status.end()) return none;
        auto it = lists->second.find(status);
        return it == lists->second.end() ? none : it->second;
    }
};

// The positions in a store's `logs` of each category's logs and of each envelope's, in the
// order of `logs`, so that logs/list reads those only. While that order is also the order of
// timestamps and of insertion (seq) — the team's clock only moves on — a page of either sort is
// read in place. Positions stay right in a copy. Valid while `indexed` equals the number of logs:
// logs put in place whole are indexed again (state::index_logs); otherwise logs/list reads them all.
struct log_index {
    using positions = std::vector<std::uint32_t>;
    std::map<log_category, positions> by_category;
    std::unordered_map<std::string, positions> by_envelope;
    std::size_t indexed = 0;
    bool in_order = true;  // timestamps and seqs never decrease along `logs`
    std::int64_t last_timestamp = std::numeric_limits<std::int64_t>::min();
    std::uint64_t last_seq = 0;

    void add(const log_record& rec, std::size_t position) {
        const auto at = static_cast<std::uint32_t>(position);
        by_category[rec.entry.category].push_back(at);
        if (rec.entry.envelopeUuid) by_envelope[*rec.entry.envelopeUuid].push_back(at);
        if (rec.entry.timestamp < last_timestamp || rec.seq < last_seq) in_order = false;
        last_timestamp = std::max(last_timestamp, rec.entry.timestamp);
        last_seq = std::max(last_seq, rec.seq);
        ++indexed;
    }
    static const positions& in(const auto& map, const auto& key) {
        static const positions none;
        auto it = map.find(key);
        return it == map.end() ? none : it->second;
    }
};

// The position in a store's `contacts` of each contact, by workspace and e-mail, so that finding
// one (the contact operations; every recipient added, for associatedContact) reads no other
// contact. Positions stay right in a copy. Valid while `indexed` equals the number of contacts:
// contacts put in place whole, or after a deletion, are indexed again (state::index_contacts);
// otherwise they are searched one by one.
struct contact_index {
    std::unordered_map<std::string, std::size_t> at;  // key() -> position
    std::size_t indexed = 0;

    static std::string key(std::string_view workspace, std::string_view email) {
        std::string k(workspace);
        k += '\n';  // in neither a uuid nor an e-mail address
        k += email;
        return k;
    }
};

// Hashes a key given as any kind of string, so that finding a uuid makes no std::string.
struct string_hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
};

// A team's envelopes by uuid. Hashed: a request finds its envelope in constant time, however
// many the team holds (an ordered map walks ~20 nodes, a cache miss each, at a million).
// Nothing depends on their order: the list order is `state::order`, and a snapshot
// (team/snapshot_state.hpp) copies them into an ordered map. Records stay in place as it grows
// (rehashing moves none), so `order` may point at them.
using envelope_map = std::unordered_map<std::string, envelope_record, string_hash, std::equal_to<>>;

// A store: the reference backend keeps one per team (its shard), and a fixture is built into one
// and then split by team. Ordered maps keep iteration deterministic; the envelopes are hashed
// (envelope_map), and nothing iterates them where the order shows.
struct state {
    std::map<std::string, team_record> teams;
    std::unordered_map<std::string, std::string> team_by_api_key;
    std::map<std::string, workspace_record> workspaces;
    envelope_map envelopes;
    std::map<std::string, template_record> templates;
    std::vector<contact_record> contacts;
    contact_index contacts_by;  // see contact_index
    std::map<std::string, webhook_record> webhooks;
    std::vector<log_record> logs;
    log_index logs_by;  // see log_index
    std::deque<outbox_record> outbox;
    std::deque<delivery_record> deliveries;
    std::unordered_map<std::string, iframe_token_record> iframe_tokens;
    signer_store signer;  // link tokens, sessions, and the order of the iframe tokens
    due_index due;
    envelope_order order;  // valid when `due` is
    std::int64_t clock_offset = 0;
    std::uint64_t next_seq = 1;

    std::uint64_t sequence() { return next_seq++; }

    // Appends a log record, indexed. Beyond `most` (max_kept_logs; smaller in tests), the oldest
    // eighth go at once (team/limits.hpp) and the rest are indexed again.
    void add_log(log_record rec, std::size_t most = max_kept_logs) {
        logs.push_back(std::move(rec));
        if (logs.size() > most) {
            logs.erase(logs.begin(), logs.begin() + static_cast<std::ptrdiff_t>(std::max<std::size_t>(most / 8, 1)));
            index_logs();
            return;
        }
        if (logs_by.indexed + 1 == logs.size() && logs.size() <= std::numeric_limits<std::uint32_t>::max())
            logs_by.add(logs.back(), logs.size() - 1);
    }

    // The contact of that workspace with that e-mail, if any (the first, were there several).
    const contact_record* find_contact(std::string_view workspace, std::string_view email) const {
        if (contacts_by.indexed == contacts.size()) {
            auto it = contacts_by.at.find(contact_index::key(workspace, email));
            return it == contacts_by.at.end() ? nullptr : &contacts[it->second];
        }
        for (const auto& c : contacts)
            if (c.workspace_uuid == workspace && c.data.email == email) return &c;
        return nullptr;
    }
    contact_record* find_contact(std::string_view workspace, std::string_view email) {
        return const_cast<contact_record*>(std::as_const(*this).find_contact(workspace, email));
    }

    // Appends a contact, indexed.
    void add_contact(contact_record rec) {
        contacts.push_back(std::move(rec));
        if (contacts_by.indexed + 1 == contacts.size()) {
            const contact_record& c = contacts.back();
            contacts_by.at.emplace(contact_index::key(c.workspace_uuid, c.data.email), contacts.size() - 1);
            ++contacts_by.indexed;
        }
    }

    // Deletes a contact; the ones after it move up, so all are indexed again.
    void erase_contact(const contact_record& rec) {
        erase_contacts({static_cast<std::size_t>(&rec - contacts.data())});
    }

    // Deletes the contacts at these positions (each once) in one pass, and indexes the rest once:
    // deleting n contacts costs one walk over the team's contacts, not n (contract.md §6.7).
    void erase_contacts(const std::vector<std::size_t>& positions) {
        std::vector<bool> gone(contacts.size(), false);
        for (std::size_t at : positions) gone[at] = true;
        std::size_t kept = 0;
        for (std::size_t i = 0; i < contacts.size(); ++i)
            if (!gone[i]) {
                if (kept != i) contacts[kept] = std::move(contacts[i]);
                ++kept;
            }
        contacts.erase(contacts.begin() + static_cast<std::ptrdiff_t>(kept), contacts.end());
        index_contacts();
    }

    // Indexes the contacts again (after they were put in place whole, or one was deleted).
    void index_contacts() {
        contacts_by = contact_index{};
        for (std::size_t i = 0; i < contacts.size(); ++i)  // the first of equals, as a search finds
            contacts_by.at.emplace(contact_index::key(contacts[i].workspace_uuid, contacts[i].data.email), i);
        contacts_by.indexed = contacts.size();
    }

    // Indexes the logs again (after they were put in place whole).
    void index_logs() {
        logs_by = log_index{};
        for (std::size_t i = 0; i < logs.size() && i <= std::numeric_limits<std::uint32_t>::max(); ++i)
            logs_by.add(logs[i], i);
    }
};

namespace detail {
template <class Record>
const Record& record_of(const Record& record) {
    return record;
}
template <class Key, class Record>
const Record& record_of(const std::pair<const Key, Record>& entry) {
    return entry.second;
}
}  // namespace detail

// The records of `records` (a vector of records, or a map of uuid to record) that `keep` keeps,
// in creation order (seq): what a list operation pages through.
template <class Records, class Keep>
auto in_creation_order(const Records& records, Keep keep) {
    using record = std::remove_cvref_t<decltype(detail::record_of(*std::begin(records)))>;
    std::vector<const record*> out;
    for (const auto& entry : records)
        if (const record& r = detail::record_of(entry); keep(r)) out.push_back(&r);
    std::sort(out.begin(), out.end(), [](const record* a, const record* b) { return a->seq < b->seq; });
    return out;
}

}  // namespace esign::reference
