// SPDX-License-Identifier: BSL-1.0
// Black-box tests of which queued webhook deliveries a reset drops (contract.md §6.3, §6.9):
// after /_control/reset or /_control/team/reset answers, no delivery queued before it is
// attempted, a delivery queued after it always is, and another team's deliveries are untouched.
//
// How a delivery is kept queued without a stopwatch: the server runs one sender thread, and a
// receiver that never answers holds it in an attempt (until the server's 5 s answer timeout),
// so what is queued meanwhile waits; the receiver also tells whether the server gave up on that
// attempt, which proves the thread was still held when the reset answered. Once freed, the
// thread serves teams in turn (or, were it otherwise, in the order jobs fell due, the older
// first): either way a team's second delivery cannot come before a job that another team queued
// earlier, so the second arrival proves that every such job had its turn.
#include "hook_receiver.hpp"
#include "test_support.hpp"

#include <chrono>
#include <string>

namespace test_server_deliveries {

using namespace esign::test;
using namespace std::chrono_literals;
using boost::json::array;
using boost::json::object;

namespace {

// A team with a webhook on every event to `url`; `envelope()` queues one delivery to it.
struct hooked_team {
    api_caller api;
    std::string webhook;

    hooked_team(test_server& srv, const std::string& url) : api{srv, srv.new_team().api_key} {
        webhook = string_member(
            api.ok("/public/webhook/create",
                   object{{"url", url}, {"contentType", "application/json"}, {"sslVerify", false}, {"active", true}})
                .at("webhook"),
            "uuid");
        REQUIRE(is_lowercase_uuid(webhook));
    }

    void envelope() {
        api.ok("/_control/envelope/create",
               object{{"title", "t"}, {"documents", array{object{{"title", "d"}, {"pageCount", 1}}}}});
    }

    // The deliveries queued and not attempted yet (the team's snapshot holds them).
    std::size_t pending() {
        const auto pending = at(api.ok("/_control/team/snapshot", object{}), "/team/state/pending_deliveries");
        return pending.is_array() ? pending.as_array().size() : 0;
    }
};

// The server's only sender thread, held in an attempt to `hanging` (a team of its own).
void hold_the_sender(test_server& srv, hook_receiver& hanging) {
    hooked_team holder(srv, hanging.url());
    holder.envelope();
    REQUIRE(hanging.wait_for(1, 10s));
}

}  // namespace

TEST_CASE("deliveries: a server-wide reset drops what was queued before it, not what comes after",
          "[http][webhooks][reset]") {
    hook_receiver hanging({200, 0, true});
    hook_receiver before_rx;
    hook_receiver after_rx;
    test_server srv({"--webhook-threads", "1"});
    hold_the_sender(srv, hanging);

    hooked_team old_team(srv, before_rx.url());
    old_team.envelope();
    old_team.envelope();
    REQUIRE(old_team.pending() == 2);  // queued behind the held attempt
    {
        INFO("the held attempt ended before the reset: the test machine took over 5 s for a few requests");
        REQUIRE(hanging.hung_up() == 0);
    }
    control_ok(srv, "/_control/reset");

    // A team made after the reset: both its deliveries arrive, the second only after every job
    // the old team had queued would have had its turn.
    hooked_team new_team(srv, after_rx.url());
    new_team.envelope();
    new_team.envelope();
    REQUIRE(after_rx.wait_for(2, 30s));
    CHECK(before_rx.requests().empty());
    // The operator sees the new team's records only (the old team went with the reset).
    const auto records = control_ok(srv, "/_control/webhook/deliveries").at("deliveries").as_array();
    REQUIRE(records.size() == 2);
    for (const auto& d : records) CHECK(string_member(d, "webhookUuid") == new_team.webhook);
}

TEST_CASE("deliveries: a team reset keeps another team's queued deliveries", "[http][webhooks][reset][tenancy]") {
    hook_receiver hanging({200, 0, true});
    hook_receiver reset_rx;
    hook_receiver other_rx;
    test_server srv({"--webhook-threads", "1"});
    hold_the_sender(srv, hanging);

    hooked_team reset(srv, reset_rx.url());
    hooked_team other(srv, other_rx.url());
    reset.envelope();
    other.envelope();
    other.envelope();
    REQUIRE(reset.pending() == 1);
    REQUIRE(other.pending() == 2);
    {
        INFO("the held attempt ended before the reset: the test machine took over 5 s for a few requests");
        REQUIRE(hanging.hung_up() == 0);
    }
    REQUIRE(reset.api.call("/_control/team/reset", object{}).status == 200);
    CHECK(reset.pending() == 0);
    CHECK(other.pending() == 2);  // still queued, and then attempted:

    REQUIRE(other_rx.wait_for(2, 30s));
    CHECK(reset_rx.requests().empty());
    const auto records = other.api.ok("/_control/webhook/deliveries", object{{"webhookUuid", other.webhook}});
    CHECK(records.at("deliveries").as_array().size() == 2);
    // Attempted, and delivered (the receiver answers 200).
    CHECK(eventually(
        [&] {
            const auto now = other.api.ok("/_control/webhook/deliveries", object{{"webhookUuid", other.webhook}});
            std::int64_t delivered = 0;
            for (const auto& d : now.at("deliveries").as_array()) delivered += d.at("delivered") == true ? 1 : 0;
            return delivered == 2;
        },
        10s));
}

}  // namespace test_server_deliveries
