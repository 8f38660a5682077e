// SPDX-License-Identifier: BSL-1.0
// The test-harness features over HTTP (contract.md §6.4, §6.5): the journal, and fault rules
// that answer an error, drop the connection, or delay the answer, on the real server.
#include <atomic>
#include <chrono>
#include <future>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <boost/json.hpp>

#include "test_support.hpp"

namespace test_server_harness {

using namespace esign::test;
using namespace std::chrono_literals;

namespace {

struct harness_setup {
    test_server srv;
    team t;
    harness_setup(std::vector<std::string> args = {}) : srv(std::move(args)), t(srv.new_team()) {}

    http_response call(const std::string& path, const boost::json::value& body) {
        return srv.post(path, boost::json::serialize(body), bearer(t.api_key));
    }
    boost::json::array journal(const boost::json::object& query = {}) {
        return success_body(call("/_control/journal/list", query), "journal/list").at("entries").as_array();
    }
};

}  // namespace

TEST_CASE("journal over HTTP: what the client sent and got", "[http][journal]") {
    harness_setup s;
    const boost::json::object send{{"envelopeUuid", "0b5c2a1e-9a7e-4c5b-8a3d-2f6e1d4c3b2a"},
                                   {"distributionMethod", "none"}};
    auto r = s.call("/public/envelope/send", send);
    CHECK(r.status == 400);
    s.call("/public/workspace/list", boost::json::object{});

    auto sends = s.journal({{"path", "/public/envelope/send"}});
    REQUIRE(sends.size() == 1);
    CHECK(sends[0].at("request").at("distributionMethod") == "none");
    CHECK(sends[0].at("status") == 400);
    CHECK(sends[0].at("response") == r.json());
    CHECK(s.journal().size() == 2);
}

TEST_CASE("journal over HTTP: --journal-size 0 keeps nothing", "[http][journal]") {
    harness_setup s({"--journal-size", "0"});
    s.call("/public/workspace/list", boost::json::object{});
    CHECK(s.journal().empty());
}

TEST_CASE("faults over HTTP: an error answer says which rule gave it", "[http][faults]") {
    harness_setup s;
    auto added =
        success_body(s.call("/_control/faults/add", boost::json::object{{"operation", "/public/workspace/list"},
                                                                        {"action", "error"},
                                                                        {"error", "INTERNAL_SERVER_ERROR"}}),
                     "faults/add");
    auto r = s.call("/public/workspace/list", boost::json::object{});
    CHECK(r.status == 500);
    CHECK(string_member(r.json().at("error"), "code") == "INTERNAL_SERVER_ERROR");
    CHECK(r.header("X-Esign-Fault") == std::optional<std::string>(std::string(added.at("faultUuid").as_string())));
    r = s.call("/public/workspace/list", boost::json::object{});
    CHECK(r.status == 200);
    CHECK_FALSE(r.header("X-Esign-Fault"));
}

TEST_CASE("faults over HTTP: drop closes the connection without an answer", "[http][faults]") {
    harness_setup s;
    success_body(
        s.call("/_control/faults/add", boost::json::object{{"operation", "/public/utils/whoami"}, {"action", "drop"}}),
        "faults/add");
    auto c = s.srv.connect();
    CHECK_THROWS_AS(c.post("/public/utils/whoami", "{}", bearer(s.t.api_key)), boost::system::system_error);
    // The next request (a new connection) is answered.
    CHECK(s.call("/public/utils/whoami", boost::json::object{}).status == 200);
    auto dropped = s.journal({{"status", 0}});
    REQUIRE(dropped.size() == 1);
    CHECK(dropped[0].at("response").is_null());
}

TEST_CASE("faults over HTTP: delay holds the answer, not the server", "[http][faults]") {
    harness_setup s({"--threads", "1"});
    success_body(
        s.call("/_control/faults/add",
               boost::json::object{{"operation", "/public/utils/whoami"}, {"action", "delay"}, {"delayMs", 3000}}),
        "faults/add");
    std::atomic<bool> slow_answered{false};
    auto slow = std::async(std::launch::async, [&] {
        const auto started = std::chrono::steady_clock::now();
        auto r = s.call("/public/utils/whoami", boost::json::object{});
        slow_answered = true;
        return std::make_pair(r.status, std::chrono::steady_clock::now() - started);
    });
    // The delayed request has arrived once its rule is used up (rules list only what is left).
    bool arrived = false;
    for (int i = 0; i < 500 && !arrived; ++i) {
        auto left = success_body(s.call("/_control/faults/list", boost::json::object{}), "faults/list");
        arrived = left.at("faults").as_array().empty();
        if (!arrived) std::this_thread::sleep_for(10ms);
    }
    REQUIRE(arrived);
    // With one worker thread, another request is answered while the delayed one waits: before it.
    CHECK(s.call("/public/workspace/list", boost::json::object{}).status == 200);
    CHECK_FALSE(slow_answered.load());
    auto [status, took] = slow.get();
    CHECK(status == 200);
    CHECK(took >= 3000ms);
}

TEST_CASE("harness over HTTP: journal, faults and resets from many threads at once", "[http][journal][faults]") {
    harness_setup s;
    const auto other = s.srv.new_team();
    std::atomic<int> answered{0}, dropped{0}, unexpected{0};
    auto client = [&](const std::string& key, int rounds, auto step) {
        return std::thread([&, key, rounds, step] {
            for (int i = 0; i < rounds; ++i) {
                try {
                    const unsigned status = step(key, i);
                    (status == 200 || status == 400 || status == 500 ? answered : unexpected) += 1;
                } catch (const boost::system::system_error&) {
                    ++dropped;  // a drop rule closed the connection
                }
            }
        });
    };
    auto post = [&](const std::string& key, const std::string& path, const std::string& body) {
        return s.srv.post(path, body, bearer(key)).status;
    };
    std::vector<std::thread> threads;
    threads.push_back(client(s.t.api_key, 60, [&](const std::string& k, int i) {
        return post(k, i % 2 ? "/public/utils/whoami" : "/public/workspace/list", "{}");
    }));
    threads.push_back(client(s.t.api_key, 30, [&](const std::string& k, int i) {
        if (i % 3 == 2) return post(k, "/_control/faults/list", "{}");
        return post(k, "/_control/faults/add",
                    i % 2
                        ? R"({"operation":"/public/utils/whoami","action":"drop","probability":0.5})"
                        : R"({"operation":"/public/workspace/list","action":"error","error":"INTERNAL_SERVER_ERROR"})");
    }));
    threads.push_back(client(s.t.api_key, 30, [&](const std::string& k, int i) {
        if (i % 10 == 9) return post(k, "/_control/team/reset", "{}");
        return post(k, i % 2 ? "/_control/journal/clear" : "/_control/journal/list", i % 2 ? "{}" : R"({"limit":5})");
    }));
    // Another team works alongside: no rule of the first team ever reaches it.
    std::atomic<int> other_failures{0};
    threads.emplace_back([&] {
        for (int i = 0; i < 60; ++i)
            if (post(other.api_key, "/public/utils/whoami", "{}") != 200) ++other_failures;
    });
    for (auto& t : threads) t.join();
    CHECK(unexpected == 0);
    CHECK(other_failures == 0);
    CHECK(answered + dropped == 120);
    CHECK(s.srv.post("/public/utils/whoami", "{}", bearer(other.api_key)).status == 200);
}

}  // namespace test_server_harness
