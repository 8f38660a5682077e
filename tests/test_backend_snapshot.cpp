// SPDX-License-Identifier: BSL-1.0
// Snapshots of a team (contract.md §6.6): /_control/team/snapshot gives the team's whole state
// as one team object of the --fixture format; /_control/team/restore puts it back exactly, into
// the same team or another; a --fixture team with a state loads it.
#include "backend_support.hpp"

#include <esign/reference/spooled_text.hpp>
#include <esign/reference/team/snapshot_text.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace test_backend_snapshot {

using namespace backend_support;

namespace {

std::string envelope(client& c, const std::vector<std::string>& signers = {}) {
    auto a = c.call(
        "/_control/envelope/create",
        bj::object{{"title", "Contract"}, {"documents", bj::array{bj::object{{"title", "Main"}, {"pageCount", 1}}}}});
    require_ok(a);
    std::string env(a.obj().at("envelopeUuid").as_string());
    if (!signers.empty()) {
        bj::array items;
        for (const auto& s : signers) items.push_back(recipient(s));
        require_ok(c.call("/public/envelope/add-recipients", bj::object{{"envelopeUuid", env}, {"recipients", items}}));
    }
    return env;
}

std::string sent(client& c) {
    const auto env = envelope(c, {"signer@example.com"});
    require_ok(c.call("/public/envelope/send", bj::object{{"envelopeUuid", env}}));
    return env;
}

void act(client& c, const std::string& env, const char* action) {
    require_ok(c.call("/_control/recipient/act",
                      bj::object{{"envelopeUuid", env}, {"email", "signer@example.com"}, {"action", action}}));
}

// A team with an envelope in every status, a template, contacts, and a webhook whose
// deliveries stay queued (in process, nothing sends them).
void populate(client& c) {
    const auto expired = sent(c);
    require_ok(c.call("/_control/clock/advance", bj::object{{"milliseconds", 31 * 86'400'000LL}}));
    CHECK(c.get(expired).at("status") == str("expired"));
    require_ok(
        c.call("/public/webhook/create", webhook_body({{"url", "http://127.0.0.1:9/hook"},
                                                       {"events", bj::array{"ENVELOPE_CREATED", "ENVELOPE_SENT"}}})));
    envelope(c);  // draft
    sent(c);      // signing
    const auto complete = sent(c);
    act(c, complete, "open");
    act(c, complete, "sign");
    const auto declined = sent(c);
    act(c, declined, "decline");
    const auto canceled = sent(c);
    require_ok(c.call("/_control/envelope/cancel", bj::object{{"envelopeUuid", canceled}}));
    require_ok(c.call("/_control/template/create",
                      bj::object{{"title", "T"},
                                 {"recipientLabels", bj::array{"client"}},
                                 {"documents", bj::array{bj::object{{"title", "D"}, {"pageCount", 2}}}}}));
    require_ok(
        c.call("/public/contact/create",
               bj::object{{"contacts",
                           bj::array{bj::object{{"email", "c@example.com"}, {"firstname", "C"}, {"lastname", "D"}}}}}));
}

std::string snapshot(client& c, const std::string& key) {
    auto r = c.b.handle("/_control/team/snapshot", key, "{}");
    INFO(r.body);
    REQUIRE(r.status == 200);
    return r.body;
}

answer restore(client& c, const std::string& key, const bj::value& team) {
    return request(c.b, "/_control/team/restore", key, bj::object{{"team", team}});
}

std::set<std::string> statuses(const std::string& snapshot_body) {
    std::set<std::string> out;
    const bj::value snapshot = bj::parse(snapshot_body);
    for (const auto& e : snapshot.at("team").at("state").at("envelopes").as_object())
        out.emplace(e.value().at("status").as_string());
    return out;
}

}  // namespace

