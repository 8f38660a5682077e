// SPDX-License-Identifier: BSL-1.0
#pragma once
// The --fixture format: teams with fixed API keys, and their workspaces, contacts, templates,
// envelopes and webhooks, loaded at start and again on /_control/reset. examples/fixture.json is an
// example. The document is decoded by the same engine as the requests (always strictly: an
// unknown member in a file is a typo), then built through the same code as the operations, so
// a fixture makes exactly what the matching operations would make:
//
//   { "teams": [ {
//       "apiKey": "esk_...",              required; A-Z a-z 0-9 - . _ ~ + / = (a bearer token)
//       "uuid": "...",                    optional fixed identifiers (36 characters) of the
//       "defaultWorkspaceUuid": "...",      team and its default workspace
//       "name", "ownerEmail", "ownerFirstname", "ownerLastname", "apiCredits", "emailQuota",
//       "subscription", "features":       as /_control/team/create, same defaults
//       "contacts":  [ contact ],         each as an item of /public/contact/create
//       "templates": [ { "uuid"?, "title", "recipientLabels": [...], "documents": [{"title", "pageCount"}] } ],
//       "envelopes": [ { "uuid"?, "title", "documents": [{"title", "pageCount"}], "attachments"?: [{"title"}],
//                        "tags"?: [...], "recipients"?: [ item of /public/envelope/add-recipients ] } ],
//       "workspaces": [ { "uuid"?, "name", "colorHex"?, "sandbox"?, "contacts"?, "templates"?, "envelopes"? } ],
//       "webhooks":  [ { "uuid"?, and the body of /public/webhook/create: "url", "contentType",
//                        "sslVerify", "active", "secret"?, "events"?, "workspaceUuids"?, "title"? } ],
//       "state": { ... }                  instead of the five above: the team's records exactly, as
//                                         /_control/team/snapshot gives them (team_state.hpp)
//   } ] }
//
// A team object with a "state" is what /_control/team/snapshot answers: its records (envelopes
// in any status, logs, outbox, deliveries, clock offset, identifier stream) are installed as
// they are, after checks (every reference resolves, the limits hold); its queued deliveries
// are not queued again when it is loaded from a file.
//
// Contacts, templates and envelopes at team level go to the team's default workspace (named
// "Default"); those of an entry of "workspaces" go to that workspace. Envelopes are drafts
// (with their recipients, in order). Webhooks belong to the team, as in the API: their
// "workspaceUuids" may name the team's workspaces (the default one and those of "workspaces",
// by their fixed uuids). Everything is created at load time, in document order, except the
// webhooks: they come last in their team, once its workspaces exist (so loading the fixture
// makes no deliveries). A webhook is refused exactly as /public/webhook/create would refuse it
// (WEBHOOK_URL_REFUSED, also under --public-webhooks-only; FEATURE_NOT_IN_CURRENT_PLAN without
// the "webhooks" feature; WEBHOOK_LIMIT_REACHED; WORKSPACE_NOT_FOUND).
//
// Identifiers that the fixture does not fix are drawn from a source seeded by the fixture's
// text, so every load of the same fixture (at start, at each reset) gives the same uuids.
//
// Problems (invalid JSON, a member of the wrong type, an API key or a fixed uuid used twice,
// anything the operations would refuse, such as a contact e-mail given twice) come back with
// their paths in the fixture, and then nothing is loaded.
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/describe/class.hpp>
#include <boost/describe/members.hpp>
#include <boost/mp11/algorithm.hpp>

#include <esign/json/decode.hpp>
#include <esign/reference/context.hpp>
#include <esign/reference/handlers/all.hpp>
#include <esign/reference/team_state.hpp>
#include <esign/rules/error_codes.hpp>

namespace esign::reference {

// An API key as it travels in "Authorization: Bearer <key>" (RFC 6750 b64token characters).
using fixture_api_key = pattern_string<"^[A-Za-z0-9._~+/=-]+$">;

struct fixture_template {
    std::optional<uuid36> uuid;
    bounded_string<0, 255> title;
    bounded_vector<bounded_string<1, 255>, 1> recipientLabels;
    std::vector<control_document_input> documents;

