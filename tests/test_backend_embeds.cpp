// SPDX-License-Identifier: BSL-1.0
// The signer's side in the reference backend (contract.md §7.1): /embeds/session/start,
// /embeds/envelope/get and /embeds/recipient/act, the iframe and e-mail link tokens and the
// signer sessions (signer_access.hpp), and the signingUrl of invitation and reminder e-mails.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/json.hpp>

#include <esign/reference/signer_access.hpp>

#include "backend_support.hpp"

namespace test_backend_embeds {

namespace {

namespace json = boost::json;
using namespace backend_support;

constexpr std::int64_t hour = 3'600'000;
constexpr std::int64_t day = 24 * hour;

struct person {
    std::string email;
    std::string role = "signer";
    std::string first = "Ada";
    std::string last = "Lovelace";
};

// One backend; calls as a given team, and the signer's operations (no credentials).
struct api : client {
    explicit api(std::uint64_t seed = 31) : client(fixed_clock(seed)) {}

    answer embeds(std::string_view path, const json::object& body) { return raw(path, std::nullopt, body); }

    // A sent envelope of team `t`: one document of 2 pages with a block for the first person,
    // `people` in order (signers verified by e-mail, so that they may have iframe tokens), a
    // webhook, and the given envelope update (e.g. signatureOrder).
    std::string envelope(const team& t, const std::vector<person>& people, json::object update = {}) {
        auto created =
            call_as(t, "/_control/envelope/create",
                    json::object{{"title", "Lease <b>"},
                                 {"documents", json::array{json::object{{"title", "Main"}, {"pageCount", 2}},
                                                           json::object{{"title", "Annex"}, {"pageCount", 1}}}}});
        require_ok(created);
        const std::string env(created.obj().at("envelopeUuid").as_string());
        json::array items;
        for (const auto& p : people) {
            auto item = recipient(p.email, p.first, p.last);
            item["verificationType"] = "email";
            items.push_back(std::move(item));
        }
        require_ok(
            call_as(t, "/public/envelope/add-recipients", json::object{{"envelopeUuid", env}, {"recipients", items}}));
        for (const auto& p : people)
            if (p.role != "signer")
                require_ok(call_as(t, "/public/envelope/update-recipient",
                                   json::object{{"envelopeUuid", env},
                                                {"email", p.email},
                                                {"role", "signer"},
                                                {"updates", json::object{{"role", p.role}}}}));
        if (!update.empty())
            require_ok(call_as(t, "/public/envelope/update", json::object{{"envelopeUuid", env}, {"update", update}}));
        auto got = call_as(t, "/public/envelope/get", json::object{{"envelopeUuid", env}});
        require_ok(got);
        const std::string doc(got.obj().at("documents").at(0).at("uuid").as_string());
        require_ok(call_as(
            t, "/public/envelope/add-blocks",
            json::object{
                {"envelopeUuid", env},
                {"documentUuid", doc},
                {"blocks",
                 json::array{json::object{{"page", "2"},
                                          {"x", 100},
                                          {"y", 700},
                                          {"width", 150},
                                          {"type", "text"},
                                          {"text", "Sign here"},
                                          {"recipientEmail", people[0].email}},
                             json::object{{"page", "1"}, {"x", 10}, {"y", 20}, {"type", "text"}, {"text", "Date"}}}}}));
        require_ok(call_as(t, "/public/webhook/create",
                           webhook_body({{"url", "http://127.0.0.1:9/hook"}, {"sslVerify", false}})));
        require_ok(call_as(t, "/public/envelope/send", json::object{{"envelopeUuid", env}}));
        return env;
    }

    std::string iframe_token(const team& t, const std::string& env, const std::string& email) {
        auto a = call_as(t, "/public/authentication/create-iframe-token",
                         json::object{{"envelopeUuid", env}, {"signerEmail", email}});
        require_ok(a);
        return std::string(a.obj().at("iframeToken").as_string());
    }

    json::array outbox(const team& t) {
        auto a = call_as(t, "/_control/outbox/list", json::object{});
        require_ok(a);
        return a.obj().at("emails").as_array();
    }

    // The link token of the last e-mail to `email` about `env` (from its signingUrl).
    std::string link_token(const team& t, const std::string& env, const std::string& email) {
        std::string url;
        for (const auto& m : outbox(t))
            if (m.at("to").as_string() == email && m.at("envelopeUuid").as_string() == env)
                url = std::string(m.at("signingUrl").as_string());
        REQUIRE(url.find("/embeds/sign#t=") != std::string::npos);
        return url.substr(url.find("#t=") + 3);
    }

