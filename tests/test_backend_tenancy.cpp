// SPDX-License-Identifier: BSL-1.0
// The reference backend as a shared test service (contract.md §6): the team as the unit of
// isolation for state, clock, identifiers, reset, control and deliveries; who may call the
// control operations; the proxy form of credentials.
#include "backend_support.hpp"

#include <atomic>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace test_backend_tenancy {

using namespace backend_support;

namespace {

constexpr std::int64_t day_ms = 86'400'000;

// A wall clock the test moves.
struct moving_wall {
    std::shared_ptr<std::atomic<std::int64_t>> now = std::make_shared<std::atomic<std::int64_t>>(start_ms);
    backend_options options(std::optional<std::uint64_t> seed = std::nullopt) const {
        backend_options o;
        o.wall_clock = [n = now] { return n->load(); };
        o.seed = seed;
        o.self_check = true;
        return o;
    }
};

struct made_team {
    team t;
    std::string access_key;
    std::string secret_key;
};

made_team make_full_team(backend& b, const bj::object& body = {},
                         std::optional<std::string_view> token = std::nullopt) {
    auto a = request(b, "/_control/team/create", token, body);
    require_ok(a);
    const auto& o = a.obj();
    made_team out;
    out.t = team{std::string(o.at("apiKey").as_string()), std::string(o.at("teamUuid").as_string()),
                 std::string(o.at("defaultWorkspaceUuid").as_string()), std::string(o.at("ownerUuid").as_string()),
                 std::string(o.at("ownerEmail").as_string())};
    out.access_key = std::string(o.at("accessKey").as_string());
    out.secret_key = std::string(o.at("secretKey").as_string());
    return out;
}

std::string new_envelope(backend& b, const std::string& key) {
    auto a = post(b, "/_control/envelope/create", key,
                  {{"title", "t"}, {"documents", bj::array{bj::object{{"title", "d"}, {"pageCount", 1}}}}});
    require_ok(a);
    return std::string(a.obj().at("envelopeUuid").as_string());
}

// A sent envelope of one signer, expiring after `days`.
std::string sent_envelope(backend& b, const std::string& key, int days = 1) {
    const std::string env = new_envelope(b, key);
    require_ok(post(b, "/public/envelope/add-recipients", key,
                    {{"envelopeUuid", env}, {"recipients", bj::array{recipient("s@example.com")}}}));
    require_ok(post(b, "/public/envelope/update", key,
                    {{"envelopeUuid", env}, {"update", bj::object{{"expirationPeriod", days}}}}));
    require_ok(post(b, "/public/envelope/send", key, {{"envelopeUuid", env}, {"distributionMethod", "none"}}));
    return env;
}

std::string status_of(backend& b, const std::string& key, const std::string& env) {
    auto a = post(b, "/public/envelope/get", key, {{"envelopeUuid", env}});
    require_ok(a);
    return std::string(a.obj().at("status").as_string());
}

std::int64_t now_of(backend& b, const std::string& key) {
    auto a = post(b, "/_control/clock/now", key);
    require_ok(a);
    return a.obj().at("now").as_int64();
}

}  // namespace

TEST_CASE("tenancy: a team's clock moves alone, the operator's moves every team", "[backend][tenancy]") {
    moving_wall wall;
    backend b(wall.options());
    auto a = make_team(b), c = make_team(b);
    const auto env_a = sent_envelope(b, a.key), env_c = sent_envelope(b, c.key);

    auto advanced = post(b, "/_control/clock/advance", a.key, {{"milliseconds", 2 * day_ms}});
    require_ok(advanced);
    CHECK(advanced.obj().at("now").as_int64() == start_ms + 2 * day_ms);
    CHECK(now_of(b, a.key) == start_ms + 2 * day_ms);
    CHECK(now_of(b, c.key) == start_ms);
    CHECK(status_of(b, a.key, env_a) == "expired");
    CHECK(status_of(b, c.key, env_c) == "signing");
    // The server's clock did not move either.
    CHECK(post(b, "/_control/clock/now", "").obj().at("now").as_int64() == start_ms);

    // Without a key: every team, and the server.
    require_ok(post(b, "/_control/clock/advance", "", {{"milliseconds", 2 * day_ms}}));
    CHECK(now_of(b, a.key) == start_ms + 4 * day_ms);
    CHECK(now_of(b, c.key) == start_ms + 2 * day_ms);
    CHECK(status_of(b, c.key, env_c) == "expired");
    // A team made later starts at the server's clock.
    CHECK(now_of(b, make_team(b).key) == start_ms + 2 * day_ms);
    // Error bodies carry the team's time.
    auto failed = post(b, "/public/envelope/get", a.key, {{"envelopeUuid", std::string(36, 'x')}});
    CHECK(failed.obj().at("timestamp") == str("2027-01-19T08:00:00.000Z"));
}