    control_template_create_request as_request() const {
        return control_template_create_request{std::nullopt, title, recipientLabels, documents};
    }
};
BOOST_DESCRIBE_STRUCT(fixture_template, (), (uuid, title, recipientLabels, documents))

// Labels are distinct: the rule of /_control/template/create, at the same relative paths.
inline void validate(const fixture_template& value, problem_sink& sink) { validate(value.as_request(), sink); }

struct fixture_envelope {
    std::optional<uuid36> uuid;
    bounded_string<0, 255> title;
    bounded_vector<control_document_input, 1> documents;
    std::optional<std::vector<control_attachment_input>> attachments;
    std::optional<std::vector<std::string>> tags;
    std::optional<std::vector<add_recipients_item>> recipients;
};
BOOST_DESCRIBE_STRUCT(fixture_envelope, (), (uuid, title, documents, attachments, tags, recipients))

struct fixture_workspace {
    std::optional<uuid36> uuid;
    bounded_string<1, 100> name;
    std::optional<hex_color> colorHex;
    std::optional<bool> sandbox;
    std::optional<std::vector<contact_create_item>> contacts;
    std::optional<std::vector<fixture_template>> templates;
    std::optional<std::vector<fixture_envelope>> envelopes;
};
BOOST_DESCRIBE_STRUCT(fixture_workspace, (), (uuid, name, colorHex, sandbox, contacts, templates, envelopes))

// A webhook of the team: an optional fixed uuid, then the members of /public/webhook/create
// (the same types, so the same decoding rules; the operation itself checks the rest).
struct fixture_webhook {
    std::optional<uuid36> uuid;
    absolute_uri url;
    webhook_content_type contentType{webhook_content_type::application_json};
    bool sslVerify{};
    bool active{};
    tri_state<webhook_secret> secret;
    std::optional<std::vector<webhook_event>> events;
    std::optional<std::vector<uuid36>> workspaceUuids;
    std::optional<webhook_title> title;

    webhook_create_request as_request() const {
        return webhook_create_request{url, contentType, sslVerify, active, secret, events, workspaceUuids, title};
    }
};
BOOST_DESCRIBE_STRUCT(fixture_webhook, (),
                      (uuid, url, contentType, sslVerify, active, secret, events, workspaceUuids, title))
// Every member of the request, and the uuid (a member added to the request must be added here).
namespace fixture_detail {
template <class T>
inline constexpr std::size_t member_count =
    boost::mp11::mp_size<boost::describe::describe_members<T, boost::describe::mod_public>>::value;
}  // namespace fixture_detail
static_assert(fixture_detail::member_count<fixture_webhook> ==
              fixture_detail::member_count<webhook_create_request> + 1);

struct fixture_team {
    std::optional<uuid36> uuid;
    fixture_api_key apiKey;
    std::optional<uuid36> defaultWorkspaceUuid;
    std::optional<std::string> name;
    std::optional<email_address> ownerEmail;
    std::optional<std::string> ownerFirstname;
    std::optional<std::string> ownerLastname;
    std::optional<ranged<0>> apiCredits;
    std::optional<ranged<0>> emailQuota;
    std::optional<bool> subscription;
    std::optional<std::vector<plan_feature>> features;
    std::optional<std::vector<contact_create_item>> contacts;
    std::optional<std::vector<fixture_template>> templates;
    std::optional<std::vector<fixture_envelope>> envelopes;
    std::optional<std::vector<fixture_workspace>> workspaces;
    std::optional<std::vector<fixture_webhook>> webhooks;
    std::optional<team_state> state;  // instead of the five above: the records exactly (a snapshot)

