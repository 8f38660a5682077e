// SPDX-License-Identifier: BSL-1.0
// States put in place whole (contract.md §6.6, §6.9): /_control/team/restore and a --fixture
// team with a state install only a state the API could have produced (team/snapshot_state.hpp's
// check_state), a snapshot carries no credentials, a restored team names itself everywhere, and
// the clock's walk over due events (team/timeline.hpp) ends whatever state slipped through.
#include "backend_support.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <esign/reference/team/limits.hpp>
#include <esign/reference/team/timeline.hpp>

namespace test_backend_restore_states {

using namespace backend_support;

namespace {

constexpr std::int64_t day = 86'400'000;
constexpr std::int64_t hundred_years = 3'155'760'000'000;

std::string snapshot(backend& b, const std::string& key) {
    auto r = b.handle("/_control/team/snapshot", key, "{}");
    INFO(r.body);
    REQUIRE(r.status == 200);
    return r.body;
}

answer restore(backend& b, const std::string& key, const bj::value& team) {
    return request(b, "/_control/team/restore", key, bj::object{{"team", team}});
}

// The records of a snapshot: all but the stream, which an error body of a seeded team moves.
bj::value records(const std::string& body) {
    bj::value v = bj::parse(body);
    v.at("team").at("state").as_object().erase("stream");
    return v;
}

// An envelope with a signer (and an attachment), reminded every day, sent: signing.
std::string signing_envelope(client& c) {
    auto a = c.call("/_control/envelope/create",
                    bj::object{{"title", "Lease"},
                               {"documents", bj::array{bj::object{{"title", "D"}, {"pageCount", 1}}}},
                               {"attachments", bj::array{bj::object{{"title", "A"}}}}});
    require_ok(a);
    const std::string env(a.obj().at("envelopeUuid").as_string());
    require_ok(c.call("/public/envelope/add-recipients",
                      bj::object{{"envelopeUuid", env}, {"recipients", bj::array{recipient("s@example.com")}}}));
    require_ok(c.call("/public/envelope/update",
                      bj::object{{"envelopeUuid", env}, {"update", bj::object{{"reminderFrequencyPeriod", 1}}}}));
    require_ok(c.call("/public/envelope/send", bj::object{{"envelopeUuid", env}}));
    return env;
}

std::string draft_envelope(client& c) {
    auto a =
        c.call("/_control/envelope/create",
               bj::object{{"title", "Draft"}, {"documents", bj::array{bj::object{{"title", "D"}, {"pageCount", 1}}}}});
    require_ok(a);
    const std::string env(a.obj().at("envelopeUuid").as_string());
    require_ok(c.call("/public/envelope/add-recipients",
                      bj::object{{"envelopeUuid", env}, {"recipients", bj::array{recipient("d@example.com")}}}));
    return env;
}

// Restoring `team` is refused with a problem at `path` (after team.state), and changes nothing.
void refused_at(client& c, const bj::value& team, const std::vector<std::string>& path) {
    const std::string before = snapshot(c.b, c.main.key);
    auto a = restore(c.b, c.main.key, team);
    INFO(bj::serialize(a.body));
    require_error(a, 400, "INVALID_REQUEST_FORMAT");
    std::vector<std::string> full{"team", "state"};
    full.insert(full.end(), path.begin(), path.end());
    const auto paths = a.detail_paths();
    CHECK(std::find(paths.begin(), paths.end(), full) != paths.end());
    CHECK(records(snapshot(c.b, c.main.key)) == records(before));
}

}  // namespace

// The four edits of one envelope that made apply_due walk forever (or a billion rounds) under
// the team's lock: each is refused at its member, nothing changes, and the team still answers.
TEST_CASE("restore_states: an edited envelope that would stall the clock is refused, and the team goes on",
          "[backend][snapshot][restore_states]") {
    client c(fixed_clock(61), bj::object{{"seed", 3}});
    const auto sent = signing_envelope(c);
    const auto draft = draft_envelope(c);
    const bj::value good = bj::parse(snapshot(c.b, c.main.key)).at("team");
    auto edited = [&](const std::string& env, std::string_view member, bj::value value) {
        bj::value t = good;
        t.at("state").at("envelopes").at(env).as_object()[member] = std::move(value);
        return t;
    };
    SECTION("a draft said to be signing") {
        refused_at(c, edited(draft, "status", "signing"), {"envelopes", draft, "sent_date"});
    }
    SECTION("sent before the clock's reach") {
        refused_at(c, edited(sent, "sent_date", -9'000'000'000'000'000'000LL), {"envelopes", sent, "sent_date"});
    }
    SECTION("sent before its creation") {
        const auto created = good.at("state").at("envelopes").at(sent).at("creation_date").as_int64();
        refused_at(c, edited(sent, "sent_date", created - 30 * day), {"envelopes", sent, "sent_date"});
    }
    SECTION("a reminder frequency of 0") {
        refused_at(c, edited(sent, "reminder_frequency", 0), {"envelopes", sent, "reminder_frequency"});
    }
    SECTION("minus a billion reminders sent") {
        refused_at(c, edited(sent, "reminders_sent", -1'000'000'000), {"envelopes", sent, "reminders_sent"});
    }
    // Still answering, and the envelope still reminded and expiring on time.
    const std::int64_t now = c.advance(day);
    CHECK(now > start_ms);
    require_ok(c.call("/public/envelope/list", bj::object{}));
    c.advance(30 * day);
    CHECK(c.get(sent).at("status") == str("expired"));
}

// The rules of check_state beyond the four above, one edit each (what a snapshot taken through
// the API never holds).
TEST_CASE("restore_states: each member of a state keeps within what the API produces",
          "[backend][snapshot][restore_states]") {
    client c(fixed_clock(62));
    require_ok(c.call("/public/webhook/create", webhook_body()));  // deliveries queued
    const auto sent = signing_envelope(c);
    const auto draft = draft_envelope(c);
    const bj::value good = bj::parse(snapshot(c.b, c.main.key)).at("team");
    const std::string ws = c.main.default_ws;
    const std::string hook(good.at("state").at("webhooks").as_object().begin()->key());
    REQUIRE(!good.at("state").at("pending_deliveries").as_array().empty());

    struct edit {
        const char* what;
        std::vector<std::string> path;
        bj::value value;
        edit(const char* w, std::vector<std::string> p, bj::value v)
            : what(w), path(std::move(p)), value(std::move(v)) {}
    };
    constexpr std::int64_t beyond_clock = 8'640'000'000'000'001LL;  // past the clock's reach
    const std::vector<edit> edits{
        {"uploading", {"envelopes", sent, "status"}, "uploading"},
        {"expiration 0", {"envelopes", sent, "expiration_period"}, 0},
        {"expiration 91", {"envelopes", sent, "expiration_period"}, 91},
        {"reminders beyond the expiry", {"envelopes", sent, "reminders_sent"}, 30},
        {"update before creation", {"envelopes", draft, "update_date"}, 0},
        {"a sent draft", {"envelopes", draft, "sent_date"}, start_ms},
        {"a seq at next_seq", {"envelopes", draft, "seq"}, good.at("state").at("next_seq")},
        {"a seq twice", {"envelopes", draft, "seq"}, good.at("state").at("envelopes").at(sent).at("seq")},
        {"a title too long", {"envelopes", draft, "title"}, bj::string(std::string(256, 't'))},
        {"the clock's end passed", {"envelopes", draft, "creation_date"}, 8'640'000'000'000'001LL},
        {"an empty workspace name", {"workspaces", ws, "name"}, ""},
        {"a colour", {"workspaces", ws, "color_hex"}, "blue"},
        {"not default", {"workspaces", ws, "is_default"}, false},
        {"a webhook url", {"webhooks", hook, "url"}, "not a url"},
        {"a webhook secret", {"webhooks", hook, "secret"}, bj::string(std::string(257, 's'))},
        {"a delivery's attempt", {"pending_deliveries", "0", "attempt"}, 6},
        {"a delivery's attempt below 1", {"pending_deliveries", "0", "attempt"}, 0},
        {"a delivery's payload", {"pending_deliveries", "0", "payload"}, "[1"},
        // The deepest paths (check_state builds a path only for a problem: each part must be there).
        {"an invitation's time",
         {"envelopes", sent, "recipients", "0", "data", "invitation", "creationDate"},
         beyond_clock},
        {"a notification's time",
         {"envelopes", sent, "recipients", "0", "data", "invitation", "lastNotificationDate"},
         -beyond_clock},
        {"a recipient's e-mail", {"envelopes", draft, "recipients", "0", "data", "email"}, "no e-mail"},
        {"a document's title",
         {"envelopes", draft, "documents", "0", "doc", "title"},
         bj::string(std::string(256, 't'))},
        {"a log's time", {"logs", "0", "entry", "timestamp"}, beyond_clock},
        {"an e-mail's time", {"outbox", "0", "timestamp"}, -beyond_clock},
    };
    for (const auto& e : edits) {
        INFO(e.what);
        bj::value t = good;
        bj::value* at = &t.at("state");
        for (std::size_t i = 0; i + 1 < e.path.size(); ++i)
            at = at->is_array() ? &at->as_array().at(std::stoul(e.path[i])) : &at->at(e.path[i]);
        at->as_object()[e.path.back()] = e.value;
        if (std::string_view(e.what) == "a seq twice")  // reported at the second, in uuid order
            refused_at(c, t, {"envelopes", std::max(sent, draft), "seq"});
        else
            refused_at(c, t, e.path);
    }

    {
        INFO("a tag twice: the second");
        refused_at(c,
                   [&] {
                       bj::value t = good;
                       t.at("state").at("envelopes").at(draft).as_object()["tags"] = bj::array{"legal", "legal"};
                       return t;
                   }(),
                   {"envelopes", draft, "tags", "1"});
    }
    {
        INFO("blocks on a page the document does not have");
        refused_at(c,
                   [&] {
                       bj::value t = good;
                       t.at("state").at("envelopes").at(draft).at("documents").at(0).at("doc").as_object()["blocks"] =
                           bj::object{{"999", bj::array{}}};
                       return t;
                   }(),
                   {"envelopes", draft, "documents", "0", "doc", "blocks", "999"});
    }

    // Recipients whose statuses do not fit the envelope's.
    auto with_recipient_status = [&](const std::string& env, const char* status) {
        bj::value t = good;
        t.at("state").at("envelopes").at(env).at("recipients").as_array().at(0).at("data").as_object()["status"] =
            status;
        return t;
    };
    refused_at(c, with_recipient_status(sent, "signed"), {"envelopes", sent, "recipients"});    // signing, none pending
    refused_at(c, with_recipient_status(sent, "approved"), {"envelopes", sent, "recipients"});  // a signer approves
    refused_at(c, with_recipient_status(draft, "canceled"), {"envelopes", draft, "recipients"});
    // An invitation on a draft.
    bj::value t = good;
    t.at("state").at("envelopes").at(draft).at("recipients").as_array().at(0).at("data").as_object()["invitation"] =
        good.at("state").at("envelopes").at(sent).at("recipients").at(0).at("data").at("invitation");
    refused_at(c, t, {"envelopes", draft, "recipients", "0", "data", "invitation"});

    // The snapshot itself is fine; so is one whose queued deliveries name a deleted webhook
    // (they are dropped when due).
    require_ok(restore(c.b, c.main.key, good));
    require_ok(c.call("/public/webhook/delete", bj::object{{"uuid", hook}}));
    const std::string after_delete = snapshot(c.b, c.main.key);
    REQUIRE(!bj::parse(after_delete).at("team").at("state").at("pending_deliveries").as_array().empty());
    require_ok(restore(c.b, c.main.key, bj::parse(after_delete).at("team")));
}

// A state holds no more of a collection than the API lets a team make (team/limits.hpp):
// workspaces, the smallest bound, one over.
TEST_CASE("restore_states: a state beyond a team's bound is refused", "[backend][snapshot][restore_states]") {
    client c(fixed_clock(63));
    bj::value team = bj::parse(snapshot(c.b, c.main.key)).at("team");
    auto& workspaces = team.at("state").at("workspaces").as_object();
    const bj::object model = workspaces.at(c.main.default_ws).as_object();
    auto& next_seq = team.at("state").at("next_seq");
    for (std::size_t i = workspaces.size(); i <= esign::reference::max_workspaces_per_team; ++i) {
        char uuid[40];
        std::snprintf(uuid, sizeof uuid, "b0000000-0000-4000-8000-%012zu", i);
        bj::object w = model;
        w["uuid"] = uuid;
        w["is_default"] = false;
        w["seq"] = next_seq.to_number<std::uint64_t>();  // distinct, below next_seq: only the count is wrong
        next_seq = next_seq.to_number<std::uint64_t>() + 1;
        workspaces[uuid] = std::move(w);
    }
    REQUIRE(workspaces.size() == esign::reference::max_workspaces_per_team + 1);
    refused_at(c, team, {"workspaces"});
}

// The clock moved by the API stays within the bound a restore checks: a team's advance, and the
// operator's (every team's clock), stop at 100 years, so a snapshot of any team restores.
TEST_CASE("restore_states: clock/advance stops at 100 years from the server's clock",
          "[backend][snapshot][restore_states]") {
    client c(fixed_clock(64));
    auto advance = [&](const std::string& key, std::int64_t ms) {
        return request(c.b, "/_control/clock/advance", key, bj::object{{"milliseconds", ms}});
    };
    require_ok(advance(c.main.key, hundred_years - day));
    auto refused = advance(c.main.key, day + 1);
    require_error(refused, 400, "INVALID_REQUEST_FORMAT");
    CHECK(refused.detail_paths() == std::vector<std::vector<std::string>>{{"milliseconds"}});
    auto by_operator = c.b.handle("/_control/clock/advance", std::nullopt, R"({"milliseconds":86400001})");
    CHECK(by_operator.status == 400);
    require_ok(advance(c.main.key, day));  // exactly the bound
    require_ok(restore(c.b, c.main.key, bj::parse(snapshot(c.b, c.main.key)).at("team")));
}

// contract.md §6.9: the clock offset within ±100 years, exactly the bound accepted.
TEST_CASE("restore_states: a clock offset of 100 years is the bound", "[backend][snapshot][restore_states]") {
    client c(fixed_clock(63));
    const bj::value good = bj::parse(snapshot(c.b, c.main.key)).at("team");
    auto with_offset = [&](std::int64_t offset) {
        bj::value t = good;
        t.at("state").as_object()["clock_offset"] = offset;
        return t;
    };
    auto clock = [&](std::string_view path, bj::object body) {  // the team's clock
        auto a = c.call(path, body);
        require_ok(a);
        return a.obj().at("now").as_int64();
    };
    for (const std::int64_t sign : {1, -1}) {
        INFO("sign " << sign);
        refused_at(c, with_offset(sign * (hundred_years + 1)), {"clock_offset"});
        refused_at(
            c,
            with_offset(sign > 0 ? std::numeric_limits<std::int64_t>::max() : std::numeric_limits<std::int64_t>::min()),
            {"clock_offset"});
        require_ok(restore(c.b, c.main.key, with_offset(sign * hundred_years)));
        CHECK(clock("/_control/clock/now", {}) == start_ms + sign * hundred_years);
        // Errors and the clock go on from there: backwards from -100 years, not beyond +100.
        require_error(c.call("/public/envelope/get", bj::object{{"envelopeUuid", std::string(36, 'a')}}), 400,
                      "ENVELOPE_NOT_FOUND");
        if (sign < 0)
            CHECK(clock("/_control/clock/advance", {{"milliseconds", day}}) == start_ms + sign * hundred_years + day);
        else
            require_error(request(c.b, "/_control/clock/advance", c.main.key, bj::object{{"milliseconds", 1}}), 400,
                          "INVALID_REQUEST_FORMAT");
    }
}

// A team seeded by a team whose clock stands later holds dates after its own now: its changes
// stamp update dates no earlier than what is there (context::touch), so that its own snapshot
// restores ("update ≥ creation", sent_date between the two).
TEST_CASE("restore_states: a team whose clock stands earlier than its seed's dates still snapshots and restores",
          "[backend][snapshot][restore_states]") {
    client c(fixed_clock(66));
    require_ok(c.call("/public/webhook/create", webhook_body()));
    const auto sent = signing_envelope(c);
    const auto draft = draft_envelope(c);
    const bj::value seed = bj::parse(snapshot(c.b, c.main.key)).at("team");
    const std::string hook(seed.at("state").at("webhooks").as_object().begin()->key());

    const team earlier = c.make_team(bj::object{{"startTime", start_ms - 10 * day}});
    require_ok(restore(c.b, earlier.key, seed));
    auto as_earlier = [&](std::string_view path, const bj::object& body) {
        auto a = request(c.b, path, earlier.key, body);
        require_ok(a);
        return a;
    };
    as_earlier("/public/envelope/update",
               bj::object{{"envelopeUuid", draft}, {"update", bj::object{{"title", "Renamed"}}}});
    as_earlier("/public/envelope/send", bj::object{{"envelopeUuid", draft}});
    as_earlier("/_control/envelope/cancel", bj::object{{"envelopeUuid", sent}});
    as_earlier("/public/workspace/update", bj::object{{"workspaceUuid", c.main.default_ws}, {"sandbox", false}});
    as_earlier("/public/webhook/update", bj::object{{"uuid", hook}, {"active", false}});

    const bj::value again = bj::parse(snapshot(c.b, earlier.key)).at("team");
    for (const auto& env : {draft, sent}) {
        const auto& e = again.at("state").at("envelopes").at(env);
        INFO(bj::serialize(e));
        CHECK(e.at("update_date").as_int64() >= e.at("creation_date").as_int64());
    }
    const auto& sent_now = again.at("state").at("envelopes").at(draft);
    CHECK(sent_now.at("sent_date").as_int64() >= sent_now.at("creation_date").as_int64());
    CHECK(sent_now.at("sent_date").as_int64() <= sent_now.at("update_date").as_int64());
    require_ok(restore(c.b, earlier.key, again));
    require_ok(restore(c.b, c.main.key, again));
}

// contract.md §6.9: a snapshot taken through the API carries no credentials; a key given to a
// restore is ignored.
TEST_CASE("restore_states: a snapshot has no key, and a restore takes none", "[backend][snapshot][restore_states]") {
    backend b(fixed_clock(64));
    auto created = request(b, "/_control/team/create", std::nullopt, bj::object{});
    require_ok(created);
    const std::string key(created.obj().at("apiKey").as_string());
    const std::string access(created.obj().at("accessKey").as_string());
    const std::string secret(created.obj().at("secretKey").as_string());
    const std::string body = snapshot(b, key);
    CHECK(body.find(key) == std::string::npos);
    CHECK(body.find(access) == std::string::npos);
    CHECK(body.find(secret) == std::string::npos);
    CHECK_FALSE(bj::parse(body).at("team").as_object().contains("apiKey"));

    bj::value team = bj::parse(body).at("team");
    team.as_object()["apiKey"] = "esk_taken_over";
    require_ok(restore(b, key, team));
    require_ok(request(b, "/public/utils/whoami", key, bj::object{}));
    require_error(request(b, "/public/utils/whoami", std::string_view("esk_taken_over"), bj::object{}), 401,
                  "AUTHENTICATION_ERROR");
}

// contract.md §6.9: after a restore into a team, every teamUuid the team shows is its own.
TEST_CASE("restore_states: a restored team names itself everywhere", "[backend][snapshot][restore_states]") {
    client c(fixed_clock(65));
    require_ok(c.call("/public/webhook/create", webhook_body()));
    signing_envelope(c);  // logs, outbox, deliveries queued (in process nothing sends them)
    const std::string body = snapshot(c.b, c.main.key);
    REQUIRE(body.find(c.main.uuid) != std::string::npos);
    REQUIRE(!bj::parse(body).at("team").at("state").at("pending_deliveries").as_array().empty());

    const team other = c.make_team();
    require_ok(restore(c.b, other.key, bj::parse(body).at("team")));
    draft_envelope(c);  // main goes on
    auto created =
        request(c.b, "/_control/envelope/create", other.key,
                bj::object{{"title", "Later"}, {"documents", bj::array{bj::object{{"title", "D"}, {"pageCount", 1}}}}});
    require_ok(created);  // a later delivery

    const std::string theirs = snapshot(c.b, other.key);
    CHECK(theirs.find(c.main.uuid) == std::string::npos);  // records, eventData, outbox, payloads
    const bj::value state = bj::parse(theirs).at("team").at("state");
    for (const auto& e : state.at("envelopes").as_object()) CHECK(e.value().at("team_uuid") == str(other.uuid));
    for (const auto& m : state.at("outbox").as_array()) CHECK(m.at("team_uuid") == str(other.uuid));
    bool team_log = false;
    for (const auto& l : state.at("logs").as_array()) {
        CHECK(l.at("team_uuid") == str(other.uuid));
        if (const auto* named = l.at("entry").at("eventData").as_object().if_contains("teamUuid")) {
            CHECK(*named == str(other.uuid));
            team_log = true;
        }
    }
    CHECK(team_log);
    const auto& pending = state.at("pending_deliveries").as_array();
    REQUIRE(pending.size() >= 2);
    for (const auto& job : pending) CHECK(bj::parse(job.at("payload").as_string()).at("teamUuid") == str(other.uuid));

    // Through the API as well.
    auto logs = request(c.b, "/public/logs/list", other.key, bj::object{{"category", "team"}});
    require_ok(logs);
    for (const auto& l : logs.obj().at("logs").as_array())
        if (const auto* named = l.at("eventData").as_object().if_contains("teamUuid")) CHECK(*named == str(other.uuid));
}

// A --fixture team's state is judged as a restore's, at its path in the file; a fixture team
// needs its apiKey (a snapshot has none).
TEST_CASE("restore_states: a fixture with a bad state is refused at its path", "[backend][snapshot][restore_states]") {
    client c(fixed_clock(66));
    const auto sent = signing_envelope(c);
    bj::value team = bj::parse(snapshot(c.b, c.main.key)).at("team");
    auto options = fixed_clock(67);
    options.fixture_json = bj::serialize(bj::object{{"teams", bj::array{team}}});
    {
        backend without_key(options);
        REQUIRE_FALSE(without_key.fixture_problems().empty());
        CHECK(without_key.fixture_problems().at(0).path == esign::problem_path{"teams", "0", "apiKey"});
    }
    team.as_object()["apiKey"] = "esk_fixture_state";
    options.fixture_json = bj::serialize(bj::object{{"teams", bj::array{team}}});
    {
        backend loaded(options);
        CHECK(loaded.fixture_problems().empty());
    }
    team.at("state").at("envelopes").at(sent).as_object()["reminder_frequency"] = 0;
    team.at("state").as_object()["clock_offset"] = hundred_years + 1;
    options.fixture_json = bj::serialize(bj::object{{"teams", bj::array{team}}});
    backend refused(options);
    const auto& problems = refused.fixture_problems();
    REQUIRE(problems.size() == 2);
    CHECK(problems.at(0).path == esign::problem_path{"teams", "0", "state", "clock_offset"});
    CHECK(problems.at(1).path == esign::problem_path{"teams", "0", "state", "envelopes", sent, "reminder_frequency"});
    require_error(request(refused, "/public/utils/whoami", std::string_view("esk_fixture_state"), bj::object{}), 401,
                  "AUTHENTICATION_ERROR");
}

// Whatever is installed (here by hand, past every check), apply_due ends: an envelope gets at
// most max_reminders_ever reminder rounds in its life, each at least a day after the last.
TEST_CASE("restore_states: apply_due ends on any stored envelope", "[backend][restore_states][due]") {
    namespace ref = esign::reference;
    struct bad {
        const char* what;
        std::optional<std::int32_t> frequency;
        std::int64_t reminders_sent;
        std::int32_t expiration;
        std::int64_t sent;
    };
    const std::int64_t min = std::numeric_limits<std::int64_t>::min();
    const std::int64_t max = std::numeric_limits<std::int64_t>::max();
    for (const bad& b :
         {bad{"frequency 0", 0, 0, 30, start_ms - day}, bad{"a negative frequency", -5, 0, 30, start_ms - day},
          bad{"minus a billion rounds sent", 1, -1'000'000'000, 30, start_ms - day},
          bad{"the earliest sent date", 1, 0, 30, min}, bad{"the latest sent date", 1, 0, 30, max},
          bad{"sent long ago, never expiring", 1, 0, std::numeric_limits<std::int32_t>::max(),
              start_ms - 100'000 * day},
          bad{"a negative expiration", 1, 0, -1'000'000, start_ms},
          bad{"the most rounds", std::numeric_limits<std::int32_t>::max(), max - 1, 30, start_ms}}) {
        INFO(b.what);
        hand_built h;
        ref::recipient_record r;
        r.data.email = "s@example.com";
        r.data.role = esign::recipient_role::signer;
        auto& env = h.envelope({r});
        env.status = esign::envelope_status::signing;
        env.sent_date = b.sent;
        env.reminder_frequency = b.frequency;
        env.reminders_sent = b.reminders_sent;
        env.expiration_period = b.expiration;
        ref::timeline::apply_due(h.c);  // returns
        CHECK(h.st.outbox.size() <= static_cast<std::size_t>(ref::timeline::max_reminders_ever));
        h.c.now += 1000 * day;
        ref::timeline::apply_due(h.c);
        CHECK(h.st.outbox.size() <= static_cast<std::size_t>(ref::timeline::max_reminders_ever));
    }
}

TEST_CASE("restore_states: expiry and reminder instants saturate instead of overflowing", "[rules][restore_states]") {
    using esign::rules::expiration_instant;
    using esign::rules::reminder_instant;
    constexpr std::int64_t min = std::numeric_limits<std::int64_t>::min();
    constexpr std::int64_t max = std::numeric_limits<std::int64_t>::max();
    STATIC_REQUIRE(expiration_instant(0, 30) == 30 * day);
    STATIC_REQUIRE(reminder_instant(5, 2, 3) == 5 + 6 * day);
    CHECK(expiration_instant(max, 1) == max);
    CHECK(expiration_instant(max - 1, max) == max);
    CHECK(expiration_instant(min, -1) == min);
    CHECK(expiration_instant(0, min) == min);
    CHECK(reminder_instant(0, max, max) == max);
    CHECK(reminder_instant(0, max, min) == min);
    CHECK(reminder_instant(max, 1, 1) == max);
    CHECK(reminder_instant(min, 1, -1) == min);
    CHECK(esign::rules::max_reminder_rounds(30, 0) == 0);
    CHECK(esign::rules::max_reminder_rounds(30, 1) == 29);
    CHECK(esign::rules::max_reminder_rounds(30, 7) == 4);
    CHECK(esign::rules::max_reminder_rounds(90, 90) == 0);
}

}  // namespace test_backend_restore_states
