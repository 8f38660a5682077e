// SPDX-License-Identifier: BSL-1.0
#pragma once
// Building the --fixture document (fixture_format.hpp) into a store through the same code as the
// operations (team/create, workspace/create, contact/create, ...), so that a fixture makes
// exactly what the matching operations would make; every problem is kept at its path in the
// fixture. Also the members of a team object that a restore applies (backend/snapshots.hpp).
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <esign/reference/context.hpp>
#include <esign/reference/fixture_format.hpp>
#include <esign/reference/handlers/all.hpp>
#include <esign/rules/error_codes.hpp>

namespace esign::reference {

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
            out.push_back(problem{joined(at, {member}), problem_kind::rule, std::nullopt,
                                  "builds records, and the team's state gives them all"});
    return out;
}

// The members of a team object that /_control/team/update and team/create set, onto a team.
inline void apply_team_members(team_record& team, const control_team_profile& t) {
    if (t.name) team.name = *t.name;
    if (t.ownerEmail) team.owner_email = *t.ownerEmail;
    if (t.ownerFirstname) team.owner_firstname = *t.ownerFirstname;
    if (t.ownerLastname) team.owner_lastname = *t.ownerLastname;
    apply_plan(team, t.plan);
}

// Builds the fixture into a store, collecting problems at fixture paths.
class loader {
public:
    loader(context& c, problem_list& problems) : c_(c), problems_(problems) {}

    std::vector<std::string> made;  // the uuid of each team loaded, in document order

    void team(const fixture_file_team& file, const problem_path& at) {
        const fixture_team& t = file.team;
        if (t.uuid && c_.st.teams.count(t.uuid->str())) return used_twice(joined(at, {"uuid"}));
        if (c_.st.team_by_api_key.count(file.apiKey.str())) return used_twice(joined(at, {"apiKey"}));
        if (t.defaultWorkspaceUuid && c_.st.workspaces.count(t.defaultWorkspaceUuid->str()))
            return used_twice(joined(at, {"defaultWorkspaceUuid"}));

        team_identity fixed;
        if (t.uuid) fixed.uuid = t.uuid->str();
        fixed.api_key = file.apiKey.str();
        fixed.default_name = "Team " + std::to_string(c_.st.teams.size() + 1);
        if (t.defaultWorkspaceUuid) fixed.default_workspace_uuid = t.defaultWorkspaceUuid->str();
        team_record& team = create_team(c_, t.profile, fixed);
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
        create_template(c_, ws, t.content, t.uuid ? std::optional<std::string>(t.uuid->str()) : std::nullopt);
    }

    // Through /_control/envelope/create, then /public/envelope/add-recipients.
    void add_envelope(const workspace_record& ws, const fixture_envelope& e, const problem_path& at) {
        if (e.uuid && c_.st.envelopes.count(e.uuid->str())) return used_twice(joined(at, {"uuid"}));
        control_envelope_create_request create{uuid36(ws.uuid), e.content};
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
        auto created = handlers::handle(c_, webhook_create_request(w.request));
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
        problems_.push_back(problem{std::move(where), problem_kind::rule, std::nullopt, std::move(message)});
        return false;
    }

    static std::string shifted(const std::string& index, std::size_t offset) {
        std::size_t value = 0;
        auto [end, error] = std::from_chars(index.data(), index.data() + index.size(), value);
        if (error != std::errc{} || end != index.data() + index.size()) return index;
        return std::to_string(value + offset);
    }

    void used_twice(problem_path at) {
        problems_.push_back(problem{std::move(at), problem_kind::rule, std::nullopt, "is already used"});
    }

    static constexpr std::size_t batch = 50;  // items per contact/create or add-recipients call
    context& c_;
    problem_list& problems_;
};

}  // namespace fixture_detail

}  // namespace esign::reference