    answer start(const std::string& token) { return embeds("/embeds/session/start", json::object{{"token", token}}); }
    std::string session(const std::string& token) {
        auto a = start(token);
        require_ok(a);
        return std::string(a.obj().at("session").as_string());
    }
    answer page(const std::string& session) {
        return embeds("/embeds/envelope/get", json::object{{"session", session}});
    }
    answer act(const std::string& session, std::string action, json::object extra = {}) {
        extra["session"] = session;
        extra["action"] = std::move(action);
        return embeds("/embeds/recipient/act", extra);
    }
    answer control_act(const team& t, const std::string& env, const std::string& email, std::string action,
                       std::optional<std::string> reason = std::nullopt) {
        json::object body{{"envelopeUuid", env}, {"email", email}, {"action", std::move(action)}};
        if (reason) body["reason"] = *reason;
        return call_as(t, "/_control/recipient/act", body);
    }

    std::string snapshot(const team& t) {
        auto r = b.handle("/_control/team/snapshot", t.key, "{}");
        REQUIRE(r.status == 200);
        // (Every request draws its request id from the team's identifier stream: the stream's
        // position is the one thing any request moves.)
        auto v = json::parse(r.body);
        v.at("team").at("state").as_object().erase("stream");
        return json::serialize(v);
    }

    void advance(const team& t, std::int64_t ms) {
        require_ok(call_as(t, "/_control/clock/advance", json::object{{"milliseconds", ms}}));
    }

    // What a team shows of itself: envelope/get, its envelope logs, outbox (without the links,
    // which are the team's own secrets) and webhook deliveries.
    std::string observed(const team& t, const std::string& env) {
        json::object out;
        out["envelope"] = call_as(t, "/public/envelope/get", json::object{{"envelopeUuid", env}}).body;
        out["logs"] = call_as(t, "/public/logs/list",
                              json::object{{"category", "envelope"}, {"sortBy", "id"}, {"sortOrder", "asc"}})
                          .body;
        json::array mails = outbox(t);
        for (auto& m : mails) {
            CHECK(m.as_object().contains("signingUrl"));
            m.as_object().erase("signingUrl");
        }
        out["outbox"] = mails;
        out["deliveries"] = call_as(t, "/_control/webhook/deliveries", json::object{}).body;
        return json::serialize(out);
    }
};

std::string message_of(const answer& a) { return std::string(a.body.at("error").at("message").as_string()); }

}  // namespace

TEST_CASE("embeds: an iframe token starts a session, the page shows the envelope, signing completes it",
          "[backend][embeds]") {
    api t;
    const std::string env = t.envelope(t.main, {{"ada@example.com"}});
    const std::string token = t.iframe_token(t.main, env, "ada@example.com");
    const std::string session = t.session(token);
    CHECK(session.starts_with("sss."));
    CHECK(session.size() == token.size());

    auto page = t.page(session);
    require_ok(page);
    const auto& p = page.obj();
    CHECK(p.at("envelope").at("uuid") == str(env));
    CHECK(p.at("envelope").at("workspaceUuid") == str(t.main.default_ws));
    CHECK(p.at("envelope").at("title") == str("Lease <b>"));
    CHECK(p.at("envelope").at("status") == str("signing"));
    CHECK(p.at("envelope").at("senderEmail") == str(t.main.owner_email));
    CHECK(!p.at("envelope").at("senderName").as_string().empty());
    CHECK(p.at("recipient") == json::parse(R"({"email":"ada@example.com","firstname":"Ada","lastname":"Lovelace",
                                              "role":"signer","status":"pending","yourTurn":true})"));
    CHECK(p.at("waitingFor") ==
          json::parse(R"([{"email":"ada@example.com","firstname":"Ada","lastname":"Lovelace","role":"signer"}])"));
    CHECK(p.at("actions") == json::parse(R"({"sign":true,"approve":false,"decline":true})"));
    CHECK(!p.contains("notAllowedReason"));
    // Documents in order, attachments aside; blocks by page, the signer's own marked.
    const auto& docs = p.at("documents").as_array();
    REQUIRE(docs.size() == 2);
    CHECK(docs[0].at("title") == str("Main"));
    CHECK(docs[0].at("pageCount") == 2);
    CHECK(docs[0].at("blocks") == json::parse(R"([
        {"page":1,"x":10,"y":20,"type":"text","text":"Date","mine":false},
        {"page":2,"x":100,"y":700,"width":150,"type":"text","text":"Sign here","mine":true}])"));
    CHECK(docs[1].at("blocks").as_array().empty());

    auto opened = t.act(session, "open");
    require_ok(opened);
    CHECK(opened.obj().at("recipientStatus") == str("pending"));
    auto signed_ = t.act(session, "sign", {{"signatureName", "Ada Lovelace"}});
    require_ok(signed_);
    CHECK(signed_.body == json::parse(R"({"envelopeUuid":")" + env + R"(","workspaceUuid":")" + t.main.default_ws +
                                      R"(","envelopeStatus":"complete","recipientStatus":"signed","completed":true})"));
    CHECK(t.get(env).at("status") == str("complete"));

