// SPDX-License-Identifier: BSL-1.0
// Black-box tests of the server's connection timeouts (--header-timeout, --body-timeout,
// --write-timeout; http_session.hpp): each phase of a connection has its own, a connection in
// use is never closed early, and a fault rule's delay is no timeout. Short timeouts here; the
// bounds checked are wide, since a test machine may be slow.
#include "test_support.hpp"

#include <chrono>
#include <string>
#include <thread>

namespace test_server_timeouts {

using namespace esign::test;
using namespace std::chrono_literals;

namespace {

using clock_type = std::chrono::steady_clock;

const std::string control_now = "/_control/clock/now";  // no key needed, takes {}

std::chrono::milliseconds since(clock_type::time_point start) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(clock_type::now() - start);
}

}  // namespace

TEST_CASE("timeouts: each phase of a connection has its own", "[http][transport][timeouts]") {
    test_server srv({"--header-timeout", "500", "--body-timeout", "1500", "--write-timeout", "500"});

    SECTION("a connection that sends nothing closes after --header-timeout") {
        const auto start = clock_type::now();
        raw_connection raw(srv.host(), srv.port());
        CHECK(raw.closed_by_peer_within(10s));
        CHECK(since(start) >= 450ms);
    }
    SECTION("a header that never ends closes after --header-timeout") {
        const auto start = clock_type::now();
        raw_connection raw(srv.host(), srv.port());
        raw.send("POST /_control/clock/now HTTP/1.1\r\nHost: x\r\n");
        CHECK(raw.closed_by_peer_within(10s));
        CHECK(since(start) >= 450ms);
    }
    SECTION("a body that never ends closes after --body-timeout, not --header-timeout") {
        raw_connection raw(srv.host(), srv.port());
        raw.send(
            "POST /_control/clock/now HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            "Content-Length: 10\r\n\r\n{\"a\"");
        const auto header_sent = clock_type::now();
        CHECK(raw.closed_by_peer_within(10s));
        CHECK(since(header_sent) >= 1400ms);
    }
    SECTION("an idle keep-alive connection closes after --header-timeout") {
        raw_connection raw(srv.host(), srv.port());
        raw.send(
            "POST /_control/clock/now HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            "Content-Length: 2\r\n\r\n{}");
        const auto got = raw.receive_until("}", 5s);
        const auto answered = clock_type::now();
        CHECK(got.starts_with("HTTP/1.1 200 "));
        CHECK(raw.closed_by_peer_within(10s));
        CHECK(since(answered) >= 450ms);
    }
    SECTION("a connection in use stays open past every timeout") {
        auto c = srv.connect();
        CHECK(c.post(control_now, "{}").status == 200);
        const auto port = c.local_port();
        REQUIRE(port);
        const auto start = clock_type::now();
        while (since(start) < 2000ms) {  // longer than every timeout, a request every 200 ms
            std::this_thread::sleep_for(200ms);
            CHECK(c.post(control_now, "{}").status == 200);
            CHECK(c.local_port() == port);
        }
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

}  // namespace test_server_timeouts