    control_team_create_request as_request() const {
        return control_team_create_request{name,       ownerEmail,   ownerFirstname, ownerLastname, apiCredits,
                                           emailQuota, subscription, features,       std::nullopt,  std::nullopt};
    }
};
BOOST_DESCRIBE_STRUCT(fixture_team, (),
                      (uuid, apiKey, defaultWorkspaceUuid, name, ownerEmail, ownerFirstname, ownerLastname, apiCredits,
                       emailQuota, subscription, features, contacts, templates, envelopes, workspaces, webhooks, state))

struct fixture_document {
    std::vector<fixture_team> teams;
};
BOOST_DESCRIBE_STRUCT(fixture_document, (), (teams))

// The body of /_control/team/restore as the backend reads it: control_team_restore_request with
// its team object typed.
struct restore_document {
    fixture_team team;
};
BOOST_DESCRIBE_STRUCT(restore_document, (), (team))

namespace fixture_detail {

// FNV-1a: the same text seeds the same identifiers.
constexpr std::uint64_t seed_of(std::string_view text) noexcept {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char ch : text) h = (h ^ ch) * 0x100000001b3ull;
    return h;
}

inline problem_path joined(problem_path base, std::initializer_list<std::string_view> parts) {
    for (auto p : parts) base.emplace_back(p);
    return base;
}

// A team with a state takes its records from it: the members that build records are refused.
inline problem_list build_members_beside_state(const fixture_team& t, const problem_path& at) {
    problem_list out;
    if (!t.state) return out;
    for (auto [member, given] : {std::pair<std::string_view, bool>{"contacts", t.contacts.has_value()},
                                 {"templates", t.templates.has_value()},
                                 {"envelopes", t.envelopes.has_value()},
                                 {"workspaces", t.workspaces.has_value()},
                                 {"webhooks", t.webhooks.has_value()}})
        if (given)
            out.push_back(problem{joined(at, {member}), problem_kind::invalid, std::nullopt,
                                  "builds records, and the team's state gives them all"});
    return out;
}

// The members of a team object that /_control/team/update and team/create set, onto a team.
inline void apply_team_members(team_record& team, const fixture_team& t) {
    if (t.name) team.name = *t.name;
    if (t.ownerEmail) team.owner_email = *t.ownerEmail;
    if (t.ownerFirstname) team.owner_firstname = *t.ownerFirstname;
    if (t.ownerLastname) team.owner_lastname = *t.ownerLastname;
    if (t.apiCredits) team.api_credits = t.apiCredits->value;
    if (t.emailQuota) team.email_quota = t.emailQuota->value;
    if (t.subscription) team.subscription = *t.subscription;
    if (t.features) team.features = std::set<plan_feature>(t.features->begin(), t.features->end());
}

// Builds the fixture into a store, collecting problems at fixture paths.
class loader {
public:
    loader(context& c, problem_list& problems) : c_(c), problems_(problems) {}

    std::vector<std::string> made;  // the uuid of each team loaded, in document order

