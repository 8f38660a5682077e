// SPDX-License-Identifier: BSL-1.0
#pragma once
// A team's snapshot and restore (contract.md §6.6): the team as one team object of the
// --fixture format, its whole state included, and back.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/json/serialize.hpp>

#include <esign/reference/backend.hpp>
#include <esign/reference/backend/respond.hpp>
#include <esign/reference/detail/backend_inline.hpp>
#include <esign/reference/fixture/documents.hpp>
#include <esign/reference/fixture/fixture.hpp>
#include <esign/reference/spooled_text.hpp>
#include <esign/reference/team/snapshot_text.hpp>

namespace esign::reference {

ESIGN_DETAIL_BACKEND_INLINE result<restore_document> backend::read_request(
    std::string_view body, std::type_identity<control_team_restore_request>) const {
    // When a member beside "team" was refused, the body is read again without them.
    auto doc = read_restore_document(body);
    if (!doc && !options_.strict && has_unknown_top_level_member(doc.problems())) doc = read_team_alone(body);
    return doc;
}

ESIGN_DETAIL_BACKEND_INLINE reply backend::snapshot_team(team_shard& shard, std::string_view path) {
    std::string request_id = server_ids_.uuid();
    std::string body;
    std::shared_ptr<spooled_text> spool;
    {
        // Shared: the team's readers go on while its records are written (team_state_text borrows
        // them: no copy of the team is made first).
        std::shared_lock lock(shard.mutex);
        if (shard.retired) return unauthenticated(path, true);
        team_snapshot_text t;
        static_cast<fixture_team&>(t.team) = fixture_team_of(shard.team());
        // (The problems' paths start inside "team"; the records are the store's own.)
        if (auto instead = failed_self_check(static_cast<const fixture_team&>(t.team),
                                             error_context_of(path, request_id, now_ms())))
            return *instead;
        const std::vector<webhook_job> pending = deliveries_.jobs_of(shard, shard.generation);
        t.state = state_text_of(shard.st, shard.ids, pending);
        // {"team": ...} around the team's text, in one string, with room for what the team's last
        // snapshot wrote and an eighth more, or for a first one an estimate from typical records:
        // the text doubles its room beyond (then three times the text may be live for a moment).
        // Or, for the HTTP server, the first spool_at bytes of it at a time, the rest in a file.
        const std::size_t last = shard.last_snapshot_size.load(std::memory_order_relaxed);
        const state& st = shard.st;
        std::size_t room = last ? last + last / 8
                                : 4096 + 1280 * st.envelopes.size() + 480 * st.logs.size() + 200 * st.outbox.size() +
                                      200 * st.deliveries.size() + 320 * st.contacts.size() +
                                      1024 * st.templates.size() + 512 * st.webhooks.size() + 1024 * pending.size();
        if (!options_.spool_directory.empty()) {
            spool = std::make_shared<spooled_text>(options_.spool_directory, options_.spool_at);
            room = std::min(room, options_.spool_at + options_.spool_at / 8 + 4096);
        }
        body.reserve(room);
        auto write = [&](json::text_buffer& out) {
            out.append("{\"team\":");
            write_team_snapshot(t, out);
            out.put('}');
        };
        if (spool) {
            json::text_buffer out(body, *spool);
            write(out);
        } else {
            json::text_buffer out(body);
            write(out);
        }
    }
    if (spool && (spool->in_file() || spool->size() > 0)) {
        spool->write(body);  // the rest
        std::string().swap(body);
        if (spool->failed()) return internal_error(path, "The snapshot could not be written to a temporary file.");
        if (!spool->in_file()) body = spool->take_memory();  // no folder took a file
    }
    shard.last_snapshot_size.store(spool ? spool->size() + body.size() : body.size(), std::memory_order_relaxed);
    reply r{200, std::move(body), std::move(request_id)};
    if (spool && spool->in_file()) r.spooled = std::move(spool);
    return r;
}

ESIGN_DETAIL_BACKEND_INLINE fixture_team backend::fixture_team_of(const team_record& team) {
    auto count = [](std::int64_t n) {
        return ranged<0>(static_cast<std::int32_t>(std::clamp<std::int64_t>(n, 0, INT32_MAX)));
    };
    fixture_team t;
    t.uuid = uuid36(team.uuid);
    // No apiKey: a snapshot carries no credentials (contract.md §6.9).
    t.defaultWorkspaceUuid = uuid36(team.default_workspace_uuid);
    t.profile.name = team.name;
    t.profile.ownerEmail = email_address(team.owner_email);
    t.profile.ownerFirstname = team.owner_firstname;
    t.profile.ownerLastname = team.owner_lastname;
    t.profile.plan.apiCredits = count(team.api_credits);
    t.profile.plan.emailQuota = count(team.email_quota);
    t.profile.plan.subscription = team.subscription;
    t.profile.plan.features = std::vector<plan_feature>(team.features.begin(), team.features.end());
    return t;
}

ESIGN_DETAIL_BACKEND_INLINE bool backend::has_unknown_top_level_member(const problem_list& problems) {
    return std::any_of(problems.begin(), problems.end(),
                       [](const problem& p) { return p.kind == problem_kind::unknown_member && p.path.size() == 1; });
}

ESIGN_DETAIL_BACKEND_INLINE result<restore_document> backend::read_team_alone(std::string_view body) {
    auto parsed = json::parse_body(body);
    if (!parsed) return std::move(parsed).take_problems();
    if (!parsed->duplicates.empty()) return std::move(parsed->duplicates);  // refused wherever they are
    boost::json::object alone;
    if (auto* team = parsed->value.as_object().if_contains("team")) alone["team"] = std::move(*team);
    // Read as text again, by the decoder of the first try: the records have one decoder.
    return read_restore_document(boost::json::serialize(alone));
}

ESIGN_DETAIL_BACKEND_INLINE reply backend::restore_team(team_shard& shard, const std::shared_ptr<team_shard>& owner,
                                                        std::string_view path, fixture_team t) {
    problem_list problems = detail::build_members_beside_state(t, {"team"});
    if (!t.state) problems.push_back(problem{{"team", "state"}, problem_kind::missing, std::nullopt, "is required"});
    std::vector<webhook_job> pending;
    std::uint64_t generation = 0;
    std::int64_t now = 0;
    {
        std::unique_lock lock(shard.mutex);
        if (shard.retired) return unauthenticated(path, true);
        team_record& team = shard.team();
        const std::string default_ws =
            t.defaultWorkspaceUuid ? t.defaultWorkspaceUuid->str() : team.default_workspace_uuid;
        if (t.state) {
            auto found = check_state(*t.state, default_ws, {"team", "state"});
            problems.insert(problems.end(), std::make_move_iterator(found.begin()),
                            std::make_move_iterator(found.end()));
            // A queued delivery's next attempt: one that retries could reach (retry_delay).
            const auto& jobs = t.state->pending_deliveries;
            for (std::size_t i = 0; i < jobs.size() && problems.size() < max_reported_problems; ++i)
                if (jobs[i].attempt > max_webhook_attempts)
                    problems.push_back(problem{{"team", "state", "pending_deliveries", std::to_string(i), "attempt"},
                                               problem_kind::range,
                                               max_webhook_attempts,
                                               "must be at most " + std::to_string(max_webhook_attempts)});
        }
        if (!problems.empty())
            return make_error(shard.ids, path, error_code::INVALID_REQUEST_FORMAT, std::move(problems), {}, 0,
                              shard.now(options_.wall_clock()));
        detail::apply_team_members(team, t.profile);
        team.default_workspace_uuid = default_ws;
        pending = std::move(t.state->pending_deliveries);
        for (auto& job : pending) name_team_in_payload(job, team.uuid);
        install_state(shard.st, std::move(*t.state), shard.ids);
        shard.publish_clock();
        generation = ++shard.generation;
        now = shard.now(options_.wall_clock());
    }
    deliveries_.drop(shard);
    // Pending deliveries of the snapshot are due at once (their backoff is not kept).
    for (auto& job : pending) deliveries_.push(owner, std::move(job), generation, now);
    return respond(server_ids_, path, empty_response{}, now);
}

}  // namespace esign::reference