TEST_CASE("snapshot: snapshot, restore, snapshot gives the same bytes, and the team goes on the same way",
          "[backend][snapshot]") {
    client c(fixed_clock(41), bj::object{{"seed", 5}});
    populate(c);
    const std::string first = snapshot(c, c.main.key);
    CHECK(statuses(first) == std::set<std::string>{"draft", "signing", "complete", "declined", "canceled", "expired"});
    const bj::value parsed = bj::parse(first);
    const auto& state = parsed.at("team").at("state").as_object();
    CHECK(state.at("templates").as_object().size() == 1);
    CHECK(state.at("contacts").as_array().size() == 1);
    CHECK(state.at("webhooks").as_object().size() == 1);
    CHECK(!state.at("pending_deliveries").as_array().empty());
    CHECK(!state.at("logs").as_array().empty());
    CHECK(!state.at("outbox").as_array().empty());
    CHECK(state.at("clock_offset") == 31 * 86'400'000LL);
    CHECK(state.at("stream").is_string());

    // What the team does next, from the snapshot's point.
    const auto next = envelope(c);
    require_ok(c.call("/_control/clock/advance", bj::object{{"milliseconds", 5000}}));
    require_ok(c.call("/public/webhook/delete", bj::object{{"uuid", state.at("webhooks").as_object().begin()->key()}}));

    require_ok(restore(c, c.main.key, bj::parse(first).at("team")));
    CHECK(snapshot(c, c.main.key) == first);
    // The stream is back where it was: the same next identifier.
    CHECK(envelope(c) == next);
}

TEST_CASE("snapshot: one team's state seeds another, which keeps its identity", "[backend][snapshot]") {
    client c(fixed_clock(42));
    populate(c);
    const auto body = snapshot(c, c.main.key);
    const auto other = c.make_team();
    const auto theirs = envelope(c);  // main's, untouched below
    auto own =
        request(c.b, "/_control/envelope/create", other.key,
                bj::object{{"title", "Other"}, {"documents", bj::array{bj::object{{"title", "d"}, {"pageCount", 1}}}}});
    require_ok(own);

    require_ok(restore(c, other.key, bj::parse(body).at("team")));
    auto who = request(c.b, "/public/utils/whoami", other.key, bj::object{});
    require_ok(who);
    CHECK(who.obj().at("teamUuid") == str(other.uuid));
    // The other team now has main's envelopes (as they were at the snapshot), and not its own.
    auto list = request(c.b, "/public/envelope/list", other.key, bj::object{});
    require_ok(list);
    CHECK(list.obj().at("envelopes").as_array().size() == 6);
    require_error(
        request(c.b, "/public/envelope/get", other.key, bj::object{{"envelopeUuid", own.obj().at("envelopeUuid")}}),
        400, "ENVELOPE_NOT_FOUND");
    // Main is unchanged.
    require_ok(c.call("/public/envelope/get", bj::object{{"envelopeUuid", theirs}}));
    // The other team's snapshot names it, not main.
    const auto again = bj::parse(snapshot(c, other.key)).at("team");
    CHECK(again.at("uuid") == str(other.uuid));
    CHECK_FALSE(again.as_object().contains("apiKey"));  // no credentials (contract.md §6.9)
}

TEST_CASE("snapshot: a malformed snapshot is refused with its paths, and changes nothing", "[backend][snapshot]") {
    client c(fixed_clock(43), bj::object{{"seed", 6}});
    populate(c);
    const std::string before = snapshot(c, c.main.key);
    const bj::value good = bj::parse(before).at("team");
    const std::string envelope_key(good.at("state").at("envelopes").as_object().begin()->key());

    // The state but for the stream, which every answer of a seeded team moves (an error body's
    // requestId is drawn from it, contract.md §6.3).
    auto records = [](const std::string& body) {
        bj::value v = bj::parse(body);
        v.at("team").at("state").as_object().erase("stream");
        return v;
    };
    auto refused = [&](bj::value team, std::vector<std::string> path) {
        auto a = restore(c, c.main.key, team);
        INFO(bj::serialize(a.body));
        require_error(a, 400, "INVALID_REQUEST_FORMAT");
        CHECK(a.detail_paths().at(0) == path);
        CHECK(records(snapshot(c, c.main.key)) == records(before));
    };
    bj::value t = good;
    t.as_object().erase("state");
    refused(t, {"team", "state"});
    t = good;
    t.at("state").at("envelopes").at(envelope_key).as_object()["workspace_uuid"] =
        "0b5c2a1e-9a7e-4c5b-8a3d-2f6e1d4c3b2a";
    refused(t, {"team", "state", "envelopes", envelope_key, "workspace_uuid"});
    t = good;
    t.at("state").as_object()["stream"] = "not a stream";
    refused(t, {"team", "state", "stream"});
    t = good;
    t.at("state").as_object()["clock_offset"] = "soon";
    refused(t, {"team", "state", "clock_offset"});
    t = good;
    t.at("state").at("envelopes").at(envelope_key).as_object()["status"] = "lost";
    refused(t, {"team", "state", "envelopes", envelope_key, "status"});
    t = good;
    t.as_object()["contacts"] = bj::array{};
    refused(t, {"team", "contacts"});
    t = good;
    t.as_object()["defaultWorkspaceUuid"] = "0b5c2a1e-9a7e-4c5b-8a3d-2f6e1d4c3b2a";
    refused(t, {"team", "state", "workspaces"});
    t = good;
    t.at("state").as_object()["surprise"] = 1;  // strict: a typo is not ignored
    refused(t, {"team", "state", "surprise"});
}

