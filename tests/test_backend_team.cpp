// SPDX-License-Identifier: BSL-1.0
// The team domain of the reference backend, driven in-process exactly like a client would:
// workspaces, contacts, webhooks, templates, logs, and the team control operations.
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/json.hpp>
#include <catch2/catch.hpp>

#include "backend_support.hpp"

namespace test_backend_team {

namespace {

using namespace backend_support;

// A clock the test moves (even backwards, to tell insertion order from timestamp order).
struct test_clock {
    std::shared_ptr<std::int64_t> now = std::make_shared<std::int64_t>(start_ms);
    backend_options options(bool public_webhooks_only = false) const {
        backend_options o;
        o.wall_clock = [t = now] { return *t; };
        o.public_webhooks_only = public_webhooks_only;
        o.self_check = true;
        return o;
    }
    void set(std::int64_t ms) const { *now = ms; }
};

std::string make_workspace(backend& b, const team& t, std::string name) {
    auto a = post(b, "/public/workspace/create", t.key, {{"name", name}});
    REQUIRE(a.status == 200);
    return std::string(a.body.at("workspace").at("uuid").as_string());
}

std::string make_envelope(backend& b, const team& t, std::optional<std::string> ws = std::nullopt) {
    bj::object body{{"title", "Contract"}, {"documents", bj::array{bj::object{{"title", "c.pdf"}, {"pageCount", 2}}}}};
    if (ws) body["workspaceUuid"] = *ws;
    auto a = post(b, "/_control/envelope/create", t.key, body);
    REQUIRE(a.status == 200);
    return std::string(a.body.at("envelopeUuid").as_string());
}

std::string make_webhook(backend& b, const team& t, bj::object extra = {}) {
    auto a = post(b, "/public/webhook/create", t.key, webhook_body(std::move(extra)));
    REQUIRE(a.status == 200);
    return std::string(a.body.at("webhook").at("uuid").as_string());
}

bj::object contact(std::string email, std::string first = "Ann", std::string last = "Lee") {
    return bj::object{{"email", email}, {"firstname", first}, {"lastname", last}};
}

// The event types of the team's logs of `category`, in insertion order.
std::vector<std::string> events(backend& b, const team& t, std::string category = "team") {
    auto a = post(b, "/public/logs/list", t.key, {{"category", category}, {"sortBy", "id"}, {"sortOrder", "asc"}});
    REQUIRE(a.status == 200);
    return strings_at(a.body.at("logs"), "eventType");
}

bj::object pagination(std::int64_t total, std::int64_t page, std::int64_t pages, std::optional<std::int64_t> next,
                      std::optional<std::int64_t> prev) {
    bj::object p{{"totalRecords", total}, {"currentPage", page}, {"totalPages", pages}};
    p["nextPage"] = next ? bj::value(*next) : bj::value(nullptr);
    p["prevPage"] = prev ? bj::value(*prev) : bj::value(nullptr);
    return p;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Team control operations

TEST_CASE("team/create: defaults, the default workspace, and its two logs", "[backend][team]") {
    test_clock clock;
    backend b(clock.options());
    const team t = make_team(b);

    CHECK(t.key.rfind("esk_", 0) == 0);
    CHECK(t.key.size() == 44);
    CHECK(t.uuid.size() == 36);
    CHECK(t.owner_email == "owner-" + t.uuid.substr(0, 8) + "@example.com");

    auto who = post(b, "/public/utils/whoami", t.key);
    REQUIRE(who.status == 200);
    CHECK(who.body == bj::value{{"teamUuid", t.uuid},
                                {"teamName", "Team 1"},
                                {"ownerEmail", t.owner_email},
                                {"ownerUuid", t.owner_uuid}});
    CHECK(post(b, "/public/utils/whoami", make_team(b).key).body.at("teamName") == "Team 2");

    auto ws = post(b, "/public/workspace/get", t.key, {{"workspaceUuid", t.default_ws}});
    REQUIRE(ws.status == 200);
    CHECK(ws.body.at("workspace") == bj::value{{"uuid", t.default_ws},
                                               {"name", "Default"},
                                               {"creationDate", start_ms},
                                               {"updateDate", start_ms},
                                               {"isDefault", true},
                                               {"colorHex", "#228be6"},
                                               {"sandbox", false},
                                               {"membersCount", 1}});

    auto logs = post(b, "/public/logs/list", t.key, {{"category", "team"}, {"sortOrder", "asc"}});
    REQUIRE(logs.status == 200);
    const auto& list = logs.body.at("logs").as_array();
    REQUIRE(list.size() == 2);
    CHECK(list[0].at("eventType") == "TEAM_CREATED");
    CHECK(list[0].at("category") == "team");
    CHECK(list[0].at("timestamp") == start_ms);
    CHECK(list[0].at("eventData").at("teamUuid") == str(t.uuid));
    // no names given: the owner's name is the owner's e-mail
    CHECK(list[0].at("author") == bj::value{{"uuid", t.owner_uuid}, {"email", t.owner_email}, {"name", t.owner_email}});
    CHECK(!list[0].as_object().contains("envelopeUuid"));
    CHECK(list[1].at("eventType") == "WORKSPACE_CREATED");
    CHECK(list[1].at("eventData").at("workspaceUuid") == str(t.default_ws));
}

TEST_CASE("team/create: given values, owner names null when absent", "[backend][team]") {
    backend b;
    const team t = make_team(b, {{"name", "Acme"},
                                 {"ownerEmail", "ada@acme.test"},
                                 {"ownerFirstname", "Ada"},
                                 {"ownerLastname", "Lovelace"},
                                 {"apiCredits", 7},
                                 {"emailQuota", 3},
                                 {"subscription", false},
                                 {"features", bj::array{"sms"}}});
    CHECK(t.owner_email == "ada@acme.test");
    auto who = post(b, "/public/utils/whoami", t.key);
    CHECK(who.body.at("teamName") == "Acme");
    CHECK(post(b, "/public/logs/list", t.key, {{"category", "team"}}).body.at("logs").at(0).at("author").at("name") ==
          "Ada Lovelace");
    b.inspect([&](const esign::reference::state& st) {
        const auto& rec = st.teams.at(t.uuid);
        CHECK(rec.api_credits == 7);
        CHECK(rec.email_quota == 3);
        CHECK(!rec.subscription);
        CHECK(rec.features == std::set<esign::plan_feature>{esign::plan_feature::sms});
    });
    CHECK(post(b, "/public/webhook/create", t.key, webhook_body()).code() == "FEATURE_NOT_IN_CURRENT_PLAN");

    const team plain = make_team(b);
    const auto env = make_envelope(b, plain);
    auto got = post(b, "/public/envelope/get", plain.key, {{"envelopeUuid", env}});
    REQUIRE(got.status == 200);
    CHECK(got.body.at("owner").at("firstname").is_null());
    CHECK(got.body.at("owner").at("lastname").is_null());
}

TEST_CASE("team/create: a bad request is refused with its paths", "[backend][team]") {
    backend b;
    auto a = post(b, "/_control/team/create", "", {{"ownerEmail", "not an email"}, {"apiCredits", -1}});
    CHECK(a.status == 400);
    CHECK(a.code() == "INVALID_REQUEST_FORMAT");
    REQUIRE(a.detail_count() == 2);
    CHECK(a.detail_path(0) == bj::array{"ownerEmail"});
    CHECK(a.detail_path(1) == bj::array{"apiCredits"});
    b.inspect([](const esign::reference::state& st) { CHECK(st.teams.empty()); });
}

TEST_CASE("team/update: unknown team, absent members unchanged, features gate webhooks", "[backend][team]") {
    backend b;
    const team t = make_team(b);

    auto unknown = post(b, "/_control/team/update", "", {{"teamUuid", "00000000-0000-4000-8000-000000000000"}});
    CHECK(unknown.status == 400);
    CHECK(unknown.code() == "INVALID_REQUEST_FORMAT");
    REQUIRE(unknown.detail_count() == 1);
    CHECK(unknown.detail_path() == bj::array{"teamUuid"});

    auto credits = post(b, "/_control/team/update", "", {{"teamUuid", t.uuid}, {"apiCredits", 5}});
    REQUIRE(credits.status == 200);
    CHECK(credits.body == bj::object{});
    b.inspect([&](const esign::reference::state& st) {
        const auto& rec = st.teams.at(t.uuid);
        CHECK(rec.api_credits == 5);
        CHECK(rec.email_quota == 1000);
        CHECK(rec.subscription);
        CHECK(rec.features.size() == 3);
    });
    make_webhook(b, t);  // features unchanged: webhooks still allowed

    REQUIRE(post(b, "/_control/team/update", "",
                 {{"teamUuid", t.uuid}, {"emailQuota", 0}, {"subscription", false}, {"features", bj::array{}}})
                .status == 200);
    b.inspect([&](const esign::reference::state& st) {
        const auto& rec = st.teams.at(t.uuid);
        CHECK(rec.api_credits == 5);
        CHECK(rec.email_quota == 0);
        CHECK(!rec.subscription);
        CHECK(rec.features.empty());
    });
    CHECK(post(b, "/public/webhook/create", t.key, webhook_body()).code() == "FEATURE_NOT_IN_CURRENT_PLAN");

    // without "timestamp", new envelopes have timestampEnabled false
    const auto env = make_envelope(b, t);
    CHECK(post(b, "/public/envelope/get", t.key, {{"envelopeUuid", env}}).body.at("timestampEnabled") == false);
}

TEST_CASE("outbox/list: empty, then every e-mail oldest first", "[backend][team]") {
    test_clock clock;
    backend b(clock.options());
    CHECK(post(b, "/_control/outbox/list", "").body == bj::value{{"emails", bj::array{}}});

    const team t = make_team(b);
    const auto env = make_envelope(b, t);
    REQUIRE(post(b, "/public/envelope/add-recipients", t.key,
                 {{"envelopeUuid", env},
                  {"recipients",
                   bj::array{bj::object{
                       {"type", "manual"}, {"email", "s1@example.com"}, {"firstname", "S"}, {"lastname", "One"}}}}})
                .status == 200);
    clock.set(start_ms + 1000);
    REQUIRE(post(b, "/public/envelope/send", t.key, {{"envelopeUuid", env}}).status == 200);

    auto out = post(b, "/_control/outbox/list", "");
    REQUIRE(out.status == 200);
    // (contract.md §7.1: each e-mail's signingUrl, a secret of the team, tested in test_backend_embeds.cpp)
    for (auto& mail : out.body.at("emails").as_array()) {
        CHECK(std::string_view(mail.at("signingUrl").as_string()).starts_with("/embeds/sign#t=slt."));
        mail.as_object().erase("signingUrl");
    }
    CHECK(out.body.at("emails") == bj::array{bj::object{{"to", "s1@example.com"},
                                                        {"kind", "invitation"},
                                                        {"envelopeUuid", env},
                                                        {"teamUuid", t.uuid},
                                                        {"timestamp", start_ms + 1000}}});
}

TEST_CASE("webhook/deliveries: per webhook, unknown gives none", "[backend][team]") {
    backend b;
    const team t = make_team(b);
    const auto first = make_webhook(b, t);
    const auto second = make_webhook(b, t, {{"active", false}});
    const auto env = make_envelope(b, t);

    auto all = post(b, "/_control/webhook/deliveries", "");
    REQUIRE(all.status == 200);
    const auto& list = all.body.at("deliveries").as_array();
    REQUIRE(list.size() == 1);  // only active webhooks deliver
    CHECK(list[0].at("webhookUuid") == str(first));
    CHECK(list[0].at("eventType") == "ENVELOPE_CREATED");
    CHECK(list[0].at("attempts") == 0);
    CHECK(list[0].at("delivered") == false);
    CHECK(list[0].at("lastStatus").is_null());
    CHECK(list[0].at("eventUuid").as_string().size() == 36);

    CHECK(
        post(b, "/_control/webhook/deliveries", "", {{"webhookUuid", first}}).body.at("deliveries").as_array().size() ==
        1);
    CHECK(post(b, "/_control/webhook/deliveries", "", {{"webhookUuid", second}}).body.at("deliveries") == bj::array{});
    CHECK(post(b, "/_control/webhook/deliveries", "", {{"webhookUuid", "11111111-1111-4111-8111-111111111111"}})
              .body.at("deliveries") == bj::array{});
    (void)env;
}

// ---------------------------------------------------------------------------------------------
// Workspaces

TEST_CASE("workspace/create: defaults, given colour, log", "[backend][workspace]") {
    test_clock clock;
    backend b(clock.options());
    const team t = make_team(b);
    clock.set(start_ms + 5);

    auto a = post(b, "/public/workspace/create", t.key, {{"name", "Sales"}});
    REQUIRE(a.status == 200);
    const auto& ws = a.body.at("workspace").as_object();
    CHECK(ws.size() == 7);  // no membersCount in the create form
    CHECK(ws.at("name") == "Sales");
    CHECK(ws.at("colorHex") == "#228be6");
    CHECK(ws.at("isDefault") == false);
    CHECK(ws.at("sandbox") == false);
    CHECK(ws.at("creationDate") == start_ms + 5);
    CHECK(ws.at("updateDate") == start_ms + 5);

    auto red = post(b, "/public/workspace/create", t.key, {{"name", "Red"}, {"colorHex", "#f00"}});
    CHECK(red.body.at("workspace").at("colorHex") == "#f00");

    CHECK(post(b, "/public/workspace/create", t.key, {{"name", ""}, {"colorHex", "red"}}).detail_count() == 2);
    CHECK(events(b, t) ==
          std::vector<std::string>{"TEAM_CREATED", "WORKSPACE_CREATED", "WORKSPACE_CREATED", "WORKSPACE_CREATED"});
    auto log = post(b, "/public/logs/list", t.key, {{"category", "team"}, {"limit", 1}});
    CHECK(log.body.at("logs").at(0).at("eventData").at("name") == "Red");
}

TEST_CASE("workspace/get: full form, another team's or unknown is WORKSPACE_NOT_FOUND", "[backend][workspace]") {
    backend b;
    const team t = make_team(b);
    const team other = make_team(b);
    const auto sales = make_workspace(b, t, "Sales");

    auto got = post(b, "/public/workspace/get", t.key, {{"workspaceUuid", sales}});
    REQUIRE(got.status == 200);
    CHECK(got.body.at("workspace").at("isDefault") == false);
    CHECK(got.body.at("workspace").at("membersCount") == 1);

    auto foreign = post(b, "/public/workspace/get", other.key, {{"workspaceUuid", sales}});
    CHECK(foreign.status == 400);
    CHECK(foreign.code() == "WORKSPACE_NOT_FOUND");
    CHECK(post(b, "/public/workspace/get", t.key, {{"workspaceUuid", "22222222-2222-4222-8222-222222222222"}}).code() ==
          "WORKSPACE_NOT_FOUND");
    auto short_uuid = post(b, "/public/workspace/get", t.key, {{"workspaceUuid", "abc"}});
    CHECK(short_uuid.code() == "INVALID_REQUEST_FORMAT");
    CHECK(short_uuid.detail_path() == bj::array{"workspaceUuid"});
}

TEST_CASE("workspace/update: sets sandbox, updateDate, log, full form", "[backend][workspace]") {
    test_clock clock;
    backend b(clock.options());
    const team t = make_team(b);
    const team other = make_team(b);
    clock.set(start_ms + 60'000);

    CHECK(post(b, "/public/workspace/update", other.key, {{"workspaceUuid", t.default_ws}, {"sandbox", true}}).code() ==
          "WORKSPACE_NOT_FOUND");
    auto a = post(b, "/public/workspace/update", t.key, {{"workspaceUuid", t.default_ws}, {"sandbox", true}});
    REQUIRE(a.status == 200);
    CHECK(a.body.at("workspace") == bj::value{{"uuid", t.default_ws},
                                              {"name", "Default"},
                                              {"creationDate", start_ms},
                                              {"updateDate", start_ms + 60'000},
                                              {"isDefault", true},
                                              {"colorHex", "#228be6"},
                                              {"sandbox", true},
                                              {"membersCount", 1}});
    CHECK(
        post(b, "/public/workspace/get", t.key, {{"workspaceUuid", t.default_ws}}).body.at("workspace").at("sandbox") ==
        true);
    auto missing = post(b, "/public/workspace/update", t.key, {{"workspaceUuid", t.default_ws}});
    CHECK(missing.detail_path() == bj::array{"sandbox"});

    CHECK(events(b, t).back() == "WORKSPACE_UPDATED");
    CHECK(events(b, other).back() == "WORKSPACE_CREATED");  // the refused update logged nothing
    auto log = post(b, "/public/logs/list", t.key, {{"category", "team"}, {"limit", 1}});
    CHECK(log.body.at("logs").at(0).at("eventData") == bj::value{{"workspaceUuid", t.default_ws}, {"sandbox", true}});
}

TEST_CASE("workspace/list: creation order, page and limit", "[backend][workspace][pagination]") {
    backend b;
    const team t = make_team(b);
    const team other = make_team(b);
    std::vector<std::string> expected{t.default_ws};
    for (int i = 1; i < 6; ++i) expected.push_back(make_workspace(b, t, "W" + std::to_string(i)));

    auto all = post(b, "/public/workspace/list", t.key);
    REQUIRE(all.status == 200);
    CHECK(strings_at(all.body.at("workspaces"), "uuid") == expected);
    CHECK(all.body.at("pagination") == pagination(6, 1, 1, std::nullopt, std::nullopt));
    const auto& item = all.body.at("workspaces").at(0).as_object();
    CHECK(item.size() == 6);  // uuid, name, creationDate, updateDate, sandbox, membersCount
    CHECK(item.at("membersCount") == 1);
    CHECK(!item.contains("isDefault"));

    // exact multiple of the limit
    auto p2 = post(b, "/public/workspace/list", t.key, {{"page", 2}, {"limit", 3}});
    CHECK(strings_at(p2.body.at("workspaces"), "uuid") ==
          std::vector<std::string>(expected.begin() + 3, expected.end()));
    CHECK(p2.body.at("pagination") == pagination(6, 2, 2, std::nullopt, 1));
    auto p1 = post(b, "/public/workspace/list", t.key, {{"page", 1}, {"limit", 3}});
    CHECK(p1.body.at("pagination") == pagination(6, 1, 2, 2, std::nullopt));
    // past the end
    auto p9 = post(b, "/public/workspace/list", t.key, {{"page", 9}, {"limit", 4}});
    CHECK(p9.body.at("workspaces") == bj::array{});
    CHECK(p9.body.at("pagination") == pagination(6, 9, 2, std::nullopt, 8));

    CHECK(strings_at(post(b, "/public/workspace/list", other.key).body.at("workspaces"), "uuid") ==
          std::vector<std::string>{other.default_ws});
    auto bad = post(b, "/public/workspace/list", t.key, {{"page", 0}, {"limit", 51}});
    CHECK(bad.detail_count() == 2);
}

// ---------------------------------------------------------------------------------------------
// Contacts

TEST_CASE("contact/create: stored per workspace, phone omitted is null, one log each", "[backend][contact]") {
    backend b;
    const team t = make_team(b);
    const auto sales = make_workspace(b, t, "Sales");

    bj::object full = contact("bo@example.com", "Bo", "Ek");
    full["phone"] = "+33 6 00 00 00 00";
    full["language"] = "fr";
    full["jobTitle"] = "CFO";
    full["company"] = "Acme";
    full["addressLine1"] = "1 rue A";
    full["addressLine2"] = "Bât. B";
    full["zipCode"] = "75001";
    full["city"] = "Paris";
    full["country"] = "FR";
    bj::object with_null = contact("cy@example.com");
    with_null["phone"] = nullptr;

    auto a = post(b, "/public/contact/create", t.key,
                  {{"contacts", bj::array{contact("ann@example.com"), full, with_null}}});
    REQUIRE(a.status == 200);
    const auto& created = a.body.at("contacts").as_array();
    REQUIRE(created.size() == 3);
    CHECK(created[0].at("uuid").as_string().size() == 36);
    CHECK(created[0].at("phone").is_null());
    CHECK(!created[0].as_object().contains("language"));
    bj::object expected_full = full;
    expected_full["uuid"] = created[1].at("uuid");
    CHECK(created[1] == expected_full);
    CHECK(created[2].at("phone").is_null());

    auto list = post(b, "/public/contact/list", t.key);
    CHECK(list.body.at("contacts") == a.body.at("contacts"));
    CHECK(post(b, "/public/contact/list", t.key, {{"workspaceUuid", sales}}).body.at("contacts") == bj::array{});

    // the same e-mail is allowed in another workspace
    REQUIRE(post(b, "/public/contact/create", t.key,
                 {{"workspaceUuid", sales}, {"contacts", bj::array{contact("ann@example.com")}}})
                .status == 200);
    CHECK(events(b, t) == std::vector<std::string>{"TEAM_CREATED", "WORKSPACE_CREATED", "WORKSPACE_CREATED",
                                                   "CONTACT_CREATED", "CONTACT_CREATED", "CONTACT_CREATED",
                                                   "CONTACT_CREATED"});
    auto log = post(b, "/public/logs/list", t.key, {{"category", "team"}, {"limit", 1}});
    CHECK(log.body.at("logs").at(0).at("eventData").at("workspaceUuid") == str(sales));
    CHECK(log.body.at("logs").at(0).at("eventData").at("email") == "ann@example.com");
}

TEST_CASE("contact/create: errors in the contract's order, and a failing batch creates none", "[backend][contact]") {
    backend b;
    const team t = make_team(b);
    const team other = make_team(b);
    REQUIRE(post(b, "/public/contact/create", t.key, {{"contacts", bj::array{contact("old@example.com")}}}).status ==
            200);
    const auto before = events(b, t);

    auto contacts_count = [&] {
        return post(b, "/public/contact/list", t.key).body.at("pagination").at("totalRecords").as_int64();
    };

    // WORKSPACE_NOT_FOUND first, even with a duplicate and an invalid address
    auto ws = post(b, "/public/contact/create", t.key,
                   {{"workspaceUuid", other.default_ws},
                    {"contacts", bj::array{contact("old@example.com"), contact("x@y.invalid")}}});
    CHECK(ws.status == 400);
    CHECK(ws.code() == "WORKSPACE_NOT_FOUND");

    // already a contact of the workspace (second item): nothing created, not even the first
    auto existing = post(b, "/public/contact/create", t.key,
                         {{"contacts", bj::array{contact("new@example.com"), contact("old@example.com")}}});
    CHECK(existing.status == 400);
    CHECK(existing.code() == "CONTACT_EMAIL_ALREADY_EXISTS");
    CHECK(existing.body.at("error").at("message").as_string().find("old@example.com") != bj::string::npos);

    // twice in the request
    CHECK(post(b, "/public/contact/create", t.key,
               {{"contacts", bj::array{contact("a@example.com"), contact("b@example.com"), contact("a@example.com")}}})
              .code() == "CONTACT_EMAIL_ALREADY_EXISTS");

    // CONTACT_EMAIL_ALREADY_EXISTS comes before INVALID_EMAIL, whatever the item order
    CHECK(post(b, "/public/contact/create", t.key,
               {{"contacts", bj::array{contact("x@y.invalid"), contact("old@example.com")}}})
              .code() == "CONTACT_EMAIL_ALREADY_EXISTS");

    // the reserved TLD, in any case
    auto invalid = post(b, "/public/contact/create", t.key,
                        {{"contacts", bj::array{contact("fine@example.com"), contact("x@y.INVALID")}}});
    CHECK(invalid.status == 400);
    CHECK(invalid.code() == "INVALID_EMAIL");

    // a validation problem, at its path
    auto format = post(b, "/public/contact/create", t.key,
                       {{"contacts", bj::array{contact("fine@example.com"), contact("nope")}}});
    CHECK(format.code() == "INVALID_REQUEST_FORMAT");
    CHECK(format.detail_path() == bj::array{"contacts", "1", "email"});
    CHECK(post(b, "/public/contact/create", t.key, {{"contacts", bj::array{}}}).detail_path() == bj::array{"contacts"});

    CHECK(contacts_count() == 1);
    CHECK(events(b, t) == before);
}

TEST_CASE("contact/update: only the members given change", "[backend][contact]") {
    backend b;
    const team t = make_team(b);
    const team other = make_team(b);
    bj::object original = contact("bo@example.com", "Bo", "Ek");
    original["phone"] = "+1 555";
    original["company"] = "Acme";
    original["city"] = "Oslo";
    auto created = post(b, "/public/contact/create", t.key, {{"contacts", bj::array{original}}});
    REQUIRE(created.status == 200);
    const auto uuid = created.body.at("contacts").at(0).at("uuid");

    bj::object change = contact("bo@example.com", "Bob", "Ekberg");
    change["phone"] = nullptr;
    change["city"] = "Bergen";
    change["language"] = "fi";
    auto a = post(b, "/public/contact/update", t.key, {{"contact", change}});
    REQUIRE(a.status == 200);
    CHECK(a.body.at("contact") == bj::value{{"uuid", uuid},
                                            {"email", "bo@example.com"},
                                            {"firstname", "Bob"},
                                            {"lastname", "Ekberg"},
                                            {"phone", nullptr},
                                            {"language", "fi"},
                                            {"company", "Acme"},
                                            {"city", "Bergen"}});
    CHECK(post(b, "/public/contact/list", t.key).body.at("contacts").at(0) == a.body.at("contact"));
    CHECK(events(b, t).back() == "CONTACT_UPDATED");

    // phone is required (and may be null)
    auto no_phone = post(b, "/public/contact/update", t.key, {{"contact", contact("bo@example.com")}});
    CHECK(no_phone.code() == "INVALID_REQUEST_FORMAT");
    CHECK(no_phone.detail_path() == bj::array{"contact", "phone"});

    bj::object unknown = contact("nobody@example.com");
    unknown["phone"] = nullptr;
    CHECK(post(b, "/public/contact/update", t.key, {{"contact", unknown}}).code() == "CONTACT_NOT_FOUND");
    // WORKSPACE_NOT_FOUND before CONTACT_NOT_FOUND
    CHECK(
        post(b, "/public/contact/update", t.key, {{"workspaceUuid", other.default_ws}, {"contact", unknown}}).code() ==
        "WORKSPACE_NOT_FOUND");
    // the contact is found (or not) before the address is judged
    bj::object reserved = contact("x@y.invalid");
    reserved["phone"] = nullptr;
    CHECK(post(b, "/public/contact/update", t.key, {{"contact", reserved}}).code() == "CONTACT_NOT_FOUND");
    // another team's key does not see the contact
    CHECK(post(b, "/public/contact/update", other.key, {{"contact", change}}).code() == "CONTACT_NOT_FOUND");
    CHECK(events(b, t).back() == "CONTACT_UPDATED");
    CHECK(events(b, t).size() == 4);
}

TEST_CASE("contact/list: creation order, page and limit", "[backend][contact][pagination]") {
    backend b;
    const team t = make_team(b);
    auto empty = post(b, "/public/contact/list", t.key);
    CHECK(empty.body.at("contacts") == bj::array{});
    CHECK(empty.body.at("pagination") == pagination(0, 1, 1, std::nullopt, std::nullopt));

    bj::array items;
    std::vector<std::string> emails;
    for (int i = 0; i < 10; ++i) {
        emails.push_back("c" + std::to_string(i) + "@example.com");
        items.push_back(contact(emails.back()));
    }
    REQUIRE(post(b, "/public/contact/create", t.key, {{"contacts", items}}).status == 200);

    auto p2 = post(b, "/public/contact/list", t.key, {{"page", 2}, {"limit", 5}});
    CHECK(strings_at(p2.body.at("contacts"), "email") == std::vector<std::string>(emails.begin() + 5, emails.end()));
    CHECK(p2.body.at("pagination") == pagination(10, 2, 2, std::nullopt, 1));
    auto p3 = post(b, "/public/contact/list", t.key, {{"page", 3}, {"limit", 5}});
    CHECK(p3.body.at("contacts") == bj::array{});
    CHECK(p3.body.at("pagination") == pagination(10, 3, 2, std::nullopt, 2));
    auto p1 = post(b, "/public/contact/list", t.key, {{"limit", 4}});
    CHECK(strings_at(p1.body.at("contacts"), "email") == std::vector<std::string>(emails.begin(), emails.begin() + 4));
    CHECK(p1.body.at("pagination") == pagination(10, 1, 3, 2, std::nullopt));
    CHECK(post(b, "/public/contact/list", t.key, {{"workspaceUuid", "33333333-3333-4333-8333-333333333333"}}).code() ==
          "WORKSPACE_NOT_FOUND");
}

TEST_CASE("contact/delete: all or nothing, one log per contact", "[backend][contact]") {
    backend b;
    const team t = make_team(b);
    const team other = make_team(b);
    REQUIRE(
        post(b, "/public/contact/create", t.key,
             {{"contacts", bj::array{contact("a@example.com"), contact("b@example.com"), contact("c@example.com")}}})
            .status == 200);
    const auto before = events(b, t);

    auto unknown = post(b, "/public/contact/delete", t.key, {{"emails", bj::array{"a@example.com", "zz@example.com"}}});
    CHECK(unknown.status == 400);
    CHECK(unknown.code() == "CONTACT_NOT_FOUND");
    CHECK(unknown.body.at("error").at("message").as_string().find("zz@example.com") != bj::string::npos);
    CHECK(post(b, "/public/contact/delete", other.key, {{"emails", bj::array{"a@example.com"}}}).code() ==
          "CONTACT_NOT_FOUND");
    CHECK(post(b, "/public/contact/delete", t.key,
               {{"workspaceUuid", other.default_ws}, {"emails", bj::array{"zz@example.com"}}})
              .code() == "WORKSPACE_NOT_FOUND");
    CHECK(post(b, "/public/contact/delete", t.key, {{"emails", bj::array{}}}).detail_path() == bj::array{"emails"});
    CHECK(post(b, "/public/contact/list", t.key).body.at("contacts").as_array().size() == 3);
    CHECK(events(b, t) == before);

    auto ok = post(b, "/public/contact/delete", t.key,
                   {{"emails", bj::array{"c@example.com", "a@example.com", "c@example.com"}}});
    REQUIRE(ok.status == 200);
    CHECK(ok.body == bj::object{});
    CHECK(strings_at(post(b, "/public/contact/list", t.key).body.at("contacts"), "email") ==
          std::vector<std::string>{"b@example.com"});
    auto after = events(b, t);
    CHECK(after.size() == before.size() + 2);
    CHECK(after.back() == "CONTACT_DELETED");
    CHECK(after[after.size() - 2] == "CONTACT_DELETED");
}

TEST_CASE("contacts are found by workspace and e-mail after create, delete, restore and reset",
          "[backend][contact][index]") {
    backend b;
    const team t = make_team(b);
    const std::vector<std::string> workspaces{t.default_ws, make_workspace(b, t, "Sales")};
    std::set<std::pair<std::size_t, std::string>> stored;  // workspace, e-mail: what a search would find
    auto email = [](int i) { return "c" + std::to_string(i) + "@example.com"; };
    auto create = [&](std::size_t ws, int from, int to) {
        bj::array items;
        for (int i = from; i < to; ++i) {
            items.push_back(contact(email(i)));
            stored.emplace(ws, email(i));
        }
        REQUIRE(
            post(b, "/public/contact/create", t.key, {{"workspaceUuid", workspaces[ws]}, {"contacts", items}}).status ==
            200);
    };
    // Every e-mail of 0..69 in both workspaces: found exactly when stored (contact/update, and
    // associatedContact of a recipient).
    auto check = [&] {
        for (std::size_t ws = 0; ws < workspaces.size(); ++ws) {
            auto env = post(b, "/_control/envelope/create", t.key,
                            {{"workspaceUuid", workspaces[ws]},
                             {"title", "E"},
                             {"documents", bj::array{bj::object{{"title", "D"}, {"pageCount", 1}}}}});
            REQUIRE(env.status == 200);
            bj::array recipients;
            for (int i = 0; i < 70; ++i) {
                INFO("workspace " << ws << ", " << email(i));
                auto updated = post(
                    b, "/public/contact/update", t.key,
                    {{"workspaceUuid", workspaces[ws]},
                     {"contact",
                      bj::object{{"email", email(i)}, {"firstname", "U"}, {"lastname", "V"}, {"phone", nullptr}}}});
                CHECK(updated.code() == (stored.count({ws, email(i)}) ? "" : "CONTACT_NOT_FOUND"));
                if (i % 2 == 0) recipients.push_back(recipient(email(i)));
            }
            REQUIRE(post(b, "/public/envelope/add-recipients", t.key,
                         {{"workspaceUuid", workspaces[ws]},
                          {"envelopeUuid", env.body.at("envelopeUuid")},
                          {"recipients", recipients}})
                        .status == 200);
            auto got = post(b, "/public/envelope/get", t.key,
                            {{"workspaceUuid", workspaces[ws]}, {"envelopeUuid", env.body.at("envelopeUuid")}});
            for (const auto& r : got.body.at("recipients").as_array()) {
                const std::string e(r.at("email").as_string());
                INFO("workspace " << ws << ", recipient " << e);
                CHECK(r.at("associatedContact") == bj::value(stored.count({ws, e}) == 1));
            }
        }
    };
    create(0, 0, 50);
    create(0, 50, 60);
    create(1, 20, 50);
    check();

    // Deleted (the positions of those after them move), then some made again.
    REQUIRE(post(b, "/public/contact/delete", t.key, {{"emails", bj::array{email(5), email(10), email(0)}}}).status ==
            200);
    REQUIRE(post(b, "/public/contact/delete", t.key,
                 {{"workspaceUuid", workspaces[1]}, {"emails", bj::array{email(49), email(20)}}})
                .status == 200);
    for (const auto& [ws, e] : {std::pair<std::size_t, std::string>{0, email(5)},
                                {0, email(10)},
                                {0, email(0)},
                                {1, email(49)},
                                {1, email(20)}})
        stored.erase({ws, e});
    check();
    create(0, 5, 6);
    create(1, 60, 65);
    check();

    // Reset: none (nor the second workspace). Restored: found again, and a contact made after too.
    auto snap = b.handle("/_control/team/snapshot", t.key, "{}");
    REQUIRE(snap.status == 200);
    const bj::value team_state = bj::parse(snap.body).at("team");
    REQUIRE(post(b, "/_control/team/reset", t.key).status == 200);
    CHECK(post(b, "/public/contact/list", t.key).body.at("contacts").as_array().empty());
    for (const auto& [ws, e] : stored)
        if (ws == 0)
            CHECK(post(b, "/public/contact/delete", t.key, {{"emails", bj::array{bj::value(e)}}}).code() ==
                  "CONTACT_NOT_FOUND");
    REQUIRE(request(b, "/_control/team/restore", t.key, bj::object{{"team", team_state}}).status == 200);
    check();
    create(1, 65, 70);
    check();
}

// ---------------------------------------------------------------------------------------------
// Webhooks

TEST_CASE("webhook/create: stored as given, url and secret never returned, log", "[backend][webhook]") {
    test_clock clock;
    backend b(clock.options());
    const team t = make_team(b);
    const auto sales = make_workspace(b, t, "Sales");

    auto plain = post(b, "/public/webhook/create", t.key,
                      {{"url", "https://hooks.example.com/a"},
                       {"contentType", "application/json"},
                       {"sslVerify", false},
                       {"active", true}});
    REQUIRE(plain.status == 200);
    const auto& w = plain.body.at("webhook").as_object();
    CHECK(w.at("uuid").as_string().size() == 36);
    CHECK(w.at("title").is_null());
    CHECK(w.at("active") == true);
    CHECK(w.at("sslVerify") == false);
    CHECK(w.at("contentType") == "application/json");
    CHECK(w.at("events") == bj::array{});
    CHECK(w.at("workspaceUuids") == bj::array{});
    CHECK(w.at("creationDate") == start_ms);
    CHECK(w.at("updateDate") == start_ms);
    CHECK(!w.contains("url"));
    CHECK(!w.contains("secret"));

    auto full = post(b, "/public/webhook/create", t.key,
                     {{"url", "http://127.0.0.1:9000/hook"},
                      {"contentType", "application/x-www-form-urlencoded"},
                      {"sslVerify", true},
                      {"active", false},
                      {"secret", "s3cret"},
                      {"title", "Mine"},
                      {"events", bj::array{"ENVELOPE_SENT", "ENVELOPE_CREATED"}},
                      {"workspaceUuids", bj::array{sales}}});
    REQUIRE(full.status == 200);
    const auto& f = full.body.at("webhook");
    CHECK(f.at("title") == "Mine");
    CHECK(f.at("contentType") == "application/x-www-form-urlencoded");
    CHECK(f.at("events") == bj::array{"ENVELOPE_SENT", "ENVELOPE_CREATED"});
    CHECK(f.at("workspaceUuids") == bj::array{sales});
    b.inspect([&](const esign::reference::state& st) {
        const auto& rec = st.webhooks.at(std::string(f.at("uuid").as_string()));
        CHECK(rec.url == "http://127.0.0.1:9000/hook");
        CHECK(rec.secret == std::optional<std::string>("s3cret"));
    });

    CHECK(events(b, t).back() == "WEBHOOK_CREATED");
    auto bad = post(b, "/public/webhook/create", t.key,
                    {{"url", "not a uri"},
                     {"contentType", "text/plain"},
                     {"sslVerify", true},
                     {"active", true},
                     {"events", bj::array{"NOPE"}},
                     {"workspaceUuids", bj::array{"short"}}});
    CHECK(bad.code() == "INVALID_REQUEST_FORMAT");
    CHECK(bad.detail_count() == 4);
}

TEST_CASE("webhook/create: refused URLs", "[backend][webhook]") {
    backend b;
    const team t = make_team(b);
    auto create = [&](backend& on, const team& who, std::string url) {
        return post(on, "/public/webhook/create", who.key,
                    {{"url", url}, {"contentType", "application/json"}, {"sslVerify", true}, {"active", true}});
    };
    for (std::string url :
         {"http://169.254.169.254/latest/meta-data", "http://2852039166/", "http://0251.0376.0251.0376/",
          "http://0xa9fea9fe/", "http://[fe80::1]/", "http://[::ffff:169.254.169.254]/", "ftp://hooks.example.com/",
          "https://user:pass@hooks.example.com/"}) {
        INFO(url);
        auto a = create(b, t, url);
        CHECK(a.status == 400);
        CHECK(a.code() == "WEBHOOK_URL_REFUSED");
    }
    for (std::string url :
         {"http://127.0.0.1:8080/hook", "http://localhost/x", "http://10.1.2.3/", "https://hooks.example.com/"}) {
        INFO(url);
        CHECK(create(b, t, url).status == 200);
    }
    CHECK(create(b, t, "hooks.example.com").code() == "INVALID_REQUEST_FORMAT");
    CHECK(create(b, t, "hooks.example.com").detail_path() == bj::array{"url"});
    // contract.md §6.7: IPv4 in IPv6 clothing is refused like the IPv4 address it carries ...
    for (std::string url :
         {"http://[::169.254.169.254]/", "http://[64:ff9b::169.254.169.254]/", "http://[2002:a9fe:a9fe::1]/",
          "http://[::ffff:0:169.254.169.254]/", "HTTP://user@Example.COM/x?y#z"}) {
        INFO(url);
        CHECK(create(b, t, url).code() == "WEBHOOK_URL_REFUSED");
    }
    // ... and what is no URL of the grammar, or too long, is a malformed request, at /url.
    const std::string base = "https://hooks.example.com/";
    for (const std::string& url : std::vector<std::string>{
             "http://[::1/", "http://example.com:99999/", "http://example.com:0/", "http://:80/",
             "http://[fe80::1%25eth0]/", "http:no-authority", base + std::string(2049 - base.size(), 'a')}) {
        INFO(url);
        auto r = create(b, t, url);
        CHECK(r.code() == "INVALID_REQUEST_FORMAT");
        CHECK(r.detail_path() == bj::array{"url"});
    }
    CHECK(create(b, t, "HTTP://Hooks.Example.COM/x?y#z").status == 200);
    CHECK(create(b, t, base + std::string(2048 - base.size(), 'a')).status == 200);

    test_clock clock;
    backend strict(clock.options(true));
    const team s = make_team(strict);
    for (std::string url : {"http://127.0.0.1:8080/hook", "http://localhost/x", "http://10.1.2.3/", "http://[::1]/"}) {
        INFO(url);
        CHECK(create(strict, s, url).code() == "WEBHOOK_URL_REFUSED");
    }
    CHECK(create(strict, s, "https://hooks.example.com/").status == 200);
    CHECK(events(strict, s).back() == "WEBHOOK_CREATED");
    CHECK(events(strict, s).size() == 3);  // refused ones logged nothing
}

TEST_CASE("webhook/create: at most 20 per team, error order", "[backend][webhook]") {
    backend b;
    const team t = make_team(b);
    const team other = make_team(b);
    for (int i = 0; i < 20; ++i) make_webhook(b, t);
    make_webhook(b, other);  // another team's do not count

    bj::object body{{"url", "https://hooks.example.com/"},
                    {"contentType", "application/json"},
                    {"sslVerify", true},
                    {"active", true}};
    auto limit = post(b, "/public/webhook/create", t.key, body);
    CHECK(limit.status == 400);
    CHECK(limit.code() == "WEBHOOK_LIMIT_REACHED");

    // WORKSPACE_NOT_FOUND before WEBHOOK_LIMIT_REACHED
    bj::object foreign_ws = body;
    foreign_ws["workspaceUuids"] = bj::array{t.default_ws, other.default_ws};
    CHECK(post(b, "/public/webhook/create", t.key, foreign_ws).code() == "WORKSPACE_NOT_FOUND");

    // WEBHOOK_LIMIT_REACHED before FEATURE_NOT_IN_CURRENT_PLAN
    REQUIRE(post(b, "/_control/team/update", "", {{"teamUuid", t.uuid}, {"features", bj::array{"sms"}}}).status == 200);
    CHECK(post(b, "/public/webhook/create", t.key, body).code() == "WEBHOOK_LIMIT_REACHED");

    // FEATURE_NOT_IN_CURRENT_PLAN (403) before WEBHOOK_URL_REFUSED
    REQUIRE(post(b, "/_control/team/update", "", {{"teamUuid", other.uuid}, {"features", bj::array{}}}).status == 200);
    bj::object refused = body;
    refused["url"] = "http://169.254.169.254/";
    auto feature = post(b, "/public/webhook/create", other.key, refused);
    CHECK(feature.status == 403);
    CHECK(feature.code() == "FEATURE_NOT_IN_CURRENT_PLAN");
    REQUIRE(
        post(b, "/_control/team/update", "", {{"teamUuid", other.uuid}, {"features", bj::array{"webhooks"}}}).status ==
        200);
    CHECK(post(b, "/public/webhook/create", other.key, refused).code() == "WEBHOOK_URL_REFUSED");

    // after a delete there is room again
    auto list = post(b, "/public/webhook/list", t.key);
    REQUIRE(post(b, "/_control/team/update", "", {{"teamUuid", t.uuid}, {"features", bj::array{"webhooks"}}}).status ==
            200);
    REQUIRE(post(b, "/public/webhook/delete", t.key, {{"uuid", list.body.at("webhooks").at(0).at("uuid")}}).status ==
            200);
    CHECK(post(b, "/public/webhook/create", t.key, body).status == 200);
}

TEST_CASE("webhook/update: only the given members change, error order", "[backend][webhook]") {
    test_clock clock;
    backend b(clock.options());
    const team t = make_team(b);
    const team other = make_team(b);
    const auto sales = make_workspace(b, t, "Sales");
    const auto uuid = make_webhook(b, t, {{"secret", "k1"}, {"title", "T"}, {"events", bj::array{"ENVELOPE_SENT"}}});
    const auto original = post(b, "/public/webhook/list", t.key).body.at("webhooks").at(0);
    clock.set(start_ms + 10);

    // WEBHOOK_NOT_FOUND first: another team's webhook, even with bad workspaces and a refused URL
    auto foreign = post(b, "/public/webhook/update", other.key,
                        {{"uuid", uuid}, {"workspaceUuids", bj::array{t.default_ws}}, {"url", "ftp://x.example.com"}});
    CHECK(foreign.code() == "WEBHOOK_NOT_FOUND");
    // then WORKSPACE_NOT_FOUND
    CHECK(post(b, "/public/webhook/update", t.key,
               {{"uuid", uuid}, {"workspaceUuids", bj::array{other.default_ws}}, {"url", "ftp://x.example.com"}})
              .code() == "WORKSPACE_NOT_FOUND");
    // then the plan (any update), then the URL
    REQUIRE(post(b, "/_control/team/update", "", {{"teamUuid", t.uuid}, {"features", bj::array{}}}).status == 200);
    CHECK(post(b, "/public/webhook/update", t.key, {{"uuid", uuid}, {"url", "ftp://x.example.com"}}).code() ==
          "FEATURE_NOT_IN_CURRENT_PLAN");
    CHECK(post(b, "/public/webhook/update", t.key, {{"uuid", uuid}, {"active", false}}).code() ==
          "FEATURE_NOT_IN_CURRENT_PLAN");
    REQUIRE(post(b, "/_control/team/update", "", {{"teamUuid", t.uuid}, {"features", bj::array{"webhooks"}}}).status ==
            200);
    CHECK(post(b, "/public/webhook/update", t.key, {{"uuid", uuid}, {"url", "http://0xa9fea9fe/"}, {"active", false}})
              .code() == "WEBHOOK_URL_REFUSED");
    // nothing of the refused updates stuck
    CHECK(post(b, "/public/webhook/list", t.key).body.at("webhooks").at(0) == original);
    CHECK(events(b, t).back() == "WEBHOOK_CREATED");

    auto a = post(b, "/public/webhook/update", t.key,
                  {{"uuid", uuid}, {"active", false}, {"workspaceUuids", bj::array{sales}}});
    REQUIRE(a.status == 200);
    bj::object expected = original.as_object();
    expected["active"] = false;
    expected["workspaceUuids"] = bj::array{sales};
    expected["updateDate"] = start_ms + 10;
    CHECK(a.body.at("webhook") == expected);
    CHECK(events(b, t).back() == "WEBHOOK_UPDATED");

    auto secret_of = [&] {
        return b.inspect([&](const esign::reference::state& st) { return st.webhooks.at(uuid).secret; });
    };
    CHECK(secret_of() == std::optional<std::string>("k1"));  // absent: unchanged
    REQUIRE(post(b, "/public/webhook/update", t.key,
                 {{"uuid", uuid},
                  {"secret", "k2"},
                  {"url", "https://new.example.com/"},
                  {"title", "New"},
                  {"events", bj::array{}},
                  {"contentType", "application/x-www-form-urlencoded"},
                  {"sslVerify", false}})
                .status == 200);
    CHECK(secret_of() == std::optional<std::string>("k2"));
    b.inspect(
        [&](const esign::reference::state& st) { CHECK(st.webhooks.at(uuid).url == "https://new.example.com/"); });
    auto now = post(b, "/public/webhook/list", t.key).body.at("webhooks").at(0);
    CHECK(now.at("title") == "New");
    CHECK(now.at("events") == bj::array{});
    CHECK(now.at("contentType") == "application/x-www-form-urlencoded");
    CHECK(now.at("sslVerify") == false);
    REQUIRE(post(b, "/public/webhook/update", t.key, {{"uuid", uuid}, {"secret", nullptr}}).status == 200);
    CHECK(secret_of() == std::nullopt);  // null: removed

    CHECK(post(b, "/public/webhook/update", t.key, {{"uuid", "44444444-4444-4444-8444-444444444444"}}).code() ==
          "WEBHOOK_NOT_FOUND");
    CHECK(post(b, "/public/webhook/update", t.key, {{"uuid", "x"}}).detail_path() == bj::array{"uuid"});
}

TEST_CASE("webhook/list and delete: active filter, order, pages, isolation", "[backend][webhook][pagination]") {
    backend b;
    const team t = make_team(b);
    const team other = make_team(b);
    CHECK(post(b, "/public/webhook/list", t.key).body ==
          bj::value{{"webhooks", bj::array{}}, {"pagination", pagination(0, 1, 1, std::nullopt, std::nullopt)}});

    std::vector<std::string> all, active, inactive;
    for (int i = 0; i < 6; ++i) {
        const bool on = i % 3 != 0;
        all.push_back(make_webhook(b, t, {{"active", on}}));
        (on ? active : inactive).push_back(all.back());
    }
    const auto foreign = make_webhook(b, other);

    CHECK(strings_at(post(b, "/public/webhook/list", t.key).body.at("webhooks"), "uuid") == all);
    CHECK(strings_at(post(b, "/public/webhook/list", t.key, {{"active", true}}).body.at("webhooks"), "uuid") == active);
    CHECK(strings_at(post(b, "/public/webhook/list", t.key, {{"active", false}}).body.at("webhooks"), "uuid") ==
          inactive);
    auto p2 = post(b, "/public/webhook/list", t.key, {{"active", true}, {"limit", 2}, {"page", 2}});
    CHECK(strings_at(p2.body.at("webhooks"), "uuid") == std::vector<std::string>{active[2], active[3]});
    CHECK(p2.body.at("pagination") == pagination(4, 2, 2, std::nullopt, 1));
    CHECK(strings_at(post(b, "/public/webhook/list", other.key).body.at("webhooks"), "uuid") ==
          std::vector<std::string>{foreign});

    auto not_found = post(b, "/public/webhook/delete", other.key, {{"uuid", all[0]}});
    CHECK(not_found.status == 400);
    CHECK(not_found.code() == "WEBHOOK_NOT_FOUND");
    REQUIRE(post(b, "/public/webhook/delete", t.key, {{"uuid", all[0]}}).status == 200);
    CHECK(post(b, "/public/webhook/delete", t.key, {{"uuid", all[0]}}).code() == "WEBHOOK_NOT_FOUND");
    CHECK(strings_at(post(b, "/public/webhook/list", t.key).body.at("webhooks"), "uuid") ==
          std::vector<std::string>(all.begin() + 1, all.end()));
    CHECK(events(b, t).back() == "WEBHOOK_DELETED");
    auto log = post(b, "/public/logs/list", t.key, {{"category", "team"}, {"limit", 1}});
    CHECK(log.body.at("logs").at(0).at("eventData").at("webhookUuid") == str(all[0]));
    CHECK(events(b, other).back() == "WEBHOOK_CREATED");
}

// ---------------------------------------------------------------------------------------------
// Templates

TEST_CASE("template create and list: fields, workspace, labels distinct, pages of 50",
          "[backend][template][pagination]") {
    test_clock clock;
    backend b(clock.options());
    const team t = make_team(b);
    const team other = make_team(b);
    const auto sales = make_workspace(b, t, "Sales");

    CHECK(post(b, "/public/template/list", t.key).body ==
          bj::value{{"templates", bj::array{}}, {"pagination", pagination(0, 1, 1, std::nullopt, std::nullopt)}});

    bj::object body{{"title", "NDA"},
                    {"recipientLabels", bj::array{"Client", "Witness"}},
                    {"documents", bj::array{bj::object{{"title", "nda.pdf"}, {"pageCount", 3}},
                                            bj::object{{"title", "annex.pdf"}, {"pageCount", 1}}}}};
    auto created = post(b, "/_control/template/create", t.key, body);
    REQUIRE(created.status == 200);
    const auto tpl = created.body.at("templateUuid");
    const auto& docs = created.body.at("documentUuids").as_array();
    REQUIRE(docs.size() == 2);

    auto list = post(b, "/public/template/list", t.key);
    REQUIRE(list.status == 200);
    CHECK(list.body.at("templates") ==
          bj::array{bj::object{
              {"uuid", tpl},
              {"title", "NDA"},
              {"creationDate", start_ms},
              {"updateDate", start_ms},
              {"workspaceUuid", t.default_ws},
              {"documents", bj::array{bj::object{{"uuid", docs[0]}, {"title", "nda.pdf"}},
                                      bj::object{{"uuid", docs[1]}, {"title", "annex.pdf"}}}},
              {"recipients", bj::array{bj::object{{"label", "Client"}}, bj::object{{"label", "Witness"}}}}}});
    CHECK(post(b, "/public/template/list", t.key, {{"workspaceUuid", sales}}).body.at("templates") == bj::array{});
    CHECK(post(b, "/public/template/list", other.key).body.at("templates") == bj::array{});
    CHECK(post(b, "/public/template/list", other.key, {{"workspaceUuid", t.default_ws}}).code() ==
          "WORKSPACE_NOT_FOUND");

    bj::object dup = body;
    dup["recipientLabels"] = bj::array{"A", "B", "A"};
    auto labels = post(b, "/_control/template/create", t.key, dup);
    CHECK(labels.code() == "INVALID_REQUEST_FORMAT");
    CHECK(labels.detail_path() == bj::array{"recipientLabels", "2"});
    bj::object foreign = body;
    foreign["workspaceUuid"] = other.default_ws;
    CHECK(post(b, "/_control/template/create", t.key, foreign).code() == "WORKSPACE_NOT_FOUND");
    CHECK(post(b, "/_control/template/create", "", body).code() == "AUTHENTICATION_ERROR");

    // 51 templates in Sales: 50 on page 1, 1 on page 2, none on page 3
    bj::object in_sales = body;
    in_sales["workspaceUuid"] = sales;
    std::vector<std::string> uuids;
    for (int i = 0; i < 51; ++i) {
        in_sales["title"] = "T" + std::to_string(i);
        uuids.emplace_back(post(b, "/_control/template/create", t.key, in_sales).body.at("templateUuid").as_string());
    }
    auto p1 = post(b, "/public/template/list", t.key, {{"workspaceUuid", sales}});
    CHECK(strings_at(p1.body.at("templates"), "uuid") == std::vector<std::string>(uuids.begin(), uuids.begin() + 50));
    CHECK(p1.body.at("pagination") == pagination(51, 1, 2, 2, std::nullopt));
    auto p2 = post(b, "/public/template/list", t.key, {{"workspaceUuid", sales}, {"page", 2}});
    CHECK(strings_at(p2.body.at("templates"), "uuid") == std::vector<std::string>{uuids[50]});
    auto p3 = post(b, "/public/template/list", t.key, {{"workspaceUuid", sales}, {"page", 3}});
    CHECK(p3.body.at("templates") == bj::array{});
    CHECK(p3.body.at("pagination") == pagination(51, 3, 2, std::nullopt, 2));
}

// ---------------------------------------------------------------------------------------------
// Logs

TEST_CASE("logs/list: categories dataroom and user", "[backend][logs]") {
    backend b;
    const team t = make_team(b);
    // LOG_CATEGORY_NOT_IMPLEMENTED comes right after validation, before any lookup
    auto dataroom = post(b, "/public/logs/list", t.key,
                         {{"category", "dataroom"},
                          {"workspaceUuid", "55555555-5555-4555-8555-555555555555"},
                          {"envelopeUuid", "55555555-5555-4555-8555-555555555555"}});
    CHECK(dataroom.status == 400);
    CHECK(dataroom.code() == "LOG_CATEGORY_NOT_IMPLEMENTED");
    CHECK(post(b, "/public/logs/list", t.key, {{"category", "dataroom"}, {"page", 0}}).code() ==
          "INVALID_REQUEST_FORMAT");

    auto user = post(b, "/public/logs/list", t.key, {{"category", "user"}, {"eventTypes", bj::array{"ANYTHING"}}});
    REQUIRE(user.status == 200);
    CHECK(user.body ==
          bj::value{{"logs", bj::array{}}, {"pagination", pagination(0, 1, 1, std::nullopt, std::nullopt)}});

    auto missing = post(b, "/public/logs/list", t.key);
    CHECK(missing.detail_path() == bj::array{"category"});
    auto wrong_type =
        post(b, "/public/logs/list", t.key, {{"category", "team"}, {"eventTypes", bj::array{"ENVELOPE_SENT"}}});
    CHECK(wrong_type.code() == "INVALID_REQUEST_FORMAT");
    CHECK(wrong_type.detail_path() == bj::array{"eventTypes", "0"});
}

TEST_CASE("logs/list: envelope category, filters and their errors", "[backend][logs]") {
    backend b;
    const team t = make_team(b);
    const team other = make_team(b);
    const auto sales = make_workspace(b, t, "Sales");
    const auto in_default = make_envelope(b, t);
    const auto in_sales = make_envelope(b, t, sales);
    const auto foreign = make_envelope(b, other);

    auto list = [&](bj::object body) {
        body["category"] = "envelope";
        return post(b, "/public/logs/list", t.key, body);
    };
    auto all = list({});
    REQUIRE(all.status == 200);
    CHECK(strings_at(all.body.at("logs"), "envelopeUuid") == std::vector<std::string>{in_sales, in_default});
    const auto& entry = all.body.at("logs").at(0).as_object();
    CHECK(entry.at("category") == "envelope");
    CHECK(entry.at("eventType") == "ENVELOPE_CREATED");
    CHECK(entry.at("workspaceUuid") == str(sales));
    CHECK(entry.at("author").at("uuid") == str(t.owner_uuid));

    CHECK(strings_at(list({{"workspaceUuid", sales}}).body.at("logs"), "envelopeUuid") ==
          std::vector<std::string>{in_sales});
    CHECK(strings_at(list({{"workspaceUuid", t.default_ws}}).body.at("logs"), "envelopeUuid") ==
          std::vector<std::string>{in_default});
    CHECK(strings_at(list({{"envelopeUuid", in_default}}).body.at("logs"), "envelopeUuid") ==
          std::vector<std::string>{in_default});
    CHECK(strings_at(list({{"envelopeUuid", in_sales}, {"workspaceUuid", sales}}).body.at("logs"), "envelopeUuid") ==
          std::vector<std::string>{in_sales});
    CHECK(list({{"eventTypes", bj::array{"ENVELOPE_SENT"}}}).body.at("logs") == bj::array{});
    CHECK(list({{"eventTypes", bj::array{"ENVELOPE_SENT", "ENVELOPE_CREATED"}}}).body.at("logs").as_array().size() ==
          2);
    CHECK(list({{"eventTypes", bj::array{}}}).body.at("logs").as_array().size() == 2);
    CHECK(list({{"eventTypes", bj::array{"TEAM_CREATED"}}}).detail_path() == bj::array{"eventTypes", "0"});

    CHECK(list({{"workspaceUuid", other.default_ws}}).code() == "WORKSPACE_NOT_FOUND");
    CHECK(list({{"envelopeUuid", foreign}}).code() == "ENVELOPE_NOT_FOUND");
    CHECK(list({{"envelopeUuid", "66666666-6666-4666-8666-666666666666"}}).code() == "ENVELOPE_NOT_FOUND");
    CHECK(list({{"envelopeUuid", in_sales}, {"workspaceUuid", t.default_ws}}).code() == "ENVELOPE_NOT_FOUND");
    // WORKSPACE_NOT_FOUND before ENVELOPE_NOT_FOUND
    CHECK(list({{"envelopeUuid", foreign}, {"workspaceUuid", other.default_ws}}).code() == "WORKSPACE_NOT_FOUND");

    // the team category holds no envelope logs, and ignores the envelope filters
    auto team_logs = post(b, "/public/logs/list", t.key, {{"category", "team"}, {"envelopeUuid", foreign}});
    REQUIRE(team_logs.status == 200);
    for (const auto& log : team_logs.body.at("logs").as_array()) CHECK(log.at("category") == "team");
    CHECK(team_logs.body.at("pagination").at("totalRecords") == 3);
    CHECK(
        post(b, "/public/logs/list", other.key, {{"category", "envelope"}}).body.at("pagination").at("totalRecords") ==
        1);
}

TEST_CASE("logs/list: sortBy timestamp or id, ties by insertion in the sort's direction, pages",
          "[backend][logs][pagination]") {
    test_clock clock;
    backend b(clock.options());
    const team t = make_team(b);  // TEAM_CREATED #1, WORKSPACE_CREATED #2 at start
    clock.set(start_ms + 100);
    const auto w1 = make_workspace(b, t, "W1");  // #3 at +100
    clock.set(start_ms + 50);                    // a clock set back: insertion and time disagree
    const auto w2 = make_workspace(b, t, "W2");  // #4 at +50
    (void)w1;
    (void)w2;

    auto names = [&](bj::object body) {
        body["category"] = "team";
        auto a = post(b, "/public/logs/list", t.key, body);
        REQUIRE(a.status == 200);
        std::vector<std::string> out;
        for (const auto& log : a.body.at("logs").as_array()) {
            std::string n(log.at("eventType").as_string());
            if (n == "WORKSPACE_CREATED") n = std::string(log.at("eventData").at("name").as_string());
            out.push_back(n);
        }
        return out;
    };
    // default: timestamp, desc (the two at `start` tie: later insertion first)
    CHECK(names({}) == std::vector<std::string>{"W1", "W2", "Default", "TEAM_CREATED"});
    CHECK(names({{"sortBy", "timestamp"}, {"sortOrder", "asc"}}) ==
          std::vector<std::string>{"TEAM_CREATED", "Default", "W2", "W1"});
    CHECK(names({{"sortBy", "id"}}) == std::vector<std::string>{"W2", "W1", "Default", "TEAM_CREATED"});
    CHECK(names({{"sortBy", "id"}, {"sortOrder", "asc"}}) ==
          std::vector<std::string>{"TEAM_CREATED", "Default", "W1", "W2"});
    CHECK(names({{"eventTypes", bj::array{"TEAM_CREATED"}}}) == std::vector<std::string>{"TEAM_CREATED"});

    auto page = post(b, "/public/logs/list", t.key, {{"category", "team"}, {"limit", 2}, {"page", 2}});
    CHECK(page.body.at("pagination") == pagination(4, 2, 2, std::nullopt, 1));
    CHECK(names({{"limit", 2}, {"page", 2}}) == std::vector<std::string>{"Default", "TEAM_CREATED"});
    CHECK(names({{"limit", 3}, {"page", 2}}) == std::vector<std::string>{"TEAM_CREATED"});
    CHECK(names({{"limit", 4}, {"page", 2}}).empty());
    auto bad = post(b, "/public/logs/list", t.key, {{"category", "team"}, {"sortBy", "name"}, {"sortOrder", "up"}});
    CHECK(bad.detail_count() == 2);
}

// ---------------------------------------------------------------------------------------------
// Isolation

TEST_CASE("team isolation: a key never sees another team's things", "[backend][isolation]") {
    backend b;
    const team a = make_team(b, {{"name", "A"}});
    const team other = make_team(b, {{"name", "B"}});
    const auto a_ws = make_workspace(b, a, "A-space");
    REQUIRE(post(b, "/public/contact/create", a.key, {{"contacts", bj::array{contact("a@example.com")}}}).status ==
            200);
    const auto hook = make_webhook(b, a);
    REQUIRE(post(b, "/_control/template/create", a.key,
                 {{"title", "T"}, {"recipientLabels", bj::array{"L"}}, {"documents", bj::array{}}})
                .status == 200);
    const auto env = make_envelope(b, a);

    auto workspaces = post(b, "/public/workspace/list", other.key).body.at("workspaces");
    CHECK(strings_at(workspaces, "uuid") == std::vector<std::string>{other.default_ws});
    CHECK(post(b, "/public/workspace/get", other.key, {{"workspaceUuid", a_ws}}).code() == "WORKSPACE_NOT_FOUND");
    CHECK(post(b, "/public/contact/list", other.key).body.at("contacts") == bj::array{});
    CHECK(post(b, "/public/contact/list", other.key, {{"workspaceUuid", a.default_ws}}).code() ==
          "WORKSPACE_NOT_FOUND");
    CHECK(post(b, "/public/webhook/list", other.key).body.at("webhooks") == bj::array{});
    CHECK(post(b, "/public/webhook/update", other.key, {{"uuid", hook}}).code() == "WEBHOOK_NOT_FOUND");
    CHECK(post(b, "/public/template/list", other.key).body.at("templates") == bj::array{});
    CHECK(post(b, "/public/logs/list", other.key, {{"category", "envelope"}}).body.at("logs") == bj::array{});
    CHECK(post(b, "/public/logs/list", other.key, {{"category", "envelope"}, {"envelopeUuid", env}}).code() ==
          "ENVELOPE_NOT_FOUND");
    CHECK(events(b, other) == std::vector<std::string>{"TEAM_CREATED", "WORKSPACE_CREATED"});
    CHECK(post(b, "/public/workspace/list", "esk_unknown").code() == "AUTHENTICATION_ERROR");
    CHECK(post(b, "/public/workspace/list", "esk_unknown").status == 401);
}

TEST_CASE("ids: unseeded identifiers are version 4 UUIDs, tokens URL-safe, no two alike", "[backend][ids]") {
    // Unseeded, identifiers come from a stream seeded from the device per source and tokens
    // from the device itself: both must look like what they are and never repeat.
    esign::reference::id_source a, b;
    std::set<std::string> seen;
    for (int i = 0; i < 2000; ++i) {
        for (auto* source : {&a, &b}) {
            const std::string id = source->uuid();
            REQUIRE(id.size() == 36);
            CHECK(id[14] == '4');
            CHECK(std::string_view("89ab").find(id[19]) != std::string_view::npos);
            CHECK(id.find_first_not_of("0123456789abcdef-") == std::string::npos);
            CHECK(seen.insert(id).second);
        }
    }
    const std::string token = a.url_safe(48);
    CHECK(token.size() == 48);
    CHECK(token.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") ==
          std::string::npos);
    CHECK(a.url_safe(48) != token);
    for (int i = 0; i < 100; ++i) {
        const double u = a.unit();
        CHECK(u >= 0.0);
        CHECK(u < 1.0);
    }

    // Seeded, every draw comes from the stream: the same seed, the same sequence.
    esign::reference::id_source s1{7}, s2{7};
    for (int i = 0; i < 10; ++i) {
        CHECK(s1.uuid() == s2.uuid());
        CHECK(s1.url_safe(10) == s2.url_safe(10));
    }
}

TEST_CASE("backend: every error body's documentationUrl begins with the configured base", "[backend][errors]") {
    backend_options o = fixed_clock(5);
    o.documentation_base = "https://docs.test/esign/";
    backend b(o);
    const team t = make_team(b);
    const auto url = [](const answer& a) { return std::string(a.body.at("error").at("documentationUrl").as_string()); };

    const auto missing = post(b, "/public/envelope/get", t.key, {{"envelopeUuid", std::string(36, 'a')}});
    require_error(missing, 400, "ENVELOPE_NOT_FOUND");
    CHECK(url(missing) == "https://docs.test/esign/ENVELOPE_NOT_FOUND");
    const auto invalid = post(b, "/public/envelope/get", t.key, {});
    require_error(invalid, 400, "INVALID_REQUEST_FORMAT");
    CHECK(url(invalid) == "https://docs.test/esign/INVALID_REQUEST_FORMAT");
    const auto unauthenticated = post(b, "/public/envelope/get", "", {});
    require_error(unauthenticated, 401, "AUTHENTICATION_ERROR");
    CHECK(url(unauthenticated) == "https://docs.test/esign/AUTHENTICATION_ERROR");
    const auto no_path = post(b, "/public/nothing", t.key, {});
    require_error(no_path, 404, "INVALID_REQUEST_FORMAT");
    CHECK(url(no_path) == "https://docs.test/esign/INVALID_REQUEST_FORMAT");

    backend plain(fixed_clock(5));
    const auto by_default = post(plain, "/public/envelope/get", make_team(plain).key, {});
    CHECK(url(by_default) == "https://esign.example/docs/errors#INVALID_REQUEST_FORMAT");
}

}  // namespace test_backend_team