    // Now nothing is possible, and the page says why.
    auto after = t.page(session);
    require_ok(after);
    CHECK(after.obj().at("actions") == json::parse(R"({"sign":false,"approve":false,"decline":false})"));
    CHECK(after.obj().at("notAllowedReason") == str("The envelope is completed."));
    auto again = t.act(session, "sign", {{"signatureName", "Ada"}});
    require_error(again, 400, "ACTION_NOT_ALLOWED");
    CHECK(message_of(again) == "The envelope is completed.");

    // A signature needs its name, of 1 to 256 code points.
    api u;
    const std::string env2 = u.envelope(u.main, {{"ada@example.com"}});
    const std::string s2 = u.session(u.iframe_token(u.main, env2, "ada@example.com"));
    require_error(u.act(s2, "sign"), 400, "INVALID_REQUEST_FORMAT");
    require_error(u.act(s2, "sign", {{"signatureName", ""}}), 400, "INVALID_REQUEST_FORMAT");
    require_error(u.act(s2, "sign", {{"signatureName", std::string(257, 'a')}}), 400, "INVALID_REQUEST_FORMAT");
    require_ok(u.act(s2, "sign", {{"signatureName", std::string(256, 'a')}}));
}

TEST_CASE("embeds: unknown, used and expired tokens are refused and change nothing", "[backend][embeds]") {
    api t;
    const std::string env = t.envelope(t.main, {{"ada@example.com"}, {"bob@example.com", "signer", "Bob", "Byron"}});
    const std::string token = t.iframe_token(t.main, env, "ada@example.com");
    const std::string unused = t.iframe_token(t.main, env, "bob@example.com");
    const std::string link = t.link_token(t.main, env, "ada@example.com");
    t.session(token);

    auto unchanged = [&](const answer& a, unsigned status, std::string_view code, const std::string& before) {
        require_error(a, status, code);
        CHECK(t.snapshot(t.main) == before);
        CHECK(t.get(env).at("status") == str("signing"));
    };
    std::string before = t.snapshot(t.main);
    // Unknown: not a token at all, a token's shape with no team's key, a token of the team that
    // it never issued (its key and other random characters).
    unchanged(t.start("hello"), 404, "SIGNING_TOKEN_UNKNOWN", before);
    unchanged(t.start("sit." + std::string(43, 'A')), 404, "SIGNING_TOKEN_UNKNOWN", before);
    unchanged(t.start(token.substr(0, 15) + std::string(32, 'x')), 404, "SIGNING_TOKEN_UNKNOWN", before);
    unchanged(t.start(link.substr(0, 15) + std::string(32, 'x')), 404, "SIGNING_TOKEN_UNKNOWN", before);
    unchanged(t.start(token + "x"), 404, "SIGNING_TOKEN_UNKNOWN", before);
    // A session is no token.
    const std::string session = t.session(link);
    before = t.snapshot(t.main);
    unchanged(t.start(session), 404, "SIGNING_TOKEN_UNKNOWN", before);
    // Used: an iframe token opens the page once; a link token any number of times.
    unchanged(t.start(token), 409, "SIGNING_TOKEN_USED", before);
    require_ok(t.start(link));
    require_ok(t.start(link));
    // Expired: one hour after issue on the team's clock (one millisecond before, still good).
    t.advance(t.main, hour - 1);
    const std::string fresh = t.iframe_token(t.main, env, "ada@example.com");
    t.advance(t.main, 1);
    before = t.snapshot(t.main);
    unchanged(t.start(unused), 410, "SIGNING_TOKEN_EXPIRED", before);
    unchanged(t.start(token), 410, "SIGNING_TOKEN_EXPIRED", before);  // used, and expired now
    require_ok(t.start(fresh));
    // A link token once its envelope is final.
    require_ok(t.call("/_control/envelope/cancel", json::object{{"envelopeUuid", env}}));
    before = t.snapshot(t.main);
    require_error(t.start(link), 410, "SIGNING_TOKEN_EXPIRED");
    CHECK(t.snapshot(t.main) == before);
    // A session goes on showing the page (its envelope cancelled) but acts no more.
    auto page = t.page(session);
    require_ok(page);
    CHECK(page.obj().at("notAllowedReason") == str("The envelope was cancelled."));
    // An unknown session.
    require_error(t.page("sss." + std::string(43, 'A')), 401, "SIGNING_SESSION_INVALID");
    require_error(t.page(session.substr(0, 15) + std::string(32, 'x')), 401, "SIGNING_SESSION_INVALID");
    require_error(t.act(token, "open"), 401, "SIGNING_SESSION_INVALID");  // a token is no session
    CHECK(t.snapshot(t.main) == before);
}

