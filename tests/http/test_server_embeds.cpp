// SPDX-License-Identifier: BSL-1.0
// The signer's side over the wire (contract.md §7.1): the /embeds/ operations without an API
// key, the token states, a session refused on another team, the secrets absent from the journal,
// the signingUrl of e-mails (base: the listening address, or --public-url) and the OpenAPI rows.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <boost/json.hpp>

#include "test_support.hpp"

namespace test_server_embeds {

namespace {

namespace json = boost::json;
using namespace esign::test;

constexpr std::int64_t hour = 3'600'000;

// The signer's operations: no Authorization header.
http_response signer(test_server& srv, const std::string& path, const json::object& body) {
    return srv.post(path, json::serialize(body));
}

std::string error_code_of(const http_response& r) { return string_member(at(r.json(), "/error"), "code"); }

void require_error(const http_response& r, unsigned status, const std::string& code, const std::string& path) {
    INFO(r.status << " " << r.body);
    REQUIRE(r.status == status);
    CHECK(error_code_of(r) == code);
    CHECK(string_member(r.json(), "path") == path);
    CHECK(at(r.json(), "/statusCode") == json::value(status));
}

// A sent envelope of the team: signers Ada then Bob (in signature order when asked), verified by
// e-mail so that they may have iframe tokens.
std::string sent_envelope(api_caller& team, bool in_order) {
    const auto created =
        team.ok("/_control/envelope/create",
                json::object{{"title", "Lease"},
                             {"documents", json::array{json::object{{"title", "Main"}, {"pageCount", 1}}}}});
    const std::string env(created.at("envelopeUuid").as_string());
    json::array people;
    for (auto [email, first] : {std::pair{"ada@example.com", "Ada"}, std::pair{"bob@example.com", "Bob"}})
        people.push_back(json::object{{"type", "manual"},
                                      {"email", email},
                                      {"firstname", first},
                                      {"lastname", "Lovelace"},
                                      {"verificationType", "email"}});
    team.ok("/public/envelope/add-recipients", json::object{{"envelopeUuid", env}, {"recipients", people}});
    if (in_order)
        team.ok("/public/envelope/update", json::object{{"envelopeUuid", env}, {"update", {{"signatureOrder", true}}}});
    team.ok("/public/envelope/send", json::object{{"envelopeUuid", env}});
    return env;
}

std::string iframe_token(api_caller& team, const std::string& env, const std::string& email) {
    return std::string(team.ok("/public/authentication/create-iframe-token",
                               json::object{{"envelopeUuid", env}, {"signerEmail", email}})
                           .at("iframeToken")
                           .as_string());
}

std::string session_of(test_server& srv, const std::string& token) {
    return std::string(
        success_body(signer(srv, "/embeds/session/start", {{"token", token}}), "start").at("session").as_string());
}

}  // namespace

TEST_CASE("embeds: a signer signs through the page's operations, without an API key", "[http][embeds]") {
    test_server srv;
    api_caller team{srv, srv.new_team().api_key};
    const std::string env = sent_envelope(team, true);

    const std::string ada = session_of(srv, iframe_token(team, env, "ada@example.com"));
    const std::string bob = session_of(srv, iframe_token(team, env, "bob@example.com"));

    // Bob's page says whose turn it is; his signature is refused in the same words.
    const auto page = success_body(signer(srv, "/embeds/envelope/get", {{"session", bob}}), "get");
    CHECK(page.at("notAllowedReason") == "It is not your turn: Ada Lovelace signs first.");
    CHECK(at(page, "/recipient/yourTurn") == false);
    CHECK(at(page, "/envelope/uuid") == json::value(env));
    const auto early =
        signer(srv, "/embeds/recipient/act", {{"session", bob}, {"action", "sign"}, {"signatureName", "Bob"}});
    require_error(early, 400, "ACTION_NOT_ALLOWED", "/embeds/recipient/act");
    CHECK(at(early.json(), "/error/message") == "It is not your turn: Ada Lovelace signs first.");

    // An API key is neither needed nor looked at.
    auto with_key = srv.post("/embeds/recipient/act",
                             json::serialize(json::object{{"session", ada}, {"action", "open"}}), bearer("not-a-key"));
    success_body(with_key, "open with a stray key");
    const auto first = success_body(
        signer(srv, "/embeds/recipient/act", {{"session", ada}, {"action", "sign"}, {"signatureName", "Ada Lovelace"}}),
        "ada signs");
    CHECK(first.at("completed") == false);
    const auto second = success_body(
        signer(srv, "/embeds/recipient/act", {{"session", bob}, {"action", "sign"}, {"signatureName", "Bob"}}),
        "bob signs");
    CHECK(second.at("completed") == true);
    CHECK(second.at("envelopeStatus") == "complete");
    const auto got = team.ok("/public/envelope/get", json::object{{"envelopeUuid", env}});
    CHECK(got.at("status") == "complete");
    // The logs are those of /_control/recipient/act: two signatures, then the completion.
    const auto logs =
        team.ok("/public/logs/list",
                json::object{{"category", "envelope"}, {"envelopeUuid", env}, {"sortBy", "id"}, {"sortOrder", "asc"}});
    std::vector<std::string> types;
    for (const auto& l : logs.at("logs").as_array()) types.emplace_back(l.at("eventType").as_string());
    CHECK(std::count(types.begin(), types.end(), "DOCUMENT_SIGNED") == 2);
    CHECK(types.back() == "ENVELOPE_COMPLETED");

    // The operations are rows of the OpenAPI document.
    auto doc = srv.connect().get("/openapi.json");
    REQUIRE(doc.status == 200);
    const auto paths = at(doc.json(), "/paths");
    for (const char* path : {"/embeds/session/start", "/embeds/envelope/get", "/embeds/recipient/act"}) {
        INFO(path);
        CHECK(paths.as_object().contains(path));
    }
}

TEST_CASE("embeds: token states, another team's secrets, and no secret in the journal", "[http][embeds]") {
    test_server srv;
    api_caller a{srv, srv.new_team().api_key};
    api_caller b{srv, srv.new_team().api_key};
    const std::string env = sent_envelope(a, false);
    const std::string env_b = sent_envelope(b, false);
    const std::string token = iframe_token(a, env, "ada@example.com");
    const std::string later = iframe_token(a, env, "bob@example.com");
    const std::string token_b = iframe_token(b, env_b, "ada@example.com");

    auto snapshot = [&](api_caller& team) {
        auto v = json::parse(json::serialize(team.ok("/_control/team/snapshot", json::object{})));
        v.at("team").at("state").as_object().erase("stream");  // (every request draws its request id)
        return json::serialize(v);
    };
    const std::string session = session_of(srv, token);
    const std::string before = snapshot(a);
    require_error(signer(srv, "/embeds/session/start", {{"token", token}}), 409, "SIGNING_TOKEN_USED",
                  "/embeds/session/start");
    require_error(signer(srv, "/embeds/session/start", {{"token", "sit.unknown"}}), 404, "SIGNING_TOKEN_UNKNOWN",
                  "/embeds/session/start");
    require_error(signer(srv, "/embeds/session/start", {{"token", token.substr(0, 15) + std::string(32, 'Q')}}), 404,
                  "SIGNING_TOKEN_UNKNOWN", "/embeds/session/start");
    CHECK(snapshot(a) == before);

    // A's session with B's team key: refused; B's envelope (another uuid) unchanged.
    const std::string forged = session.substr(0, 4) + token_b.substr(4, 11) + session.substr(15);
    const std::string before_b = snapshot(b);
    require_error(signer(srv, "/embeds/recipient/act", {{"session", forged}, {"action", "decline"}}), 401,
                  "SIGNING_SESSION_INVALID", "/embeds/recipient/act");
    CHECK(snapshot(b) == before_b);

    // One hour later on the team's clock, an unused iframe token has expired.
    a.ok("/_control/clock/advance", json::object{{"milliseconds", hour}});
    const std::string before_expiry = snapshot(a);
    require_error(signer(srv, "/embeds/session/start", {{"token", later}}), 410, "SIGNING_TOKEN_EXPIRED",
                  "/embeds/session/start");
    CHECK(snapshot(a) == before_expiry);

    const auto journal = a.ok("/_control/journal/list", json::object{});
    const std::string text = json::serialize(journal);
    for (const std::string& secret : {token, later, session}) {
        INFO(secret);
        CHECK(text.find(secret.substr(4)) == std::string::npos);
    }
    CHECK(text.find("/embeds/session/start") != std::string::npos);
}

TEST_CASE("embeds: e-mails carry a signingUrl on the listening address, or on --public-url", "[http][embeds]") {
    SECTION("the listening address") {
        test_server srv;
        api_caller team{srv, srv.new_team().api_key};
        const std::string env = sent_envelope(team, false);
        const auto outbox = team.ok("/_control/outbox/list", json::object{});
        const std::string base = "http://" + srv.host() + ":" + std::to_string(srv.port()) + "/embeds/sign#t=slt.";
        REQUIRE(outbox.at("emails").as_array().size() == 2);
        for (const auto& mail : outbox.at("emails").as_array()) {
            const std::string url(mail.at("signingUrl").as_string());
            INFO(url);
            CHECK(url.starts_with(base));
            // The link opens the page, more than once.
            const std::string link = url.substr(url.find("#t=") + 3);
            const auto page = success_body(signer(srv, "/embeds/envelope/get", {{"session", session_of(srv, link)}}),
                                           "page of the link");
            CHECK(at(page, "/recipient/email") == mail.at("to"));
            session_of(srv, link);
        }
    }
    SECTION("--public-url") {
        test_server srv({"--public-url", "https://sign.example.test/esign/"});
        api_caller team{srv, srv.new_team().api_key};
        sent_envelope(team, false);
        const auto outbox = team.ok("/_control/outbox/list", json::object{});
        for (const auto& mail : outbox.at("emails").as_array())
            CHECK(std::string(mail.at("signingUrl").as_string())
                      .starts_with("https://sign.example.test/esign/embeds/sign#t=slt."));
    }
    SECTION("a --public-url that is no http or https URL stops the start") {
        for (const char* bad :
             {"ftp://x.example/", "sign.example.test", "https://x.example/?q=1", "https://x.example/#f"}) {
            INFO(bad);
            const auto r = run_to_exit({"--listen", "127.0.0.1:0", "--public-url", bad});
            CHECK(r.status == 2);
            CHECK(r.err.find("--public-url") != std::string::npos);
        }
    }
}

}  // namespace test_server_embeds
