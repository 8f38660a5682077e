// SPDX-License-Identifier: BSL-1.0
// The operator's side of the control plane (contract.md §6.2, §6.3, §6.9): the number of teams
// a server holds (--max-teams), the team an operator's recipient/act or envelope/cancel acts on
// when restored snapshots put one envelope in several teams, and the deliveries a reset or
// restore drops (exactly those queued before it).
#include "backend_support.hpp"

#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <thread>
#include <vector>

#include <esign/reference/delivery/queue.hpp>

namespace test_backend_control_plane {

using namespace backend_support;

namespace {

backend_options with_max_teams(std::size_t n) {
    auto o = fixed_clock(7);
    o.max_teams = n;
    return o;
}

answer create_team(backend& b) { return request(b, "/_control/team/create", std::nullopt, bj::object{}); }

std::size_t team_count(const backend& b) {
    return b.inspect([](const esign::reference::state& st) { return st.teams.size(); });
}

// A sent envelope of `c`'s main team with one signer.
std::string sent_envelope(client& c) {
    auto a = c.call(
        "/_control/envelope/create",
        bj::object{{"title", "Contract"}, {"documents", bj::array{bj::object{{"title", "Main"}, {"pageCount", 1}}}}});
    require_ok(a);
    std::string env(a.obj().at("envelopeUuid").as_string());
    require_ok(c.call("/public/envelope/add-recipients",
                      bj::object{{"envelopeUuid", env}, {"recipients", bj::array{recipient("signer@example.com")}}}));
    require_ok(c.call("/public/envelope/send", bj::object{{"envelopeUuid", env}}));
    return env;
}

// The envelope's status and its signer's, as team `t` sees them.
std::pair<std::string, std::string> statuses(client& c, const team& t, const std::string& env) {
    auto a = c.call_as(t, "/public/envelope/get", bj::object{{"envelopeUuid", env}});
    require_ok(a);
    return {std::string(a.obj().at("status").as_string()),
            std::string(recipient_of(a.obj(), "signer@example.com").at("status").as_string())};
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// --max-teams

TEST_CASE("control plane: team/create beyond max_teams is 429 TEAM_LIMIT_REACHED", "[backend][control-plane]") {
    backend b(with_max_teams(3));
    for (int i = 0; i < 3; ++i) require_ok(create_team(b));
    auto refused = create_team(b);
    require_error(refused, 429, "TEAM_LIMIT_REACHED");
    CHECK(refused.obj().at("statusCode") == 429);
    CHECK(refused.obj().at("path") == str("/_control/team/create"));
    CHECK(team_count(b) == 3);
    // A team's reset frees nothing; a server-wide reset frees every place.
    require_error(create_team(b), 429, "TEAM_LIMIT_REACHED");
    require_ok(request(b, "/_control/reset", std::nullopt, bj::object{}));
    for (int i = 0; i < 3; ++i) require_ok(create_team(b));
    require_error(create_team(b), 429, "TEAM_LIMIT_REACHED");
}

TEST_CASE("control plane: the fixture's teams count toward max_teams", "[backend][control-plane]") {
    auto o = with_max_teams(2);
    o.fixture_json = R"({"teams":[{"apiKey":"fixture-key-1"}]})";
    backend b(o);
    REQUIRE(b.fixture_problems().empty());
    require_ok(create_team(b));
    require_error(create_team(b), 429, "TEAM_LIMIT_REACHED");
    require_ok(request(b, "/_control/reset", std::nullopt, bj::object{}));  // back to the fixture's one
    require_ok(create_team(b));
    require_error(create_team(b), 429, "TEAM_LIMIT_REACHED");

    backend none(with_max_teams(0));
    require_error(create_team(none), 429, "TEAM_LIMIT_REACHED");
}

TEST_CASE("control plane: teams created at once never exceed max_teams", "[backend][control-plane][threads]") {
    constexpr std::size_t limit = 24;
    backend b(with_max_teams(limit));
    std::atomic<std::size_t> made{0}, refused{0}, other{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 6; ++t)
        threads.emplace_back([&] {
            for (int i = 0; i < 12; ++i) {
                auto r = b.handle("/_control/team/create", std::nullopt, "{}");
                if (r.status == 200)
                    ++made;
                else if (r.status == 429 && r.body.find("\"TEAM_LIMIT_REACHED\"") != std::string::npos)
                    ++refused;
                else
                    ++other;
            }
        });
    for (auto& t : threads) t.join();
    CHECK(made == limit);
    CHECK(refused == 6 * 12 - limit);
    CHECK(other == 0);
    CHECK(team_count(b) == limit);
}

TEST_CASE("control plane: a server-wide reset while teams are created", "[backend][control-plane][threads]") {
    // Whatever the interleaving, the registry after the last reset never holds more than the
    // limit, and places freed by a reset can be taken again.
    constexpr std::size_t limit = 5;
    backend b(with_max_teams(limit));
    std::atomic<bool> stop{false};
    std::thread creator([&] {
        while (!stop) b.handle("/_control/team/create", std::nullopt, "{}");
    });
    for (int i = 0; i < 50; ++i) {
        require_ok(request(b, "/_control/reset", std::nullopt, bj::object{}));
        CHECK(team_count(b) <= limit);
    }
    stop = true;
    creator.join();
    CHECK(team_count(b) <= limit);
    while (team_count(b) < limit) require_ok(create_team(b));
    require_error(create_team(b), 429, "TEAM_LIMIT_REACHED");
}

// ---------------------------------------------------------------------------------------------
// teamUuid of the operator's recipient/act and envelope/cancel (§6.9)

TEST_CASE("control plane: an envelope in two teams needs the operator's teamUuid", "[backend][control-plane]") {
    client c(fixed_clock(11));
    const team& a = c.main;
    const team b = c.make_team();
    const team empty = c.make_team();
    const auto env = sent_envelope(c);
    // Team B becomes a copy of team A: the same envelope uuid in both.
    auto snapshot = c.call("/_control/team/snapshot", bj::object{});
    require_ok(snapshot);
    require_ok(c.call_as(b, "/_control/team/restore", bj::object{{"team", snapshot.obj().at("team")}}));
    const auto before = statuses(c, a, env);
    REQUIRE(before == std::pair<std::string, std::string>{"signing", "pending"});
    REQUIRE(statuses(c, b, env) == before);

    const bj::object sign{{"envelopeUuid", env}, {"email", "signer@example.com"}, {"action", "sign"}};
    const bj::object cancel{{"envelopeUuid", env}};

    SECTION("without teamUuid: INVALID_REQUEST_FORMAT at teamUuid, nothing changes") {
        for (const auto& [path, body] :
             {std::pair{"/_control/recipient/act", sign}, std::pair{"/_control/envelope/cancel", cancel}}) {
            INFO(path);
            auto r = c.control(path, body);
            require_error(r, 400, "INVALID_REQUEST_FORMAT");
            CHECK(r.detail_paths() == std::vector<std::vector<std::string>>{{"teamUuid"}});
        }
        CHECK(statuses(c, a, env) == before);
        CHECK(statuses(c, b, env) == before);
    }
    SECTION("with teamUuid: that team only") {
        auto body = sign;
        body["teamUuid"] = b.uuid;
        auto r = c.control("/_control/recipient/act", body);
        require_ok(r);
        CHECK(r.obj().at("recipientStatus") == str("signed"));
        CHECK(statuses(c, b, env) == std::pair<std::string, std::string>{"complete", "signed"});
        CHECK(statuses(c, a, env) == before);

        auto cancel_a = cancel;
        cancel_a["teamUuid"] = a.uuid;
        require_ok(c.control("/_control/envelope/cancel", cancel_a));
        CHECK(statuses(c, a, env).first == "canceled");
        CHECK(statuses(c, b, env).first == "complete");
    }
    SECTION("a team that does not hold the envelope: ENVELOPE_NOT_FOUND; no team: INVALID_REQUEST_FORMAT") {
        auto body = sign;
        body["teamUuid"] = empty.uuid;
        require_error(c.control("/_control/recipient/act", body), 400, "ENVELOPE_NOT_FOUND");
        auto cancel_empty = cancel;
        cancel_empty["teamUuid"] = empty.uuid;
        require_error(c.control("/_control/envelope/cancel", cancel_empty), 400, "ENVELOPE_NOT_FOUND");
        body["teamUuid"] = "00000000-0000-4000-8000-000000000000";
        auto r = c.control("/_control/recipient/act", body);
        require_error(r, 400, "INVALID_REQUEST_FORMAT");
        CHECK(r.detail_paths() == std::vector<std::vector<std::string>>{{"teamUuid"}});
        CHECK(statuses(c, a, env) == before);
        CHECK(statuses(c, b, env) == before);
    }
    SECTION("with a team's key: its own uuid only") {
        auto body = sign;
        body["teamUuid"] = b.uuid;
        auto r = c.call_as(a, "/_control/recipient/act", body);
        require_error(r, 400, "INVALID_REQUEST_FORMAT");
        CHECK(r.detail_paths() == std::vector<std::vector<std::string>>{{"teamUuid"}});
        auto cancel_b = cancel;
        cancel_b["teamUuid"] = b.uuid;
        r = c.call_as(a, "/_control/envelope/cancel", cancel_b);
        require_error(r, 400, "INVALID_REQUEST_FORMAT");
        CHECK(r.detail_paths() == std::vector<std::vector<std::string>>{{"teamUuid"}});
        CHECK(statuses(c, a, env) == before);
        CHECK(statuses(c, b, env) == before);
        // Its own uuid, or none: the caller's team.
        body["teamUuid"] = a.uuid;
        require_ok(c.call_as(a, "/_control/recipient/act", body));
        CHECK(statuses(c, a, env).second == "signed");
        CHECK(statuses(c, b, env) == before);
        require_ok(c.call_as(b, "/_control/envelope/cancel", cancel));
        CHECK(statuses(c, b, env).first == "canceled");
    }
}

TEST_CASE("control plane: one team with the envelope needs no teamUuid", "[backend][control-plane]") {
    client c(fixed_clock(12));
    c.make_team();
    const auto env = sent_envelope(c);
    require_ok(c.control("/_control/recipient/act",
                         bj::object{{"envelopeUuid", env}, {"email", "signer@example.com"}, {"action", "open"}}));
    require_error(
        c.control("/_control/envelope/cancel", bj::object{{"envelopeUuid", "00000000-0000-4000-8000-000000000000"}}),
        400, "ENVELOPE_NOT_FOUND");
}

// ---------------------------------------------------------------------------------------------
// A reset drops exactly the deliveries queued before it (§6.9)

namespace {
esign::reference::webhook_job job_named(std::string event) {
    esign::reference::webhook_job job;
    job.event_uuid = std::move(event);
    job.webhook_uuid = "hook";
    return job;
}

std::vector<std::string> queued_events(esign::reference::delivery_queue& q, const esign::reference::team_shard& t) {
    std::vector<std::string> out;
    for (const auto& j : q.jobs_of(t, t.generation)) out.push_back(j.event_uuid);
    return out;
}
}  // namespace

TEST_CASE("control plane: a reset's drop keeps the jobs queued after it", "[backend][control-plane][deliveries]") {
    esign::reference::delivery_queue q([] { return start_ms; });
    auto team = std::make_shared<esign::reference::team_shard>();
    q.push(team, job_named("before"), team->generation, start_ms);
    // The reset moves the generation on under the team's lock; a request that runs right after
    // it queues its job before the reset's drop comes.
    ++team->generation;
    q.push(team, job_named("after"), team->generation, start_ms);
    q.drop(*team);
    CHECK(queued_events(q, *team) == std::vector<std::string>{"after"});
    CHECK(team->pending == 1);
    // A job of an ended generation (its request ran before the reset) is not queued at all.
    q.push(team, job_named("late"), team->generation - 1, start_ms);
    CHECK(team->pending == 1);
    auto next = q.pop(std::chrono::milliseconds(0));
    REQUIRE(next);
    CHECK(next->job.event_uuid == "after");
    CHECK_FALSE(q.pop(std::chrono::milliseconds(0)));
    CHECK(team->pending == 0);
}

TEST_CASE("control plane: requests between a reset and its drop keep their jobs",
          "[backend][control-plane][deliveries][threads]") {
    // The backend's protocol (team_operations.hpp, snapshots.hpp): a request reads the team's
    // generation under the team's lock and queues its jobs with it; a reset or restore moves the
    // generation on under the lock, and drops the queue's jobs after it released the lock. Here
    // requests run on other threads all along, and each reset waits, between its unlock and its
    // drop, until one of them has queued a job of the new generation: that job, of a request
    // answered after the reset, must survive the drop.
    esign::reference::delivery_queue q([] { return start_ms; });
    auto team = std::make_shared<esign::reference::team_shard>();
    std::atomic<bool> done{false};
    std::atomic<std::size_t> queued_now{0};  // jobs queued in the current generation
    std::vector<std::thread> requests;
    for (int w = 0; w < 2; ++w)
        requests.emplace_back([&] {
            while (!done) {
                std::unique_lock lock(team->mutex);  // (queued under the lock: counted exactly)
                q.push(team, job_named("x"), team->generation, start_ms);
                ++queued_now;
            }
        });
    std::size_t lost = 0;
    for (int reset = 0; reset < 50; ++reset) {
        {
            std::unique_lock lock(team->mutex);
            if (q.jobs_of(*team, team->generation).size() != queued_now) ++lost;
            ++team->generation;
            queued_now = 0;
        }
        while (queued_now == 0) std::this_thread::yield();
        q.drop(*team);
    }
    done = true;
    for (auto& t : requests) t.join();
    CHECK(lost == 0);
    CHECK(q.jobs_of(*team, team->generation).size() == queued_now);
    CHECK(team->pending == queued_now);  // nothing of an ended generation is left behind
}

}  // namespace test_backend_control_plane