TEST_CASE("embeds: each action has exactly the effect of /_control/recipient/act", "[backend][embeds]") {
    // Two teams of the same seed, the same requests: one acts through the signing page, the
    // other through /_control/recipient/act; everything they show is the same.
    api t;
    const team a = t.make_team(json::object{{"seed", 7}});
    const team b = t.make_team(json::object{{"seed", 7}});
    REQUIRE(a.uuid == b.uuid);
    const std::vector<person> people{{"ap@example.com", "approver", "Alan", "Turing"},
                                     {"ada@example.com"},
                                     {"bob@example.com", "signer", "Bob", "Byron"},
                                     {"vi@example.com", "viewer", "Vera", "Viewer"}};
    struct step {
        std::string email;
        std::string action;
        std::optional<std::string> reason;
        bool ok;
    };
    auto run = [&](json::object update, const std::vector<step>& steps) {
        const std::string env_a = t.envelope(a, people, update);
        const std::string env_b = t.envelope(b, people, update);
        REQUIRE(env_a == env_b);
        // Sessions on both teams (the same requests, so that their identifier streams agree).
        std::map<std::string, std::string> sessions;
        // (Signers from iframe tokens: their e-mails come once approving is over.)
        auto token = [&](const team& who, const std::string& env, const person& p) {
            return p.role == "signer" ? t.iframe_token(who, env, p.email) : t.link_token(who, env, p.email);
        };
        for (const auto& p : people) {
            sessions[p.email] = t.session(token(a, env_a, p));
            t.session(token(b, env_b, p));
        }
        for (const auto& s : steps) {
            INFO(s.email << " " << s.action);
            json::object extra;
            if (s.action == "sign") extra["signatureName"] = "Name";
            if (s.reason) extra["reason"] = *s.reason;
            auto by_page = t.act(sessions.at(s.email), s.action, extra);
            auto by_control = t.control_act(b, env_b, s.email, s.action, s.reason);
            CHECK(by_page.status == by_control.status);
            if (s.ok) {
                require_ok(by_page);
                CHECK(by_page.obj().at("envelopeStatus") == by_control.obj().at("envelopeStatus"));
                CHECK(by_page.obj().at("recipientStatus") == by_control.obj().at("recipientStatus"));
                CHECK(by_page.obj().at("completed").as_bool() ==
                      (by_control.obj().at("envelopeStatus") == str("complete")));
            } else {
                require_error(by_page, 400, "ACTION_NOT_ALLOWED");
            }
            CHECK(t.observed(a, env_a) == t.observed(b, env_b));
        }
    };
    SECTION("approve, open, sign, sign: completed") {
        run({}, {{"ap@example.com", "open", {}, true},
                 {"ada@example.com", "sign", {}, false},  // approving first
                 {"ap@example.com", "approve", {}, true},
                 {"vi@example.com", "open", {}, true},
                 {"vi@example.com", "sign", {}, false},
                 {"ada@example.com", "open", {}, true},
                 {"ada@example.com", "open", {}, true},
                 {"ada@example.com", "sign", {}, true},
                 {"ada@example.com", "decline", {}, false},
                 {"bob@example.com", "sign", {}, true},
                 {"bob@example.com", "open", {}, false}});
    }
    SECTION("in signature order, a decline with a reason") {
        run(json::object{{"signatureOrder", true}}, {{"ap@example.com", "approve", {}, true},
                                                     {"bob@example.com", "sign", {}, false},
                                                     {"ada@example.com", "sign", {}, true},
                                                     {"bob@example.com", "decline", std::string("Too dear"), true},
                                                     {"ada@example.com", "open", {}, false}});
    }
}