TEST_CASE("snapshot: a --fixture team with a state starts from it", "[backend][snapshot]") {
    client c(fixed_clock(44));
    populate(c);
    bj::value team = bj::parse(snapshot(c, c.main.key)).at("team");
    team.as_object()["apiKey"] = "esk_fixture_with_state";
    auto options = fixed_clock(45);
    options.fixture_json = bj::serialize(bj::object{{"teams", bj::array{team}}});
    backend loaded(options);
    INFO(loaded.fixture_problems().size());
    REQUIRE(loaded.fixture_problems().empty());
    auto list = request(loaded, "/public/envelope/list", std::string_view("esk_fixture_with_state"), bj::object{});
    require_ok(list);
    CHECK(list.obj().at("envelopes").as_array().size() == 6);
    auto back = loaded.handle("/_control/team/snapshot", std::string_view("esk_fixture_with_state"), "{}");
    REQUIRE(back.status == 200);
    CHECK(statuses(back.body) ==
          std::set<std::string>{"draft", "signing", "complete", "declined", "canceled", "expired"});

    // A state whose records do not resolve is a problem of the fixture, at its path.
    team.at("state").as_object()["stream"] = 12;
    options.fixture_json = bj::serialize(bj::object{{"teams", bj::array{team}}});
    backend refused(options);
    REQUIRE_FALSE(refused.fixture_problems().empty());
    CHECK(refused.fixture_problems().at(0).path == esign::problem_path{"teams", "0", "state", "stream"});
}

// Expiries fall due from the team's due index (reference/team/timeline.hpp); a state put in place
// whole (restore, reset, a --fixture state) brings its envelopes' events with it.
TEST_CASE("snapshot: expiries fall due the same after restore, reset and fixture load", "[backend][snapshot][due]") {
    constexpr std::int64_t day = 86'400'000;
    client c(fixed_clock(46));
    auto send_expiring = [&](client& on, int days) {
        const auto env = envelope(on, {"signer@example.com"});
        require_ok(on.call("/public/envelope/update",
                           bj::object{{"envelopeUuid", env}, {"update", bj::object{{"expirationPeriod", days}}}}));
        require_ok(on.call("/public/envelope/send", bj::object{{"envelopeUuid", env}}));
        return env;
    };
    auto advance = [](client& on, std::int64_t ms) {
        require_ok(on.call("/_control/clock/advance", bj::object{{"milliseconds", ms}}));
    };
    auto status = [](client& on, const std::string& env) { return std::string(on.get(env).at("status").as_string()); };

    const auto one = send_expiring(c, 1);
    const auto two = send_expiring(c, 2);
    const auto taken = snapshot(c, c.main.key);
    advance(c, 3 * day);
    CHECK(status(c, one) == "expired");
    CHECK(status(c, two) == "expired");

    // Restored: both in progress again, each expiring at its own instant.
    require_ok(restore(c, c.main.key, bj::parse(taken).at("team")));
    CHECK(status(c, one) == "signing");
    advance(c, day - 1);
    CHECK(status(c, one) == "signing");
    advance(c, 1);
    CHECK(status(c, one) == "expired");
    CHECK(status(c, two) == "signing");
    // One that ended before its instant stays as it ended.
    require_ok(c.call("/_control/envelope/cancel", bj::object{{"envelopeUuid", two}}));
    advance(c, 2 * day);
    CHECK(status(c, two) == "canceled");

    // Loaded from a --fixture state: the same.
    bj::value team = bj::parse(taken).at("team");
    team.as_object()["apiKey"] = "esk_fixture_due";
    auto options = fixed_clock(46);
    options.fixture_json = bj::serialize(bj::object{{"teams", bj::array{team}}});
    backend loaded(options);
    REQUIRE(loaded.fixture_problems().empty());
    auto loaded_status = [&](const std::string& env) {
        auto a = request(loaded, "/public/envelope/get", std::string_view("esk_fixture_due"),
                         bj::object{{"envelopeUuid", env}});
        require_ok(a);
        return std::string(a.obj().at("status").as_string());
    };
    auto loaded_advance = [&](std::int64_t ms) {
        require_ok(request(loaded, "/_control/clock/advance", std::string_view("esk_fixture_due"),
                           bj::object{{"milliseconds", ms}}));
    };
    loaded_advance(day);
    CHECK(loaded_status(one) == "expired");
    CHECK(loaded_status(two) == "signing");
    loaded_advance(day);
    CHECK(loaded_status(two) == "expired");

    // Reset: the team's initial state (no envelopes); a new one expires on time.
    require_ok(c.call("/_control/team/reset", bj::object{}));
    const auto fresh = send_expiring(c, 1);
    advance(c, day - 1);
    CHECK(status(c, fresh) == "signing");
    advance(c, 1);
    CHECK(status(c, fresh) == "expired");
}

