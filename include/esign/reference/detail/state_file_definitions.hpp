// SPDX-License-Identifier: BSL-1.0
#pragma once
// The definitions of the state file's functions and of the backend's two members that
// <esign/reference/state_file.hpp> declares: included by that header in a header-only program,
// and by <esign/reference/src.hpp> alone under ESIGN_SEPARATE_COMPILATION. (The file's text is
// read and written in detail/document_read_definitions.hpp and document_write_definitions.hpp,
// where every record's codec is.)
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <shared_mutex>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <esign/reference/backend.hpp>
#include <esign/reference/fixture/format.hpp>
#include <esign/reference/fixture/loader.hpp>
#include <esign/reference/team/snapshot_state.hpp>

#include <esign/reference/detail/backend_inline.hpp>
#include <esign/reference/state_file.hpp>

namespace esign::reference {

namespace detail {

inline problem_path at(const problem_path& base, std::initializer_list<std::string_view> parts) {
    return detail::joined(base, parts);
}

inline void add(problem_list& out, problem_path path, problem_kind kind, std::string message) {
    if (out.size() < max_reported_problems)
        out.push_back(problem{std::move(path), kind, std::nullopt, std::move(message)});
}

// The problems of a team object of the file (at `where`): a snapshot's, with the members a
// snapshot always writes, and a state the API could have produced.
inline void check_team_object(const fixture_team& t, int max_attempts, const problem_path& where, problem_list& out) {
    for (auto& p : detail::build_members_beside_state(t, where)) add(out, p.path, p.kind, p.message);
    auto required = [&](bool given, std::string_view member) {
        if (!given) add(out, at(where, {member}), problem_kind::missing, "is required");
    };
    required(t.uuid.has_value(), "uuid");
    required(t.defaultWorkspaceUuid.has_value(), "defaultWorkspaceUuid");
    required(t.profile.name.has_value(), "name");
    required(t.profile.ownerEmail.has_value(), "ownerEmail");
    required(t.state.has_value(), "state");
    if (!t.state || !t.defaultWorkspaceUuid) return;
    for (auto& p : check_state(*t.state, t.defaultWorkspaceUuid->str(), at(where, {"state"})))
        add(out, std::move(p.path), p.kind, std::move(p.message));
    const auto& jobs = t.state->pending_deliveries;
    for (std::size_t i = 0; i < jobs.size(); ++i)
        if (jobs[i].attempt > max_attempts)
            add(out, at(where, {"state", "pending_deliveries", std::to_string(i), "attempt"}), problem_kind::range,
                "must be at most " + std::to_string(max_attempts));
}

// The store of a team object that passed check_team_object: its team record (what the file
// adds to the snapshot's), then the state's records, with its link tokens `kept` and new ones;
// the stream goes to `ids`.
inline state store_of(fixture_team t, const state_file_team& f, const std::string& signer_key, id_source& ids,
                      std::span<const signing_link> kept) {
    state st;
    team_record team;
    team.uuid = t.uuid->str();
    team.api_key = f.apiKey.str();
    team.owner_uuid = f.ownerUuid.str();
    team.default_workspace_uuid = t.defaultWorkspaceUuid->str();
    team.creation_date = f.creationDate;
    detail::apply_team_members(team, t.profile);
    st.team_by_api_key[team.api_key] = team.uuid;
    st.teams.emplace(team.uuid, std::move(team));
    st.signer.team_key = signer_key;  // before install_state: it issues the outbox's link tokens
    install_state(st, std::move(*t.state), ids, kept);
    return st;
}

}  // namespace detail

// ---- the backend's members (declared in backend.hpp) -------------------------------------------

ESIGN_DETAIL_BACKEND_INLINE state_file_document backend::export_state() {
    state_file_document doc;
    doc.format = std::string(state_file_format);
    doc.clockOffset = global_offset_.load();
    for (const auto& shard : teams_in_order()) {
        state_file_team f;
        {
            // Shared: the team's readers go on; its writers wait for these copies only.
            std::shared_lock lock(shard->mutex);
            if (shard->retired) continue;
            const team_record& team = shard->team();
            f.apiKey = fixture_api_key(shard->api_key);
            f.accessKey = fixture_api_key(shard->access_key);
            f.secretKey = fixture_api_key(shard->secret_key);
            f.ownerUuid = uuid36(team.owner_uuid);
            f.creationDate = team.creation_date;
            f.startTime = shard->start_time;
            std::vector<webhook_job> jobs;
            for (auto& [job, due] : deliveries_.jobs_due_of(*shard, shard->generation)) {
                jobs.push_back(std::move(job));
                f.pendingDue.push_back(due);
            }
            f.team = fixture_team_of(team);
            f.team.state = capture_state(shard->st, shard->ids, std::move(jobs));
            id_source at_initial;
            at_initial.seek(shard->initial_ids);
            f.initial = fixture_team_of(shard->initial.teams.begin()->second);
            f.initial.state = capture_state(shard->initial, at_initial, {});
            f.signer =
                state_file_signer{shard->signer_key, signing_links_of(shard->st), signing_links_of(shard->initial)};
        }
        doc.teams.push_back(std::move(f));
    }
    return doc;
}

ESIGN_DETAIL_BACKEND_INLINE problem_list backend::import_state(state_file_document doc) {
    using detail::add;
    using detail::at;
    problem_list problems;
    if (doc.clockOffset < -rules::max_clock_offset_ms || doc.clockOffset > rules::max_clock_offset_ms)
        add(problems, {"clockOffset"}, problem_kind::range,
            "must be within ±" + std::to_string(rules::max_clock_offset_ms) + " ms (100 years)");
    if (doc.teams.size() > options_.max_teams)
        add(problems, {"teams"}, problem_kind::size,
            "has " + std::to_string(doc.teams.size()) + " teams, more than --max-teams (" +
                std::to_string(options_.max_teams) + ")");
    // Every check first: a file with a problem loads nothing.
    std::set<std::string> credentials;  // API and access keys: each names one team
    std::set<std::string> uuids;
    std::set<std::string> signer_keys;
    for (std::size_t i = 0; i < doc.teams.size() && problems.size() < max_reported_problems; ++i) {
        const state_file_team& f = doc.teams[i];
        const problem_path here{"teams", std::to_string(i)};
        for (auto [member, key] :
             {std::pair<std::string_view, const std::string*>{"apiKey", &f.apiKey}, {"accessKey", &f.accessKey}})
            if (!credentials.insert(*key).second)
                add(problems, at(here, {member}), problem_kind::rule, "is the key of another team");
        if (f.team.uuid && !uuids.insert(f.team.uuid->str()).second)
            add(problems, at(here, {"team", "uuid"}), problem_kind::rule, "is the uuid of another team");
        if (f.creationDate < -rules::latest_instant_ms || f.creationDate > rules::latest_instant_ms)
            add(problems, at(here, {"creationDate"}), problem_kind::range,
                "must be an instant within the clock's reach");
        if (f.startTime && (*f.startTime < 0 || *f.startTime > handlers::latest_clock_ms))
            add(problems, at(here, {"startTime"}), problem_kind::range,
                "must be from 0 to " + std::to_string(handlers::latest_clock_ms));
        detail::check_team_object(f.team, max_webhook_attempts, at(here, {"team"}), problems);
        // (The initial state has no queued deliveries: a reset drops them.)
        detail::check_team_object(f.initial, 0, at(here, {"initial"}), problems);
        if (f.team.uuid && f.initial.uuid && *f.team.uuid != *f.initial.uuid)
            add(problems, at(here, {"initial", "uuid"}), problem_kind::rule, "differs from team.uuid");
        if (f.team.defaultWorkspaceUuid && f.initial.defaultWorkspaceUuid &&
            *f.team.defaultWorkspaceUuid != *f.initial.defaultWorkspaceUuid)
            add(problems, at(here, {"initial", "defaultWorkspaceUuid"}), problem_kind::rule,
                "differs from team.defaultWorkspaceUuid");
        const std::size_t jobs = f.team.state ? f.team.state->pending_deliveries.size() : 0;
        if (f.pendingDue.size() != jobs)
            add(problems, at(here, {"pendingDue"}), problem_kind::size,
                "must have one item per item of team.state.pending_deliveries (" + std::to_string(jobs) + ")");
        for (std::size_t j = 0; j < f.pendingDue.size(); ++j)
            if (f.pendingDue[j] < -rules::latest_instant_ms || f.pendingDue[j] > rules::latest_instant_ms)
                add(problems, at(here, {"pendingDue", std::to_string(j)}), problem_kind::range,
                    "must be an instant within the clock's reach");
        if (f.signer) {
            if (!is_signer_team_key(f.signer->key))
                add(problems, at(here, {"signer", "key"}), problem_kind::pattern,
                    "must be " + std::to_string(signer_team_key_chars) + " URL-safe characters");
            else if (!signer_keys.insert(f.signer->key).second)
                add(problems, at(here, {"signer", "key"}), problem_kind::rule, "is the signer key of another team");
            for (auto [member, links] :
                 {std::pair{"links", &f.signer->links}, {"initialLinks", &f.signer->initialLinks}})
                for (auto& p : check_signing_links(*links, f.signer->key, at(here, {"signer", member})))
                    add(problems, std::move(p.path), p.kind, std::move(p.message));
        }
    }
    if (!problems.empty()) return problems;

    // The shards, made outside every lock (nobody else sees them yet).
    std::vector<std::shared_ptr<team_shard>> made;
    std::vector<std::vector<std::pair<webhook_job, std::int64_t>>> queued;
    for (auto& f : doc.teams) {
        auto shard = new_shard();
        shard->uuid = f.team.uuid->str();
        shard->api_key = f.apiKey.str();
        shard->access_key = f.accessKey.str();
        shard->secret_key = f.secretKey.str();
        shard->start_time = f.startTime;
        const state_file_signer kept = f.signer ? std::move(*f.signer) : state_file_signer{};
        if (f.signer) {
            shard->signer_key = kept.key;  // its links go on working
            claim_signer_team_key(kept.key);
        }
        // What a team reset returns to, then the state reached (their streams in that order: the
        // current one stays loaded).
        shard->st = detail::store_of(std::move(f.initial), f, shard->signer_key, shard->ids, {});
        shard->mark_initial(kept.initialLinks);
        auto& pending = queued.emplace_back();
        for (std::size_t j = 0; j < f.team.state->pending_deliveries.size(); ++j)
            pending.emplace_back(std::move(f.team.state->pending_deliveries[j]), f.pendingDue[j]);
        f.team.state->pending_deliveries.clear();
        shard->st = detail::store_of(std::move(f.team), f, shard->signer_key, shard->ids, kept.links);
        shard->publish_clock();
        made.push_back(std::move(shard));
    }

    std::vector<std::shared_ptr<team_shard>> old;
    {
        // As a server-wide reset swaps its registry (teams.hpp, reset_all).
        std::lock_guard create_lock(create_mutex_);
        teams_made_ = made.size();
        registry fresh;
        for (const auto& shard : made) {
            issued_.insert(shard->api_key);
            issued_.insert(shard->access_key);
            fresh.add(shard);
        }
        std::unique_lock lock(registry_mutex_);
        std::swap(registry_, fresh);
        old = std::move(fresh.in_order);
        global_offset_ = doc.clockOffset;
    }
    for (const auto& shard : old) {
        {
            std::unique_lock lock(shard->mutex);
            shard->retired = true;
            ++shard->generation;
        }
        deliveries_.drop(*shard);
    }
    // Queued as they were: a retry keeps its backoff, on the team's clock.
    for (std::size_t i = 0; i < made.size(); ++i)
        for (auto& [job, due] : queued[i]) deliveries_.push(made[i], std::move(job), made[i]->generation, due);
    deliveries_.clock_moved();
    return {};
}

// The backend's whole state as the file's text (written outside every team's lock).
ESIGN_DETAIL_BACKEND_INLINE std::string save_state(backend& b) { return write_state_file(b.export_state()); }

// Loads the file's text into `b`: every team, or (problems) nothing.
ESIGN_DETAIL_BACKEND_INLINE problem_list load_state(backend& b, std::string_view text) {
    auto doc = read_state_file(text);
    if (!doc) return std::move(doc).take_problems();
    return b.import_state(std::move(*doc));
}

}  // namespace esign::reference