TEST_CASE("tenancy: startTime freezes a team's clock, seeds make a team reproducible", "[backend][tenancy]") {
    moving_wall wall;
    backend b(wall.options());
    const bj::object seeded{{"seed", 7}, {"startTime", 1'700'000'000'000}};
    auto first = make_full_team(b, seeded);
    CHECK(now_of(b, first.t.key) == 1'700'000'000'000);
    *wall.now += 5000;
    CHECK(now_of(b, first.t.key) == 1'700'000'000'000);  // frozen: only clock/advance moves it
    require_ok(post(b, "/_control/clock/advance", first.t.key, {{"milliseconds", 10}}));
    CHECK(now_of(b, first.t.key) == 1'700'000'000'010);

    // Other teams made in between change nothing of a seeded team's identifiers.
    make_team(b);
    make_team(b, {{"seed", 8}});
    auto second = make_full_team(b, seeded);
    CHECK(second.t.uuid == first.t.uuid);
    CHECK(second.t.default_ws == first.t.default_ws);
    CHECK(second.t.owner_uuid == first.t.owner_uuid);
    CHECK(second.t.owner_email == first.t.owner_email);
    // Credentials never come from a seed, and are never issued twice.
    CHECK(second.t.key != first.t.key);
    CHECK(second.access_key != first.access_key);
    CHECK(second.secret_key != first.secret_key);

    // The same requests give the same bytes, request ids included (every answer draws its
    // requestId from the team's stream, so the second team makes the calls the first made).
    for (int i = 0; i < 2; ++i) now_of(b, second.t.key);
    require_ok(post(b, "/_control/clock/advance", second.t.key, {{"milliseconds", 10}}));
    now_of(b, second.t.key);
    auto story = [&](const std::string& key) {
        std::vector<std::string> bodies;
        auto keep = [&](std::string_view path, const bj::object& body) {
            auto r = b.handle(path, std::string_view(key), bj::serialize(body));
            bodies.push_back(std::to_string(r.status) + " " + r.request_id + " " + r.body);
        };
        keep("/_control/envelope/create",
             {{"title", "t"}, {"documents", bj::array{bj::object{{"title", "d"}, {"pageCount", 1}}}}});
        keep("/public/envelope/list", {});
        keep("/public/envelope/get", {{"envelopeUuid", std::string(36, 'x')}});  // an error body, with its requestId
        keep("/public/utils/whoami", {});
        keep("/public/logs/list", {{"category", "team"}});
        return bodies;
    };
    CHECK(story(first.t.key) == story(second.t.key));
}

TEST_CASE("tenancy: observing a seeded team leaves its identifiers as they would be without it", "[backend][tenancy]") {
    // An inspector polls a team's clock, journal, outbox, deliveries, fault rules and snapshot
    // every second (contract.md §7.2); a test may too. Those reads draw no identifier from the
    // team's stream, so a seeded team's ids and request ids do not depend on who watched.
    moving_wall wall;
    backend b(wall.options());
    const bj::object seeded{{"seed", 21}, {"startTime", 1'700'000'000'000}};
    auto story = [&](const std::string& key, bool watched) {
        std::vector<std::string> lines;
        auto watch = [&] {
            if (!watched) return;
            for (std::string_view path :
                 {"/_control/clock/now", "/_control/journal/list", "/_control/outbox/list",
                  "/_control/webhook/deliveries", "/_control/faults/list", "/_control/team/snapshot"})
                REQUIRE(b.handle(path, std::string_view(key), "{}").status == 200);
            REQUIRE(b.handle("/_control/journal/list", std::string_view(key), "{\"since\":\"x\"}").status == 400);
        };
        auto keep = [&](std::string_view path, const bj::object& body) {
            watch();
            auto r = b.handle(path, std::string_view(key), bj::serialize(body));
            lines.push_back(std::to_string(r.status) + " " + r.request_id + " " + r.body);
        };
        keep("/_control/envelope/create",
             {{"title", "t"}, {"documents", bj::array{bj::object{{"title", "d"}, {"pageCount", 1}}}}});
        keep("/public/envelope/list", {});
        keep("/public/envelope/get", {{"envelopeUuid", std::string(36, 'x')}});  // an error, with its requestId
        keep("/public/utils/whoami", {});
        return lines;
    };
    const auto alone = story(make_full_team(b, seeded).t.key, false);
    const auto watched = story(make_full_team(b, seeded).t.key, true);
    CHECK(watched == alone);
}