// Members beside "team" are ignored unless --strict, as in every request (contract.md §2); the
// team object itself is always read strictly.
TEST_CASE("snapshot: restore ignores unknown members beside the team unless strict", "[backend][snapshot]") {
    for (const bool strict : {false, true}) {
        INFO("strict " << strict);
        auto options = fixed_clock(47);
        options.strict = strict;
        client c(options);
        populate(c);
        const std::string before = snapshot(c, c.main.key);
        const bj::value team = bj::parse(before).at("team");

        auto beside = request(c.b, "/_control/team/restore", c.main.key, bj::object{{"team", team}, {"note", "x"}});
        if (strict) {
            require_error(beside, 400, "INVALID_REQUEST_FORMAT");
            CHECK(beside.detail_paths() == std::vector<std::vector<std::string>>{{"note"}});
        } else {
            require_ok(beside);
            // Read a second time without "note" (as text, by the one reader): the same records.
            CHECK(snapshot(c, c.main.key) == before);
        }

        bj::value typo = team;
        typo.at("state").as_object()["surprise"] = 1;
        auto inside = request(c.b, "/_control/team/restore", c.main.key, bj::object{{"team", typo}, {"note", "x"}});
        require_error(inside, 400, "INVALID_REQUEST_FORMAT");
        std::vector<std::vector<std::string>> expected{{"team", "state", "surprise"}};
        if (strict) expected.push_back({"note"});
        CHECK(inside.detail_paths() == expected);
    }
}

namespace {

// What the lists of a team should be, from the records themselves (an oracle independent of the
// backend's indexes): envelope/list newest creationDate first, ties by creation, newest first.
struct listed_envelope {
    std::string uuid, workspace, status;
    std::int64_t created = 0;
    std::size_t order = 0;  // creation order
    std::set<std::string> tags;
};

std::vector<std::string> every_page(client& c, const std::string& key, std::string_view path, bj::object body,
                                    const char* items, const char* member = "uuid") {
    std::vector<std::string> out;
    for (std::int64_t page = 1;; ++page) {
        body["page"] = page;
        auto a = request(c.b, path, key, body);
        require_ok(a);
        for (const auto& item : a.obj().at(items).as_array()) {
            const auto& v = item.at(member);
            out.push_back(v.is_string() ? std::string(v.as_string()) : bj::serialize(v));
        }
        if (a.obj().at("pagination").at("nextPage").is_null()) return out;
    }
}

std::vector<std::string> expected_list(std::vector<listed_envelope> all, const std::string& workspace,
                                       const std::set<std::string>& statuses, const std::set<std::string>& tags) {
    std::sort(all.begin(), all.end(), [](const listed_envelope& a, const listed_envelope& b) {
        return a.created != b.created ? a.created > b.created : a.order > b.order;
    });
    std::vector<std::string> out;
    for (const auto& e : all) {
        if (e.workspace != workspace || (!statuses.empty() && !statuses.count(e.status))) continue;
        if (!tags.empty() && std::none_of(e.tags.begin(), e.tags.end(), [&](const auto& t) { return tags.count(t); }))
            continue;
        out.push_back(e.uuid);
    }
    return out;
}

// Each envelope's status and creation date as envelope/get gives them now (through `key`).
void refresh_from_get(client& c, const std::string& key, std::vector<listed_envelope>& all) {
    for (auto& e : all) {
        auto got = request(c.b, "/public/envelope/get", key,
                           bj::object{{"envelopeUuid", e.uuid}, {"workspaceUuid", e.workspace}});
        require_ok(got);
        e.status = std::string(got.obj().at("status").as_string());
        e.created = got.obj().at("creationDate").to_number<std::int64_t>();
    }
}

void check_lists(client& c, const std::string& key, const std::vector<listed_envelope>& all,
                 const std::vector<std::string>& workspaces) {
    for (const auto& ws : workspaces) {
        INFO("workspace " << ws);
        auto list = [&](bj::object body) {
            body["workspaceUuid"] = ws;
            return every_page(c, key, "/public/envelope/list", std::move(body), "envelopes");
        };
        CHECK(list({}) == expected_list(all, ws, {}, {}));
        for (const char* status : {"draft", "approving", "signing", "complete", "declined", "canceled", "expired"})
            CHECK(list({{"status", bj::array{status}}}) == expected_list(all, ws, {status}, {}));
        CHECK(list({{"status", bj::array{"signing"}}, {"tags", bj::array{"odd"}}}) ==
              expected_list(all, ws, {"signing"}, {"odd"}));
        CHECK(list({{"tags", bj::array{"odd"}}}) == expected_list(all, ws, {}, {"odd"}));
        CHECK(list({{"status", bj::array{"signing", "draft"}}, {"tags", bj::array{"third", "odd"}}}) ==
              expected_list(all, ws, {"signing", "draft"}, {"third", "odd"}));
    }
}

}  // namespace

