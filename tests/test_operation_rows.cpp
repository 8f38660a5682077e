// SPDX-License-Identifier: BSL-1.0
// An operation is one row and one handler (issue 41): the row's kind gives its calling facts, the
// draft-only rule reads the rows, every row has a handler (checked at compile time), and the
// backend runs a request from the route it found once; records map to their resources by one
// naming rule.
#include "backend_support.hpp"

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <esign/model/operations.hpp>
#include <esign/reference/backend/dispatch.hpp>  // every_row_has_a_handler, runs_for_team
#include <esign/reference/store/views.hpp>
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
    STATIC_REQUIRE(backend::runs_for_team<esign::envelope_get_request>());
    STATIC_REQUIRE(backend::runs_for_team<esign::control_faults_add_request>());
    STATIC_REQUIRE(backend::runs_for_team<esign::control_team_reset_request>());
    STATIC_REQUIRE(backend::runs_for_team<esign::control_team_snapshot_request>());
    STATIC_REQUIRE(backend::runs_for_team<esign::control_team_restore_request>());
    STATIC_REQUIRE(backend::runs_for_operator<esign::control_reset_request>());
    STATIC_REQUIRE(backend::runs_for_operator<esign::control_webhook_deliveries_request>());
    STATIC_REQUIRE_FALSE(backend::runs_for_operator<esign::envelope_get_request>());  // a team's only
    STATIC_REQUIRE_FALSE(backend::runs_for_team<esign::control_reset_request>());     // the operator's only
    STATIC_REQUIRE_FALSE(backend::runs_for_team<orphan_request>());
    STATIC_REQUIRE_FALSE(backend::runs_for_operator<orphan_request>());
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

// =============================================================================================
// Records and resources: a record's member is its resource's under its snake_case name, once for
// every record (store/views.hpp copy_record); a view is copy_record plus what it computes.

TEST_CASE("operation rows: records map to resources by one naming rule", "[operation-rows][records]") {
    using esign::reference::detail::names_same_member;
    STATIC_REQUIRE(names_same_member("creation_date", "creationDate"));
    STATIC_REQUIRE(names_same_member("use_user_as_sender_name", "useUserAsSenderName"));
    STATIC_REQUIRE(names_same_member("uuid", "uuid"));
    STATIC_REQUIRE_FALSE(names_same_member("reminder_frequency", "reminderFrequencyPeriod"));
    STATIC_REQUIRE_FALSE(names_same_member("creation_date", "creationdate"));
    STATIC_REQUIRE_FALSE(names_same_member("is_default", "isDefaultX"));
    STATIC_REQUIRE_FALSE(names_same_member("is_default", "is"));

    esign::reference::workspace_record ws;
    ws.uuid = "w";
    ws.team_uuid = "t";
    ws.name = "Sales";
    ws.color_hex = "#112233";
    ws.is_default = true;
    ws.sandbox = true;
    ws.creation_date = 5;
    ws.update_date = 7;
    const auto w = esign::reference::workspace_view(ws);
    CHECK(w.uuid == "w");
    CHECK(w.name == "Sales");
    CHECK(w.colorHex == "#112233");
    CHECK(w.isDefault);
    CHECK(w.sandbox);
    CHECK(w.creationDate == 5);
    CHECK(w.updateDate == 7);
    CHECK(w.membersCount == 1);

    esign::reference::envelope_record env;
    env.uuid = "e";
    env.workspace_uuid = "w";
    env.title = "Contract";
    env.status = esign::envelope_status::signing;
    env.creation_date = 1;
    env.update_date = 2;
    env.sent_date = 3;
    env.tags = {"a"};
    env.signature_order = true;
    env.custom_message = "hi";
    env.use_user_as_sender_name = true;
    env.timestamp_enabled = false;
    env.expiration_period = 12;
    env.reminder_frequency = 4;
    env.documents.push_back({esign::document{}, true});  // an attachment: not a document of the view
    esign::reference::team_record team;
    const auto e = esign::reference::full_view(env, team);
    CHECK(e.uuid == "e");
    CHECK(e.title == "Contract");
    CHECK(e.status == esign::envelope_status::signing);
    CHECK(e.creationDate == 1);
    CHECK(e.updateDate == 2);
    CHECK(e.sentDate.value_or(0) == 3);
    CHECK(e.tags == std::vector<std::string>{"a"});
    CHECK(e.signatureOrder);
    CHECK(e.customMessage.value_or("") == "hi");
    CHECK(e.useUserAsSenderName);
    CHECK_FALSE(e.timestampEnabled);
    CHECK(e.expirationPeriod == 12);
    CHECK(e.reminderFrequencyPeriod.value_or(0) == 4);
    CHECK(e.documents.empty());
    CHECK(e.attachments.size() == 1);
    const auto s = esign::reference::summary_view(env, team);
    CHECK(s.workspaceUuid == "w");
    CHECK(s.sentDate.value_or(0) == 3);
}

}  // namespace test_operation_rows