TEST_CASE("tenancy: --seed derives the identifiers of teams, never their keys", "[backend][tenancy]") {
    backend one(fixed_clock(5)), two(fixed_clock(5));
    auto a = make_team(one), b = make_team(two);
    CHECK(a.uuid == b.uuid);  // the first team of either server, same derived seed
    CHECK(a.key != b.key);
    // A server-wide reset never hands out a key again.
    require_ok(post(one, "/_control/reset", ""));
    auto again = make_team(one);
    CHECK(again.uuid == a.uuid);
    CHECK(again.key != a.key);
    require_error(post(one, "/public/utils/whoami", a.key), 401, "AUTHENTICATION_ERROR");
    require_ok(post(one, "/public/utils/whoami", again.key));
}

TEST_CASE("tenancy: team/reset empties one team and keeps its identity", "[backend][tenancy]") {
    backend b(fixed_clock(3));
    auto a = make_full_team(b, {{"seed", 11}});
    auto other = make_team(b);
    const auto first_env = new_envelope(b, a.t.key);
    const auto other_env = new_envelope(b, other.key);
    require_ok(post(b, "/public/webhook/create", a.t.key, webhook_body()));
    require_ok(
        post(b, "/public/contact/create", a.t.key,
             {{"contacts", bj::array{bj::object{{"email", "c@example.com"}, {"firstname", "C"}, {"lastname", "D"}}}}}));
    require_ok(post(b, "/_control/clock/advance", a.t.key, {{"milliseconds", day_ms}}));

    require_ok(post(b, "/_control/team/reset", a.t.key));
    // Its seeded stream restarts where it stood after creation: the first envelope made after
    // the reset gets the uuid the first one made after creation had.
    const auto again = new_envelope(b, a.t.key);
    CHECK(again == first_env);
    require_ok(post(b, "/_control/envelope/cancel", a.t.key, {{"envelopeUuid", again}}));
    require_ok(post(b, "/_control/team/reset", a.t.key));
    auto who = post(b, "/public/utils/whoami", a.t.key);
    require_ok(who);
    CHECK(who.obj().at("teamUuid") == str(a.t.uuid));
    CHECK(who.obj().at("ownerUuid") == str(a.t.owner_uuid));
    require_error(post(b, "/public/envelope/get", a.t.key, {{"envelopeUuid", first_env}}), 400, "ENVELOPE_NOT_FOUND");
    CHECK(post(b, "/public/webhook/list", a.t.key).obj().at("webhooks").as_array().empty());
    CHECK(post(b, "/public/contact/list", a.t.key).obj().at("contacts").as_array().empty());
    CHECK(now_of(b, a.t.key) == start_ms);
    auto spaces = post(b, "/public/workspace/list", a.t.key).obj().at("workspaces").as_array();
    REQUIRE(spaces.size() == 1);
    CHECK(spaces[0].at("uuid") == str(a.t.default_ws));
    // The proxy credentials stay too.
    require_ok(post(b, "/public/utils/whoami", a.access_key + ":" + a.secret_key));
    // Other teams are untouched.
    CHECK(status_of(b, other.key, other_env) == "draft");
}