TEST_CASE("embeds: two signers in order, the second is told whose turn it is", "[backend][embeds]") {
    api t;
    const std::string env = t.envelope(t.main, {{"ada@example.com"}, {"bob@example.com", "signer", "Bob", "Byron"}},
                                       json::object{{"signatureOrder", true}});
    const std::string ada = t.session(t.iframe_token(t.main, env, "ada@example.com"));
    const std::string bob = t.session(t.iframe_token(t.main, env, "bob@example.com"));

    auto page = t.page(bob);
    require_ok(page);
    CHECK(page.obj().at("recipient").at("yourTurn") == false);
    CHECK(page.obj().at("actions") == json::parse(R"({"sign":false,"approve":false,"decline":false})"));
    CHECK(page.obj().at("notAllowedReason") == str("It is not your turn: Ada Lovelace signs first."));
    CHECK(strings_at(page.obj().at("waitingFor"), "email") == std::vector<std::string>{"ada@example.com"});
    const std::string before = t.snapshot(t.main);
    auto early = t.act(bob, "sign", {{"signatureName", "Bob Byron"}});
    require_error(early, 400, "ACTION_NOT_ALLOWED");
    CHECK(message_of(early) == "It is not your turn: Ada Lovelace signs first.");
    require_error(t.act(bob, "decline"), 400, "ACTION_NOT_ALLOWED");
    CHECK(t.snapshot(t.main) == before);
    require_ok(t.act(bob, "open"));  // viewing is always allowed while in progress

    auto first = t.act(ada, "sign", {{"signatureName", "Ada Lovelace"}});
    require_ok(first);
    CHECK(first.obj().at("completed") == false);
    page = t.page(bob);
    CHECK(page.obj().at("recipient").at("yourTurn") == true);
    CHECK(page.obj().at("actions").at("sign") == true);
    CHECK(!page.obj().contains("notAllowedReason"));
    auto mine = t.page(ada);
    CHECK(mine.obj().at("notAllowedReason") == str("You have already signed."));
    auto second = t.act(bob, "sign", {{"signatureName", "Bob Byron"}});
    require_ok(second);
    CHECK(second.obj().at("completed") == true);
}

TEST_CASE("embeds: an approver approves, a viewer only views, a decline with a reason", "[backend][embeds]") {
    api t;
    const std::string env = t.envelope(
        t.main, {{"ada@example.com"}, {"ap@example.com", "approver", "Alan", "Turing"}, {"vi@example.com", "viewer"}});
    const std::string approver = t.session(t.link_token(t.main, env, "ap@example.com"));
    const std::string viewer = t.session(t.link_token(t.main, env, "vi@example.com"));

    auto v = t.page(viewer);
    require_ok(v);
    CHECK(v.obj().at("recipient").at("role") == str("viewer"));
    CHECK(v.obj().at("actions") == json::parse(R"({"sign":false,"approve":false,"decline":false})"));
    CHECK(v.obj().at("notAllowedReason") == str("A viewer can only view the envelope."));
    for (const char* action : {"sign", "approve", "decline"}) {
        auto refused = t.act(viewer, action, {{"signatureName", "V"}});
        require_error(refused, 400, "ACTION_NOT_ALLOWED");
        CHECK(message_of(refused) == "A viewer can only view the envelope.");
    }
    require_ok(t.act(viewer, "open"));

    auto ap = t.page(approver);
    CHECK(ap.obj().at("actions") == json::parse(R"({"sign":false,"approve":true,"decline":true})"));
    require_error(t.act(approver, "sign", {{"signatureName", "A"}}), 400, "ACTION_NOT_ALLOWED");
    auto approved = t.act(approver, "approve");
    require_ok(approved);
    CHECK(approved.obj().at("recipientStatus") == str("approved"));
    CHECK(approved.obj().at("envelopeStatus") == str("signing"));

    // The signer's e-mail came when approving was over; its link declines with a reason.
    const std::string signer = t.session(t.link_token(t.main, env, "ada@example.com"));
    auto declined = t.act(signer, "decline", {{"reason", "Wrong rent"}});
    require_ok(declined);
    CHECK(declined.obj().at("envelopeStatus") == str("declined"));
    CHECK(declined.obj().at("completed") == false);
    const auto logs = t.logs(env);
    REQUIRE(!logs.empty());
    CHECK(logs.back().at("eventType") == str("ENVELOPE_DECLINED"));
    CHECK(logs.back().at("eventData").at("reason") == str("Wrong rent"));
    CHECK(t.page(viewer).obj().at("notAllowedReason") == str("The envelope was declined."));
}