TEST_CASE("snapshot: lists read through the indexes match the records after restore, reset and reordering",
          "[backend][snapshot][index]") {
    client c(fixed_clock(43));
    std::vector<std::string> workspaces{c.main.default_ws};
    for (const char* name : {"W1", "W2"}) {
        auto a = c.call("/public/workspace/create", bj::object{{"name", name}});
        require_ok(a);
        workspaces.emplace_back(a.obj().at("workspace").at("uuid").as_string());
    }
    std::vector<listed_envelope> all;
    for (std::size_t i = 0; i < 130; ++i) {
        bj::array tags;
        if (i % 2) tags.push_back("odd");
        if (i % 3 == 0) tags.push_back("third");
        const std::string& ws = workspaces[i % 7 == 0 ? 1 : (i % 5 == 0 ? 2 : 0)];
        auto a = c.call("/_control/envelope/create",
                        bj::object{{"workspaceUuid", ws},
                                   {"title", "E" + std::to_string(i)},
                                   {"tags", tags},
                                   {"documents", bj::array{bj::object{{"title", "D"}, {"pageCount", 1}}}}});
        require_ok(a);
        const std::string env(a.obj().at("envelopeUuid").as_string());
        if (i % 4 == 1) {
            require_ok(c.call("/public/envelope/add-recipients",
                              bj::object{{"envelopeUuid", env},
                                         {"workspaceUuid", ws},
                                         {"recipients", bj::array{recipient("s@example.com")}}}));
            require_ok(c.call("/public/envelope/send", bj::object{{"envelopeUuid", env}, {"workspaceUuid", ws}}));
        }
        if (i % 9 == 0) c.advance(1000);  // several envelopes share each instant
        all.push_back(listed_envelope{env, ws, "", 0, i, {}});
        for (const auto& t : tags) all.back().tags.emplace(t.as_string());
    }
    refresh_from_get(c, c.main.key, all);
    check_lists(c, c.main.key, all, workspaces);

    // Logs: both sorts, both orders, page by page, agree with each other.
    auto logs = [&](const std::string& key, const char* by, const char* order) {
        return every_page(c, key, "/public/logs/list",
                          bj::object{{"category", "envelope"}, {"sortBy", by}, {"sortOrder", order}, {"limit", 50}},
                          "logs", "timestamp");
    };
    auto by_id = logs(c.main.key, "id", "asc");
    REQUIRE(by_id.size() > all.size());
    CHECK(std::is_sorted(by_id.begin(), by_id.end(),
                         [](const auto& a, const auto& b) { return std::stoll(a) < std::stoll(b); }));
    auto desc = logs(c.main.key, "timestamp", "desc");
    std::reverse(desc.begin(), desc.end());
    CHECK(desc == by_id);

    // Restored into another team, and back after a reset: the same lists.
    const auto body = snapshot(c, c.main.key);
    const auto other = c.make_team();
    require_ok(restore(c, other.key, bj::parse(body).at("team")));
    check_lists(c, other.key, all, workspaces);
    CHECK(logs(other.key, "id", "asc") == by_id);
    require_ok(c.call("/_control/team/reset", bj::object{}));
    CHECK(every_page(c, c.main.key, "/public/envelope/list", bj::object{}, "envelopes").empty());
    require_ok(restore(c, c.main.key, bj::parse(body).at("team")));
    check_lists(c, c.main.key, all, workspaces);

    // Records whose dates do not follow their creation (a snapshot edited by hand): the lists
    // follow the dates. The first envelope made becomes the newest, and log timestamps run back.
    bj::value edited = bj::parse(body).at("team");
    auto& envelopes = edited.at("state").at("envelopes").as_object();
    envelopes.at(all.front().uuid).at("creation_date") = all.back().created;
    envelopes.at(all.front().uuid).at("update_date") = all.back().created;  // never before creation
    all.front().created = all.back().created;
    auto& log_records = edited.at("state").at("logs").as_array();
    std::int64_t t = 2'000'000'000'000;
    for (auto& rec : log_records) rec.at("entry").at("timestamp") = t--;
    require_ok(restore(c, other.key, edited));
    check_lists(c, other.key, all, workspaces);
    auto asc = logs(other.key, "timestamp", "asc");
    CHECK(std::is_sorted(asc.begin(), asc.end(),
                         [](const auto& a, const auto& b) { return std::stoll(a) < std::stoll(b); }));
    CHECK(asc.size() == by_id.size());
    auto ids = logs(other.key, "id", "asc");  // insertion order: timestamps now decrease
    CHECK(std::is_sorted(ids.begin(), ids.end(),
                         [](const auto& a, const auto& b) { return std::stoll(a) > std::stoll(b); }));
    // New records after a restore are indexed too.
    auto more =
        request(c.b, "/_control/envelope/create", other.key,
                bj::object{{"title", "late"}, {"documents", bj::array{bj::object{{"title", "D"}, {"pageCount", 1}}}}});
    require_ok(more);
    CHECK(every_page(c, other.key, "/public/envelope/list", bj::object{}, "envelopes").front() ==
          std::string(more.obj().at("envelopeUuid").as_string()));
}

