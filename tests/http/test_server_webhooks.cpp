// SPDX-License-Identifier: BSL-1.0
// Black-box tests of esign-reference-server's webhook deliveries (contract.md §3 "Webhooks"):
// a receiver in the test records what the server POSTs.
#include "hook_receiver.hpp"
#include "test_support.hpp"

#include <chrono>
#include <memory>
#include <regex>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <openssl/evp.h>
#include <openssl/hmac.h>

namespace test_server_webhooks {

using namespace esign::test;
using namespace std::chrono_literals;

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

namespace {

// ---- helpers ------------------------------------------------------------------------------

std::string hmac_sha256_hex(std::string_view key, std::string_view message) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(message.data()),
         message.size(), digest, &length);
    static constexpr char hex[] = "0123456789abcdef";
    std::string out;
    for (unsigned int i = 0; i < length; ++i) {
        out += hex[digest[i] >> 4];
        out += hex[digest[i] & 0x0F];
    }
    return out;
}

std::string form_urldecode(std::string_view s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '+') {
            out += ' ';
        } else if (s[i] == '%' && i + 2 < s.size()) {
            out += static_cast<char>(std::stoi(std::string(s.substr(i + 1, 2)), nullptr, 16));
            i += 2;
        } else {
            out += s[i];
        }
    }
    return out;
}

std::int64_t unix_ms_now() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// A server, a team, and calls on its behalf.
struct setup {
    test_server srv;
    team t;
    std::int64_t clock_offset = 0;  // how far the team's clock was advanced (advance_clock)

    // `server_args`: the server's command line; `team_body`: the team's /_control/team/create.
    explicit setup(std::vector<std::string> server_args = {}, const std::string& team_body = "{}")
        : srv(std::move(server_args)), t(create_team(srv.host(), srv.port(), team_body)) {}

    // Moves the team's clock forward (contract.md §2: every timestamp comes from it).
    void advance_clock(std::int64_t milliseconds) {
        auto r = call("/_control/clock/advance", boost::json::object{{"milliseconds", milliseconds}});
        INFO(r.body);
        REQUIRE(r.status == 200);
        clock_offset += milliseconds;
    }

    http_response call(const std::string& path, const boost::json::value& body) {
        return srv.post(path, boost::json::serialize(body), bearer(t.api_key));
    }

    // Creates a webhook; returns its uuid.
    std::string create_webhook(const std::string& url, boost::json::value secret,
                               std::string content_type = "application/json",
                               boost::json::array events = {"ENVELOPE_CREATED"}) {
        boost::json::object body{{"url", url},         {"contentType", content_type},
                                 {"sslVerify", false}, {"active", true},
                                 {"secret", secret},   {"events", events}};
        auto r = call("/public/webhook/create", body);
        INFO(r.body);
        REQUIRE(r.status == 200);
        auto uuid = string_member(r.json().as_object().at("webhook"), "uuid");
        REQUIRE(is_lowercase_uuid(uuid));
        return uuid;
    }

    std::string create_envelope() {
        auto r = call("/_control/envelope/create",
                      boost::json::object{{"title", "Contract"},
                                          {"documents", boost::json::array{{{"title", "d"}, {"pageCount", 1}}}}});
        INFO(r.body);
        REQUIRE(r.status == 200);
        return string_member(r.json(), "envelopeUuid");
    }

    // The delivery records of a webhook.
    boost::json::array deliveries(const std::string& webhook_uuid) {
        auto r = srv.post("/_control/webhook/deliveries",
                          boost::json::serialize(boost::json::object{{"webhookUuid", webhook_uuid}}));
        if (r.status != 200) return {};
        return r.json().as_object().at("deliveries").as_array();
    }

    std::int64_t attempts(const std::string& webhook_uuid) {
        std::int64_t n = 0;
        for (const auto& d : deliveries(webhook_uuid)) n += d.as_object().at("attempts").to_number<std::int64_t>();
        return n;
    }
};

