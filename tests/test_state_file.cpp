// SPDX-License-Identifier: BSL-1.0
// The state file (contract.md §7.3; include/esign/reference/state_file.hpp): every team of a
// backend written as one document and loaded into a fresh backend, where the same keys answer
// and every team's snapshot has the same bytes; a malformed file is refused with its paths, and
// then nothing is loaded.
#include "backend_support.hpp"

#include <esign/reference/state_file.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace test_state_file {

using namespace backend_support;
namespace ref = esign::reference;

namespace {

constexpr std::int64_t day = 86'400'000;

std::string envelope(client& c, const team& t, bool with_signer) {
    auto a = c.call_as(
        t, "/_control/envelope/create",
        bj::object{{"title", "Contract"}, {"documents", bj::array{bj::object{{"title", "Main"}, {"pageCount", 1}}}}});
    require_ok(a);
    std::string env(a.obj().at("envelopeUuid").as_string());
    if (with_signer)
        require_ok(c.call_as(t, "/public/envelope/add-recipients",
                             bj::object{{"envelopeUuid", env}, {"recipients", bj::array{recipient("s@example.com")}}}));
    return env;
}

std::string sent(client& c, const team& t) {
    const auto env = envelope(c, t, true);
    require_ok(c.call_as(t, "/public/envelope/send", bj::object{{"envelopeUuid", env}}));
    return env;
}

void act(client& c, const team& t, const std::string& env, const char* action) {
    require_ok(c.call_as(t, "/_control/recipient/act",
                         bj::object{{"envelopeUuid", env}, {"email", "s@example.com"}, {"action", action}}));
}

// Envelopes in every status, a template, a contact, and a webhook whose deliveries stay queued
// (in process, nothing sends them); the team's clock moved on by a month.
void populate(client& c, const team& t) {
    sent(c, t);  // expires below
    require_ok(c.call_as(t, "/_control/clock/advance", bj::object{{"milliseconds", 31 * day}}));
    require_ok(c.call_as(t, "/public/webhook/create",
                         webhook_body({{"url", "http://127.0.0.1:9/hook"},
                                       {"events", bj::array{"ENVELOPE_CREATED", "ENVELOPE_SENT"}}})));
    envelope(c, t, false);  // draft
    sent(c, t);             // signing
    const auto complete = sent(c, t);
    act(c, t, complete, "open");
    act(c, t, complete, "sign");
    act(c, t, sent(c, t), "decline");
    require_ok(c.call_as(t, "/_control/envelope/cancel", bj::object{{"envelopeUuid", sent(c, t)}}));
    require_ok(c.call_as(t, "/_control/template/create",
                         bj::object{{"title", "T"},
                                    {"recipientLabels", bj::array{"client"}},
                                    {"documents", bj::array{bj::object{{"title", "D"}, {"pageCount", 2}}}}}));
    require_ok(c.call_as(
        t, "/public/contact/create",
        bj::object{
            {"contacts", bj::array{bj::object{{"email", "c@example.com"}, {"firstname", "C"}, {"lastname", "D"}}}}}));
}

std::string snapshot(backend& b, const std::string& key) {
    auto r = b.handle("/_control/team/snapshot", key, "{}");
    INFO(r.body);
    REQUIRE(r.status == 200);
    return r.body;
}

std::string whoami(backend& b, const std::string& credentials) {
    auto r = b.handle("/public/utils/whoami", credentials, "{}");
    INFO(r.body);
    REQUIRE(r.status == 200);
    return r.body;
}

// A backend of three teams: a seeded one with a frozen clock and everything in it, one renamed
// since its creation (its reset state differs from its state), and an empty one; the server's
// clock moved on too.
struct three_teams {
    client c{fixed_clock(71), bj::object{{"seed", 9}, {"startTime", start_ms - 5 * day}}};
    team renamed = c.make_team();
    team empty = c.make_team();

    three_teams() {
        populate(c, c.main);
        populate(c, renamed);
        require_ok(c.call_as(renamed, "/_control/team/update", bj::object{{"name", "Renamed"}}));
        c.advance(1234);
    }
    std::vector<const team*> teams() const { return {&c.main, &renamed, &empty}; }
};

std::string text_of(backend& b) { return ref::save_state(b); }

}  // namespace

