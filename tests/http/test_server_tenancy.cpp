// SPDX-License-Identifier: BSL-1.0
// Black-box tests of the server as a shared test service (contract.md §6): many suites at once,
// each in its own team, resetting while others work; health; control credentials; the
// connection limit. Run under ThreadSanitizer by the clang-tsan preset (label server).
#include "test_support.hpp"

#include <array>
#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

namespace test_server_tenancy {

using namespace esign::test;
using namespace std::chrono_literals;

namespace {

std::string key_of(const http_response& r) {
    const boost::json::value v = r.json();
    const auto* p = v.as_object().if_contains("apiKey");
    return p && p->is_string() ? std::string(p->as_string()) : std::string();
}

// A request body that takes a while to parse (a long ignored member), so that resets land
// between authentication and the handler.
std::string slow_body() { return R"({"ignored":")" + std::string(200'000, 'x') + R"("})"; }

}  // namespace

TEST_CASE("tenancy: suites reset while others work, the server never fails", "[http][server][tenancy]") {
    test_server srv({"--threads", "4"});
    std::atomic<int> unexpected{0}, failures{0}, succeeded{0};
    std::array<std::atomic<int>, 5> succeeded_by{};
    // Server-wide resets begun and answered: a team's key may answer 401 only when a reset
    // begun after the team's creation began could have retired it.
    std::atomic<int> resets_begun{0}, resets_answered{0};
    std::atomic<bool> done{false};
    std::vector<std::thread> threads;

    // Two operators: one resets the whole server now and then, one resets its own team in a loop.
    threads.emplace_back([&] {
        try {
            http_connection c(srv.host(), srv.port());
            while (!done) {
                ++resets_begun;
                if (c.post("/_control/reset", "{}").status != 200) ++unexpected;
                ++resets_answered;
                std::this_thread::sleep_for(150ms);
            }
        } catch (...) {
            ++failures;
        }
    });
    for (int w = 0; w < 5; ++w)
        threads.emplace_back([&, w] {
            try {
                http_connection c(srv.host(), srv.port());
                for (int round = 0; round < 12; ++round) {
                    const int answered_before = resets_answered.load();
                    auto created = c.post("/_control/team/create", R"({"seed":)" + std::to_string(w) + "}");
                    if (created.status != 200) {
                        ++unexpected;
                        continue;
                    }
                    const auto auth = bearer(key_of(created));
                    for (const char* path : {"/public/utils/whoami", "/public/webhook/list", "/public/workspace/list",
                                             "/public/workspace/create", "/public/logs/list", "/_control/team/reset",
                                             "/_control/clock/advance", "/public/webhook/create"}) {
                        std::string body = slow_body();
                        if (std::string_view(path) == "/public/workspace/create") body = R"({"name":"w"})";
                        if (std::string_view(path) == "/public/logs/list") body = R"({"category":"team"})";
                        if (std::string_view(path) == "/_control/clock/advance") body = R"({"milliseconds":1000})";
                        if (std::string_view(path) == "/public/webhook/create")
                            body =
                                R"({"url":"http://127.0.0.1:9/x","contentType":"application/json","sslVerify":false,"active":true})";
                        auto r = c.post(path, body, auth);
                        // 200, or 401 once a server-wide reset retired the team; nothing else.
                        if (r.status == 200) {
                            ++succeeded;
                            ++succeeded_by[static_cast<std::size_t>(w)];
                        } else if (r.status != 401 || resets_begun.load() <= answered_before)
                            ++unexpected;
                    }
                }
            } catch (...) {
                ++failures;
            }
        });
    for (std::size_t i = 1; i < threads.size(); ++i) threads[i].join();
    done = true;
    threads[0].join();
    CHECK(failures.load() == 0);
    CHECK(unexpected.load() == 0);
    // Keyed requests succeed, in every suite: a server that answered 401 to every one would fail
    // here. (How many depends on the server's speed: a reset every 150 ms retires the teams, so a
    // sanitized server gets fewer done: 114 of 480 under ASan here.)
    CHECK(succeeded.load() >= 5 * 12 / 2);
    for (const auto& by_suite : succeeded_by) CHECK(by_suite.load() >= 1);
    CHECK(srv.running());
    CHECK(srv.post("/_control/team/create", "{}").status == 200);
}

TEST_CASE("tenancy: health, and a server without control", "[http][server][tenancy]") {
    {
        test_server srv;
        http_connection c(srv.host(), srv.port());
        auto health = c.get("/_control/health");
        CHECK(health.status == 200);
        CHECK(health.json() == boost::json::parse(R"({"status":"ok"})"));
        CHECK(c.post("/_control/health", "{}").status == 405);
    }
    {
        test_server srv({"--no-control"});
        http_connection c(srv.host(), srv.port());
        CHECK(c.get("/_control/health").status == 404);
        for (const char* path : {"/_control/team/create", "/_control/reset", "/_control/clock/now"}) {
            auto r = c.post(path, "{}");
            check_error(r, 404, "INVALID_REQUEST_FORMAT", path, details::none);
        }
        // The public API is there: without a team every key is unknown.
        check_error(c.post("/public/utils/whoami", "{}", bearer("esk_x")), 401, "AUTHENTICATION_ERROR",
                    "/public/utils/whoami", details::none);
    }
}

TEST_CASE("tenancy: the control token over HTTP", "[http][server][tenancy]") {
    test_server srv({"--control-token", "op-1"});
    http_connection c(srv.host(), srv.port());
    check_error(c.post("/_control/team/create", "{}"), 401, "AUTHENTICATION_ERROR", "/_control/team/create",
                details::none);
    check_error(c.post("/_control/team/create", "{}", {{"Authorization", "Basic op-1"}}), 401, "AUTHENTICATION_ERROR",
                "/_control/team/create", details::none);
    auto created = c.post("/_control/team/create", "{}", bearer("op-1"));
    REQUIRE(created.status == 200);
    const auto team_auth = bearer(key_of(created));
    CHECK(c.post("/_control/clock/now", "{}", team_auth).status == 200);
    check_error(c.post("/_control/clock/now", "{}"), 401, "AUTHENTICATION_ERROR", "/_control/clock/now", details::none);
    CHECK(c.post("/_control/clock/now", "{}", bearer("op-1")).status == 200);
    // Health needs nothing.
    CHECK(c.get("/_control/health").status == 200);
}

TEST_CASE("tenancy: --max-connections holds further connections in the backlog while none is idle",
          "[http][server][tenancy]") {
    test_server srv({"--max-connections", "2"});
    // Two connections in the middle of a request (their header read, as 100 Continue shows, the
    // body not sent yet): busy, so never closed to make room (an idle one would be).
    const std::string begin =
        "POST /_control/team/create HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        "Content-Length: 2\r\nExpect: 100-continue\r\n\r\n";
    raw_connection first(srv.host(), srv.port()), second(srv.host(), srv.port());
    first.send(begin);
    second.send(begin);
    REQUIRE(first.receive_until("\r\n\r\n", 5s).find("100 Continue") != std::string::npos);
    REQUIRE(second.receive_until("\r\n\r\n", 5s).find("100 Continue") != std::string::npos);

    // A third completes in the kernel's backlog, and is served only once one of them closes.
    raw_connection third(srv.host(), srv.port());
    third.send("GET /_control/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    const auto sent = std::chrono::steady_clock::now();
    std::thread closer([&] {
        std::this_thread::sleep_for(800ms);
        first.close();
    });
    const std::string answer = third.receive_all(5s);
    const auto waited = std::chrono::steady_clock::now() - sent;
    closer.join();
    CHECK(answer.find("200 OK") != std::string::npos);
    CHECK(waited >= 700ms);
    second.send("{}");  // the open ones were never disturbed
    CHECK(second.receive_until("}", 5s).find("200 OK") != std::string::npos);
}

// contract.md §6.9 and README's limits: the fixture's teams count among --max-teams. A fixture of
// more teams than that stops the start with a message naming both numbers; one of exactly as many
// starts, with no place left for team/create.
TEST_CASE("tenancy: a fixture larger than --max-teams stops the start", "[http][server][tenancy]") {
    std::string teams;
    for (int i = 0; i < 3; ++i)
        teams += std::string(i ? "," : "") + R"({"apiKey":"esk_fixture_team_)" + std::to_string(i) + R"("})";
    temp_file fixture(R"({"teams":[)" + teams + "]}");

    auto r = run_to_exit({"--listen", "127.0.0.1:0", "--fixture", fixture.path, "--max-teams", "2"});
    INFO(r.err);
    CHECK(r.status == 2);
    CHECK(r.out.find("listening on") == std::string::npos);
    CHECK(r.err.find("has 3 teams, more than --max-teams (2)") != std::string::npos);

    test_server srv({"--fixture", fixture.path, "--max-teams", "3"});
    check_error(srv.post("/_control/team/create", "{}"), 429, "TEAM_LIMIT_REACHED", "/_control/team/create",
                details::none);
    CHECK(srv.post("/public/utils/whoami", "{}", {{"Authorization", "Bearer esk_fixture_team_2"}}).status == 200);
}

TEST_CASE("tenancy: --help lists every option", "[http][server][tenancy]") {
    auto r = run_to_exit({"--help"});
    REQUIRE(r.status == 0);
    for (const char* option : {"--listen", "--threads", "--strict", "--public-webhooks-only", "--fixture", "--max-body",
                               "--seed", "--webhook-threads", "--control-token", "--no-control", "--max-connections",
                               "--journal-size", "--self-check", "--documentation-url", "--verbose", "--help"})
        CHECK(r.out.find(option) != std::string::npos);
}

}  // namespace test_server_tenancy