// The event delivered for envelope creation.
void check_payload(const boost::json::value& payload, const setup& s, const std::string& webhook_uuid,
                   const std::string& envelope_uuid) {
    INFO("payload " << boost::json::serialize(payload));
    REQUIRE(payload.is_object());
    const auto& o = payload.as_object();
    CHECK(is_lowercase_uuid(string_member(o, "eventUuid")));
    CHECK(string_member(o, "eventType") == "ENVELOPE_CREATED");
    REQUIRE(o.contains("eventTime"));
    CHECK(o.at("eventTime").is_int64());
    if (o.at("eventTime").is_int64())
        CHECK(std::abs(o.at("eventTime").as_int64() - (unix_ms_now() + s.clock_offset)) < 60'000);
    CHECK(string_member(o, "webhookUuid") == webhook_uuid);
    CHECK(string_member(o, "teamUuid") == s.t.team_uuid);
    REQUIRE(o.contains("data"));
    REQUIRE(o.at("data").is_object());
    CHECK(string_member(o.at("data"), "envelopeUuid") == envelope_uuid);
    CHECK(string_member(o.at("data"), "workspaceUuid") == s.t.default_workspace_uuid);
}

// `clock_offset`: how far the team's clock is ahead of the system clock.
void check_signature(const received_request& r, const std::string& secret, std::int64_t clock_offset = 0) {
    const auto header = r.header("X-Webhook-Signature");
    REQUIRE(header);
    INFO("X-Webhook-Signature: " << *header);
    static const std::regex form("^t=([0-9]+),v1=([0-9a-f]{64})$");
    std::smatch m;
    REQUIRE(std::regex_match(*header, m, form));
    const std::string t = m[1].str();
    CHECK(std::abs(std::stoll(t) - (unix_ms_now() + clock_offset)) < 60'000);
    CHECK(m[2].str() == hmac_sha256_hex(secret, "t:" + t + ":" + r.body));
}

}  // namespace

TEST_CASE("webhooks: a JSON delivery, signed", "[http][webhooks]") {
    hook_receiver receiver;
    setup s;
    const auto webhook = s.create_webhook(receiver.url("/hook?x=1"), "s3cr3t");
    const auto envelope = s.create_envelope();
    REQUIRE(receiver.wait_for(1, 10s));

    const auto r = receiver.requests().front();
    CHECK(r.method == "POST");
    CHECK(r.target == "/hook?x=1");
    CHECK(r.header("Content-Type").value_or("") == "application/json");
    CHECK(r.header("X-Webhook-Id").value_or("") == webhook);
    CHECK(r.header("Host").value_or("") == "127.0.0.1:" + std::to_string(receiver.port()));
    check_signature(r, "s3cr3t");
    boost::json::value payload;
    REQUIRE_NOTHROW(payload = boost::json::parse(r.body));
    check_payload(payload, s, webhook, envelope);

    // The attempt is recorded as delivered.
    REQUIRE(eventually([&] { return s.attempts(webhook) >= 1; }, 5s));
    const auto d = s.deliveries(webhook);
    REQUIRE(d.size() == 1);
    const auto& rec = d[0].as_object();
    CHECK(string_member(rec, "eventUuid") == string_member(payload, "eventUuid"));
    CHECK(string_member(rec, "webhookUuid") == webhook);
    CHECK(string_member(rec, "eventType") == "ENVELOPE_CREATED");
    CHECK(rec.at("attempts") == boost::json::value(1));
    CHECK(rec.at("delivered") == boost::json::value(true));
    CHECK(rec.at("lastStatus") == boost::json::value(200));

    // Exactly one delivery: the record says delivered, so no retry follows, and the receiver
    // (which answers before the server records the attempt) saw one request.
    CHECK(receiver.requests().size() == 1);
}

TEST_CASE("webhooks: a delivered event is not attempted again", "[http][webhooks]") {
    hook_receiver receiver;
    hook_receiver sentinel;
    // One sender thread and a frozen team clock: a retry would fall due only at an advance, and
    // then before anything queued after the advance; the sentinel's arrival proves its turn passed.
    setup s({"--webhook-threads", "1"}, R"({"startTime":1767225600000})");
    const auto webhook = s.create_webhook(receiver.url(), nullptr);
    s.create_envelope();
    REQUIRE(receiver.wait_for(1, 10s));
    REQUIRE(eventually([&] { return s.attempts(webhook) == 1; }, 10s));
    s.advance_clock(3'600'000);  // past every backoff
    s.create_webhook(sentinel.url(), nullptr);
    s.create_envelope();  // one delivery to each webhook
    REQUIRE(sentinel.wait_for(1, 20s));
    REQUIRE(receiver.wait_for(2, 10s));  // the second envelope's, queued before the sentinel's
    // Two requests, of two events: no attempt repeated the first.
    const auto requests = receiver.requests();
    CHECK(requests.size() == 2);
    const auto first_event = string_member(boost::json::parse(requests.front().body), "eventUuid");
    CHECK(first_event != string_member(boost::json::parse(requests.back().body), "eventUuid"));
    // (The second event's record may not have its attempt yet: the receiver answers first.)
    for (const auto& d : s.deliveries(webhook))
        if (string_member(d, "eventUuid") == first_event) CHECK(d.as_object().at("attempts") == boost::json::value(1));
}

TEST_CASE("webhooks: signature time and eventTime come from the team's clock", "[http][webhooks][clock]") {
    hook_receiver receiver;
    setup s;
    s.advance_clock(30LL * 24 * 3600 * 1000);  // 30 days: far outside the 60 s tolerance
    const auto webhook = s.create_webhook(receiver.url(), "k");
    const auto envelope = s.create_envelope();
    REQUIRE(receiver.wait_for(1, 10s));
    const auto r = receiver.requests().front();
    check_signature(r, "k", s.clock_offset);
    check_payload(boost::json::parse(r.body), s, webhook, envelope);
}

TEST_CASE("webhooks: a form-encoded delivery, unsigned without a secret", "[http][webhooks]") {
    hook_receiver receiver;
    setup s;
    const auto signed_hook =
        s.create_webhook(receiver.url("/signed"), "k\xc3\xa9y with spaces", "application/x-www-form-urlencoded");
    const auto unsigned_hook =
        s.create_webhook(receiver.url("/unsigned"), nullptr, "application/x-www-form-urlencoded");
    const auto envelope = s.create_envelope();
    REQUIRE(receiver.wait_for(2, 10s));

    for (const auto& r : receiver.requests()) {
        INFO(r.target << " " << r.body);
        CHECK(r.header("Content-Type").value_or("").starts_with("application/x-www-form-urlencoded"));
        REQUIRE(r.body.starts_with("payload="));
        CHECK(r.body.find('&') == std::string::npos);
        CHECK(r.body.find('{') == std::string::npos);  // encoded
        boost::json::value payload;
        REQUIRE_NOTHROW(payload = boost::json::parse(form_urldecode(r.body.substr(8))));
        if (r.target == "/signed") {
            CHECK(r.header("X-Webhook-Id").value_or("") == signed_hook);
            check_signature(r, "k\xc3\xa9y with spaces");
            check_payload(payload, s, signed_hook, envelope);
        } else {
            CHECK(r.target == "/unsigned");
            CHECK(r.header("X-Webhook-Id").value_or("") == unsigned_hook);
            CHECK_FALSE(r.header("X-Webhook-Signature"));
            check_payload(payload, s, unsigned_hook, envelope);
        }
    }
}

TEST_CASE("webhooks: a failing receiver gets retried", "[http][webhooks]") {
    SECTION("always 500: several attempts, not delivered") {
        hook_receiver receiver({500, 0, false});
        setup s;
        const auto webhook = s.create_webhook(receiver.url(), "x");
        s.create_envelope();
        REQUIRE(receiver.wait_for(3, 10s));
        REQUIRE(eventually([&] { return s.attempts(webhook) >= 3; }, 5s));
        const auto d = s.deliveries(webhook);
        REQUIRE(d.size() == 1);
        CHECK(d[0].as_object().at("delivered") == boost::json::value(false));
        CHECK(d[0].as_object().at("lastStatus") == boost::json::value(500));
        // The same event every time.
        const auto requests = receiver.requests();
        const auto first = string_member(boost::json::parse(requests[0].body), "eventUuid");
        for (const auto& r : requests) CHECK(string_member(boost::json::parse(r.body), "eventUuid") == first);
    }
    SECTION("500, then 204: delivered on the second attempt") {
        hook_receiver receiver({204, 1, false});
        setup s;
        const auto webhook = s.create_webhook(receiver.url(), "x");
        s.create_envelope();
        REQUIRE(receiver.wait_for(2, 10s));
        REQUIRE(eventually(
            [&] {
                auto d = s.deliveries(webhook);
                return d.size() == 1 && d[0].as_object().at("delivered") == boost::json::value(true);
            },
            5s));
        const auto d = s.deliveries(webhook);
        CHECK(d[0].as_object().at("attempts") == boost::json::value(2));
        CHECK(d[0].as_object().at("lastStatus") == boost::json::value(204));
        CHECK(receiver.requests().size() == 2);  // delivered: no attempt after the second
    }
}

TEST_CASE("webhooks: a dead port is recorded as failed attempts", "[http][webhooks]") {
    // A socket bound to a port and not listening: connections to it are refused, and no other
    // test's server can take the port while it is held.
    asio::io_context ioc;
    tcp::socket holder(ioc);
    holder.open(tcp::v4());
    holder.bind(tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
    const unsigned short dead_port = holder.local_endpoint().port();
    setup s;
    const auto webhook = s.create_webhook("http://127.0.0.1:" + std::to_string(dead_port) + "/hook", "x");
    s.create_envelope();
    REQUIRE(eventually([&] { return s.attempts(webhook) >= 2; }, 10s));
    const auto d = s.deliveries(webhook);
    REQUIRE(d.size() == 1);
    const auto& rec = d[0].as_object();
    CHECK(rec.at("delivered") == boost::json::value(false));
    // No response, no status: lastStatus is there, and null.
    REQUIRE(rec.contains("lastStatus"));
    CHECK(rec.at("lastStatus").is_null());
}

TEST_CASE("webhooks: a receiver that never answers does not block the API", "[http][webhooks]") {
    hook_receiver receiver({200, 0, true});
    auto s = std::make_unique<setup>();
    // More hanging deliveries than sender threads.
    std::vector<std::string> hooks;
    for (int i = 0; i < 3; ++i) hooks.push_back(s->create_webhook(receiver.url("/slow" + std::to_string(i)), "x"));
    s->create_envelope();
    REQUIRE(receiver.wait_for(2, 10s));  // both sender threads hang in an attempt now

    // Requests are answered while the attempts hang. The proof is an event, not a stopwatch: the
    // server closes an attempt's connection only when it gives up on it (its 5 s answer timeout),
    // and the receiver sees that close; none seen after the answers means no answer waited for an
    // attempt to end. (A server whose requests waited would have them answered only after a close.)
    auto c = s->srv.connect();
    for (int i = 0; i < 20; ++i) CHECK(c.post("/public/workspace/list", "{}", bearer(s->t.api_key)).status == 200);
    s->create_envelope();  // a write, queuing three more deliveries
    INFO("the server gave up on an attempt before these requests were answered");
    CHECK(receiver.hung_up() == 0);
    CHECK(s->attempts(hooks[0]) + s->attempts(hooks[1]) + s->attempts(hooks[2]) == 0);  // recorded when they end

    // The hanging attempts end (the server closes them) and are recorded as failed.
    REQUIRE(receiver.wait_for_hang_ups(2, 30s));
    REQUIRE(
        eventually([&] { return s->attempts(hooks[0]) + s->attempts(hooks[1]) + s->attempts(hooks[2]) >= 2; }, 15s));
    for (const auto& h : hooks)
        for (const auto& d : s->deliveries(h)) CHECK(d.as_object().at("delivered") == boost::json::value(false));

    // Stopping does not wait for deliveries under way: new attempts hang now (the second
    // envelope's), each until the 5 s answer timeout, which began at most moments ago. A server
    // that waited for them would still be running when stop() gives up at 2.5 s and kills it
    // (the exit status would not be 0); one that does not wait exits in milliseconds.
    REQUIRE(receiver.wait_for(4, 10s));
    CHECK(s->srv.stop(SIGTERM, 2500ms) == 0);
    s.reset();
}

// ---- per team (contract.md §6.3, §6.7) ----------------------------------------------------

TEST_CASE("webhooks: a team whose receiver never answers does not hold up another team", "[http][webhooks][tenancy]") {
    hook_receiver dead({200, 0, true});  // accepts, reads, never answers: 5 s per attempt
    hook_receiver alive;
    setup slow({"--webhook-threads", "2"});
    slow.create_webhook(dead.url(), nullptr);
    for (int i = 0; i < 6; ++i) slow.create_envelope();  // 6 attempts of 5 s ahead, for 2 sender threads
    REQUIRE(dead.wait_for(1, 10s));

    const team other = slow.srv.new_team();
    auto hook = slow.srv.post(
        "/public/webhook/create",
        boost::json::serialize(boost::json::object{
            {"url", alive.url()}, {"contentType", "application/json"}, {"sslVerify", false}, {"active", true}}),
        bearer(other.api_key));
    REQUIRE(hook.status == 200);
    auto env = slow.srv.post("/_control/envelope/create", R"({"title":"t","documents":[{"title":"d","pageCount":1}]})",
                             bearer(other.api_key));
    REQUIRE(env.status == 200);
    // Served in turn, the order of arrival tells (no stopwatch): before the other team's delivery,
    // at most the two attempts under way when it was queued and the one a thread took in the slow
    // team's turn; in arrival order all six would come first. The wait is long enough for that
    // order too (six attempts of 5 s on two threads), so that a failure shows the order.
    REQUIRE(alive.wait_for(1, 60s));
    const auto served_at = alive.requests().front().arrival;
    std::size_t before = 0;
    for (const auto& r : dead.requests()) before += r.arrival < served_at ? 1 : 0;
    INFO("attempts of the slow team before the other team's delivery: " << before);
    CHECK(before <= 3);
}

TEST_CASE("webhooks: a team reset or a deleted webhook drops the retries queued before", "[http][webhooks][tenancy]") {
    for (const bool by_reset : {true, false}) {
        DYNAMIC_SECTION((by_reset ? "team reset" : "webhook deleted")) {
            hook_receiver failing({500, 0, false});  // every attempt fails, and is retried
            hook_receiver sentinel;
            // One sender thread: attempts happen one after the other, in the order they fall due.
            // A frozen team clock: a retry falls due only when the test advances the clock, so no
            // retry is under way when the reset or the delete lands.
            // A seeded team: after a reset its stream restarts, so the webhook made again has the
            // uuid of the one the retry was queued for (the retry must not reach it either).
            setup s({"--webhook-threads", "1"}, R"({"startTime":1767225600000,"seed":7})");
            const auto webhook = s.create_webhook(failing.url(), nullptr);
            s.create_envelope();
            REQUIRE(failing.wait_for(1, 10s));
            // The event that proves the retry is queued: it is in the team's pending deliveries.
            REQUIRE(eventually(
                [&] {
                    const auto snap = s.call("/_control/team/snapshot", boost::json::object{});
                    const auto pending = at(snap.json(), "/team/state/pending_deliveries");
                    return pending.is_array() && pending.as_array().size() == 1;
                },
                10s));
            if (by_reset) {
                REQUIRE(s.call("/_control/team/reset", boost::json::object{}).status == 200);
                // On an event the test never causes: the receiver has no reason to hear from it.
                REQUIRE(s.create_webhook(failing.url(), nullptr, "application/json", {"ENVELOPE_COMPLETED"}) ==
                        webhook);
            } else {
                REQUIRE(s.call("/public/webhook/delete", boost::json::object{{"uuid", webhook}}).status == 200);
            }
            // The retry is due once the clock passed its backoff; a delivery queued after it (to
            // another webhook) falls due later, so the only sender thread would attempt the retry
            // first: the sentinel's arrival proves the retry's turn has passed.
            s.advance_clock(60'000);
            s.create_webhook(sentinel.url(), nullptr);
            s.create_envelope();
            REQUIRE(sentinel.wait_for(1, 20s));
            CHECK(failing.requests().size() == 1);
            if (by_reset) {
                CHECK(s.deliveries(webhook).empty());  // (the webhook made again has none)
            } else {
                const auto d = s.deliveries(webhook);
                REQUIRE(d.size() == 1);
                CHECK(d[0].as_object().at("attempts") == boost::json::value(1));
            }
        }
    }
}

TEST_CASE("webhooks: a fault rule fails or times out the next attempts without connecting (§6.5)", "[http][webhooks]") {
    hook_receiver receiver;
    setup s;
    const auto webhook = s.create_webhook(receiver.url("/hook"), "k");
    auto add = s.call("/_control/faults/add", boost::json::object{{"webhookUuid", webhook}, {"action", "fail"}});
    INFO(add.body);
    REQUIRE(add.status == 200);
    s.create_envelope();
    // The first attempt fails without reaching the receiver; the retry (0.5 s later) delivers.
    REQUIRE(receiver.wait_for(1, 10s));
    REQUIRE(eventually([&] { return s.attempts(webhook) == 2; }, 10s));
    auto d = s.deliveries(webhook).at(0).as_object();
    CHECK(d.at("delivered") == true);
    CHECK(d.at("lastStatus") == 200);
    CHECK(receiver.requests().size() == 1);
    // The rule is used up.
    CHECK(s.call("/_control/faults/list", boost::json::object{}).json().at("faults").as_array().empty());

    // Two timeouts: three attempts, the last one delivered; no status recorded by the faulted ones.
    const auto second = s.create_webhook(receiver.url("/second"), "k");
    REQUIRE(s.call("/_control/faults/add",
                   boost::json::object{{"webhookUuid", second}, {"action", "timeout"}, {"times", 2}})
                .status == 200);
    s.create_envelope();
    REQUIRE(eventually([&] { return s.attempts(second) == 3; }, 15s));
    d = s.deliveries(second).at(0).as_object();
    CHECK(d.at("delivered") == true);
    CHECK(d.at("lastStatus") == 200);
    // The first envelope's to the first webhook, and this envelope's to both.
    CHECK(eventually([&] { return receiver.requests().size() == 3; }, 10s));
}

}  // namespace test_server_webhooks