TEST_CASE("tenancy: control operations with a team's key act on that team only", "[backend][tenancy]") {
    backend b(fixed_clock(4));
    auto a = make_team(b), c = make_team(b);
    const auto env_a = sent_envelope(b, a.key);

    require_error(post(b, "/_control/recipient/act", c.key,
                       {{"envelopeUuid", env_a}, {"email", "s@example.com"}, {"action", "sign"}}),
                  400, "ENVELOPE_NOT_FOUND");
    require_error(post(b, "/_control/envelope/cancel", c.key, {{"envelopeUuid", env_a}}), 400, "ENVELOPE_NOT_FOUND");
    CHECK(status_of(b, a.key, env_a) == "signing");
    require_ok(post(b, "/_control/recipient/act", a.key,
                    {{"envelopeUuid", env_a}, {"email", "s@example.com"}, {"action", "sign"}}));
    CHECK(status_of(b, a.key, env_a) == "complete");

    // team/update: the caller's team; another team's uuid is refused and changes nothing.
    auto wrong = post(b, "/_control/team/update", c.key, {{"teamUuid", a.uuid}, {"apiCredits", 0}});
    require_error(wrong, 400, "INVALID_REQUEST_FORMAT");
    CHECK(wrong.detail_paths() == std::vector<std::vector<std::string>>{{"teamUuid"}});
    require_ok(post(b, "/_control/team/update", c.key, {{"apiCredits", 0}}));
    const auto env_c = new_envelope(b, c.key);
    require_ok(post(b, "/public/envelope/add-recipients", c.key,
                    {{"envelopeUuid", env_c}, {"recipients", bj::array{recipient("s@example.com")}}}));
    require_error(post(b, "/public/envelope/send", c.key, {{"envelopeUuid", env_c}}), 400,
                  "API_CREDITS_LIMIT_EXCEEDED");
    // The operator needs teamUuid.
    auto missing = post(b, "/_control/team/update", "", {{"apiCredits", 5}});
    require_error(missing, 400, "INVALID_REQUEST_FORMAT");
    CHECK(missing.detail_paths() == std::vector<std::vector<std::string>>{{"teamUuid"}});
    require_ok(post(b, "/_control/team/update", "", {{"teamUuid", c.uuid}, {"apiCredits", 5}}));
    require_ok(post(b, "/public/envelope/send", c.key, {{"envelopeUuid", env_c}}));

    // Outbox and deliveries: the team's own with its key, every team's without.
    auto own = post(b, "/_control/outbox/list", c.key).obj().at("emails").as_array();
    REQUIRE(own.size() == 1);
    CHECK(own[0].at("teamUuid") == str(c.uuid));
    CHECK(post(b, "/_control/outbox/list", a.key).obj().at("emails").as_array().empty());  // sent with "none"
    CHECK(post(b, "/_control/outbox/list", "").obj().at("emails").as_array().size() == 1);

    // A key that is no team's (a stale one) never becomes the operator.
    require_error(post(b, "/_control/clock/advance", "esk_unknown", {{"milliseconds", 1}}), 401,
                  "AUTHENTICATION_ERROR");
    // A team's key never grants a server-wide operation.
    require_error(post(b, "/_control/reset", a.key), 401, "AUTHENTICATION_ERROR");
    require_error(post(b, "/_control/team/create", a.key), 401, "AUTHENTICATION_ERROR");
    require_ok(post(b, "/public/utils/whoami", a.key));
}

TEST_CASE("tenancy: --control-token guards the server-wide operations", "[backend][tenancy]") {
    auto options = fixed_clock(6);
    options.control_token = "op-token";
    backend b(options);
    require_error(post(b, "/_control/team/create", ""), 401, "AUTHENTICATION_ERROR");
    require_error(post(b, "/_control/team/create", "op-tokeN"), 401, "AUTHENTICATION_ERROR");
    auto a = make_full_team(b, {}, "op-token");
    require_error(post(b, "/_control/outbox/list", ""), 401, "AUTHENTICATION_ERROR");
    require_ok(post(b, "/_control/outbox/list", "op-token"));
    require_ok(post(b, "/_control/outbox/list", a.t.key));  // team-scoped: the team's key
    require_ok(post(b, "/_control/clock/advance", a.t.key, {{"milliseconds", 1}}));
    require_error(post(b, "/_control/reset", a.t.key), 401, "AUTHENTICATION_ERROR");
    require_ok(post(b, "/_control/reset", "op-token"));
    require_error(post(b, "/public/utils/whoami", a.t.key), 401, "AUTHENTICATION_ERROR");
}

TEST_CASE("tenancy: without control, no /_control/ path exists", "[backend][tenancy]") {
    auto options = fixed_clock(6);
    options.control_enabled = false;
    backend b(options);
    CHECK_FALSE(b.knows_path("/_control/team/create"));
    CHECK_FALSE(b.knows_path("/_control/reset"));
    CHECK(b.knows_path("/public/utils/whoami"));
    CHECK(post(b, "/_control/team/create", "").status == 404);
}

