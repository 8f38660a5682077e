// SPDX-License-Identifier: BSL-1.0
// The life of an envelope in the reference backend, driven like a client: send (with its
// checks, credits, quota, sandbox and distribution), recipients acting in turn, completion,
// decline, cancel, and time: expiry and reminders through /_control/clock/advance.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json.hpp>

#include "backend_support.hpp"

namespace test_backend_lifecycle {

namespace {

namespace json = boost::json;
using namespace backend_support;

constexpr std::int64_t t0 = start_ms;
constexpr std::int64_t day = 86'400'000;
const std::string ghost = "00000000-0000-4000-8000-000000000000";
const std::string nil = "00000000-0000-0000-0000-000000000000";

struct sent_email {
    std::string to;
    std::string kind;
    std::string envelope;
    std::int64_t timestamp;
    friend bool operator==(const sent_email&, const sent_email&) = default;
};

std::ostream& operator<<(std::ostream& os, const sent_email& e) {
    return os << "{" << e.to << " " << e.kind << " " << e.envelope.substr(0, 8) << " " << e.timestamp << "}";
}

// One backend and one team; helpers that call it as a client would.
struct api : client {
    explicit api(json::object team = {}, backend_options options = fixed_clock(11))
        : client(std::move(options), team) {}

    void team_update(json::object fields) {
        fields["teamUuid"] = main.uuid;
        require_ok(control("/_control/team/update", fields));
    }

    // A draft with `signers` added in order, then the given update (e.g. signatureOrder).
    std::string envelope(std::initializer_list<std::string> signers, json::object update = {}) {
        auto a = raw("/_control/envelope/create", main.key,
                     json::object{{"title", "Contract"},
                                  {"documents", json::array{json::object{{"title", "Main"}, {"pageCount", 1}}}}});
        require_ok(a);
        std::string env(a.obj().at("envelopeUuid").as_string());
        if (signers.size() != 0) {
            json::array items;
            for (const auto& s : signers) items.push_back(recipient(s));
            require_ok(
                call("/public/envelope/add-recipients", json::object{{"envelopeUuid", env}, {"recipients", items}}));
        }
        if (!update.empty())
            require_ok(call("/public/envelope/update", json::object{{"envelopeUuid", env}, {"update", update}}));
        return env;
    }

    void recipient_update(const std::string& env, const std::string& email, json::object updates,
                          std::string role = "signer") {
        require_ok(call("/public/envelope/update-recipient",
                        json::object{{"envelopeUuid", env}, {"email", email}, {"role", role}, {"updates", updates}}));
    }

    answer send(const std::string& env, std::optional<std::string> method = std::nullopt) {
        json::object body{{"envelopeUuid", env}};
        if (method) body["distributionMethod"] = *method;
        return call("/public/envelope/send", body);
    }

    answer act(const std::string& env, const std::string& email, std::string action) {
        return control("/_control/recipient/act",
                       json::object{{"envelopeUuid", env}, {"email", email}, {"action", action}});
    }
    void acted(const std::string& env, const std::string& email, std::string action, std::string envelope_status) {
        auto a = act(env, email, std::move(action));
        require_ok(a);
        CHECK(a.obj().at("envelopeStatus").as_string() == envelope_status);
    }

    std::vector<sent_email> outbox() {
        auto a = control("/_control/outbox/list");
        require_ok(a);
        std::vector<sent_email> out;
        for (const auto& e : a.obj().at("emails").as_array())
            out.push_back(sent_email{std::string(e.at("to").as_string()), std::string(e.at("kind").as_string()),
                                     std::string(e.at("envelopeUuid").as_string()), e.at("timestamp").as_int64()});
        return out;
    }

    std::string webhook() {
        auto a =
            call("/public/webhook/create", webhook_body({{"url", "http://127.0.0.1:9/hook"}, {"sslVerify", false}}));
        require_ok(a);
        return std::string(a.obj().at("webhook").at("uuid").as_string());
    }
    std::vector<std::string> delivered_events(const std::string& hook) {
        auto a = control("/_control/webhook/deliveries", json::object{{"webhookUuid", hook}});
        require_ok(a);
        return strings_at(a.obj().at("deliveries"), "eventType");
    }