TEST_CASE("state file: every team loads into a fresh backend: same keys, same snapshot bytes", "[state-file]") {
    three_teams from;
    const std::string text = text_of(from.c.b);
    const bj::value doc = bj::parse(text);
    CHECK(doc.at("format") == str("esign-state/1"));
    REQUIRE(doc.at("teams").as_array().size() == 3);
    const auto& first = doc.at("teams").at(0);
    CHECK(!first.at("team").at("state").at("pending_deliveries").as_array().empty());
    CHECK(first.at("pendingDue").as_array().size() ==
          first.at("team").at("state").at("pending_deliveries").as_array().size());
    CHECK(first.at("startTime") == start_ms - 5 * day);

    backend to(fixed_clock(72));
    const auto problems = ref::load_state(to, text);
    INFO((problems.empty() ? std::string() : problems.front().message));
    REQUIRE(problems.empty());
    // Nothing is lost or added: the loaded backend writes the same file.
    CHECK(text_of(to) == text);
    // The file's team objects are written from typed copies of the teams (capture_state), a
    // snapshot straight from the records (team_snapshot_text): the same bytes.
    const auto typed = ref::read_state_file(text);
    REQUIRE(typed);
    for (std::size_t i = 0; i < from.teams().size(); ++i)
        CHECK(snapshot(from.c.b, from.teams()[i]->key) ==
              "{\"team\":" + esign::json::write(typed->teams[i].team) + "}");
    for (const team* t : from.teams()) {
        INFO(t->uuid);
        CHECK(whoami(to, t->key) == whoami(from.c.b, t->key));
        CHECK(snapshot(to, t->key) == snapshot(from.c.b, t->key));
    }
    // The e-mails' links too (the signer key and link tokens kept): each e-mail of the outbox
    // has the same signingUrl in both.
    REQUIRE(first.at("signer").at("links").as_array().size() >= 5);
    CHECK(first.at("signer").at("initialLinks").as_array().empty());
    auto outbox = [](backend& b, const std::string& key) {
        return request(b, "/_control/outbox/list", std::string_view(key), bj::object{}).body;
    };
    CHECK(outbox(to, from.c.main.key) == outbox(from.c.b, from.c.main.key));
    // The access key and secret (§6.8) too, and the server's clock.
    const auto access = first.at("accessKey").as_string();
    const auto secret = first.at("secretKey").as_string();
    const std::string pair = std::string(access) + ":" + std::string(secret);
    CHECK(whoami(to, pair) == whoami(from.c.b, from.c.main.key));
    CHECK(to.now_ms() == from.c.b.now_ms());

    // A team reset returns to the same state in both (the state at creation, not the one loaded).
    for (backend* b : {&from.c.b, &to})
        REQUIRE(request(*b, "/_control/team/reset", std::string_view(from.renamed.key), bj::object{}).status == 200);
    CHECK(snapshot(to, from.renamed.key) == snapshot(from.c.b, from.renamed.key));
    CHECK(bj::parse(whoami(to, from.renamed.key)).at("teamName") != str("Renamed"));
    // And the same request does the same in both (the seeded stream went on where it stood).
    auto next = [&](backend& b) {
        return request(b, "/_control/envelope/create", std::string_view(from.c.main.key),
                       bj::object{{"title", "Next"},
                                  {"documents", bj::array{bj::object{{"title", "d"}, {"pageCount", 1}}}}})
            .body;
    };
    CHECK(next(to).at("envelopeUuid") == next(from.c.b).at("envelopeUuid"));
}

TEST_CASE("state file: a file without the teams' signer keys loads, with new e-mail links", "[state-file]") {
    three_teams from;
    bj::value doc = bj::parse(text_of(from.c.b));
    for (auto& t : doc.at("teams").as_array()) t.as_object().erase("signer");
    backend to(fixed_clock(76));
    REQUIRE(ref::load_state(to, bj::serialize(doc)).empty());
    CHECK(snapshot(to, from.c.main.key) == snapshot(from.c.b, from.c.main.key));
    auto links = [&](backend& b) {
        std::vector<std::string> out;
        const auto list = request(b, "/_control/outbox/list", std::string_view(from.c.main.key), bj::object{}).body;
        for (const auto& mail : list.at("emails").as_array())
            if (const auto* url = mail.as_object().if_contains("signingUrl")) out.emplace_back(url->as_string());
        return out;
    };
    const auto before = links(from.c.b);
    const auto after = links(to);
    REQUIRE(before.size() >= 5);
    REQUIRE(after.size() == before.size());
    for (std::size_t i = 0; i < before.size(); ++i) CHECK(after[i] != before[i]);
}

TEST_CASE("state file: the loaded teams replace those in place, whose keys then answer 401", "[state-file]") {
    three_teams from;
    backend to(fixed_clock(73));
    const team before = make_team(to);
    REQUIRE(ref::load_state(to, text_of(from.c.b)).empty());
    CHECK(to.handle("/public/utils/whoami", before.key, "{}").status == 401);
    CHECK(to.handle("/public/utils/whoami", from.empty.key, "{}").status == 200);
}