TEST_CASE("tenancy: the proxy form of credentials", "[backend][tenancy]") {
    backend b(fixed_clock(9));
    auto a = make_full_team(b);
    CHECK(a.access_key.rfind("esa_", 0) == 0);
    CHECK(a.secret_key.size() == 48);
    CHECK(a.secret_key.rfind("ess_", 0) == 0);
    auto who = post(b, "/public/utils/whoami", a.access_key + ":" + a.secret_key);
    require_ok(who);
    CHECK(who.obj().at("teamUuid") == str(a.t.uuid));
    std::string wrong = a.secret_key;
    wrong[5] = wrong[5] == 'A' ? 'B' : 'A';
    require_error(post(b, "/public/utils/whoami", a.access_key + ":" + wrong), 401, "AUTHENTICATION_ERROR");
    require_error(post(b, "/public/utils/whoami", a.access_key + ":"), 401, "AUTHENTICATION_ERROR");
    require_error(post(b, "/public/utils/whoami", a.access_key), 401, "AUTHENTICATION_ERROR");
    require_error(post(b, "/public/utils/whoami", a.t.key + ":" + a.secret_key), 401, "AUTHENTICATION_ERROR");
    // Team-scoped control operations take it as well.
    require_ok(post(b, "/_control/clock/now", a.access_key + ":" + a.secret_key));
}

// contract.md §6.3, §6.9: an attempt already handed to a sender thread is no longer wanted once
// its team is reset or restored, or the server reset (the sender asks just before writing:
// webhook_client.hpp, tests/http/test_server_isolation.cpp); another team's stays wanted.
TEST_CASE("tenancy: an attempt handed out before a reset is no longer current", "[backend][tenancy]") {
    using namespace std::chrono_literals;
    backend b(fixed_clock(13));
    auto a = make_team(b), c = make_team(b);
    for (const auto& t : {a, c}) {
        require_ok(post(b, "/public/webhook/create", t.key, webhook_body()));
        for (int i = 0; i < 3; ++i) new_envelope(b, t.key);
    }
    auto take = [&] {
        auto attempt = b.next_webhook_attempt(0ms);
        REQUIRE(attempt);
        return *attempt;
    };
    const auto of_a = take(), of_c = take();
    CHECK(backend::webhook_attempt_current(of_a));
    require_ok(post(b, "/_control/team/reset", a.key));
    CHECK_FALSE(backend::webhook_attempt_current(of_a));
    CHECK(backend::webhook_attempt_current(of_c));

    const auto again_c = take();  // c's next (a's were dropped by its reset)
    auto snap = b.handle("/_control/team/snapshot", c.key, "{}");
    REQUIRE(snap.status == 200);
    require_ok(post(b, "/_control/team/restore", c.key, {{"team", bj::parse(snap.body).at("team")}}));
    CHECK_FALSE(backend::webhook_attempt_current(again_c));

    new_envelope(b, c.key);
    const auto after = take();  // queued after the restore: wanted, until the server's reset
    CHECK(backend::webhook_attempt_current(after));
    require_ok(request(b, "/_control/reset", std::nullopt, bj::object{}));
    CHECK_FALSE(backend::webhook_attempt_current(after));
}

