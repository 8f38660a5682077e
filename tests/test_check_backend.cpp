// SPDX-License-Identifier: BSL-1.0
// esign::check on what the reference backend answers (issue 17): a scenario of typed calls
// (backend.call), each request checked before it goes, each response checked as it comes back.
// check must find nothing in a valid response, whatever its type (the journal and the snapshot
// carry boost::json values).
#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include <esign/esign.hpp>
#include <esign/reference/backend.hpp>

#include "../fuzz/value_generator.hpp"

namespace test_check_backend {

namespace {

using namespace esign;

// Checks `request`, calls the backend with it, and checks the response; gives the response.
template <class Request>
auto call_checked(reference::backend& b, std::optional<std::string_view> key, const Request& request) {
    INFO(fmt::format("{}", all_operations.get<operation_index_of<Request>()>().path));
    const auto request_problems = check(request);
    INFO("request:" << esign_fuzz::describe(request_problems.problems()));
    REQUIRE(request_problems);
    auto reply = b.call(key, request);
    INFO("answer: " << reply.raw.body);
    REQUIRE(reply);
    const auto response_problems = check(*reply.response);
    INFO("response:" << esign_fuzz::describe(response_problems.problems()));
    CHECK(response_problems);
    CHECK(esign_fuzz::check_against_read(*reply.response).empty());
    return std::move(*reply.response);
}

}  // namespace

TEST_CASE("check: every response of a scenario on the reference backend is valid", "[check]") {
    reference::backend_options options;
    options.wall_clock = [] { return std::int64_t{1'800'000'000'000}; };
    options.seed = 17;
    reference::backend b(options);

    control_team_create_request new_team;
    new_team.profile.name = "check";
    new_team.seed = 17;
    new_team.startTime = 1'700'000'000'000;
    const auto team = call_checked(b, std::nullopt, new_team);
    const std::string key = team.apiKey;

    call_checked(b, key, utils_whoami_request{});
    call_checked(b, key, workspace_list_request{});
    workspace_create_request workspace;
    workspace.name = "Legal";
    workspace.colorHex = hex_color::make("#228be6").value();
    call_checked(b, key, workspace);

    control_envelope_create_request create;
    create.content.title = "Contract";
    create.content.documents = {control_document_input{"contract.pdf", 2}};
    create.content.tags = std::vector<std::string>{"q4"};
    const auto created = call_checked(b, key, create);

    envelope_add_recipients_request add;
    add.envelopeUuid = uuid36::make(created.envelopeUuid).value();
    for (int i = 0; i < 3; ++i) {
        add_recipients_item item;
        item.email = email128::make(fmt::format("signer{}@example.com", i)).value();
        item.firstname = "First";
        item.lastname = fmt::format("Last{}", i);
        if (i == 2) {
            item.verificationType = verification_type::sms;
            item.phone = "+33612345678";
        }
        add.recipients.push_back(item);
    }
    call_checked(b, key, add);

    envelope_add_blocks_request blocks;
    blocks.envelopeUuid = add.envelopeUuid;
    blocks.documentUuid = uuid36::make(created.documentUuids.at(0)).value();
    blocks.blocks.resize(2);
    for (std::size_t i = 0; i < 2; ++i) {
        blocks.blocks[i].page = page_key::make(std::to_string(i + 1)).value();
        blocks.blocks[i].x = 10.5;
        blocks.blocks[i].y = 20.25;
        blocks.blocks[i].recipientEmail = email_address("signer0@example.com");
        blocks.blocks[i].text = "Sign here";
    }
    call_checked(b, key, blocks);

    envelope_update_request update;
    update.envelopeUuid = add.envelopeUuid;
    update.update.title = bounded_string<0, 255>("Contract (final)");
    update.update.expirationPeriod = ranged<1, 90>::make(30).value();
    update.update.customInvitationMessage.emplace();  // null: cleared
    call_checked(b, key, update);

    envelope_get_request get;
    get.envelopeUuid = add.envelopeUuid;
    call_checked(b, key, get);
    envelope_send_request send;
    send.envelopeUuid = add.envelopeUuid;
    call_checked(b, key, send);
    control_recipient_act_request act;
    act.envelopeUuid = add.envelopeUuid;
    act.email = "signer0@example.com";
    act.action = recipient_action::open;
    call_checked(b, key, act);
    call_checked(b, key, get);

    contact_create_request contacts;
    contacts.contacts.resize(1);
    contacts.contacts[0].email = "contact@example.com";
    contacts.contacts[0].firstname = "Con";
    contacts.contacts[0].lastname = "Tact";
    call_checked(b, key, contacts);
    call_checked(b, key, contact_list_request{});
    call_checked(b, key, envelope_list_request{});
    call_checked(b, key, logs_list_request{});
    control_clock_advance_request advance;
    advance.milliseconds = 86'400'000;
    call_checked(b, key, advance);
    call_checked(b, key, control_outbox_list_request{});
    call_checked(b, key, control_faults_list_request{});
    const auto journal = call_checked(b, key, control_journal_list_request{});
    CHECK(journal.entries.size() > 10);
    const auto snapshot = call_checked(b, key, control_team_snapshot_request{});
    CHECK_FALSE(snapshot.team.empty());
}

TEST_CASE("self-check: a response that breaks its type is reported and answered with INTERNAL_SERVER_ERROR",
          "[check][self-check]") {
    const rules::error_context ctx{"/_control/outbox/list", "0f2c1d3e-4b5a-4c6d-8e7f-901234567890", 1'800'000'000'000};
    std::vector<std::string> reports;
    const reference::self_check_report report = [&](std::string_view text) { reports.emplace_back(text); };

    control_outbox_list_response good;
    good.emails.push_back(outbox_email{"a@example.com", outbox_kind::invitation, "e", "t", 1});
    CHECK_FALSE(reference::self_check(good, ctx, report));
    CHECK(reports.empty());

    // An enumerator outside the enum and a string that is not UTF-8: what a client's read refuses.
    control_outbox_list_response bad = good;
    bad.emails.push_back(outbox_email{"b@example.com", static_cast<outbox_kind>(99), "e", "t", 2});
    bad.emails[0].to = "a\xff@example.com";
    const auto instead = reference::self_check(bad, ctx, report);
    REQUIRE(instead);
    CHECK(instead->statusCode == 500);
    CHECK(instead->error.code == error_code::INTERNAL_SERVER_ERROR);
    CHECK(instead->error.message ==
          "The response failed the server's self-check: emails[0].to: must be valid UTF-8 (syntax)");
    CHECK_FALSE(instead->error.details);
    CHECK(instead->requestId == ctx.request_id);
    CHECK(instead->path == ctx.path);
    CHECK(instead->timestamp == "2027-01-15T08:00:00.000Z");
    REQUIRE(reports.size() == 1);  // every problem, in one report
    CHECK(reports[0] ==
          "esign self-check: the response to /_control/outbox/list breaks its type (2 problems):\n"
          "  emails[0].to: must be valid UTF-8 (syntax)\n"
          "  emails[1].kind: must be one of: invitation, reminder (enum_value)");
    // The problems check gives.
    CHECK(check(bad).problems().size() == 2);
}

TEST_CASE("self-check: the backend answers the same bytes with it as without it", "[check][self-check]") {
    // Two backends, the same seed and clock: every reply of a scenario is the same (but the
    // credentials, which never come from a seed), so the check neither refuses a valid response
    // nor changes one.
    std::vector<std::string> reports;
    auto options = [&](bool self_check) {
        reference::backend_options o;
        o.wall_clock = [] { return std::int64_t{1'800'000'000'000}; };
        o.seed = 5;
        o.self_check = self_check;
        o.self_check_log = [&](std::string_view text) { reports.emplace_back(text); };
        return o;
    };
    reference::backend plain(options(false)), checked(options(true));
    auto team_plain = plain.handle("/_control/team/create", std::nullopt, R"({"name":"self","seed":3})");
    auto team_checked = checked.handle("/_control/team/create", std::nullopt, R"({"name":"self","seed":3})");
    REQUIRE(team_plain.status == 200);
    REQUIRE(team_checked.status == 200);
    auto key_of = [](const reference::reply& r) {
        return std::string(boost::json::parse(r.body).at("apiKey").as_string());
    };
    const std::string key_plain = key_of(team_plain), key_checked = key_of(team_checked);
    auto both = [&](std::string_view path, bool with_key, std::string_view body) {
        auto a = plain.handle(path, with_key ? std::optional<std::string_view>(key_plain) : std::nullopt, body);
        auto b = checked.handle(path, with_key ? std::optional<std::string_view>(key_checked) : std::nullopt, body);
        INFO(path << " " << body);
        CHECK(a.status == b.status);
        CHECK(a.body == b.body);
        CHECK(a.request_id == b.request_id);
        return b;
    };
    CHECK(both("/public/utils/whoami", true, "{}").status == 200);
    CHECK(both("/_control/envelope/create", true, R"({"title":"Lease","documents":[{"title":"Main","pageCount":2}]})")
              .status == 200);
    CHECK(both("/public/envelope/list", true, "{}").status == 200);
    CHECK(both("/public/envelope/get", true, R"({"envelopeUuid":"not-a-uuid"})").status == 400);  // an error body
    CHECK(both("/public/logs/list", true, R"({"category":"envelope"})").status == 200);
    CHECK(both("/_control/outbox/list", true, "{}").status == 200);
    CHECK(both("/_control/team/snapshot", true, "{}").status == 200);
    CHECK(both("/_control/clock/now", false, "{}").status == 200);
    CHECK(both("/nope", true, "{}").status == 404);
    CHECK(reports.empty());
}

}  // namespace test_check_backend