TEST_CASE("embeds: a session acts for its one recipient, envelope and team only", "[backend][embeds]") {
    api t;
    const team a = t.make_team(json::object{{"seed", 5}});
    const team b = t.make_team(json::object{{"seed", 5}});  // the same uuids as a
    const std::vector<person> people{{"ada@example.com"}, {"bob@example.com", "signer", "Bob", "Byron"}};
    const std::string env_a = t.envelope(a, people);
    const std::string env_b = t.envelope(b, people);
    REQUIRE(env_a == env_b);
    const std::string other_env = t.envelope(a, people);
    const std::string token_a = t.iframe_token(a, env_a, "ada@example.com");
    const std::string token_b = t.iframe_token(b, env_b, "ada@example.com");
    CHECK(token_a != token_b);
    CHECK(token_a.substr(4, 11) != token_b.substr(4, 11));  // each team's key
    const std::string session_a = t.session(token_a);

    // Members naming another recipient or envelope are not the session's to choose: ignored
    // (unknown members), the session's recipient acts.
    auto signed_ =
        t.act(session_a, "sign", {{"signatureName", "Ada"}, {"email", "bob@example.com"}, {"envelopeUuid", other_env}});
    require_ok(signed_);
    CHECK(signed_.obj().at("envelopeUuid") == str(env_a));
    const auto got = t.call_as(a, "/public/envelope/get", json::object{{"envelopeUuid", env_a}});
    CHECK(recipient_of(got.obj(), "ada@example.com").at("status") == str("signed"));
    CHECK(recipient_of(got.obj(), "bob@example.com").at("status") == str("pending"));
    const auto other = t.call_as(a, "/public/envelope/get", json::object{{"envelopeUuid", other_env}});
    CHECK(recipient_of(other.obj(), "ada@example.com").at("status") == str("pending"));

    // Team A's session or token with team B's key (the same envelope uuid there) is unknown.
    const std::string forged_session = session_a.substr(0, 4) + token_b.substr(4, 11) + session_a.substr(15);
    const std::string before_b = t.snapshot(b);
    require_error(t.page(forged_session), 401, "SIGNING_SESSION_INVALID");
    require_error(t.act(forged_session, "decline"), 401, "SIGNING_SESSION_INVALID");
    const std::string forged_token = token_a.substr(0, 4) + token_b.substr(4, 11) + token_a.substr(15);
    require_error(t.start(forged_token), 404, "SIGNING_TOKEN_UNKNOWN");
    CHECK(t.snapshot(b) == before_b);
    const auto in_b = t.call_as(b, "/public/envelope/get", json::object{{"envelopeUuid", env_b}});
    CHECK(recipient_of(in_b.obj(), "ada@example.com").at("status") == str("pending"));
    // And B's own token is B's.
    const std::string session_b = t.session(token_b);
    CHECK(t.page(session_b).obj().at("recipient").at("status") == str("pending"));
}

TEST_CASE("embeds: tokens and sessions are never in the journal in clear", "[backend][embeds]") {
    api t;
    const std::string env = t.envelope(t.main, {{"ada@example.com"}});
    const std::string token = t.iframe_token(t.main, env, "ada@example.com");
    const std::string session = t.session(token);
    const std::string link = t.link_token(t.main, env, "ada@example.com");
    require_ok(t.page(session));
    require_ok(t.act(session, "open"));
    require_error(t.start(token), 409, "SIGNING_TOKEN_USED");
    require_ok(t.start(link));

    auto journal = t.call("/_control/journal/list", json::object{});
    require_ok(journal);
    const std::string text = json::serialize(journal.body);
    for (const std::string& secret : {token, session, link}) {
        CHECK(text.find(secret) == std::string::npos);
        CHECK(text.find(secret.substr(4)) == std::string::npos);
        CHECK(text.find(esign::reference::redacted_secret(secret)) != std::string::npos);
    }
    std::vector<std::string> paths = strings_at(journal.obj().at("entries"), "path");
    CHECK(std::count(paths.begin(), paths.end(), "/embeds/session/start") == 3);
    CHECK(std::count(paths.begin(), paths.end(), "/embeds/envelope/get") == 1);
    CHECK(std::count(paths.begin(), paths.end(), "/embeds/recipient/act") == 1);
    const auto& entries = journal.obj().at("entries").as_array();
    const auto& issued = entries[paths.size() - 6];
    CHECK(issued.at("path") == str("/public/authentication/create-iframe-token"));
    CHECK(issued.at("response").at("iframeToken") == str(esign::reference::redacted_secret(token)));
    CHECK(esign::reference::redacted_secret(token).starts_with("sit.\xE2\x80\xA6"));
}