    void team(const fixture_team& t, const problem_path& at) {
        if (t.uuid && c_.st.teams.count(t.uuid->str())) return used_twice(joined(at, {"uuid"}));
        if (c_.st.team_by_api_key.count(t.apiKey.str())) return used_twice(joined(at, {"apiKey"}));
        if (t.defaultWorkspaceUuid && c_.st.workspaces.count(t.defaultWorkspaceUuid->str()))
            return used_twice(joined(at, {"defaultWorkspaceUuid"}));

        team_identity fixed;
        if (t.uuid) fixed.uuid = t.uuid->str();
        fixed.api_key = t.apiKey.str();
        fixed.default_name = "Team " + std::to_string(c_.st.teams.size() + 1);
        if (t.defaultWorkspaceUuid) fixed.default_workspace_uuid = t.defaultWorkspaceUuid->str();
        team_record& team = create_team(c_, t.as_request(), fixed);
        c_.team = &team;
        made.push_back(team.uuid);
        if (t.state) {
            auto beside = build_members_beside_state(t, at);
            problems_.insert(problems_.end(), beside.begin(), beside.end());
            c_.team = nullptr;
            return;  // its records come from the state once the teams are split (load_fixture)
        }

        const workspace_record& default_ws = c_.st.workspaces.at(team.default_workspace_uuid);
        contents(default_ws, t.contacts, t.templates, t.envelopes, at);
        if (t.workspaces)
            for (std::size_t i = 0; i < t.workspaces->size(); ++i)
                workspace(team, (*t.workspaces)[i], joined(at, {"workspaces", std::to_string(i)}));
        if (t.webhooks)
            for (std::size_t i = 0; i < t.webhooks->size(); ++i)
                add_webhook((*t.webhooks)[i], joined(at, {"webhooks", std::to_string(i)}));
        c_.team = nullptr;
    }

private:
    void workspace(const team_record& team, const fixture_workspace& w, const problem_path& at) {
        if (w.uuid && c_.st.workspaces.count(w.uuid->str())) return used_twice(joined(at, {"uuid"}));
        new_workspace spec;
        spec.name = w.name.str();
        if (w.colorHex) spec.color_hex = w.colorHex->str();
        spec.sandbox = w.sandbox.value_or(false);
        if (w.uuid) spec.uuid = w.uuid->str();
        contents(create_workspace(c_, team, std::move(spec)), w.contacts, w.templates, w.envelopes, at);
    }

    void contents(const workspace_record& ws, const std::optional<std::vector<contact_create_item>>& contacts,
                  const std::optional<std::vector<fixture_template>>& templates,
                  const std::optional<std::vector<fixture_envelope>>& envelopes, const problem_path& at) {
        if (contacts) add_contacts(ws, *contacts, at);
        if (templates)
            for (std::size_t i = 0; i < templates->size(); ++i)
                add_template(ws, (*templates)[i], joined(at, {"templates", std::to_string(i)}));
        if (envelopes)
            for (std::size_t i = 0; i < envelopes->size(); ++i)
                add_envelope(ws, (*envelopes)[i], joined(at, {"envelopes", std::to_string(i)}));
    }

    // Through /public/contact/create.
    void add_contacts(const workspace_record& ws, const std::vector<contact_create_item>& items,
                      const problem_path& at) {
        in_batches(items, "contacts", at, [&](std::vector<contact_create_item> run) {
            contact_create_request r;
            r.workspaceUuid = uuid36(ws.uuid);
            r.contacts = std::move(run);
            return handlers::handle(c_, r);
        });
    }

    void add_template(const workspace_record& ws, const fixture_template& t, const problem_path& at) {
        if (t.uuid && c_.st.templates.count(t.uuid->str())) return used_twice(joined(at, {"uuid"}));
        create_template(c_, ws, t.as_request(), t.uuid ? std::optional<std::string>(t.uuid->str()) : std::nullopt);
    }

    // Through /_control/envelope/create, then /public/envelope/add-recipients.
    void add_envelope(const workspace_record& ws, const fixture_envelope& e, const problem_path& at) {
        if (e.uuid && c_.st.envelopes.count(e.uuid->str())) return used_twice(joined(at, {"uuid"}));
        control_envelope_create_request create{uuid36(ws.uuid), e.title, e.documents, e.attachments, e.tags};
        auto created = handlers::handle(c_, create);
        if (!succeeded(created, at)) return;
        std::string uuid = std::get<0>(created).envelopeUuid;
        if (e.uuid) uuid = rename_envelope(uuid, e.uuid->str());

        if (!e.recipients) return;
        in_batches(*e.recipients, "recipients", at, [&](std::vector<add_recipients_item> run) {
            envelope_add_recipients_request r;
            r.workspaceUuid = uuid36(ws.uuid);
            r.envelopeUuid = uuid36(uuid);
            r.recipients = std::move(run);
            return handlers::handle(c_, r);
        });
    }

