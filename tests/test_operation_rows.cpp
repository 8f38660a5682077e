// SPDX-License-Identifier: BSL-1.0
// An operation is one row and one handler (issue 41): the row's kind gives its calling facts, the
// draft-only rule reads the rows, every row has a handler (checked at compile time), and the
// backend runs a request from the route it found once.
#include "backend_support.hpp"

#include <set>
#include <string_view>

#include <esign/model/operations.hpp>
#include <esign/rules/status_rules.hpp>

namespace test_operation_rows {

using namespace backend_support;
using esign::error_code;
using esign::operation_access;

namespace {

// A request that no handler takes.
struct orphan_request {};

}  // namespace

TEST_CASE("operation rows: the calling facts follow from the kind", "[operation-rows]") {
    using esign::operation;
    const operation<esign::utils_whoami_request, esign::utils_whoami_response> team_row{
        "/x", operation_access::team, {}};
    CHECK(team_row.needs_api_key);
    CHECK_FALSE(team_row.is_control);
    const operation<esign::utils_whoami_request, esign::utils_whoami_response> team_control{
        "/x", operation_access::team_control, {}};
    CHECK(team_control.needs_api_key);
    CHECK(team_control.is_control);
    for (auto access : {operation_access::team_or_server, operation_access::server}) {
        const operation<esign::utils_whoami_request, esign::utils_whoami_response> row{"/x", access, {}};
        CHECK_FALSE(row.needs_api_key);
        CHECK(row.is_control);
        CHECK(esign::operator_may_call(access));
    }
    // A signer's page: no API key, no control operation, neither a team's nor the operator's.
    const operation<esign::utils_whoami_request, esign::utils_whoami_response> signer_row{
        "/embeds/x", operation_access::signer, {}};
    CHECK_FALSE(signer_row.needs_api_key);
    CHECK_FALSE(signer_row.is_control);
    CHECK_FALSE(esign::team_may_call(operation_access::signer));
    CHECK_FALSE(esign::operator_may_call(operation_access::signer));
    CHECK_FALSE(esign::operator_may_call(operation_access::team_control));
    CHECK(esign::team_may_call(operation_access::team_or_server));
}

TEST_CASE("operation rows: a draft-only row may answer ENVELOPE_NOT_IN_DRAFT, and is the rule's", "[operation-rows]") {
    const esign::operation<esign::utils_whoami_request, esign::utils_whoami_response> marked{
        "/x", operation_access::team, {error_code::ENVELOPE_NOT_FOUND}, {.draft_only = true}};
    CHECK(marked.draft_only);
    CHECK(marked.errors.contains(error_code::ENVELOPE_NOT_IN_DRAFT));
    CHECK(marked.errors.contains(error_code::ENVELOPE_NOT_FOUND));

    std::set<std::string_view> draft_only_rows;
    esign::for_each_operation([&](const auto& op) {
        INFO(op.path);
        CHECK(op.draft_only == op.errors.contains(error_code::ENVELOPE_NOT_IN_DRAFT));
        CHECK(esign::rules::is_draft_only(op.path) == op.draft_only);
        if (op.draft_only) draft_only_rows.insert(op.path);
    });
    CHECK(draft_only_rows.size() == 8);
    CHECK(std::set<std::string_view>(esign::rules::draft_only_operations.begin(),
                                     esign::rules::draft_only_operations.end()) == draft_only_rows);
}

TEST_CASE("operation rows: every row has its handler, found by the request's type", "[operation-rows]") {
    using esign::reference::backend;
    STATIC_REQUIRE(esign::reference::detail::every_row_has_a_handler<esign::all_operations>());
    // Ordinary, harness and the backend's own team entries; the operator's overloads.
    STATIC_REQUIRE(backend::runs_for_team<esign::envelope_get_request>);
    STATIC_REQUIRE(backend::runs_for_team<esign::control_faults_add_request>);
    STATIC_REQUIRE(backend::runs_for_team<esign::control_team_reset_request>);
    STATIC_REQUIRE(backend::runs_for_team<esign::control_team_snapshot_request>);
    STATIC_REQUIRE(backend::runs_for_team<esign::control_team_restore_request>);
    STATIC_REQUIRE(backend::runs_for_operator<esign::control_reset_request>);
    STATIC_REQUIRE(backend::runs_for_operator<esign::control_webhook_deliveries_request>);
    STATIC_REQUIRE_FALSE(backend::runs_for_operator<esign::envelope_get_request>);  // a team's only
    STATIC_REQUIRE_FALSE(backend::runs_for_team<esign::control_reset_request>);     // the operator's only
    STATIC_REQUIRE_FALSE(backend::runs_for_team<orphan_request>);
    STATIC_REQUIRE_FALSE(backend::runs_for_operator<orphan_request>);
}

TEST_CASE("operation rows: the route found once carries the row, and runs it", "[operation-rows]") {
    backend b(fixed_clock(41));
    const auto* route = b.find_route("/public/utils/whoami");
    REQUIRE(route != nullptr);
    CHECK(route == b.find_route("/public/utils/whoami"));  // one route per operation, for the backend's life
    CHECK(route->path == "/public/utils/whoami");
    CHECK(route->access == operation_access::team);
    CHECK(route->read_only);
    CHECK(route->is_public);
    CHECK(b.find_route("/public/utils/whoami/") == nullptr);

    const auto* reset = b.find_route("/_control/team/reset");
    REQUIRE(reset != nullptr);
    CHECK(reset->access == operation_access::team_control);
    CHECK_FALSE(reset->read_only);
    CHECK_FALSE(reset->is_public);

    auto t = make_team(b);
    auto who = b.authenticate(*route, std::string_view{t.key});
    REQUIRE(who);
    CHECK(who->team != nullptr);
    const auto by_route = b.handle(*route, *who, "{}");
    const auto by_path = b.handle("/public/utils/whoami", std::optional<std::string_view>{t.key}, "{}");
    CHECK(by_route.status == 200);
    CHECK(by_path.status == 200);
    // The same answer but for its request id (the team's stream moved on).
    CHECK(bj::parse(by_route.body).at("teamUuid") == bj::parse(by_path.body).at("teamUuid"));
    CHECK_FALSE(b.authenticate(*route, std::nullopt));
}

TEST_CASE("operation rows: a signer's row needs no credentials, and acts for no team", "[operation-rows]") {
    using esign::reference::backend;
    backend b(fixed_clock(42));
    auto t = make_team(b);
    const backend::route signer{"/embeds/x", operation_access::signer, false, false, nullptr};
    for (std::optional<std::string_view> credentials :
         {std::optional<std::string_view>{}, std::optional<std::string_view>{t.key},
          std::optional<std::string_view>{"not-a-key"}}) {
        auto who = b.authenticate(signer, credentials);
        REQUIRE(who);
        CHECK(who->team == nullptr);  // not the team's queue: it runs on the calling thread
    }
}

}  // namespace test_operation_rows