TEST_CASE("embeds: invitations and reminders carry the recipient's signingUrl, one link reused", "[backend][embeds]") {
    api t;
    const std::string env = t.envelope(t.main, {{"ada@example.com"}, {"vi@example.com", "viewer"}},
                                       json::object{{"reminderFrequencyPeriod", 1}});
    t.advance(t.main, day + 1);
    std::map<std::string, std::vector<std::string>> links;  // to -> the URL of each e-mail
    std::vector<std::string> kinds;
    for (const auto& m : t.outbox(t.main)) {
        REQUIRE(m.as_object().contains("signingUrl"));
        links[std::string(m.at("to").as_string())].emplace_back(m.at("signingUrl").as_string());
        kinds.emplace_back(m.at("kind").as_string());
    }
    CHECK(std::count(kinds.begin(), kinds.end(), "reminder") >= 1);
    REQUIRE(links["ada@example.com"].size() >= 2);
    for (const auto& url : links["ada@example.com"]) CHECK(url == links["ada@example.com"].front());
    CHECK(links["ada@example.com"].front() != links["vi@example.com"].front());
    // In process the base is empty: the URL is the page's path (the server writes its address).
    CHECK(links["ada@example.com"].front().starts_with("/embeds/sign#t=slt."));
    // Usable, more than once, for that recipient.
    const std::string token = links["ada@example.com"].front().substr(15);
    const std::string s1 = t.session(token);
    const std::string s2 = t.session(token);
    CHECK(s1 != s2);
    CHECK(t.page(s1).obj().at("recipient").at("email") == str("ada@example.com"));
}

TEST_CASE("embeds: team reset, server reset and restore make tokens and sessions unknown", "[backend][embeds]") {
    api t;
    const std::string env = t.envelope(t.main, {{"ada@example.com"}});
    const std::string token = t.iframe_token(t.main, env, "ada@example.com");
    const std::string link = t.link_token(t.main, env, "ada@example.com");
    const std::string session = t.session(link);

    SECTION("a snapshot holds no secret; a restore drops the team's and gives its e-mails new links") {
        auto r = t.b.handle("/_control/team/snapshot", t.main.key, "{}");
        REQUIRE(r.status == 200);
        CHECK(r.body.find(token) == std::string::npos);
        CHECK(r.body.find(link) == std::string::npos);
        CHECK(r.body.find(session) == std::string::npos);
        auto snap = json::parse(r.body);
        CHECK(snap.at("team").at("state").at("iframe_tokens").as_object().empty());
        require_ok(request(t.b, "/_control/team/restore", t.main.key, json::object{{"team", snap.at("team")}}));
        require_error(t.start(token), 404, "SIGNING_TOKEN_UNKNOWN");
        require_error(t.start(link), 404, "SIGNING_TOKEN_UNKNOWN");
        require_error(t.page(session), 401, "SIGNING_SESSION_INVALID");
        const std::string renewed = t.link_token(t.main, env, "ada@example.com");
        CHECK(renewed != link);
        require_ok(t.start(renewed));
    }
    SECTION("a team reset") {
        require_ok(t.call("/_control/team/reset", json::object{}));
        require_error(t.start(token), 404, "SIGNING_TOKEN_UNKNOWN");
        require_error(t.start(link), 404, "SIGNING_TOKEN_UNKNOWN");
        require_error(t.page(session), 401, "SIGNING_SESSION_INVALID");
    }
    SECTION("a server-wide reset") {
        require_ok(t.control("/_control/reset"));
        require_error(t.start(token), 404, "SIGNING_TOKEN_UNKNOWN");
        require_error(t.start(link), 404, "SIGNING_TOKEN_UNKNOWN");
        require_error(t.page(session), 401, "SIGNING_SESSION_INVALID");
    }
}