    // Through /public/webhook/create (as the team being loaded), then given its fixed uuid.
    void add_webhook(const fixture_webhook& w, const problem_path& at) {
        if (w.uuid && c_.st.webhooks.count(w.uuid->str())) return used_twice(joined(at, {"uuid"}));
        auto created = handlers::handle(c_, w.as_request());
        if (!succeeded(created, at)) return;
        if (w.uuid) rename_webhook(std::get<0>(created).webhook.uuid, w.uuid->str());
    }

    // Calls `call` with runs of at most `batch` items (the operations' limit per request), until
    // one fails. Its problems are reported below at + member, at the item's index in `items`.
    template <class T, class Call>
    void in_batches(const std::vector<T>& items, std::string_view member, const problem_path& at, Call&& call) {
        for (std::size_t first = 0; first < items.size(); first += batch) {
            const auto begin = items.begin() + static_cast<std::ptrdiff_t>(first);
            const auto end = items.begin() + static_cast<std::ptrdiff_t>(std::min(items.size(), first + batch));
            if (!succeeded(call(std::vector<T>(begin, end)), at, member, first)) return;
        }
    }

    // Gives a new envelope the fixture's uuid: its record, and the logs that name it (webhooks
    // are made after every envelope of their team, so no delivery names it).
    std::string rename_envelope(const std::string& from, const std::string& to) {
        auto node = c_.st.envelopes.extract(from);
        node.key() = to;
        node.mapped().uuid = to;
        c_.st.envelopes.insert(std::move(node));
        c_.st.due.valid = false;  // its due entry names the old uuid: rebuilt at first use
        for (auto& log : c_.st.logs)
            if (log.entry.envelopeUuid == from) log.entry.envelopeUuid = to;
        return to;
    }

    // Gives a new webhook the fixture's uuid: its record, and the log of its creation.
    void rename_webhook(const std::string& from, const std::string& to) {
        auto node = c_.st.webhooks.extract(from);
        node.key() = to;
        node.mapped().data.uuid = to;
        c_.st.webhooks.insert(std::move(node));
        for (auto& log : c_.st.logs) {
            auto* named = log.entry.eventData.if_contains("webhookUuid");
            if (named && named->is_string() && named->as_string() == from) *named = to;
        }
    }

    // A failure of an operation becomes a problem at `at` (+ `member`), or its details below
    // `at`, with the index after `member` shifted by `offset` (the run's first item).
    template <class Response>
    bool succeeded(const outcome<Response>& result, const problem_path& at, std::string_view member = {},
                   std::size_t offset = 0) {
        const failure* f = std::get_if<failure>(&result);
        if (!f) return true;
        for (const problem& p : f->details) {
            problem moved = p;
            if (moved.path.size() >= 2 && moved.path[0] == member) moved.path[1] = shifted(moved.path[1], offset);
            moved.path.insert(moved.path.begin(), at.begin(), at.end());
            problems_.push_back(std::move(moved));
        }
        if (!f->details.empty()) return false;
        std::string message(enum_to_wire(f->code));
        message += ": ";
        message += f->message.empty() ? std::string(rules::info(f->code).message) : f->message;
        problem_path where = at;
        if (!member.empty()) where.emplace_back(member);
        problems_.push_back(problem{std::move(where), problem_kind::invalid, std::nullopt, std::move(message)});
        return false;
    }

    static std::string shifted(const std::string& index, std::size_t offset) {
        std::size_t value = 0;
        auto [end, error] = std::from_chars(index.data(), index.data() + index.size(), value);
        if (error != std::errc{} || end != index.data() + index.size()) return index;
        return std::to_string(value + offset);
    }

    void used_twice(problem_path at) {
        problems_.push_back(problem{std::move(at), problem_kind::invalid, std::nullopt, "is already used"});
    }

    static constexpr std::size_t batch = 50;  // items per contact/create or add-recipients call
    context& c_;
    problem_list& problems_;
};

}  // namespace fixture_detail

