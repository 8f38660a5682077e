// SPDX-License-Identifier: BSL-1.0
// The webhook receiver helper (include/esign/client/webhook_receiver.hpp): deliveries signed by
// the server's own signing code (esign/rules/webhook_signature.hpp, which webhook_sender.hpp
// calls) verify and decode; a changed body, a wrong secret, a time outside the tolerance (either
// side), a malformed header and a body that is no event are each refused with their reason; and
// real deliveries of the reference server to a receiver (hook_receiver.hpp) verify.
// Here rather than in tests/ (esign_tests): the helper needs libcrypto, which this program links.
#include "test_support.hpp"

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json.hpp>

#include <esign/client/webhook_receiver.hpp>
#include <esign/rules/webhook_signature.hpp>

#include "../../examples/reference_server/webhook_url.hpp"  // form_urlencode: the server's form body
#include "hook_receiver.hpp"

namespace test_webhook_receiver {

using namespace esign::test;
using namespace std::chrono_literals;
using esign::client::verify_webhook;
using esign::client::webhook_receiver;
using esign::client::webhook_refusal;
using esign::rules::webhook_signature;
namespace json = boost::json;

namespace {

constexpr std::int64_t signed_at = 1'700'000'000'123;
const std::string secret = "whsec-test";
const std::string body =
    R"({"eventUuid":"6f1c2b1e-9d3a-4f7e-8b2a-1c2d3e4f5a6b","eventType":"ENVELOPE_SENT","eventTime":1700000000100,)"
    R"("webhookUuid":"0b7e1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d","teamUuid":"1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",)"
    R"("data":{"workspaceUuid":"2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e","envelopeUuid":"3c4d5e6f-7a8b-4c9d-8e1f-2a3b4c5d6e7f",)"
    R"("recipientEmail":"ada@example.com"}})";

std::chrono::system_clock::time_point at_ms(std::int64_t ms) {
    return std::chrono::system_clock::time_point(std::chrono::milliseconds(ms));
}

std::int64_t unix_ms_now() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

webhook_refusal refusal(const esign::client::webhook_verification& v) {
    REQUIRE_FALSE(v.has_value());
    INFO(v.error().message);
    return v.error().reason;
}

}  // namespace

TEST_CASE("webhook-receiver: a delivery signed as the server signs it verifies and decodes", "[webhook-receiver]") {
    const std::string header = webhook_signature(secret, signed_at, body);
    const webhook_receiver receiver(secret);
    const auto event = receiver.verify(body, header, at_ms(signed_at + 1000));
    INFO((event ? std::string() : event.error().message));
    REQUIRE(event);
    CHECK(event->eventType == esign::webhook_event::ENVELOPE_SENT);
    CHECK(event->eventUuid == "6f1c2b1e-9d3a-4f7e-8b2a-1c2d3e4f5a6b");
    CHECK(event->eventTime == 1700000000100);
    CHECK(event->data.envelopeUuid == "3c4d5e6f-7a8b-4c9d-8e1f-2a3b4c5d6e7f");
    CHECK(event->data.workspaceUuid == "2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e");

    SECTION("the form-encoded body of an application/x-www-form-urlencoded webhook") {
        const std::string form = "payload=" + esign::server::form_urlencode(body);
        const auto e = verify_webhook(form, webhook_signature(secret, signed_at, form), secret, at_ms(signed_at));
        REQUIRE(e);
        CHECK(e->teamUuid == "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d");
        // The signature is over the raw form body, not the JSON in it.
        CHECK(refusal(verify_webhook(form, header, secret, at_ms(signed_at))) == webhook_refusal::bad_signature);
    }
    SECTION("several v1 (a secret being rotated): one matching is enough") {
        const std::string other = esign::rules::webhook_signature_v1("old-secret", signed_at, body);
        const std::string rotated =
            "t=" + std::to_string(signed_at) + ",v1=" + other + ", v1=" + header.substr(header.find("v1=") + 3);
        CHECK(verify_webhook(body, rotated, secret, at_ms(signed_at)).has_value());
    }
    SECTION("the edges of the tolerance are inside it") {
        CHECK(receiver.verify(body, header, at_ms(signed_at + 300'000)).has_value());
        CHECK(receiver.verify(body, header, at_ms(signed_at - 300'000)).has_value());
    }
}

TEST_CASE("webhook-receiver: refusals, each with its reason", "[webhook-receiver]") {
    const std::string header = webhook_signature(secret, signed_at, body);
    const auto now = at_ms(signed_at);

    SECTION("a changed body byte") {
        for (std::size_t i : {std::size_t{0}, body.size() / 2, body.size() - 1}) {
            std::string changed = body;
            changed[i] = static_cast<char>(changed[i] ^ 1);
            CHECK(refusal(verify_webhook(changed, header, secret, now)) == webhook_refusal::bad_signature);
        }
        CHECK(refusal(verify_webhook(body + " ", header, secret, now)) == webhook_refusal::bad_signature);
    }
    SECTION("a wrong secret") {
        CHECK(refusal(verify_webhook(body, header, "whsec-other", now)) == webhook_refusal::bad_signature);
        CHECK(refusal(verify_webhook(body, header, "", now)) == webhook_refusal::bad_signature);
    }
    SECTION("a changed time (the signature covers t)") {
        const std::string moved = "t=" + std::to_string(signed_at + 1) + header.substr(header.find(','));
        CHECK(refusal(verify_webhook(body, moved, secret, now)) == webhook_refusal::bad_signature);
    }
    SECTION("a time outside the tolerance, on either side") {
        CHECK(refusal(verify_webhook(body, header, secret, at_ms(signed_at + 300'001))) ==
              webhook_refusal::outside_tolerance);
        CHECK(refusal(verify_webhook(body, header, secret, at_ms(signed_at - 300'001))) ==
              webhook_refusal::outside_tolerance);
        const webhook_receiver strict(secret, 1s);
        CHECK(refusal(strict.verify(body, header, at_ms(signed_at + 1001))) == webhook_refusal::outside_tolerance);
        CHECK(strict.verify(body, header, at_ms(signed_at + 1000)).has_value());
    }
    SECTION("a malformed header") {
        const std::string v1 = header.substr(header.find("v1="));
        const std::string t = "t=" + std::to_string(signed_at);
        for (const std::string& bad :
             {std::string(), v1, t, t + ",", t + "," + t + "," + v1, "t=," + v1, "t=12a," + v1, "t=-5," + v1,
              t + ",v1=" + std::string(63, 'a'), t + ",v1=" + std::string(64, 'g'),
              "t:" + std::to_string(signed_at) + "," + v1, t + ";" + v1}) {
            INFO(bad);
            CHECK(refusal(verify_webhook(body, bad, secret, now)) == webhook_refusal::malformed_header);
        }
    }
    SECTION("a signed body that is no event: its problems, with their paths") {
        const std::string not_event = R"({"eventUuid":7,"eventType":"ENVELOPE_LOST","data":{"workspaceUuid":"w"}})";
        const auto v = verify_webhook(not_event, webhook_signature(secret, signed_at, not_event), secret, now);
        REQUIRE(refusal(v) == webhook_refusal::invalid_event);
        const auto& problems = v.error().problems;
        auto has = [&](esign::problem_path path, esign::problem_kind kind) {
            for (const auto& p : problems)
                if (p.path == path && p.kind == kind) return true;
            return false;
        };
        CHECK(has({"eventUuid"}, esign::problem_kind::type));
        CHECK(has({"eventType"}, esign::problem_kind::enum_value));
        CHECK(has({"eventTime"}, esign::problem_kind::missing));
        CHECK(has({"data", "envelopeUuid"}, esign::problem_kind::missing));
        const std::string garbage = "not json";
        CHECK(refusal(verify_webhook(garbage, webhook_signature(secret, signed_at, garbage), secret, now)) ==
              webhook_refusal::invalid_event);
    }
}

// The example of README.md, "Receiving webhooks in C++" (a handler's answer: status and text).
struct answer {
    unsigned status;
    std::string text;
};
answer on_webhook(const std::string& webhook_secret, std::string_view body, std::string_view signature_header,
                  std::vector<std::string>& archived) {
    // README snippet: webhook_receiver
    const esign::client::webhook_receiver receiver(webhook_secret);  // the webhook's secret; tolerance 5 minutes
    auto event = receiver.verify(body, signature_header, std::chrono::system_clock::now());
    if (!event) {
        // event.error().reason: malformed_header, bad_signature, outside_tolerance or invalid_event
        // (then event.error().problems, each with its path)
        return {400, event.error().message};
    }
    if (event->eventType == esign::webhook_event::ENVELOPE_COMPLETED) archived.push_back(event->data.envelopeUuid);
    return {204, ""};
    // README snippet end
}

TEST_CASE("webhook-receiver: a refusal's name is its enumerator's", "[webhook-receiver]") {
    using esign::client::to_string;
    STATIC_REQUIRE(to_string(webhook_refusal::malformed_header) == "malformed_header");
    CHECK(to_string(webhook_refusal::bad_signature) == "bad_signature");
    CHECK(to_string(webhook_refusal::outside_tolerance) == "outside_tolerance");
    CHECK(to_string(webhook_refusal::invalid_event) == "invalid_event");
    CHECK(to_string(static_cast<webhook_refusal>(99)).empty());
}

TEST_CASE("webhook-receiver: the README's handler", "[webhook-receiver]") {
    std::string completed = body;
    completed.replace(completed.find("ENVELOPE_SENT"), 13, "ENVELOPE_COMPLETED");
    const std::int64_t now = unix_ms_now();
    std::vector<std::string> archived;
    CHECK(on_webhook(secret, completed, webhook_signature(secret, now, completed), archived).status == 204);
    CHECK(archived == std::vector<std::string>{"3c4d5e6f-7a8b-4c9d-8e1f-2a3b4c5d6e7f"});
    const auto refused = on_webhook(secret, completed, webhook_signature("other", now, completed), archived);
    CHECK(refused.status == 400);
    CHECK(refused.text == "the signature does not match the body and the secret");
    CHECK(archived.size() == 1);
}

TEST_CASE("webhook-receiver: real deliveries of the reference server verify", "[http][webhook-receiver][webhooks]") {
    hook_receiver rx;
    test_server srv;
    const auto t = srv.new_team();
    api_caller team{srv, t.api_key};
    auto create_webhook = [&](const std::string& content_type) {
        return std::string(team.ok("/public/webhook/create", json::object{{"url", rx.url("/hook")},
                                                                          {"contentType", content_type},
                                                                          {"sslVerify", false},
                                                                          {"active", true},
                                                                          {"secret", secret},
                                                                          {"events", json::array{"ENVELOPE_CREATED"}}})
                               .at("webhook")
                               .at("uuid")
                               .as_string());
    };
    const std::string json_hook = create_webhook("application/json");
    const std::string form_hook = create_webhook("application/x-www-form-urlencoded");
    const auto create_envelope = [&] {
        return std::string(
            team.ok("/_control/envelope/create",
                    json::object{{"title", "Contract"}, {"documents", json::array{{{"title", "d"}, {"pageCount", 1}}}}})
                .at("envelopeUuid")
                .as_string());
    };
    const std::string envelope = create_envelope();
    REQUIRE(rx.wait_for(2, 20s));
    const webhook_receiver receiver(secret);
    for (const auto& r : rx.requests()) {
        const std::string signature = r.header("X-Webhook-Signature").value_or("");
        INFO(r.body << "\nX-Webhook-Signature: " << signature);
        const auto event = receiver.verify(r.body, signature, std::chrono::system_clock::now());
        INFO((event ? std::string() : event.error().message));
        REQUIRE(event);
        CHECK(event->eventType == esign::webhook_event::ENVELOPE_CREATED);
        CHECK(event->data.envelopeUuid == envelope);
        CHECK(event->data.workspaceUuid == t.default_workspace_uuid);
        CHECK(event->teamUuid == t.team_uuid);
        CHECK((event->webhookUuid == json_hook || event->webhookUuid == form_hook));
        CHECK(std::abs(event->eventTime - unix_ms_now()) < 60'000);
        // The same delivery with another secret, or changed, is refused.
        CHECK(refusal(verify_webhook(r.body, signature, "whsec-other", std::chrono::system_clock::now())) ==
              webhook_refusal::bad_signature);
        CHECK(refusal(receiver.verify(r.body + "x", signature, std::chrono::system_clock::now())) ==
              webhook_refusal::bad_signature);
    }

    // The team's clock 10 minutes ahead: its deliveries are signed then, outside the tolerance.
    team.ok("/_control/clock/advance", json::object{{"milliseconds", 600'000}});
    create_envelope();
    REQUIRE(rx.wait_for(4, 20s));
    const auto later = rx.requests().back();
    CHECK(refusal(receiver.verify(later.body, later.header("X-Webhook-Signature").value_or(""),
                                  std::chrono::system_clock::now())) == webhook_refusal::outside_tolerance);
}

}  // namespace test_webhook_receiver