TEST_CASE("snapshot: envelope/get finds every envelope by uuid, in its workspace only, after restore and reset",
          "[backend][snapshot][index]") {
    client c(fixed_clock(44));
    auto made = c.call("/public/workspace/create", bj::object{{"name", "W"}});
    require_ok(made);
    const std::vector<std::string> workspaces{c.main.default_ws,
                                              std::string(made.obj().at("workspace").at("uuid").as_string())};
    // Enough envelopes for the envelopes' hash map to grow (rehash) several times.
    std::vector<std::pair<std::string, std::size_t>> all;  // uuid, its workspace
    for (std::size_t i = 0; i < 300; ++i) {
        auto a = c.call("/_control/envelope/create",
                        bj::object{{"workspaceUuid", workspaces[i % 2]},
                                   {"title", "E" + std::to_string(i)},
                                   {"documents", bj::array{bj::object{{"title", "D"}, {"pageCount", 1}}}}});
        require_ok(a);
        all.emplace_back(std::string(a.obj().at("envelopeUuid").as_string()), i % 2);
    }
    auto found_everywhere = [&](const std::string& key) {
        for (const auto& [uuid, ws] : all) {
            auto here = request(c.b, "/public/envelope/get", key,
                                bj::object{{"envelopeUuid", uuid}, {"workspaceUuid", workspaces[ws]}});
            require_ok(here);
            CHECK(here.obj().at("uuid") == str(uuid));
            require_error(request(c.b, "/public/envelope/get", key,
                                  bj::object{{"envelopeUuid", uuid}, {"workspaceUuid", workspaces[1 - ws]}}),
                          400, "ENVELOPE_NOT_FOUND");
        }
    };
    found_everywhere(c.main.key);

    // The snapshot lists the envelopes in uuid order, whatever order the store keeps them in.
    const auto body = snapshot(c, c.main.key);
    const bj::value parsed = bj::parse(body);
    std::vector<std::string> keys;
    for (const auto& e : parsed.at("team").at("state").at("envelopes").as_object()) keys.emplace_back(e.key());
    CHECK(keys.size() == all.size());
    CHECK(std::is_sorted(keys.begin(), keys.end()));
    CHECK(snapshot(c, c.main.key) == body);

    // Restored into another team: found there. Reset: gone. Restored: found again, and so is
    // an envelope made after.
    const auto other = c.make_team();
    require_ok(restore(c, other.key, parsed.at("team")));
    found_everywhere(other.key);
    require_ok(c.call("/_control/team/reset", bj::object{}));
    for (const auto& made_before : all)
        require_error(c.call("/public/envelope/get", bj::object{{"envelopeUuid", made_before.first}}), 400,
                      "ENVELOPE_NOT_FOUND");
    require_ok(restore(c, c.main.key, parsed.at("team")));
    found_everywhere(c.main.key);
    const std::string late(envelope(c));
    CHECK(c.get(late).at("uuid") == str(late));
}