TEST_CASE("tenancy: deliveries refer to their webhook and are served teams in turn", "[backend][tenancy]") {
    using namespace std::chrono_literals;
    backend b(fixed_clock(12));
    auto a = make_team(b), c = make_team(b);
    auto hook_a = post(b, "/public/webhook/create", a.key, webhook_body());
    require_ok(hook_a);
    const std::string hook_uuid(hook_a.obj().at("webhook").at("uuid").as_string());
    require_ok(post(b, "/public/webhook/create", c.key, webhook_body({{"url", "https://c.example.com/hook"}})));
    for (int i = 0; i < 3; ++i) new_envelope(b, a.key);
    new_envelope(b, c.key);

    // Round-robin: team c's one job comes second, not after all of a's.
    auto first = b.next_webhook_attempt(0ms);
    auto second = b.next_webhook_attempt(0ms);
    REQUIRE(first);
    REQUIRE(second);
    CHECK(first->url == "https://hooks.example.com/esign");
    CHECK(second->url == "https://c.example.com/hook");

    // An update applies to the attempts still queued; a deactivated webhook's are dropped.
    require_ok(post(b, "/public/webhook/update", a.key,
                    {{"uuid", hook_uuid}, {"url", "https://new.example.com/x"}, {"secret", "s3"}}));
    auto third = b.next_webhook_attempt(0ms);
    REQUIRE(third);
    CHECK(third->url == "https://new.example.com/x");
    CHECK(third->secret == std::optional<std::string>("s3"));
    require_ok(post(b, "/public/webhook/update", a.key, {{"uuid", hook_uuid}, {"active", false}}));
    CHECK_FALSE(b.next_webhook_attempt(0ms));

    // A failed attempt is recorded and retried; a team reset drops the retry and the record.
    b.record_webhook_attempt(*second, 503, false);
    auto deliveries = post(b, "/_control/webhook/deliveries", c.key).obj().at("deliveries").as_array();
    REQUIRE(deliveries.size() == 1);
    CHECK(deliveries[0].at("attempts") == 1);
    CHECK(deliveries[0].at("lastStatus") == 503);
    require_ok(post(b, "/_control/team/reset", c.key));
    require_ok(post(b, "/_control/clock/advance", c.key, {{"milliseconds", 500}}));  // when the retry was due
    CHECK_FALSE(b.next_webhook_attempt(0ms));
    b.record_webhook_attempt(*second, 200, true);  // too late: from before the reset
    CHECK(post(b, "/_control/webhook/deliveries", c.key).obj().at("deliveries").as_array().empty());
}

TEST_CASE("tenancy: webhook retries back off exponentially on the team's clock", "[backend][tenancy][webhooks]") {
    // The wall clock stands still (fixed_clock): time moves only by /_control/clock/advance, so
    // every step of the schedule is exact, and nothing here waits.
    using namespace std::chrono_literals;
    backend b(fixed_clock(14));
    auto a = make_team(b), other = make_team(b);
    require_ok(post(b, "/public/webhook/create", a.key, webhook_body()));
    new_envelope(b, a.key);
    auto attempt = b.next_webhook_attempt(0ms);
    REQUIRE(attempt);
    REQUIRE_FALSE(b.next_webhook_attempt(0ms));  // one job
    CHECK(attempt->job.attempt == 1);
    CHECK(attempt->now_ms == start_ms);

    std::int64_t elapsed = 0;
    for (int failed = 1; failed < backend::max_webhook_attempts; ++failed) {
        const std::int64_t delay = std::int64_t{500} << (failed - 1);  // 500, 1000, 2000, 4000 ms
        CHECK(backend::retry_delay(failed).count() == delay);
        b.record_webhook_attempt(*attempt, 503, false);
        // Another team's clock moving does not bring this team's retry forward.
        require_ok(post(b, "/_control/clock/advance", other.key, {{"milliseconds", 3'600'000}}));
        require_ok(post(b, "/_control/clock/advance", a.key, {{"milliseconds", delay - 1}}));
        CHECK_FALSE(b.next_webhook_attempt(0ms));
        // The last step by the operator's advance (every team's clock): the same schedule.
        require_ok(post(b, "/_control/clock/advance", failed == 4 ? "" : a.key, {{"milliseconds", 1}}));
        elapsed += delay;
        attempt = b.next_webhook_attempt(0ms);
        REQUIRE(attempt);
        CHECK(attempt->job.attempt == failed + 1);
        CHECK(attempt->now_ms == start_ms + elapsed);  // the signature's t= is the team's time too
    }
    // The fifth attempt fails too: no sixth, however long the team waits.
    b.record_webhook_attempt(*attempt, 503, false);
    require_ok(post(b, "/_control/clock/advance", a.key, {{"milliseconds", 86'400'000}}));
    CHECK_FALSE(b.next_webhook_attempt(0ms));
    auto deliveries = post(b, "/_control/webhook/deliveries", a.key).obj().at("deliveries").as_array();
    REQUIRE(deliveries.size() == 1);
    CHECK(deliveries[0].at("attempts") == backend::max_webhook_attempts);
    CHECK(deliveries[0].at("delivered") == false);
    CHECK(deliveries[0].at("lastStatus") == 503);
}