TEST_CASE("embeds: a team's signer secrets are bounded, expired iframe tokens go", "[backend][embeds]") {
    using namespace esign::reference;
    hand_built h;
    h.st.signer.team_key = new_signer_team_key();
    CHECK(h.st.signer.team_key.size() == signer_team_key_chars);
    CHECK(new_signer_team_key() != h.st.signer.team_key);

    // Expired a lifetime ago: dropped at the next issue (before, "expired").
    const std::string first = issue_iframe_token(h.st, start_ms, "e", "a@example.com");
    CHECK(signer_team_key(first, esign::iframe_token_prefix) == std::optional<std::string_view>(h.st.signer.team_key));
    issue_iframe_token(h.st, start_ms + 2 * iframe_token_lifetime_ms - 1, "e", "a@example.com");
    CHECK(h.st.iframe_tokens.count(first) == 1);
    issue_iframe_token(h.st, start_ms + 2 * iframe_token_lifetime_ms, "e", "a@example.com");
    CHECK(h.st.iframe_tokens.count(first) == 0);
    CHECK(h.st.iframe_tokens.size() == 2);

    // At most max_iframe_tokens_per_team at once: the oldest go.
    for (std::size_t i = 0; i < max_iframe_tokens_per_team + 5; ++i)
        issue_iframe_token(h.st, start_ms + 2 * iframe_token_lifetime_ms, "e", "a@example.com");
    CHECK(h.st.iframe_tokens.size() == max_iframe_tokens_per_team);
    CHECK(h.st.signer.iframe_expiries.size() == max_iframe_tokens_per_team);

    for (std::size_t i = 0; i < max_signer_sessions_per_team + 3; ++i)
        start_signer_session(h.st, signer_grant{"e", "a@example.com"});
    CHECK(h.st.signer.sessions.size() == max_signer_sessions_per_team);

    // One link per envelope and recipient, reused.
    const std::string link = link_token_for(h.st, "e", "a@example.com");
    CHECK(link_token_for(h.st, "e", "a@example.com") == link);
    CHECK(link_token_for(h.st, "e", "b@example.com") != link);
    CHECK(h.st.signer.links.size() == 2);
}

TEST_CASE("signing links: one per recipient, found by token and by recipient, in copies and moves too",
          "[embeds][signer]") {
    using esign::reference::signer_grant;
    using esign::reference::signing_links;
    signing_links links;
    CHECK(links.empty());
    CHECK(links.find("slt.a") == nullptr);
    CHECK(links.token_of("e1", "a@example.com") == nullptr);
    CHECK(links.add("slt.a", signer_grant{"e1", "a@example.com"}) == "slt.a");
    links.add("slt.b", signer_grant{"e1", "b@example.com"});
    links.add("slt.c", signer_grant{"e2", "a@example.com"});
    auto check_all = [](const signing_links& l) {
        REQUIRE(l.size() == 3);
        REQUIRE(l.find("slt.b") != nullptr);
        CHECK(l.find("slt.b")->envelope_uuid == "e1");
        CHECK(l.find("slt.b")->email == "b@example.com");
        REQUIRE(l.token_of("e2", "a@example.com") != nullptr);
        CHECK(*l.token_of("e2", "a@example.com") == "slt.c");
        CHECK(l.token_of("e2", "b@example.com") == nullptr);  // a pair, not each half
        CHECK(l.token_of("e1a@example.com", "") == nullptr);
        CHECK(l.in_order().front().token == "slt.a");
        CHECK(l.in_order().back().token == "slt.c");
    };
    check_all(links);

    // A copy views its own links: the original gone, it still finds them (ASan would see a
    // view into freed memory).
    auto copy = std::make_unique<signing_links>(links);
    signing_links assigned;
    assigned.add("slt.x", signer_grant{"e9", "x@example.com"});
    assigned = *copy;
    copy.reset();
    check_all(assigned);
    CHECK(assigned.find("slt.x") == nullptr);
    signing_links moved(std::move(assigned));
    check_all(moved);
    signing_links move_assigned;
    move_assigned = std::move(moved);
    check_all(move_assigned);

    // The oldest goes from both indexes.
    links.drop_oldest();
    CHECK(links.size() == 2);
    CHECK(links.find("slt.a") == nullptr);
    CHECK(links.token_of("e1", "a@example.com") == nullptr);
    CHECK(links.find("slt.b") != nullptr);
    CHECK(move_assigned.find("slt.a") != nullptr);  // copies are apart
}

}  // namespace test_backend_embeds
