// SPDX-License-Identifier: BSL-1.0
// Black-box tests of the server's connection timeouts (--header-timeout, --body-timeout,
// --write-timeout; http_session.hpp): each phase of a connection has its own, a connection in
// use is never closed early, and a fault rule's delay is no timeout. Short timeouts here; the
// bounds checked are wide, since a test machine may be slow.
#include "test_support.hpp"

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

namespace test_server_timeouts {

using namespace esign::test;
using namespace std::chrono_literals;

namespace {

using clock_type = std::chrono::steady_clock;

const std::string control_now = "/_control/clock/now";  // no key needed, takes {}
const std::string clock_now_header =
    "POST /_control/clock/now HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n";

std::chrono::milliseconds since(clock_type::time_point start) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(clock_type::now() - start);
}

// How long after `from` the server closed the connection; zero when it did not within 10 s
// (every timeout here is shorter), which fails the callers' lower bounds.
std::chrono::milliseconds closed_after(raw_connection& raw, clock_type::time_point from) {
    if (!raw.closed_by_peer_within(10s)) return std::chrono::milliseconds::zero();
    return since(from);
}

}  // namespace

TEST_CASE("timeouts: each phase of a connection has its own", "[http][transport][timeouts]") {
    test_server srv({"--header-timeout", "500", "--body-timeout", "1500", "--write-timeout", "500"});
    raw_connection raw(srv.host(), srv.port());
    const auto connected = clock_type::now();

    SECTION("a connection that sends nothing closes after --header-timeout") {
        CHECK(closed_after(raw, connected) >= 450ms);
    }
    SECTION("a header that never ends closes after --header-timeout") {
        raw.send(clock_now_header);
        CHECK(closed_after(raw, connected) >= 450ms);
    }
    SECTION("a body that never ends closes after --body-timeout, not --header-timeout") {
        raw.send(clock_now_header + "Content-Length: 10\r\n\r\n{\"a\"");
        CHECK(closed_after(raw, clock_type::now()) >= 1400ms);
    }
    SECTION("an idle keep-alive connection closes after --header-timeout") {
        raw.send(clock_now_header + "Content-Length: 2\r\n\r\n{}");
        CHECK(raw.receive_until("}", 5s).starts_with("HTTP/1.1 200 "));
        CHECK(closed_after(raw, clock_type::now()) >= 450ms);
    }
    SECTION("a fault rule's delay longer than every timeout is waited out") {
        const auto key = srv.new_team().api_key;
        success_body(srv.post("/_control/faults/add",
                              R"({"operation":"/public/utils/whoami","action":"delay","delayMs":2000})", bearer(key)),
                     "faults/add");
        const auto start = clock_type::now();
        auto r = srv.post("/public/utils/whoami", "{}", bearer(key));
        CHECK(r.status == 200);
        CHECK(since(start) >= 2000ms);
    }
}

TEST_CASE("timeouts: a connection in use stays open past every timeout", "[http][transport][timeouts]") {
    // Timeouts of 1.5 s and a request every 100 ms: 1.4 s of slack for a slow machine between
    // two requests, and 4 s in all, longer than every timeout.
    test_server srv({"--header-timeout", "1500", "--body-timeout", "1500", "--write-timeout", "1500"});
    auto c = srv.connect();
    CHECK(c.post(control_now, "{}").status == 200);
    const auto port = c.local_port();
    REQUIRE(port);
    const auto start = clock_type::now();
    while (since(start) < 4000ms) {
        std::this_thread::sleep_for(100ms);
        CHECK(c.post(control_now, "{}").status == 200);
        CHECK(c.local_port() == port);  // still the first connection
    }
}

TEST_CASE("timeouts: an answer the client does not read closes after --write-timeout", "[http][transport][timeouts]") {
    // Pipelined requests for the OpenAPI document, never read, until the answers are more than
    // the socket buffers hold (32 MiB): the server's write then waits on the client. After 2 s
    // without reading, a server with --write-timeout 300 has closed the connection (fewer
    // answers arrive than were asked for); one with the default (30 s) still sends them all.
    for (const bool short_timeout : {true, false}) {
        DYNAMIC_SECTION((short_timeout ? "--write-timeout 300" : "the default write timeout")) {
            std::vector<std::string> args;
            if (short_timeout) args = {"--write-timeout", "300"};
            test_server srv(args);
            auto c = srv.connect();
            const auto one = c.get("/openapi.json");
            REQUIRE(one.status == 200);
            REQUIRE(one.body.size() > 1000);
            const std::size_t wanted = std::min<std::size_t>(2000, (32u << 20) / one.body.size() + 1);
            raw_connection raw(srv.host(), srv.port(), 30s);
            const std::string request = "GET /openapi.json HTTP/1.1\r\nHost: x\r\n\r\n";
            const std::string last = "GET /openapi.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
            for (std::size_t sent = 0; sent < wanted; sent += 100) {
                std::string batch;
                for (std::size_t i = sent; i < std::min(wanted, sent + 100); ++i)
                    batch += i + 1 < wanted ? request : last;
                raw.send(batch);
            }
            std::this_thread::sleep_for(2s);  // the client reads nothing meanwhile
            const std::string got = raw.receive_all(short_timeout ? 10s : 20s);
            std::size_t answers = 0;
            for (auto at = got.find("HTTP/1.1 200 "); at != std::string::npos; at = got.find("HTTP/1.1 200 ", at + 1))
                ++answers;
            INFO("answers " << answers << " of " << wanted << ", " << got.size() << " bytes");
            if (short_timeout)
                CHECK(answers < wanted);
            else
                CHECK(answers == wanted);
        }
    }
}

}  // namespace test_server_timeouts