// One store per team of a store that holds several: each record goes with its team.
inline std::vector<state> split_by_team(state&& all) {
    std::vector<state> out;
    std::map<std::string, std::size_t> index;  // team uuid -> position in out
    for (auto& [uuid, team] : all.teams) {
        index.emplace(uuid, out.size());
        state& st = out.emplace_back();
        st.next_seq = all.next_seq;
        st.team_by_api_key[team.api_key] = uuid;
        st.teams.emplace(uuid, std::move(team));
    }
    auto of = [&](const std::string& team_uuid) -> state& { return out[index.at(team_uuid)]; };
    std::map<std::string, std::string> team_of_workspace;
    for (auto& [uuid, ws] : all.workspaces) {
        team_of_workspace[uuid] = ws.team_uuid;
        of(ws.team_uuid).workspaces.emplace(uuid, std::move(ws));
    }
    std::map<std::string, std::string> team_of_envelope;
    for (auto& [uuid, env] : all.envelopes) {
        team_of_envelope[uuid] = env.team_uuid;
        of(env.team_uuid).envelopes.emplace(uuid, std::move(env));
    }
    for (auto& [uuid, tpl] : all.templates) of(tpl.team_uuid).templates.emplace(uuid, std::move(tpl));
    for (auto& contact : all.contacts)
        of(team_of_workspace.at(contact.workspace_uuid)).contacts.push_back(std::move(contact));
    std::map<std::string, std::string> team_of_webhook;
    for (auto& [uuid, hook] : all.webhooks) {
        team_of_webhook[uuid] = hook.team_uuid;
        of(hook.team_uuid).webhooks.emplace(uuid, std::move(hook));
    }
    for (auto& log : all.logs) of(log.team_uuid).logs.push_back(std::move(log));
    for (auto& mail : all.outbox) of(mail.team_uuid).outbox.push_back(std::move(mail));
    for (auto& d : all.deliveries) of(team_of_webhook.at(d.webhook_uuid)).deliveries.push_back(std::move(d));
    for (auto& [token, t] : all.iframe_tokens) of(team_of_envelope.at(t.envelope_uuid)).iframe_tokens.emplace(token, t);
    for (state& st : out) {
        st.index_logs();
        st.index_contacts();
    }
    return out;
}

// A fixture, loaded: one store per team, or (when there are problems) nothing.
struct loaded_fixture {
    problem_list problems;
    std::vector<state> teams;
    std::map<std::string, std::string> streams{};  // team uuid -> its identifier stream (from a state)
};

// Loads the fixture `json_text` as it is at `now`: every team, or (when there are problems) none.
inline loaded_fixture load_fixture(std::string_view json_text, const backend_options& options, std::int64_t now) {
    auto doc = json::read<fixture_document>(json_text, json::decode_options{true});
    if (!doc) return {doc.problems(), {}};

    state built;
    id_source ids(fixture_detail::seed_of(json_text));
    std::vector<webhook_job> jobs;  // stays empty: webhooks are made last, nothing emits after them
    context fc{built, nullptr, now, ids, options, jobs};
    problem_list problems;
    fixture_detail::loader load(fc, problems);
    for (std::size_t i = 0; i < doc->teams.size(); ++i) load.team(doc->teams[i], {"teams", std::to_string(i)});
    if (!problems.empty()) return {std::move(problems), {}, {}};
    loaded_fixture out{{}, split_by_team(std::move(built)), {}};
    // Teams given by their state: their records, checked, replace what team/create made.
    for (std::size_t i = 0; i < doc->teams.size(); ++i) {
        auto& given = doc->teams[i].state;
        if (!given) continue;
        for (auto& st : out.teams) {
            team_record& team = st.teams.begin()->second;
            if (team.uuid != load.made[i]) continue;
            auto found = check_state(*given, team.default_workspace_uuid, {"teams", std::to_string(i), "state"});
            problems.insert(problems.end(), found.begin(), found.end());
            if (!found.empty()) break;
            if (given->stream) out.streams[team.uuid] = *given->stream;
            id_source unused;
            install_state(st, std::move(*given), unused);
            break;
        }
    }
    if (!problems.empty()) return {std::move(problems), {}, {}};
    return out;
}

}  // namespace esign::reference