    void sandbox(bool on) {
        require_ok(call("/public/workspace/update", json::object{{"workspaceUuid", main.default_ws}, {"sandbox", on}}));
    }
};

std::vector<std::string> recipients_emailed(const std::vector<sent_email>& outbox) {
    std::vector<std::string> to;
    for (const auto& e : outbox) to.push_back(e.to);
    return to;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Send

TEST_CASE("send: signing, invitations, e-mails, log and webhook event", "[backend][lifecycle]") {
    api t;
    const std::string hook = t.webhook();
    const std::string env = t.envelope({"a@example.com", "b@example.com"});
    const std::int64_t sent = t.advance(100);
    auto r = t.send(env);
    require_ok(r);
    CHECK(r.body == json::object{});

    auto e = t.get(env);
    CHECK(e.at("status") == "signing");
    CHECK(e.at("sentDate") == sent);
    CHECK(e.at("updateDate") == sent);
    for (const auto* email : {"a@example.com", "b@example.com"})
        CHECK(recipient_of(e, email).at("invitation") == json::value{{"valid", true},
                                                                     {"expirationDate", sent + 30 * day},
                                                                     {"creationDate", sent},
                                                                     {"lastNotificationDate", sent},
                                                                     {"medium", "email"},
                                                                     {"verificationType", "none"}});
    CHECK(t.outbox() == std::vector<sent_email>{{"a@example.com", "invitation", env, sent},
                                                {"b@example.com", "invitation", env, sent}});
    auto logs = t.logs(env);
    REQUIRE(logs.size() == 2);
    CHECK(logs.at(1).at("eventType") == "ENVELOPE_SENT");
    CHECK(logs.at(1).at("timestamp") == sent);
    CHECK(logs.at(1).at("author") ==
          json::value{{"uuid", t.main.owner_uuid}, {"email", t.main.owner_email}, {"name", t.main.owner_email}});
    CHECK(t.delivered_events(hook) == std::vector<std::string>{"ENVELOPE_CREATED", "ENVELOPE_SENT"});
}

TEST_CASE("send uses one credit per envelope", "[backend][lifecycle]") {
    api t({{"apiCredits", 1}});
    require_ok(t.send(t.envelope({"a@example.com"})));
    const std::string second = t.envelope({"a@example.com"});
    require_error(t.send(second), 400, "API_CREDITS_LIMIT_EXCEEDED");
    CHECK(t.get(second).at("status") == "draft");
    t.team_update({{"apiCredits", 1}});
    require_ok(t.send(second));
}

TEST_CASE("send errors, in the contract's order, change nothing", "[backend][lifecycle]") {
    api t;
    const std::string empty = t.envelope({});
    require_error(t.send(empty), 400, "NO_RECIPIENTS");
    const std::string env = t.envelope({"a@example.com", "b@example.com"});
    t.recipient_update(env, "a@example.com", {{"role", "viewer"}});
    t.recipient_update(env, "b@example.com", {{"role", "approver"}});
    require_error(t.send(env), 400, "NO_SIGNERS");
    t.recipient_update(env, "b@example.com", {{"role", "signer"}}, "approver");

    t.team_update({{"subscription", false}, {"apiCredits", 0}, {"emailQuota", 0}});
    require_error(t.send(env), 400, "SUBSCRIPTION_NOT_FOUND");
    t.team_update({{"subscription", true}});
    require_error(t.send(env), 400, "API_CREDITS_LIMIT_EXCEEDED");
    t.team_update({{"apiCredits", 1}, {"emailQuota", 1}});
    require_error(t.send(env), 400, "SES_LIMIT_EXCEEDED");  // one invitation per recipient: 2 > 1

    auto e = t.get(env);
    CHECK(e.at("status") == "draft");
    CHECK(e.at("sentDate").is_null());
    CHECK(!recipient_of(e, "a@example.com").contains("invitation"));
    CHECK(t.outbox().empty());
    CHECK(t.log_types(env) == std::vector<std::string>{"ENVELOPE_CREATED"});

    t.team_update({{"emailQuota", 2}});
    require_ok(t.send(env));
    CHECK(t.outbox().size() == 2);  // the signer and the viewer

    // A canceled draft is no longer a draft: ENVELOPE_NOT_IN_DRAFT before NO_RECIPIENTS.
    require_ok(t.control("/_control/envelope/cancel", json::object{{"envelopeUuid", empty}}));
    require_error(t.send(empty), 400, "ENVELOPE_NOT_IN_DRAFT");
    require_error(t.send(ghost), 400, "ENVELOPE_NOT_FOUND");
    require_error(t.call("/public/envelope/send", json::object{{"workspaceUuid", ghost}, {"envelopeUuid", env}}), 400,
                  "WORKSPACE_NOT_FOUND");
}

TEST_CASE("send: INVALID_EMAIL for a recipient at the reserved TLD, after the quota", "[backend][lifecycle]") {
    // No public operation stores such a recipient, so the store is built by hand.
    using namespace esign::reference;
    hand_built store;
    recipient_record r;
    r.data.email = "a@example.invalid";
    const envelope_record& env = store.envelope({r});
    team_record& tm = store.team;

    esign::envelope_send_request send;
    send.envelopeUuid = env.uuid;
    auto code = [&] {
        auto out = handlers::handle(store.c, send);
        REQUIRE(std::holds_alternative<failure>(out));
        return std::get<failure>(out).code;
    };
    CHECK(code() == esign::error_code::INVALID_EMAIL);
    tm.email_quota = 0;
    CHECK(code() == esign::error_code::SES_LIMIT_EXCEEDED);
    CHECK(env.status == esign::envelope_status::draft);
    CHECK(tm.api_credits == 1000);
}

TEST_CASE("e-mails use the quota at send and later, never below zero", "[backend][lifecycle]") {
    api t({{"emailQuota", 3}});
    const std::string env = t.envelope({"ap@example.com", "s@example.com", "v@example.com"});
    t.recipient_update(env, "ap@example.com", {{"role", "approver"}});
    t.recipient_update(env, "v@example.com", {{"role", "viewer"}});
    require_ok(t.send(env));  // the approver and the viewer now: 1 left
    CHECK(recipients_emailed(t.outbox()) == std::vector<std::string>{"ap@example.com", "v@example.com"});
    const std::string other = t.envelope({"x@example.com", "y@example.com"});
    require_error(t.send(other), 400, "SES_LIMIT_EXCEEDED");

    t.team_update({{"emailQuota", 0}});
    t.acted(env, "ap@example.com", "approve", "signing");  // e-mailed although the quota is out
    CHECK(recipients_emailed(t.outbox()) ==
          std::vector<std::string>{"ap@example.com", "v@example.com", "s@example.com"});
    const std::string one = t.envelope({"z@example.com"});
    require_error(t.send(one), 400, "SES_LIMIT_EXCEEDED");
    require_ok(t.send(one, "none"));  // no e-mail: no quota needed
}

TEST_CASE("distributionMethod none: links only, no e-mail ever", "[backend][lifecycle]") {
    api t({{"apiCredits", 1}, {"emailQuota", 0}});
    const std::string env =
        t.envelope({"a@example.com", "b@example.com"}, {{"signatureOrder", true}, {"reminderFrequencyPeriod", 1}});
    require_ok(t.send(env, "none"));
    auto e = t.get(env);
    CHECK(recipient_of(e, "a@example.com").at("invitation").at("medium") == "none");
    CHECK(recipient_of(e, "a@example.com").at("invitation").at("lastNotificationDate").is_null());
    t.acted(env, "a@example.com", "sign", "signing");
    t.advance(3 * day);
    CHECK(t.outbox().empty());
    CHECK(recipient_of(t.get(env), "b@example.com").at("invitation").at("lastNotificationDate").is_null());
    require_error(t.send(t.envelope({"c@example.com"}), "none"), 400, "API_CREDITS_LIMIT_EXCEEDED");  // still a credit
}

TEST_CASE("sandbox send: no credits, no quota, no e-mail, even once the workspace is no sandbox",
          "[backend][lifecycle]") {
    api t({{"apiCredits", 0}, {"emailQuota", 0}, {"subscription", false}});
    t.sandbox(true);
    const std::string env =
        t.envelope({"a@example.com", "b@example.com"}, {{"signatureOrder", true}, {"reminderFrequencyPeriod", 1}});
    require_ok(t.send(env));
    auto e = t.get(env);
    CHECK(e.at("status") == "signing");
    const auto& inv = recipient_of(e, "a@example.com").at("invitation");
    CHECK(inv.at("valid") == true);
    CHECK(inv.at("medium") == "email");
    CHECK(inv.at("lastNotificationDate").is_null());
    CHECK(t.outbox().empty());

    t.sandbox(false);
    t.acted(env, "a@example.com", "sign", "signing");
    t.advance(2 * day);
    CHECK(t.outbox().empty());
    require_error(t.send(t.envelope({"c@example.com"})), 400, "SUBSCRIPTION_NOT_FOUND");
}

// ---------------------------------------------------------------------------------------------
// Recipients acting

TEST_CASE("approving, then signing, then complete", "[backend][lifecycle]") {
    api t;
    const std::string hook = t.webhook();
    const std::string env = t.envelope({"ap@example.com", "s1@example.com", "s2@example.com", "v@example.com"});
    t.recipient_update(env, "ap@example.com", {{"role", "approver"}});
    t.recipient_update(env, "v@example.com", {{"role", "viewer"}});
    require_ok(t.send(env));
    CHECK(t.get(env).at("status") == "approving");
    CHECK(recipients_emailed(t.outbox()) == std::vector<std::string>{"ap@example.com", "v@example.com"});
    CHECK(recipient_of(t.get(env), "s1@example.com").at("invitation").at("lastNotificationDate").is_null());

    require_error(t.act(env, "s1@example.com", "sign"), 400, "ACTION_NOT_ALLOWED");     // not the signers' phase
    require_error(t.act(env, "ap@example.com", "sign"), 400, "ACTION_NOT_ALLOWED");     // an approver does not sign
    require_error(t.act(env, "v@example.com", "approve"), 400, "ACTION_NOT_ALLOWED");   // nor does a viewer approve
    require_error(t.act(env, "s1@example.com", "decline"), 400, "ACTION_NOT_ALLOWED");  // decline follows the turns

    const std::int64_t approved_at = t.advance(1000);
    auto r = t.act(env, "ap@example.com", "approve");
    require_ok(r);
    CHECK(r.body == json::value{{"envelopeStatus", "signing"}, {"recipientStatus", "approved"}});
    CHECK(t.outbox().size() == 4);
    CHECK(t.outbox().at(2) == sent_email{"s1@example.com", "invitation", env, approved_at});
    CHECK(t.outbox().at(3) == sent_email{"s2@example.com", "invitation", env, approved_at});
    require_error(t.act(env, "ap@example.com", "approve"), 400, "ACTION_NOT_ALLOWED");

    t.acted(env, "s2@example.com", "sign", "signing");
    auto m = t.get(env).at("metrics");
    CHECK(m == json::value{{"signatureCount", 1},
                           {"signatureRequiredCount", 2},
                           {"approvalCount", 1},
                           {"approvalRequiredCount", 1}});
    require_error(t.act(env, "s2@example.com", "sign"), 400, "ACTION_NOT_ALLOWED");
    r = t.act(env, "s1@example.com", "sign");
    require_ok(r);
    CHECK(r.body == json::value{{"envelopeStatus", "complete"}, {"recipientStatus", "signed"}});

    auto e = t.get(env);
    CHECK(e.at("status") == "complete");
    CHECK(e.at("metrics").at("signatureCount") == 2);
    CHECK(recipient_of(e, "v@example.com").at("status") == "pending");  // viewers never block completion
    for (const auto& rec : e.at("recipients").as_array()) CHECK(!rec.as_object().contains("invitation"));
    CHECK(t.log_types(env) == std::vector<std::string>{"ENVELOPE_CREATED", "ENVELOPE_SENT", "RECIPIENT_APPROVED",
                                                       "DOCUMENT_SIGNED", "DOCUMENT_SIGNED", "ENVELOPE_COMPLETED"});
    auto completed = t.logs(env).back();
    CHECK(completed.at("author") == json::value{{"uuid", nil}, {"email", "s1@example.com"}, {"name", "Ada Lovelace"}});
    CHECK(t.delivered_events(hook) == std::vector<std::string>{"ENVELOPE_CREATED", "ENVELOPE_SENT", "ENVELOPE_SIGNED",
                                                               "ENVELOPE_SIGNED", "ENVELOPE_COMPLETED"});
    require_error(t.act(env, "v@example.com", "open"), 400, "ACTION_NOT_ALLOWED");
}

TEST_CASE("signature order: the lowest pending order acts, equal orders together", "[backend][lifecycle]") {
    api t;
    const std::string env =
        t.envelope({"a@example.com", "b@example.com", "c@example.com", "d@example.com"}, {{"signatureOrder", true}});
    t.recipient_update(env, "c@example.com", {{"order", 2}});  // b and c share order 2
    require_ok(t.send(env));
    CHECK(recipients_emailed(t.outbox()) == std::vector<std::string>{"a@example.com"});
    require_error(t.act(env, "b@example.com", "sign"), 400, "ACTION_NOT_ALLOWED");
    require_error(t.act(env, "d@example.com", "decline"), 400, "ACTION_NOT_ALLOWED");

    t.acted(env, "a@example.com", "sign", "signing");
    CHECK(recipients_emailed(t.outbox()) ==
          std::vector<std::string>{"a@example.com", "b@example.com", "c@example.com"});
    t.acted(env, "c@example.com", "sign", "signing");
    require_error(t.act(env, "d@example.com", "sign"), 400, "ACTION_NOT_ALLOWED");
    CHECK(t.outbox().size() == 3);
    t.acted(env, "b@example.com", "sign", "signing");
    CHECK(recipients_emailed(t.outbox()).back() == "d@example.com");
    t.acted(env, "d@example.com", "sign", "complete");
    CHECK(t.outbox().size() == 4);  // one invitation each, no more

    // Without signature order every signer is e-mailed at send and may sign in any order.
    const std::string free = t.envelope({"x@example.com", "y@example.com"});
    require_ok(t.send(free));
    CHECK(t.outbox().size() == 6);
    t.acted(free, "y@example.com", "sign", "signing");
    t.acted(free, "x@example.com", "sign", "complete");
}

TEST_CASE("open: allowed to any recipient while in progress, logged the first time", "[backend][lifecycle]") {
    api t;
    const std::string hook = t.webhook();
    const std::string env = t.envelope({"a@example.com", "b@example.com", "v@example.com"});
    t.recipient_update(env, "a@example.com", {{"verificationType", "email"}});
    t.recipient_update(env, "v@example.com", {{"role", "viewer"}});
    require_error(t.act(env, "a@example.com", "open"), 400, "ACTION_NOT_ALLOWED");  // a draft
    require_ok(t.send(env));

    auto r = t.act(env, "a@example.com", "open");
    require_ok(r);
    CHECK(r.body == json::value{{"envelopeStatus", "signing"}, {"recipientStatus", "pending"}});
    t.acted(env, "a@example.com", "open", "signing");
    t.acted(env, "b@example.com", "open", "signing");
    t.acted(env, "v@example.com", "open", "signing");
    CHECK(t.log_types(env) == std::vector<std::string>{"ENVELOPE_CREATED", "ENVELOPE_SENT", "ENVELOPE_OPENED",
                                                       "RECIPIENT_VERIFIED", "ENVELOPE_OPENED", "ENVELOPE_OPENED"});
    auto opened = t.logs(env).at(2);
    CHECK(opened.at("author") == json::value{{"uuid", nil}, {"email", "a@example.com"}, {"name", "Ada Lovelace"}});
    CHECK(t.delivered_events(hook) == std::vector<std::string>{"ENVELOPE_CREATED", "ENVELOPE_SENT", "ENVELOPE_OPENED",
                                                               "ENVELOPE_OPENED", "ENVELOPE_OPENED"});
    CHECK(t.get(env).at("status") == "signing");
}

TEST_CASE("decline ends the envelope: others canceled, invitations gone", "[backend][lifecycle]") {
    api t;
    const std::string hook = t.webhook();
    const std::string env = t.envelope({"a@example.com", "b@example.com", "v@example.com"});
    t.recipient_update(env, "v@example.com", {{"role", "viewer"}});
    require_ok(t.send(env));
    require_error(t.act(env, "v@example.com", "decline"), 400, "ACTION_NOT_ALLOWED");

    auto r = t.control(
        "/_control/recipient/act",
        json::object{
            {"envelopeUuid", env}, {"email", "a@example.com"}, {"action", "decline"}, {"reason", "Wrong amount"}});
    require_ok(r);
    CHECK(r.body == json::value{{"envelopeStatus", "declined"}, {"recipientStatus", "declined"}});
    auto e = t.get(env);
    CHECK(e.at("status") == "declined");
    CHECK(recipient_of(e, "a@example.com").at("status") == "declined");
    CHECK(recipient_of(e, "b@example.com").at("status") == "canceled");
    CHECK(recipient_of(e, "v@example.com").at("status") == "canceled");
    for (const auto& rec : e.at("recipients").as_array()) CHECK(!rec.as_object().contains("invitation"));
    auto declined = t.logs(env).back();
    CHECK(declined.at("eventType") == "ENVELOPE_DECLINED");
    CHECK(declined.at("eventData").at("reason") == "Wrong amount");
    CHECK(declined.at("author").at("email") == "a@example.com");
    CHECK(t.delivered_events(hook).back() == "ENVELOPE_DECLINED");
    require_error(t.act(env, "b@example.com", "sign"), 400, "ACTION_NOT_ALLOWED");

    // An approver declines while approving.
    const std::string approving = t.envelope({"ap@example.com", "s@example.com"});
    t.recipient_update(approving, "ap@example.com", {{"role", "approver"}});
    require_ok(t.send(approving));
    t.acted(approving, "ap@example.com", "decline", "declined");
    CHECK(recipient_of(t.get(approving), "s@example.com").at("status") == "canceled");
}

TEST_CASE("recipient/act errors", "[backend][lifecycle]") {
    api t;
    const std::string env = t.envelope({"a@example.com"});
    require_ok(t.send(env));
    require_error(t.act(ghost, "a@example.com", "sign"), 400, "ENVELOPE_NOT_FOUND");
    require_error(t.act(env, "nobody@example.com", "sign"), 400, "RECIPIENT_NOT_FOUND");
    require_error(t.act(env, "A@example.com", "sign"), 400, "RECIPIENT_NOT_FOUND");  // compared exactly
    auto bad = t.act(env, "a@example.com", "shout");
    require_error(bad, 400, "INVALID_REQUEST_FORMAT");
    t.acted(env, "a@example.com", "sign", "complete");
    require_error(t.act(env, "a@example.com", "sign"), 400, "ACTION_NOT_ALLOWED");
}

// ---------------------------------------------------------------------------------------------
// Cancel

TEST_CASE("envelope/cancel from draft or in progress, final envelopes refuse it", "[backend][lifecycle]") {
    api t;
    const std::string hook = t.webhook();
    const std::string draft = t.envelope({"a@example.com"});
    auto r =
        t.control("/_control/envelope/cancel", json::object{{"envelopeUuid", draft}, {"reason", "changed my mind"}});
    require_ok(r);
    CHECK(r.body == json::object{});
    auto e = t.get(draft);
    CHECK(e.at("status") == "canceled");
    CHECK(recipient_of(e, "a@example.com").at("status") == "canceled");
    auto log = t.logs(draft).back();
    CHECK(log.at("eventType") == "ENVELOPE_CANCELED");
    CHECK(log.at("author") ==
          json::value{{"uuid", t.main.owner_uuid}, {"email", t.main.owner_email}, {"name", t.main.owner_email}});
    CHECK(log.at("eventData").at("reason") == "changed my mind");
    CHECK(t.delivered_events(hook).back() == "ENVELOPE_CANCELED");
    require_error(t.control("/_control/envelope/cancel", json::object{{"envelopeUuid", draft}}), 400,
                  "ACTION_NOT_ALLOWED");

    const std::string signing = t.envelope({"a@example.com", "b@example.com"});
    require_ok(t.send(signing));
    t.acted(signing, "a@example.com", "sign", "signing");
    require_ok(t.control("/_control/envelope/cancel", json::object{{"envelopeUuid", signing}}));
    e = t.get(signing);
    CHECK(e.at("status") == "canceled");
    CHECK(recipient_of(e, "a@example.com").at("status") == "signed");
    CHECK(recipient_of(e, "b@example.com").at("status") == "canceled");
    CHECK(!recipient_of(e, "b@example.com").contains("invitation"));

    const std::string done = t.envelope({"a@example.com"});
    require_ok(t.send(done));
    t.acted(done, "a@example.com", "sign", "complete");
    require_error(t.control("/_control/envelope/cancel", json::object{{"envelopeUuid", done}}), 400,
                  "ACTION_NOT_ALLOWED");
    require_error(t.control("/_control/envelope/cancel", json::object{{"envelopeUuid", ghost}}), 400,
                  "ENVELOPE_NOT_FOUND");
}

// ---------------------------------------------------------------------------------------------
// Time

TEST_CASE("clock/advance and clock/now", "[backend][lifecycle]") {
    api t;
    auto now = t.control("/_control/clock/now");
    require_ok(now);
    CHECK(now.body == json::value{{"now", t0}});
    CHECK(t.advance(0) == t0);
    CHECK(t.advance(1500) == t0 + 1500);
    CHECK(t.control("/_control/clock/now").body == json::value{{"now", t0 + 1500}});

    auto negative = t.control("/_control/clock/advance", json::object{{"milliseconds", -1}});
    require_error(negative, 400, "INVALID_REQUEST_FORMAT");
    CHECK(negative.obj().at("error").at("details").at(0).at("path") == json::array{"milliseconds"});
    auto huge =
        t.control("/_control/clock/advance", json::object{{"milliseconds", std::numeric_limits<std::int64_t>::max()}});
    require_error(huge, 400, "INVALID_REQUEST_FORMAT");
    CHECK(huge.obj().at("error").at("details").at(0).at("path") == json::array{"milliseconds"});
    CHECK(t.control("/_control/clock/now").body == json::value{{"now", t0 + 1500}});
}

TEST_CASE("expiry: at sentDate + expirationPeriod days exactly, not a millisecond before", "[backend][lifecycle]") {
    api t;
    const std::string env = t.envelope({"a@example.com", "b@example.com"}, {{"expirationPeriod", 2}});
    require_ok(t.send(env));
    t.acted(env, "a@example.com", "sign", "signing");
    CHECK(recipient_of(t.get(env), "b@example.com").at("invitation").at("expirationDate") == t0 + 2 * day);

    t.advance(2 * day - 1);
    CHECK(t.get(env).at("status") == "signing");
    CHECK(t.advance(1) == t0 + 2 * day);
    auto e = t.get(env);
    CHECK(e.at("status") == "expired");
    CHECK(e.at("updateDate") == t0 + 2 * day);
    CHECK(recipient_of(e, "a@example.com").at("status") == "signed");
    CHECK(recipient_of(e, "b@example.com").at("status") == "canceled");
    for (const auto& rec : e.at("recipients").as_array()) CHECK(!rec.as_object().contains("invitation"));
    auto expired = t.logs(env).back();
    CHECK(expired.at("eventType") == "ENVELOPE_EXPIRED");
    CHECK(expired.at("timestamp") == t0 + 2 * day);
    CHECK(expired.at("author") == json::value{{"uuid", nil}, {"email", ""}, {"name", "System"}});
    require_error(t.act(env, "b@example.com", "sign"), 400, "ACTION_NOT_ALLOWED");
    require_error(t.control("/_control/envelope/cancel", json::object{{"envelopeUuid", env}}), 400,
                  "ACTION_NOT_ALLOWED");
    t.advance(10 * day);
    CHECK(t.log_types(env).back() == "ENVELOPE_EXPIRED");
    CHECK(t.log_types(env).size() == 4);  // created, sent, signed, expired: once

    // Drafts and final envelopes never expire.
    const std::string draft = t.envelope({"a@example.com"}, {{"expirationPeriod", 1}});
    t.advance(5 * day);
    CHECK(t.get(draft).at("status") == "draft");
}

TEST_CASE("reminders: every N days to whoever's turn it is, none at the expiry instant", "[backend][lifecycle]") {
    api t({{"emailQuota", 2}});
    const std::string env =
        t.envelope({"a@example.com", "b@example.com"},
                   {{"signatureOrder", true}, {"reminderFrequencyPeriod", 1}, {"expirationPeriod", 3}});
    require_ok(t.send(env));  // the quota is now 1: a's invitation
    t.advance(day);
    CHECK(recipient_of(t.get(env), "a@example.com").at("invitation").at("lastNotificationDate") == t0 + day);
    t.acted(env, "a@example.com", "sign", "signing");  // b invited at t0 + 1 day: the quota is now 0
    t.advance(5 * day);

    CHECK(t.outbox() == std::vector<sent_email>{{"a@example.com", "invitation", env, t0},
                                                {"a@example.com", "reminder", env, t0 + day},
                                                {"b@example.com", "invitation", env, t0 + day},
                                                {"b@example.com", "reminder", env, t0 + 2 * day}});
    CHECK(t.get(env).at("status") == "expired");
}

TEST_CASE("reminders: rounds counted from send, for each pending recipient in turn", "[backend][lifecycle]") {
    api t;
    const std::string env =
        t.envelope({"a@example.com", "b@example.com", "v@example.com"}, {{"reminderFrequencyPeriod", 2}});
    t.recipient_update(env, "v@example.com", {{"role", "viewer"}});
    const std::string quiet = t.envelope({"q@example.com"});  // no reminder period: no reminders
    const std::int64_t sent = t.advance(500);
    require_ok(t.send(env));
    require_ok(t.send(quiet));
    t.advance(3 * day);  // round 1 at sent + 2 days
    t.acted(env, "b@example.com", "sign", "signing");
    t.advance(4 * day);  // rounds 2 and 3 at sent + 4 and 6 days: a only

    std::vector<sent_email> reminders;
    for (const auto& e : t.outbox())
        if (e.kind == "reminder") reminders.push_back(e);
    CHECK(reminders == std::vector<sent_email>{{"a@example.com", "reminder", env, sent + 2 * day},
                                               {"b@example.com", "reminder", env, sent + 2 * day},
                                               {"a@example.com", "reminder", env, sent + 4 * day},
                                               {"a@example.com", "reminder", env, sent + 6 * day}});
    auto e = t.get(env);
    CHECK(recipient_of(e, "a@example.com").at("invitation").at("lastNotificationDate") == sent + 6 * day);
    CHECK(recipient_of(e, "v@example.com").at("invitation").at("lastNotificationDate") == sent);
}

TEST_CASE("due events of every envelope are applied in time order", "[backend][lifecycle]") {
    api t;
    const std::string slow = t.envelope({"a@example.com"}, {{"expirationPeriod", 3}, {"reminderFrequencyPeriod", 1}});
    const std::string fast = t.envelope({"b@example.com"}, {{"expirationPeriod", 1}, {"reminderFrequencyPeriod", 1}});
    require_ok(t.send(slow));
    t.advance(day / 2);
    require_ok(t.send(fast));
    t.advance(10 * day);

    // fast: its reminder would fall at its expiry instant (t0 + 1.5 days), so it gets none.
    CHECK(t.outbox() == std::vector<sent_email>{{"a@example.com", "invitation", slow, t0},
                                                {"b@example.com", "invitation", fast, t0 + day / 2},
                                                {"a@example.com", "reminder", slow, t0 + day},
                                                {"a@example.com", "reminder", slow, t0 + 2 * day}});
    std::vector<std::pair<std::string, std::int64_t>> expiries;
    for (const auto& l : t.logs())
        if (l.at("eventType") == "ENVELOPE_EXPIRED")
            expiries.emplace_back(std::string(l.at("envelopeUuid").as_string()), l.at("timestamp").as_int64());
    CHECK(expiries ==
          std::vector<std::pair<std::string, std::int64_t>>{{fast, t0 + day + day / 2}, {slow, t0 + 3 * day}});
}

TEST_CASE("due events are applied before the next request when wall time passes", "[backend][lifecycle]") {
    auto wall = std::make_shared<std::int64_t>(t0);
    backend_options options;
    options.wall_clock = [wall] { return *wall; };
    options.self_check = true;
    api t({}, options);
    const std::string env = t.envelope({"a@example.com"}, {{"expirationPeriod", 1}});
    require_ok(t.send(env));
    *wall += day;
    auto list = t.call("/public/envelope/list", json::object{});  // a read-only operation
    require_ok(list);
    CHECK(list.obj().at("envelopes").at(0).at("status") == "expired");
    CHECK(t.logs(env).back().at("timestamp") == t0 + day);
}

}  // namespace test_backend_lifecycle
