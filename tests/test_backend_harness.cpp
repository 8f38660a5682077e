// SPDX-License-Identifier: BSL-1.0
// The test-harness features of a team in the reference backend (contract.md §6.4, §6.5): its
// request journal and its fault rules, through backend::handle as a client calls them.
#include "backend_support.hpp"

#include <chrono>
#include <string>
#include <vector>

namespace test_backend_harness {

using namespace backend_support;

namespace {

const bj::object create_body{{"title", "t"}, {"documents", bj::array{bj::object{{"title", "d"}, {"pageCount", 1}}}}};

std::string new_envelope(client& c) {
    auto a = c.call("/_control/envelope/create", create_body);
    require_ok(a);
    return std::string(a.obj().at("envelopeUuid").as_string());
}

bj::array journal(client& c, const bj::object& query = {}) {
    auto a = c.call("/_control/journal/list", query);
    require_ok(a);
    return a.obj().at("entries").as_array();
}

std::vector<std::string> paths_of(const bj::array& entries) { return strings_at(entries, "path"); }

answer add_fault(client& c, const bj::object& rule) { return c.call("/_control/faults/add", rule); }

}  // namespace

TEST_CASE("journal: a team's public requests and their answers, oldest first", "[backend][journal]") {
    client c(fixed_clock(11));
    const auto env = new_envelope(c);  // a control operation: not journaled
    require_ok(c.call("/public/envelope/get", bj::object{{"envelopeUuid", env}}));
    require_error(c.call("/public/envelope/get", bj::object{{"envelopeUuid", 7}}), 400, "INVALID_REQUEST_FORMAT");
    auto garbled = c.b.handle("/public/workspace/list", c.main.key, "{not json");
    CHECK(garbled.status == 400);
    c.raw("/public/utils/whoami", std::string_view("esk_wrong"), bj::object{});  // 401: no team's

    const auto entries = journal(c);
    REQUIRE(entries.size() == 3);
    CHECK(paths_of(entries) ==
          std::vector<std::string>{"/public/envelope/get", "/public/envelope/get", "/public/workspace/list"});
    const auto& first = entries[0].as_object();
    CHECK(first.at("sequence") == 1);
    CHECK(first.at("time") == start_ms);
    CHECK(first.at("status") == 200);
    CHECK(first.at("request") == bj::value(bj::object{{"envelopeUuid", env}}));
    CHECK(first.at("response").at("uuid") == str(env));
    // A validation failure: the answer with its problems, as sent.
    const auto& second = entries[1].as_object();
    CHECK(second.at("status") == 400);
    CHECK(second.at("response").at("error").at("details").at(0).at("path") == bj::value(bj::array{"envelopeUuid"}));
    // A body that does not parse is kept as its text.
    CHECK(entries[2].at("request") == str("{not json"));
    CHECK(entries[2].at("sequence") == 3);
}

TEST_CASE("journal: filters, clear, size, and one journal per team", "[backend][journal]") {
    auto options = fixed_clock(12);
    options.journal_size = 3;
    client c(options);
    const auto other = c.make_team();
    for (int i = 0; i < 4; ++i) c.call("/public/workspace/list", bj::object{});
    c.call("/public/envelope/get", bj::object{{"envelopeUuid", "0b5c2a1e-9a7e-4c5b-8a3d-2f6e1d4c3b2a"}});
    c.call_as(other, "/public/utils/whoami", bj::object{});

    // The last 3 of 5 (sequences 3 to 5).
    auto entries = journal(c);
    REQUIRE(entries.size() == 3);
    CHECK(entries[0].at("sequence") == 3);
    CHECK(entries[2].at("sequence") == 5);
    CHECK(journal(c, {{"path", "/public/envelope/get"}}).size() == 1);
    CHECK(journal(c, {{"status", 400}}).size() == 1);
    CHECK(journal(c, {{"status", 200}}).size() == 2);
    CHECK(journal(c, {{"since", 4}}).size() == 1);
    CHECK(journal(c, {{"limit", 2}}).size() == 2);
    CHECK(journal(c, {{"limit", 2}, {"since", 3}}).at(1).at("sequence") == 5);
    require_error(c.call("/_control/journal/list", bj::object{{"limit", 0}}), 400, "INVALID_REQUEST_FORMAT");
    require_error(c.call("/_control/journal/list", bj::object{{"limit", 1001}}), 400, "INVALID_REQUEST_FORMAT");

    // The other team's journal holds its own request only.
    auto theirs = request(c.b, "/_control/journal/list", other.key, bj::object{});
    require_ok(theirs);
    REQUIRE(theirs.obj().at("entries").as_array().size() == 1);
    CHECK(theirs.obj().at("entries").at(0).at("path") == str("/public/utils/whoami"));

    // Cleared: empty; sequences go on.
    require_ok(c.call("/_control/journal/clear", bj::object{}));
    CHECK(journal(c).empty());
    c.call("/public/workspace/list", bj::object{});
    CHECK(journal(c).at(0).at("sequence") == 6);
    // A team reset starts a new journal.
    require_ok(c.call("/_control/team/reset", bj::object{}));
    CHECK(journal(c).empty());
    c.call("/public/workspace/list", bj::object{});
    CHECK(journal(c).at(0).at("sequence") == 1);
    // The journal operations need the team's key.
    require_error(c.control("/_control/journal/list"), 401, "AUTHENTICATION_ERROR");
}

TEST_CASE("journal: size 0 keeps nothing", "[backend][journal]") {
    auto options = fixed_clock(13);
    options.journal_size = 0;
    client c(options);
    c.call("/public/workspace/list", bj::object{});
    CHECK(journal(c).empty());
}

TEST_CASE("faults: an error rule answers its code and changes nothing", "[backend][faults]") {
    client c(fixed_clock(21));
    const auto env = new_envelope(c);
    const auto before = c.get(env);
    auto added = add_fault(c, {{"operation", "/public/envelope/update"},
                               {"action", "error"},
                               {"error", "API_CREDITS_LIMIT_EXCEEDED"},
                               {"times", 2}});
    require_ok(added);
    const std::string fault = std::string(added.obj().at("faultUuid").as_string());

    const bj::object update{{"envelopeUuid", env}, {"update", bj::object{{"title", "changed"}}}};
    for (int i = 0; i < 2; ++i) {
        auto r = c.b.handle("/public/envelope/update", c.main.key, bj::serialize(update));
        CHECK(r.status == 400);
        CHECK(r.fault_uuid == fault);
        CHECK_FALSE(r.dropped);
        CHECK(bj::parse(r.body).at("error").at("code") == str("API_CREDITS_LIMIT_EXCEEDED"));
        CHECK(c.get(env) == before);
    }
    // Used up: the third runs.
    require_ok(c.call("/public/envelope/update", update));
    CHECK(c.get(env).at("title") == str("changed"));
    CHECK(c.call("/_control/faults/list", bj::object{}).obj().at("faults").as_array().empty());
    // Faulted requests are journaled with what they got.
    CHECK(journal(c, {{"status", 400}}).size() == 2);

    // Any code, with its own status: 401, 500.
    require_ok(
        add_fault(c, {{"operation", "/public/utils/whoami"}, {"action", "error"}, {"error", "AUTHENTICATION_ERROR"}}));
    require_ok(
        add_fault(c, {{"operation", "/public/utils/whoami"}, {"action", "error"}, {"error", "INTERNAL_SERVER_ERROR"}}));
    CHECK(c.b.handle("/public/utils/whoami", c.main.key, "{}").status == 401);  // rules in the order added
    CHECK(c.b.handle("/public/utils/whoami", c.main.key, "{}").status == 500);
    CHECK(c.b.handle("/public/utils/whoami", c.main.key, "{}").status == 200);
}

TEST_CASE("faults: drop and delay", "[backend][faults]") {
    client c(fixed_clock(22));
    const auto env = new_envelope(c);
    const auto before = c.get(env);
    require_ok(add_fault(c, {{"operation", "/public/envelope/update"}, {"action", "drop"}}));
    auto r = c.b.handle("/public/envelope/update", c.main.key,
                        bj::serialize(bj::object{{"envelopeUuid", env}, {"update", bj::object{{"title", "x"}}}}));
    CHECK(r.dropped);
    CHECK(r.status == 0);
    CHECK(r.body.empty());
    CHECK(c.get(env) == before);
    const auto dropped = journal(c, {{"status", 0}});
    REQUIRE(dropped.size() == 1);
    CHECK(dropped[0].at("response").is_null());

    require_ok(add_fault(c, {{"operation", "/public/envelope/update"}, {"action", "delay"}, {"delayMs", 200}}));
    const auto started = std::chrono::steady_clock::now();
    auto delayed =
        c.b.handle("/public/envelope/update", c.main.key,
                   bj::serialize(bj::object{{"envelopeUuid", env}, {"update", bj::object{{"title", "late"}}}}));
    CHECK(std::chrono::steady_clock::now() - started >= std::chrono::milliseconds(200));
    CHECK(delayed.status == 200);
    CHECK(c.get(env).at("title") == str("late"));
}

TEST_CASE("faults: a probability draws from the team's stream, the same way on every run", "[backend][faults]") {
    auto pattern = [] {
        client c(fixed_clock(23), bj::object{{"seed", 99}});
        require_ok(add_fault(c, {{"operation", "/public/utils/whoami"},
                                 {"action", "error"},
                                 {"error", "INTERNAL_SERVER_ERROR"},
                                 {"probability", 0.5},
                                 {"times", 1000}}));
        std::string out;
        for (int i = 0; i < 40; ++i)
            out += c.b.handle("/public/utils/whoami", c.main.key, "{}").status == 500 ? 'x' : '.';
        return out;
    };
    const auto first = pattern();
    CHECK(first == pattern());
    INFO(first);
    CHECK(first.find('x') != std::string::npos);
    CHECK(first.find('.') != std::string::npos);

    // Probability 0 never fires; the rule stays.
    client c(fixed_clock(24));
    require_ok(add_fault(c, {{"operation", "/public/utils/whoami"}, {"action", "drop"}, {"probability", 0}}));
    for (int i = 0; i < 20; ++i) CHECK_FALSE(c.b.handle("/public/utils/whoami", c.main.key, "{}").dropped);
    CHECK(c.call("/_control/faults/list", bj::object{}).obj().at("faults").as_array().size() == 1);
}

TEST_CASE("faults: list, clear, reset, and one set of rules per team", "[backend][faults]") {
    client c(fixed_clock(25));
    const auto other = c.make_team();
    require_ok(add_fault(c, {{"operation", "/public/utils/whoami"}, {"action", "drop"}, {"times", 3}}));
    require_ok(add_fault(c, {{"operation", "/public/workspace/list"}, {"action", "delay"}, {"delayMs", 5}}));
    CHECK(c.b.handle("/public/utils/whoami", c.main.key, "{}").dropped);
    // The other team is not affected.
    CHECK(c.b.handle("/public/utils/whoami", other.key, "{}").status == 200);

    auto list = c.call("/_control/faults/list", bj::object{});
    require_ok(list);
    const auto& faults = list.obj().at("faults").as_array();
    REQUIRE(faults.size() == 2);
    CHECK(faults[0].at("times") == 2);  // what is left
    CHECK(faults[0].at("action") == str("drop"));
    CHECK(faults[1].at("delayMs") == 5);
    CHECK(request(c.b, "/_control/faults/list", other.key, bj::object{}).obj().at("faults").as_array().empty());

    require_ok(c.call("/_control/faults/clear", bj::object{}));
    CHECK(c.b.handle("/public/utils/whoami", c.main.key, "{}").status == 200);
    require_ok(add_fault(c, {{"operation", "/public/utils/whoami"}, {"action", "drop"}}));
    require_ok(c.call("/_control/team/reset", bj::object{}));
    CHECK(c.b.handle("/public/utils/whoami", c.main.key, "{}").status == 200);
}

TEST_CASE("faults: a rule is refused with the member at fault", "[backend][faults]") {
    client c(fixed_clock(26));
    auto refused = [&](const bj::object& rule, std::vector<std::string> path) {
        auto a = add_fault(c, rule);
        INFO(bj::serialize(rule));
        require_error(a, 400, "INVALID_REQUEST_FORMAT");
        CHECK(a.detail_paths().at(0) == path);
    };
    refused({{"action", "drop"}}, {"operation"});
    refused({{"operation", "/public/utils/whoami"},
             {"webhookUuid", "0b5c2a1e-9a7e-4c5b-8a3d-2f6e1d4c3b2a"},
             {"action", "fail"}},
            {"operation"});
    refused({{"operation", "/public/utils/whoami"}, {"action", "fail"}}, {"action"});
    refused({{"operation", "/public/utils/whoami"}, {"action", "error"}}, {"error"});
    refused({{"operation", "/public/utils/whoami"}, {"action", "error"}, {"error", "NOPE"}}, {"error"});
    refused({{"operation", "/public/utils/whoami"}, {"action", "delay"}}, {"delayMs"});
    refused({{"operation", "/public/utils/whoami"}, {"action", "delay"}, {"delayMs", 30001}}, {"delayMs"});
    refused({{"operation", "/public/utils/whoami"}, {"action", "drop"}, {"delayMs", 10}}, {"delayMs"});
    refused({{"operation", "/public/utils/whoami"}, {"action", "drop"}, {"times", 0}}, {"times"});
    refused({{"operation", "/public/utils/whoami"}, {"action", "drop"}, {"probability", 1.5}}, {"probability"});
    refused({{"operation", "/_control/clock/now"}, {"action", "drop"}}, {"operation"});
    refused({{"operation", "/public/nope"}, {"action", "drop"}}, {"operation"});
    require_error(add_fault(c, {{"webhookUuid", "0b5c2a1e-9a7e-4c5b-8a3d-2f6e1d4c3b2a"}, {"action", "fail"}}), 400,
                  "WEBHOOK_NOT_FOUND");
    // Nothing was added.
    CHECK(c.call("/_control/faults/list", bj::object{}).obj().at("faults").as_array().empty());
}

TEST_CASE("faults: a webhook rule fails its next attempt, and the retry goes out", "[backend][faults]") {
    client c(fixed_clock(27));
    auto hook = c.call("/public/webhook/create",
                       webhook_body({{"url", "http://127.0.0.1:9/hook"}, {"events", bj::array{"ENVELOPE_CREATED"}}}));
    require_ok(hook);
    const std::string webhook = std::string(hook.obj().at("webhook").at("uuid").as_string());
    require_ok(add_fault(c, {{"webhookUuid", webhook}, {"action", "fail"}}));
    new_envelope(c);

    // The first attempt never reaches a sender: it is recorded as failed (503), and its retry
    // falls due 500 ms later on the team's clock (which stands still here but for advances).
    CHECK_FALSE(c.b.next_webhook_attempt(std::chrono::milliseconds(0)));
    require_ok(c.call("/_control/clock/advance", bj::object{{"milliseconds", 500}}));
    auto attempt = c.b.next_webhook_attempt(std::chrono::milliseconds(0));
    REQUIRE(attempt);
    CHECK(attempt->job.attempt == 2);
    auto deliveries = c.call("/_control/webhook/deliveries", bj::object{{"webhookUuid", webhook}});
    require_ok(deliveries);
    const auto& d = deliveries.obj().at("deliveries").at(0);
    CHECK(d.at("attempts") == 1);
    CHECK(d.at("lastStatus") == 503);
    CHECK(d.at("delivered") == false);
    c.b.record_webhook_attempt(*attempt, 200, true);
    deliveries = c.call("/_control/webhook/deliveries", bj::object{{"webhookUuid", webhook}});
    CHECK(deliveries.obj().at("deliveries").at(0).at("attempts") == 2);
    CHECK(deliveries.obj().at("deliveries").at(0).at("delivered") == true);
}

TEST_CASE("call: the harness operations with C++ values, not JSON", "[backend][journal][faults]") {
    client c(fixed_clock(31));
    esign::control_faults_add_request rule;
    rule.operation = "/public/utils/whoami";
    rule.action = esign::fault_action::error;
    rule.error = esign::error_code::SUBSCRIPTION_NOT_FOUND;
    auto added = c.b.call(c.main.key, rule);
    REQUIRE(added);

    auto faulted = c.b.call(c.main.key, esign::utils_whoami_request{});
    CHECK_FALSE(faulted);
    REQUIRE(faulted.error);
    CHECK(faulted.error->error.code == esign::error_code::SUBSCRIPTION_NOT_FOUND);
    CHECK(faulted.error->statusCode == 400);
    CHECK(faulted.raw.fault_uuid == added.response->faultUuid);

    auto who = c.b.call(c.main.key, esign::utils_whoami_request{});
    REQUIRE(who);
    CHECK(who.response->teamUuid == c.main.uuid);

    auto entries = c.b.call(c.main.key, esign::control_journal_list_request{});
    REQUIRE(entries);
    REQUIRE(entries.response->entries.size() == 2);
    CHECK(entries.response->entries[0].status == 400);
    CHECK(entries.response->entries[1].path == "/public/utils/whoami");
    CHECK(entries.response->entries[1].response.at("teamUuid") == str(c.main.uuid));

    // A refused call carries its problems.
    esign::control_faults_add_request incomplete;
    incomplete.operation = "/public/utils/whoami";
    incomplete.action = esign::fault_action::delay;
    auto refused = c.b.call(c.main.key, incomplete);
    REQUIRE(refused.error);
    REQUIRE(refused.error->error.details);
    CHECK(refused.error->error.details->at(0).path == std::vector<std::string>{"delayMs"});
}

}  // namespace test_backend_harness