TEST_CASE("snapshot: envelope/list by status follows every change of status, and after restore and reset",
          "[backend][snapshot][index]") {
    client c(fixed_clock(45));
    auto made = c.call("/public/workspace/create", bj::object{{"name", "W"}});
    require_ok(made);
    const std::vector<std::string> workspaces{c.main.default_ws,
                                              std::string(made.obj().at("workspace").at("uuid").as_string())};
    std::vector<listed_envelope> all;
    for (std::size_t i = 0; i < 120; ++i) {
        const std::string& ws = workspaces[i % 2];
        auto a = c.call("/_control/envelope/create",
                        bj::object{{"workspaceUuid", ws},
                                   {"title", "E" + std::to_string(i)},
                                   {"tags", i % 2 ? bj::array{"odd"} : bj::array{}},
                                   {"documents", bj::array{bj::object{{"title", "D"}, {"pageCount", 1}}}}});
        require_ok(a);
        const std::string env(a.obj().at("envelopeUuid").as_string());
        require_ok(c.call("/public/envelope/add-recipients",
                          bj::object{{"envelopeUuid", env},
                                     {"workspaceUuid", ws},
                                     {"recipients", bj::array{recipient("signer@example.com")}}}));
        if (i % 5 == 3) {  // an approver first: approving once sent
            require_ok(c.call("/public/envelope/add-recipients",
                              bj::object{{"envelopeUuid", env},
                                         {"workspaceUuid", ws},
                                         {"recipients", bj::array{recipient("approver@example.com")}}}));
            require_ok(c.call("/public/envelope/update-recipient", bj::object{{"envelopeUuid", env},
                                                                              {"workspaceUuid", ws},
                                                                              {"email", "approver@example.com"},
                                                                              {"role", "signer"},
                                                                              {"updates", {{"role", "approver"}}}}));
        }
        all.push_back(listed_envelope{env, ws, "", 0, i, {}});
        if (i % 2) all.back().tags.emplace("odd");
        if (i % 7 == 0) c.advance(1000);
    }
    auto act_on = [&](const listed_envelope& e, const char* action, const char* email = "signer@example.com") {
        require_ok(c.call(
            "/_control/recipient/act",
            bj::object{
                {"envelopeUuid", e.uuid}, {"workspaceUuid", e.workspace}, {"email", email}, {"action", action}}));
    };
    auto refresh_and_check = [&](const std::string& key) {
        refresh_from_get(c, key, all);
        check_lists(c, key, all, workspaces);
    };
    refresh_and_check(c.main.key);

    // Old and recent envelopes alike change status: sent (approving or signing), then approved,
    // signed, declined or canceled; some drafts are canceled.
    for (std::size_t i = 0; i < all.size(); ++i) {
        const auto& e = all[i];
        if (i % 3 == 0) {
            if (i % 2 == 0)
                require_ok(c.call("/_control/envelope/cancel",
                                  bj::object{{"envelopeUuid", e.uuid}, {"workspaceUuid", e.workspace}}));
            continue;
        }
        require_ok(
            c.call("/public/envelope/send", bj::object{{"envelopeUuid", e.uuid}, {"workspaceUuid", e.workspace}}));
        if (i % 5 == 0) {
            act_on(e, "open");
            act_on(e, "sign");
        } else if (i % 5 == 1) {
            act_on(e, "decline");
        } else if (i % 5 == 2) {
            require_ok(c.call("/_control/envelope/cancel",
                              bj::object{{"envelopeUuid", e.uuid}, {"workspaceUuid", e.workspace}}));
        } else if (i % 5 == 3 && i % 2) {
            act_on(e, "approve", "approver@example.com");  // signing
        }
    }
    refresh_and_check(c.main.key);
    const auto body = snapshot(c, c.main.key);

    // The clock moves past the expiry of those still signing.
    c.advance(31 * 86'400'000LL);
    refresh_and_check(c.main.key);

    // Reset, then restored: the lists follow the records; and some drafts are sent after.
    require_ok(c.call("/_control/team/reset", bj::object{}));
    CHECK(every_page(c, c.main.key, "/public/envelope/list", bj::object{{"status", bj::array{"expired"}}}, "envelopes")
              .empty());
    require_ok(restore(c, c.main.key, bj::parse(body).at("team")));
    refresh_and_check(c.main.key);
    for (std::size_t i = 3; i < all.size(); i += 6)  // drafts
        if (all[i].status == "draft")
            require_ok(c.call("/public/envelope/send",
                              bj::object{{"envelopeUuid", all[i].uuid}, {"workspaceUuid", all[i].workspace}}));
    refresh_and_check(c.main.key);
}