TEST_CASE("tenancy: a retry on a running clock falls due in real time", "[backend][tenancy][webhooks]") {
    // The default wall clock: the retry comes 500 ms after the failure without any advance.
    using namespace std::chrono_literals;
    backend b;
    auto a = make_team(b);
    require_ok(post(b, "/public/webhook/create", a.key, webhook_body()));
    new_envelope(b, a.key);
    auto first = b.next_webhook_attempt(0ms);
    REQUIRE(first);
    b.record_webhook_attempt(*first, 503, false);
    auto retry = b.next_webhook_attempt(60s);  // returns as soon as it falls due
    REQUIRE(retry);
    CHECK(retry->job.attempt == 2);
    CHECK(retry->now_ms >= first->now_ms + 500);
}

TEST_CASE("tenancy: pending deliveries and delivery records are bounded per team", "[backend][tenancy]") {
    backend b(fixed_clock(13));
    auto a = make_team(b);
    require_ok(post(b, "/public/webhook/create", a.key, webhook_body()));
    const std::size_t events = esign::reference::max_pending_deliveries + 2;
    for (std::size_t i = 0; i < events; ++i) new_envelope(b, a.key);
    auto deliveries = post(b, "/_control/webhook/deliveries", a.key).obj().at("deliveries").as_array();
    // The records keep the last max_kept_records; the events beyond the pending bound are dropped.
    REQUIRE(deliveries.size() == esign::reference::max_kept_records);
    CHECK(deliveries.back().at("dropped") == true);
    CHECK(deliveries.back().at("delivered") == false);
    CHECK(deliveries.back().at("attempts") == 0);
    CHECK(deliveries[deliveries.size() - 3].at("dropped") == false);
    // Another team is not bounded by the first one's backlog.
    auto c = make_team(b);
    require_ok(post(b, "/public/webhook/create", c.key, webhook_body()));
    new_envelope(b, c.key);
    auto theirs = post(b, "/_control/webhook/deliveries", c.key).obj().at("deliveries").as_array();
    REQUIRE(theirs.size() == 1);
    CHECK(theirs[0].at("dropped") == false);
}

TEST_CASE("tenancy: teams made, used and reset from many threads", "[backend][tenancy]") {
    backend b(fixed_clock(14));
    std::atomic<int> crashes{0}, unexpected{0}, succeeded{0};
    // Server-wide resets begun and answered: a team's key may answer 401 only when a reset
    // begun after the team's creation began could have retired it.
    std::atomic<int> resets_begun{0}, resets_answered{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 6; ++t)
        threads.emplace_back([&, t] {
            try {
                for (int i = 0; i < 30; ++i) {
                    if (t == 0 && i % 10 == 5) {
                        ++resets_begun;
                        if (b.handle("/_control/reset", std::nullopt, "{}").status != 200) ++unexpected;
                        ++resets_answered;
                        continue;
                    }
                    const int answered_before = resets_answered.load();
                    auto team_reply = b.handle("/_control/team/create", std::nullopt, "{}");
                    if (team_reply.status != 200) {
                        ++unexpected;
                        continue;
                    }
                    const std::string key(bj::parse(team_reply.body).at("apiKey").as_string());
                    for (auto path : {"/public/utils/whoami", "/public/webhook/list", "/public/workspace/list",
                                      "/public/logs/list", "/_control/team/reset", "/public/workspace/create"}) {
                        const std::string body =
                            std::string_view(path) == "/public/workspace/create" ? R"({"name":"w"})"
                            : std::string_view(path) == "/public/logs/list"      ? R"({"category":"team"})"
                                                                                 : "{}";
                        auto r = b.handle(path, std::string_view(key), body);
                        // 401 only once a server-wide reset retired the team.
                        if (r.status == 200)
                            ++succeeded;
                        else if (r.status != 401 || resets_begun.load() <= answered_before)
                            ++unexpected;
                    }
                }
            } catch (...) {
                ++crashes;
            }
        });
    for (auto& th : threads) th.join();
    CHECK(crashes.load() == 0);
    CHECK(unexpected.load() == 0);
    // 6 threads × about 30 teams × 6 requests, two resets: most succeed. A backend that
    // answered 401 to every keyed request would fail here.
    CHECK(succeeded.load() >= 6 * 27 * 6 / 2);
}

}  // namespace test_backend_tenancy
