// SPDX-License-Identifier: BSL-1.0
// A team's queue in the real server (contract.md §6.1; reference/team/queue.hpp, http_session.hpp):
//   - a request waiting behind a slow request of its team, whose client closes the connection
//     meanwhile, stalls nothing: the server still answers, other teams at once, and the team's
//     later requests once the slow one is done;
//   - SIGTERM while a team's requests wait in its queue ends the server promptly (the waiting
//     requests are dropped, not run one after the other);
//   - a team's reads next to each other run together: a whoami of the team is answered while the
//     team's snapshot of a large state is still being made.
// The slow request is a restore of a state of many contacts (a few seconds of the team's work), or
// the snapshot of that state.
#include "test_support.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace test_server_queue {

using namespace esign::test;
using clock_type = std::chrono::steady_clock;
using namespace std::chrono_literals;

namespace {

constexpr std::size_t slow_contacts = 100'000;  // reference/team/limits.hpp's bound: a valid state

double seconds_since(clock_type::time_point start) {
    return std::chrono::duration<double>(clock_type::now() - start).count();
}

// The body of a restore of `t`'s own snapshot with `slow_contacts` contacts: what the team's
// queue runs for a while.
std::string slow_restore_body(test_server& srv, const team& t) {
    return restore_body_with_contacts(srv, t, slow_contacts);
}

// The bytes of a POST with a team's key.
std::string post_bytes(const std::string& path, const std::string& key, const std::string& body) {
    return "POST " + path + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + key +
           "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

}  // namespace

TEST_CASE("queue: a request waiting behind its team's slow one, its connection closed, stalls nothing",
          "[http][server][queue]") {
    test_server srv({"--threads", "2", "--max-body", "67108864"});
    const team a = srv.new_team();
    const team b = srv.new_team();
    const std::string restore = post_bytes("/_control/team/restore", a.api_key, slow_restore_body(srv, a));
    // A's next whoami waits 300 ms before it joins A's queue: by then the restore, sent whole
    // before it, is in the queue (running), and the whoami waits behind it.
    REQUIRE(srv.post("/_control/faults/add", R"({"operation":"/public/utils/whoami","action":"delay","delayMs":300})",
                     bearer(a.api_key))
                .status == 200);

    raw_connection slow(srv.host(), srv.port(), 120s);
    slow.send(restore);
    std::optional<clock_type::time_point> restored_at;
    std::string restore_answer;
    std::thread reader([&] {
        restore_answer = slow.receive_until("}", 120s);
        restored_at = clock_type::now();
    });
    {
        raw_connection waiting(srv.host(), srv.port());
        waiting.send(post_bytes("/public/utils/whoami", a.api_key, "{}"));
        waiting.close();  // gone while its request waits for the team
    }

    // Another team and the health check are answered meanwhile, before A's restore is.
    const auto asked = clock_type::now();
    http_connection other(srv.host(), srv.port(), 30s);
    CHECK(other.post("/public/utils/whoami", "{}", bearer(b.api_key)).status == 200);
    CHECK(other.get("/_control/health").status == 200);
    const auto b_answered = clock_type::now();
    CHECK(seconds_since(asked) < 5.0);

    // A's later requests are answered once the restore is done (the closed one left no hole).
    http_connection later(srv.host(), srv.port(), 120s);
    const auto who = later.post("/public/utils/whoami", "{}", bearer(a.api_key));
    CHECK(who.status == 200);
    CHECK(string_member(who.json(), "teamUuid") == a.team_uuid);
    reader.join();
    INFO(restore_answer.substr(0, 200));
    CHECK(restore_answer.rfind("HTTP/1.1 200", 0) == 0);
    REQUIRE(restored_at);
    CHECK(b_answered < *restored_at);  // B did not wait for A's restore
    CHECK(srv.post("/public/utils/whoami", "{}", bearer(b.api_key)).status == 200);
}

TEST_CASE("queue: SIGTERM with a team's requests waiting ends the server promptly", "[http][server][queue]") {
    test_server srv({"--threads", "2", "--max-body", "67108864"});
    const team a = srv.new_team();
    const team b = srv.new_team();
    const std::string body = slow_restore_body(srv, a);
    const std::string restore = post_bytes("/_control/team/restore", a.api_key, body);
    // How long one restore takes here (a Debug build, a sanitizer, a loaded machine).
    const auto one_start = clock_type::now();
    {
        http_connection c(srv.host(), srv.port(), 300s);
        REQUIRE(c.post("/_control/team/restore", body, bearer(a.api_key)).status == 200);
    }
    const double one = seconds_since(one_start);
    // Three restores of A (one runs, two wait: each takes the team seconds), then whoamis behind.
    std::vector<raw_connection> held;
    for (int i = 0; i < 3; ++i) {
        held.emplace_back(srv.host(), srv.port(), 120s);
        held.back().send(restore);
    }
    for (int i = 0; i < 4; ++i) {
        held.emplace_back(srv.host(), srv.port(), 120s);
        held.back().send(post_bytes("/public/utils/whoami", a.api_key, "{}"));
    }
    // A round trip of another team: the server has read what came before it.
    CHECK(srv.post("/public/utils/whoami", "{}", bearer(b.api_key)).status == 200);

    const auto stopping = clock_type::now();
    const int status = srv.stop(SIGTERM, std::chrono::seconds(60 + 4 * static_cast<int>(one)));
    const double took = seconds_since(stopping);
    INFO("stopped in " << took << " s; one restore takes " << one << " s");
    CHECK(status == 0);
    // At most the restore under way and the 5 s the server gives its requests, not the three
    // restores in turn (generous slack).
    CHECK(took < one + 20.0);
}

TEST_CASE("queue: a team's reads run together: its whoami is answered while its snapshot is made",
          "[http][server][queue]") {
    test_server srv({"--threads", "2", "--max-body", "67108864"});
    const team a = srv.new_team();
    {
        http_connection c(srv.host(), srv.port(), 300s);
        // (Last names of 300 characters with quotes: each escaped as written, the snapshot's
        // slowest part, about half a second of it in the gcc tree; a plain one is 20 times faster.)
        std::string quoted;
        for (int i = 0; i < 30; ++i) quoted += "ab\"cdefghi";
        REQUIRE(c.post("/_control/team/restore", restore_body_with_contacts(srv, a, slow_contacts, quoted),
                       bearer(a.api_key))
                    .status == 200);
    }
    // How long making the snapshot of that state takes here (a Debug build, a sanitizer, a loaded
    // machine): until its answer's head arrives (what follows is the transfer of its body).
    const std::string snapshot = post_bytes("/_control/team/snapshot", a.api_key, "{}");
    // A request of the team that makes its indexes, which a restore leaves to be made at first use
    // (under the team's exclusive lock: a whoami that came first would wait for the snapshot).
    REQUIRE(srv.post("/public/utils/whoami", "{}", bearer(a.api_key)).status == 200);
    // (The median of three: the first is the slowest.)
    std::vector<double> times;
    for (int i = 0; i < 3; ++i) {
        raw_connection alone(srv.host(), srv.port(), 120s);
        const auto one_start = clock_type::now();
        alone.send(snapshot);
        REQUIRE(alone.receive_until("\r\n\r\n", 120s).rfind("HTTP/1.1 200", 0) == 0);
        times.push_back(seconds_since(one_start));
    }
    std::sort(times.begin(), times.end());
    const double one = times[1];
    INFO("one snapshot takes " << one << " s");
    // Long enough to be caught running: tens of milliseconds in the gcc tree (the text goes to a
    // file as it is written, at about a gigabyte a second), several times that under a sanitizer.
    REQUIRE(one > 0.005);

    // The whoami joins A's queue a quarter of a snapshot after it is sent (a fault rule's delay
    // is waited before the queue): by then the snapshot, sent first, is running.
    const int delay_ms = std::max(1, static_cast<int>(one * 250));
    REQUIRE(
        srv.post("/_control/faults/add",
                 R"({"operation":"/public/utils/whoami","action":"delay","delayMs":)" + std::to_string(delay_ms) + "}",
                 bearer(a.api_key))
            .status == 200);
    // Together, the whoami is answered about three quarters of a snapshot before it; a serial
    // queue answers it only after the snapshot is made (so never a tenth of one before). Up to
    // three tries: a busy machine may wake the whoami's timer late, after the snapshot (a serial
    // queue fails all three).
    double ahead = 0;
    for (int attempt = 0; attempt < 3 && !(ahead > one / 10); ++attempt) {
        raw_connection slow(srv.host(), srv.port(), 120s);
        slow.send(snapshot);
        std::optional<clock_type::time_point> snapshot_at;  // its answer's head: the snapshot is made
        std::thread reader([&] {
            if (slow.receive_until("\r\n\r\n", 120s).rfind("HTTP/1.1 200", 0) == 0) snapshot_at = clock_type::now();
        });
        http_connection c(srv.host(), srv.port(), 120s);
        const auto who = c.post("/public/utils/whoami", "{}", bearer(a.api_key));
        const auto who_at = clock_type::now();
        reader.join();
        CHECK(who.status == 200);
        REQUIRE(snapshot_at);
        ahead = std::chrono::duration<double>(*snapshot_at - who_at).count();
        UNSCOPED_INFO("try " << attempt << ": whoami answered " << ahead << " s before the snapshot");
    }
    CHECK(ahead > one / 10);
}

}  // namespace test_server_queue