TEST_CASE("state file: a malformed file is refused with its path, and nothing is loaded", "[state-file]") {
    three_teams from;
    const std::string text = text_of(from.c.b);
    const bj::value good = bj::parse(text);
    const std::string envelope_key(
        good.at("teams").at(0).at("team").at("state").at("envelopes").as_object().begin()->key());

    backend to(fixed_clock(74));
    const team kept = make_team(to);
    auto refused = [&](const std::string& bad, const esign::problem_path& path) {
        const auto problems = ref::load_state(to, bad);
        REQUIRE_FALSE(problems.empty());
        INFO(problems.front().message);
        CHECK(problems.front().path == path);
        // Nothing loaded: the team in place still answers, the file's teams do not.
        CHECK(to.handle("/public/utils/whoami", kept.key, "{}").status == 200);
        CHECK(to.handle("/public/utils/whoami", from.c.main.key, "{}").status == 401);
    };
    auto edited = [&](auto&& edit) {
        bj::value v = good;
        edit(v);
        return bj::serialize(v);
    };

    refused("{\"format\": \"esign-state/1\", \"teams\": [", {});  // not JSON
    refused(edited([](bj::value& v) { v.as_object()["format"] = "esign-state/9"; }), {"format"});
    refused(edited([](bj::value& v) { v.as_object().erase("format"); }), {"format"});
    // A member of the wrong type deep inside a team.
    refused(edited([&](bj::value& v) {
                v.at("teams").at(0).at("team").at("state").at("envelopes").at(envelope_key).as_object()["status"] =
                    "lost";
            }),
            {"teams", "0", "team", "state", "envelopes", envelope_key, "status"});
    // A state the API could not have produced (checked as a restore is).
    refused(
        edited([&](bj::value& v) {
            v.at("teams").at(0).at("team").at("state").at("envelopes").at(envelope_key).as_object()["workspace_uuid"] =
                "0b5c2a1e-9a7e-4c5b-8a3d-2f6e1d4c3b2a";
        }),
        {"teams", "0", "team", "state", "envelopes", envelope_key, "workspace_uuid"});
    refused(edited([](bj::value& v) {
                v.at("teams").at(1).at("initial").at("state").as_object()["clock_offset"] = -1 - 3'155'760'000'000;
            }),
            {"teams", "1", "initial", "state", "clock_offset"});
    // A typo is not ignored.
    refused(edited([](bj::value& v) { v.at("teams").at(2).as_object()["apikey"] = "esk_x"; }),
            {"teams", "2", "apikey"});
    // A team twice: its uuid, or a key of another team.
    refused(edited([](bj::value& v) {
                bj::value copy = v.at("teams").at(0);
                copy.as_object()["apiKey"] = "esk_another";
                copy.as_object()["accessKey"] = "esa_another";
                v.at("teams").as_array().push_back(std::move(copy));
            }),
            {"teams", "3", "team", "uuid"});
    refused(edited([](bj::value& v) { v.at("teams").at(2).as_object()["apiKey"] = v.at("teams").at(0).at("apiKey"); }),
            {"teams", "2", "apiKey"});
    refused(
        edited([](bj::value& v) { v.at("teams").at(2).as_object()["accessKey"] = v.at("teams").at(1).at("apiKey"); }),
        {"teams", "2", "accessKey"});
    // The pieces must agree: a due instant per queued delivery, the same team in both states.
    refused(edited([](bj::value& v) { v.at("teams").at(0).at("pendingDue").as_array().pop_back(); }),
            {"teams", "0", "pendingDue"});
    refused(edited([](bj::value& v) {
                v.at("teams").at(1).at("initial").as_object()["uuid"] = v.at("teams").at(0).at("team").at("uuid");
            }),
            {"teams", "1", "initial", "uuid"});
    refused(edited([](bj::value& v) { v.at("teams").at(0).at("team").as_object().erase("state"); }),
            {"teams", "0", "team", "state"});
    // The signer keys and e-mail links: a key of the right shape, once in the file; each link a
    // token of its team's key, once, for one envelope and e-mail.
    refused(edited([](bj::value& v) { v.at("teams").at(0).at("signer").as_object()["key"] = "short"; }),
            {"teams", "0", "signer", "key"});
    refused(edited([](bj::value& v) {
                v.at("teams").at(2).at("signer").as_object()["key"] = v.at("teams").at(0).at("signer").at("key");
            }),
            {"teams", "2", "signer", "key"});
    refused(edited([](bj::value& v) {
                auto& links = v.at("teams").at(0).at("signer").at("links").as_array();
                links[1].as_object()["token"] = v.at("teams").at(1).at("signer").at("links").at(0).at("token");
            }),
            {"teams", "0", "signer", "links", "1", "token"});
    refused(edited([](bj::value& v) {
                auto& links = v.at("teams").at(0).at("signer").at("links").as_array();
                links[1].as_object()["token"] = links[0].at("token");
            }),
            {"teams", "0", "signer", "links", "1", "token"});
    refused(edited([](bj::value& v) {
                auto& links = v.at("teams").at(0).at("signer").at("links").as_array();
                links[1].as_object()["envelope_uuid"] = links[0].at("envelope_uuid");
                links[1].as_object()["email"] = links[0].at("email");
            }),
            {"teams", "0", "signer", "links", "1", "email"});
    refused(edited([](bj::value& v) {
                v.at("teams")
                    .at(1)
                    .at("signer")
                    .at("initialLinks")
                    .as_array()
                    .push_back(bj::object{{"token", "slt.x"}, {"envelope_uuid", "not a uuid"}, {"email", "a@b.c"}});
            }),
            {"teams", "1", "signer", "initialLinks", "0", "envelope_uuid"});
    // More teams than --max-teams.
    auto options = fixed_clock(75);
    options.max_teams = 2;
    backend small(options);
    const auto problems = ref::load_state(small, text);
    REQUIRE_FALSE(problems.empty());
    CHECK(problems.front().path == esign::problem_path{"teams"});
}

}  // namespace test_state_file