namespace ref = esign::reference;

namespace {
// A spill that keeps what it is handed, part by part.
struct kept_parts final : esign::json::text_spill {
    explicit kept_parts(std::size_t at) : text_spill(at) {}
    std::vector<std::string> parts;
    void write(std::string_view part) override { parts.emplace_back(part); }
};
}  // namespace

TEST_CASE("snapshot text: a text_buffer with a spill hands on its text in parts, in order", "[json][snapshot]") {
    std::vector<std::string> items;
    for (int i = 0; i < 5000; ++i)
        items.push_back("item " + std::to_string(i) + std::string(static_cast<std::size_t>(i % 37), 'x'));
    const std::string whole = esign::json::write(items);
    kept_parts spill(100);
    std::string tail;
    {
        esign::json::text_buffer out(tail, spill);
        esign::json::write_value(items, out);
    }
    REQUIRE(spill.parts.size() > 10);
    std::string joined;
    for (const auto& part : spill.parts) {
        CHECK(part.size() >= 100);  // handed on once at least `at` bytes were buffered
        joined += part;
    }
    CHECK(tail.size() < whole.size());
    CHECK(joined + tail == whole);
}

TEST_CASE("snapshot text: envelopes are written in key order, a batch at a time", "[backend][snapshot]") {
    ref::envelope_map envelopes;
    std::map<std::string, ref::envelope_record> sorted;
    for (int i = 0; i < 50; ++i) {
        ref::envelope_record env;
        env.uuid = fmt::format("{:08x}-0000-4000-8000-000000000000", (i * 7919) % 1000);
        env.title = "Envelope " + std::to_string(i);
        sorted.emplace(env.uuid, env);
        envelopes.emplace(env.uuid, std::move(env));
    }
    const std::string expected = esign::json::write(sorted);
    for (std::size_t batch : {std::size_t{1}, std::size_t{3}, std::size_t{7}, std::size_t{49}, std::size_t{50},
                              std::size_t{51}, std::size_t{32768}}) {
        INFO("batch " << batch);
        std::string text;
        {
            esign::json::text_buffer out(text);
            esign::json::write_value(ref::detail::envelopes_in_key_order{&envelopes, batch}, out);
        }
        CHECK(text == expected);
    }
    ref::envelope_map none;
    std::string text;
    {
        esign::json::text_buffer out(text);
        esign::json::write_value(ref::detail::envelopes_in_key_order{&none, 3}, out);
    }
    CHECK(text == "{}");
}

TEST_CASE("snapshot: with a spool folder, a long snapshot is answered from a file, with the same bytes",
          "[backend][snapshot]") {
    client held(fixed_clock(43), bj::object{{"seed", 6}});
    populate(held);
    for (int i = 0; i < 20; ++i) sent(held);
    const std::string expected = snapshot(held, held.main.key);

    auto options = fixed_clock(43);
    options.spool_directory = "/tmp";
    options.spool_at = 1000;  // many parts
    client spooled(options, bj::object{{"seed", 6}});
    populate(spooled);
    for (int i = 0; i < 20; ++i) sent(spooled);
    for (int round = 0; round < 2; ++round) {  // the first (an estimated room) and a later one
        const auto r = spooled.b.handle("/_control/team/snapshot", spooled.main.key, "{}");
        REQUIRE(r.status == 200);
        REQUIRE(r.spooled);
        CHECK(r.body.empty());
        std::string text(r.spooled->size(), '\0');
        REQUIRE(r.spooled->read_at(0, text.data(), text.size()) == text.size());
        CHECK(text == expected);
    }
    // A short one stays in memory.
    auto small = options;
    small.spool_at = std::size_t(64) << 20;
    client whole(small, bj::object{{"seed", 6}});
    const auto r = whole.b.handle("/_control/team/snapshot", whole.main.key, "{}");
    CHECK(!r.spooled);
    CHECK(!r.body.empty());
}

}  // namespace test_backend_snapshot
