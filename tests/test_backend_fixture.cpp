// SPDX-License-Identifier: BSL-1.0
// The --fixture format: examples/fixture.json loads and is visible through the public API,
// /_control/reset brings it back, and a refused fixture reports its problems with their paths
// and loads nothing.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json.hpp>
#include <catch2/catch.hpp>

#include "backend_support.hpp"
#include "source_text.hpp"

namespace test_backend_fixture {

namespace {

namespace bj = boost::json;
using backend_support::backend;
using backend_support::backend_options;
using backend_support::post;
using backend_support::start_ms;
using backend_support::str;
using backend_support::strings_at;
using backend_support::webhook_body;

const std::string acme_key = "esk_acme_test_key_0000000000000000000000001";
const std::string globex_key = "esk_globex_test_key_00000000000000000000001";
const std::string acme_uuid = "a0000000-0000-4000-8000-000000000001";
const std::string acme_default_ws = "a0000000-0000-4000-8000-0000000000d1";
const std::string acme_sandbox_ws = "a0000000-0000-4000-8000-0000000000d2";
const std::string acme_template = "a0000000-0000-4000-8000-0000000000f1";
const std::string acme_envelope = "a0000000-0000-4000-8000-0000000000e1";
const std::string acme_sandbox_envelope = "a0000000-0000-4000-8000-0000000000e2";
const std::string globex_default_ws = "b0000000-0000-4000-8000-0000000000d1";
const std::string acme_webhook = "a0000000-0000-4000-8000-0000000000b1";

std::string example_fixture() {
    std::string text = esign::test::source_text("examples/fixture.json");
    REQUIRE(!text.empty());
    return text;
}

backend_options options_with(std::string fixture) {
    backend_options o;
    o.wall_clock = [] { return start_ms; };
    o.fixture_json = std::move(fixture);
    o.self_check = true;
    return o;
}

// Problems as "path: message" lines, for readable failures.
std::vector<std::string> paths_of(const esign::problem_list& problems) {
    std::vector<std::string> out;
    for (const auto& p : problems) {
        std::string line;
        for (const auto& part : p.path) line += "/" + part;
        out.push_back(line);
    }
    return out;
}

std::string messages_of(const esign::problem_list& problems) {
    std::string out;
    for (const auto& p : problems) out += p.message + "\n";
    return out;
}

// Everything the example's teams can read, to compare before and after a reset.
bj::array snapshot(backend& b) {
    bj::array out;
    for (const auto& key : {acme_key, globex_key}) {
        out.push_back(post(b, "/public/utils/whoami", key).body);
        out.push_back(post(b, "/public/workspace/list", key).body);
        out.push_back(post(b, "/public/contact/list", key).body);
        out.push_back(post(b, "/public/template/list", key).body);
        out.push_back(post(b, "/public/envelope/list", key).body);
        out.push_back(post(b, "/public/webhook/list", key).body);
        out.push_back(post(b, "/public/logs/list", key, {{"category", "team"}}).body);
        out.push_back(post(b, "/public/logs/list", key, {{"category", "envelope"}}).body);
    }
    out.push_back(post(b, "/public/envelope/get", acme_key, {{"envelopeUuid", acme_envelope}}).body);
    out.push_back(post(b, "/public/envelope/get", acme_key,
                       {{"workspaceUuid", acme_sandbox_ws}, {"envelopeUuid", acme_sandbox_envelope}})
                      .body);
    return out;
}

}  // namespace

TEST_CASE("fixture: the example loads, and the public API shows it", "[backend][fixture]") {
    backend b(options_with(example_fixture()));
    INFO(messages_of(b.fixture_problems()));
    REQUIRE(b.fixture_problems().empty());

    CHECK(post(b, "/public/utils/whoami", acme_key).body ==
          bj::value{{"teamUuid", acme_uuid},
                    {"teamName", "Acme Corp"},
                    {"ownerEmail", "alice@acme.example.com"},
                    {"ownerUuid", b.inspect([](const auto& st) { return st.teams.at(acme_uuid).owner_uuid; })}});
    b.inspect([](const esign::reference::state& st) {
        const auto& acme = st.teams.at(acme_uuid);
        CHECK(acme.api_credits == 100);
        CHECK(acme.email_quota == 500);
        CHECK(acme.subscription);
        CHECK(acme.features.size() == 3);
    });

    // workspaces: the default one and a sandbox
    auto spaces = post(b, "/public/workspace/list", acme_key).body.at("workspaces");
    CHECK(strings_at(spaces, "uuid") == std::vector<std::string>{acme_default_ws, acme_sandbox_ws});
    CHECK(strings_at(spaces, "name") == std::vector<std::string>{"Default", "Sandbox"});
    auto sandbox =
        post(b, "/public/workspace/get", acme_key, {{"workspaceUuid", acme_sandbox_ws}}).body.at("workspace");
    CHECK(sandbox.at("sandbox") == true);
    CHECK(sandbox.at("colorHex") == "#40c057");
    CHECK(sandbox.at("isDefault") == false);

    // contacts of the default workspace
    auto contacts = post(b, "/public/contact/list", acme_key).body.at("contacts");
    REQUIRE(contacts.as_array().size() == 2);
    CHECK(contacts.at(0).at("email") == "bob@client.example.com");
    CHECK(contacts.at(0).at("phone") == "+33 6 12 34 56 78");
    CHECK(contacts.at(0).at("language") == "fr");
    CHECK(contacts.at(0).at("city") == "Lyon");
    CHECK(contacts.at(1).at("phone").is_null());
    CHECK(post(b, "/public/contact/list", acme_key, {{"workspaceUuid", acme_sandbox_ws}}).body.at("contacts") ==
          bj::array{});

    // the template, with its two labels
    auto templates = post(b, "/public/template/list", acme_key).body.at("templates");
    REQUIRE(templates.as_array().size() == 1);
    CHECK(templates.at(0).at("uuid") == str(acme_template));
    CHECK(templates.at(0).at("title") == "Mutual NDA");
    CHECK(templates.at(0).at("workspaceUuid") == str(acme_default_ws));
    CHECK(templates.at(0).at("recipients") ==
          bj::array{bj::object{{"label", "Client"}}, bj::object{{"label", "Company"}}});
    CHECK(strings_at(templates.at(0).at("documents"), "title") == std::vector<std::string>{"nda.pdf"});

    // the envelopes, drafts with their fixed uuids and their recipients
    auto env = post(b, "/public/envelope/get", acme_key, {{"envelopeUuid", acme_envelope}});
    REQUIRE(env.status == 200);
    CHECK(env.body.at("title") == "Service agreement 2026");
    CHECK(env.body.at("status") == "draft");
    CHECK(env.body.at("creationDate") == start_ms);
    CHECK(env.body.at("tags") == bj::array{"sales", "2026"});
    CHECK(strings_at(env.body.at("documents"), "title") == std::vector<std::string>{"agreement.pdf"});
    CHECK(env.body.at("documents").at(0).at("pageCount") == 12);
    CHECK(strings_at(env.body.at("attachments"), "title") == std::vector<std::string>{"price-list.pdf"});
    const auto& recipients = env.body.at("recipients");
    CHECK(strings_at(recipients, "email") ==
          std::vector<std::string>{"bob@client.example.com", "dave@acme.example.com"});
    CHECK(recipients.at(0).at("associatedContact") == true);  // bob is a contact of the workspace
    CHECK(recipients.at(0).at("language") == "fr");
    CHECK(recipients.at(1).at("associatedContact") == false);
    CHECK(recipients.at(1).at("verificationType") == "sms");
    CHECK(recipients.at(1).at("order") == 2);
    CHECK(post(b, "/public/envelope/get", acme_key, {{"envelopeUuid", acme_sandbox_envelope}}).code() ==
          "ENVELOPE_NOT_FOUND");  // it is in the sandbox workspace
    CHECK(post(b, "/public/envelope/get", acme_key,
               {{"workspaceUuid", acme_sandbox_ws}, {"envelopeUuid", acme_sandbox_envelope}})
              .status == 200);

    // logs name the fixed uuids
    auto logs = post(b, "/public/logs/list", acme_key, {{"category", "envelope"}, {"sortOrder", "asc"}});
    CHECK(strings_at(logs.body.at("logs"), "envelopeUuid") ==
          std::vector<std::string>{acme_envelope, acme_sandbox_envelope});
    auto team_logs =
        post(b, "/public/logs/list", acme_key, {{"category", "team"}, {"sortBy", "id"}, {"sortOrder", "asc"}});
    CHECK(strings_at(team_logs.body.at("logs"), "eventType") ==
          std::vector<std::string>{"TEAM_CREATED", "WORKSPACE_CREATED", "CONTACT_CREATED", "CONTACT_CREATED",
                                   "WORKSPACE_CREATED", "WEBHOOK_CREATED"});
    CHECK(team_logs.body.at("logs").at(5).at("eventData") == bj::value{{"webhookUuid", acme_webhook}});

    // the webhook, with its fixed uuid; url and secret stored, never returned
    auto hooks = post(b, "/public/webhook/list", acme_key).body.at("webhooks");
    REQUIRE(hooks.as_array().size() == 1);
    CHECK(hooks.at(0) == bj::value{{"uuid", acme_webhook},
                                   {"title", "Signed contracts"},
                                   {"active", true},
                                   {"sslVerify", true},
                                   {"contentType", "application/json"},
                                   {"events", bj::array{"ENVELOPE_COMPLETED", "ENVELOPE_DECLINED"}},
                                   {"workspaceUuids", bj::array{str(acme_default_ws)}},
                                   {"creationDate", start_ms},
                                   {"updateDate", start_ms}});
    b.inspect([](const esign::reference::state& st) {
        const auto& rec = st.webhooks.at(acme_webhook);
        CHECK(rec.team_uuid == acme_uuid);
        CHECK(rec.url == "https://hooks.acme.example.com/esign");
        CHECK(rec.secret == std::optional<std::string>("whsec_acme_fixture_secret"));
        CHECK(st.deliveries.empty());  // loading delivers nothing
    });
    CHECK(post(b, "/public/webhook/list", globex_key).body.at("webhooks") == bj::array{});

    // the second team: its own contacts, its plan, nothing of the first
    auto globex_contacts = post(b, "/public/contact/list", globex_key).body.at("contacts");
    REQUIRE(globex_contacts.as_array().size() == 1);
    CHECK(globex_contacts.at(0).at("firstname") == "Robert");
    CHECK(strings_at(post(b, "/public/workspace/list", globex_key).body.at("workspaces"), "uuid") ==
          std::vector<std::string>{globex_default_ws});
    CHECK(post(b, "/public/envelope/get", globex_key, {{"envelopeUuid", acme_envelope}}).code() ==
          "ENVELOPE_NOT_FOUND");
    CHECK(post(b, "/public/template/list", globex_key).body.at("templates") == bj::array{});
    CHECK(post(b, "/public/webhook/create", globex_key, webhook_body()).code() == "FEATURE_NOT_IN_CURRENT_PLAN");
    CHECK(post(b, "/public/workspace/list", "esk_not_a_key").code() == "AUTHENTICATION_ERROR");
}

TEST_CASE("fixture: /_control/reset brings it back after changes", "[backend][fixture]") {
    backend b(options_with(example_fixture()));
    REQUIRE(b.fixture_problems().empty());
    const bj::array before = snapshot(b);

    REQUIRE(
        post(b, "/public/contact/create", acme_key,
             {{"contacts", bj::array{bj::object{{"email", "new@example.com"}, {"firstname", "N"}, {"lastname", "W"}}}}})
            .status == 200);
    REQUIRE(post(b, "/public/contact/delete", globex_key, {{"emails", bj::array{"bob@client.example.com"}}}).status ==
            200);
    REQUIRE(post(b, "/public/workspace/create", acme_key, {{"name", "Extra"}}).status == 200);
    REQUIRE(post(b, "/public/workspace/update", acme_key, {{"workspaceUuid", acme_sandbox_ws}, {"sandbox", false}})
                .status == 200);
    REQUIRE(post(b, "/public/webhook/create", acme_key, webhook_body()).status == 200);
    REQUIRE(post(b, "/public/envelope/update", acme_key,
                 {{"envelopeUuid", acme_envelope}, {"update", {{"title", "Changed"}}}})
                .status == 200);
    const auto extra_team = post(b, "/_control/team/create", "");
    const std::string extra_key(extra_team.body.at("apiKey").as_string());
    CHECK(snapshot(b) != before);

    auto reset = post(b, "/_control/reset", "");
    REQUIRE(reset.status == 200);
    CHECK(reset.body == bj::object{});
    CHECK(snapshot(b) == before);
    CHECK(post(b, "/public/utils/whoami", extra_key).code() == "AUTHENTICATION_ERROR");

    // a second backend on the same fixture makes the same store, generated uuids included
    backend twin(options_with(example_fixture()));
    CHECK(snapshot(twin) == before);
}

TEST_CASE("fixture: the example's webhook delivers the events it subscribes to", "[backend][fixture]") {
    backend b(options_with(example_fixture()));
    REQUIRE(b.fixture_problems().empty());
    auto deliveries = [&] {
        auto a = post(b, "/_control/webhook/deliveries", "", {{"webhookUuid", acme_webhook}});
        REQUIRE(a.status == 200);
        return strings_at(a.body.at("deliveries"), "eventType");
    };
    REQUIRE(post(b, "/public/envelope/send", acme_key, {{"envelopeUuid", acme_envelope}}).status == 200);
    CHECK(deliveries().empty());  // ENVELOPE_SENT is not one of its events
    for (const char* email : {"bob@client.example.com", "dave@acme.example.com"})
        REQUIRE(post(b, "/_control/recipient/act", "",
                     {{"envelopeUuid", acme_envelope}, {"email", email}, {"action", "sign"}})
                    .status == 200);
    CHECK(deliveries() == std::vector<std::string>{"ENVELOPE_COMPLETED"});

    // the sandbox workspace is not one of its workspaces
    REQUIRE(post(b, "/public/envelope/send", acme_key,
                 {{"workspaceUuid", acme_sandbox_ws}, {"envelopeUuid", acme_sandbox_envelope}})
                .status == 200);
    REQUIRE(post(b, "/_control/recipient/act", "",
                 {{"envelopeUuid", acme_sandbox_envelope}, {"email", "tester@acme.example.com"}, {"action", "sign"}})
                .status == 200);
    CHECK(deliveries() == std::vector<std::string>{"ENVELOPE_COMPLETED"});
}

TEST_CASE("fixture: contacts and recipients beyond one request's 50", "[backend][fixture]") {
    bj::array contacts, recipients;
    for (int i = 0; i < 60; ++i) {
        const std::string email = "c" + std::to_string(i) + "@example.com";
        contacts.push_back(bj::object{{"email", email}, {"firstname", "F"}, {"lastname", "L"}});
        recipients.push_back(bj::object{{"type", "manual"}, {"email", email}, {"firstname", "F"}, {"lastname", "L"}});
    }
    bj::object team{
        {"apiKey", "k1"},
        {"contacts", contacts},
        {"envelopes", bj::array{bj::object{{"uuid", acme_envelope},
                                           {"title", "Big"},
                                           {"documents", bj::array{bj::object{{"title", "d"}, {"pageCount", 1}}}},
                                           {"recipients", recipients}}}}};
    backend b(options_with(bj::serialize(bj::object{{"teams", bj::array{team}}})));
    INFO(messages_of(b.fixture_problems()));
    REQUIRE(b.fixture_problems().empty());
    CHECK(post(b, "/public/contact/list", "k1").body.at("pagination").at("totalRecords") == 60);
    auto env = post(b, "/public/envelope/get", "k1", {{"envelopeUuid", acme_envelope}});
    REQUIRE(env.status == 200);
    CHECK(env.body.at("recipients").as_array().size() == 60);
    CHECK(env.body.at("recipients").at(59).at("order") == 60);
}

namespace {

// Pieces of fixtures, for the problem cases.
bj::object fixture_of(bj::array teams) { return bj::object{{"teams", std::move(teams)}}; }

bj::object team_with(std::string key, bj::object members = {}) {
    members["apiKey"] = key;
    return members;
}

bj::object person(std::string email, std::string first = "A") {
    return bj::object{{"email", email}, {"firstname", first}, {"lastname", "L"}};
}

bj::object recipient(std::string email, bj::object extra = {}) {
    bj::object r = person(email);
    r["type"] = "manual";
    for (auto& m : extra) r[m.key()] = m.value();
    return r;
}

bj::object envelope_with(bj::object members = {}) {
    if (!members.contains("title")) members["title"] = "E";
    members["documents"] = bj::array{bj::object{{"title", "d.pdf"}, {"pageCount", 1}}};
    return members;
}

bj::object template_with(bj::object members = {}) {
    if (!members.contains("recipientLabels")) members["recipientLabels"] = bj::array{"A"};
    members["title"] = "T";
    members["documents"] = bj::array{};
    return members;
}

}  // namespace

TEST_CASE("fixture: problems come back with their paths, and nothing is loaded", "[backend][fixture]") {
    auto problems_of = [](const std::string& text) {
        backend b(options_with(text));
        // a refused fixture loads nothing: not even the valid teams before the problem
        CHECK(!b.authenticate("/public/workspace/list", "k1"));
        b.inspect([](const esign::reference::state& st) {
            CHECK(st.teams.empty());
            CHECK(st.logs.empty());
        });
        return b.fixture_problems();
    };
    auto single = [&](const bj::object& fixture) {
        const std::string text = bj::serialize(fixture);
        auto problems = problems_of(text);
        INFO(text);
        INFO(messages_of(problems));
        REQUIRE(problems.size() == 1);
        return problems[0];
    };
    using path = esign::problem_path;

    SECTION("not JSON, not an object") {
        CHECK(problems_of("{\"teams\": [").at(0).path.empty());
        CHECK(problems_of("[]").at(0).path.empty());
    }
    SECTION("validation, strict: missing, wrong type, unknown member, bad key") {
        bj::object doc = fixture_of({bj::object{{"name", 3}, {"colour", "red"}}, team_with("has space")});
        doc["extra"] = 1;
        // In the document's order; a member that is missing is known when its object closes.
        CHECK(paths_of(problems_of(bj::serialize(doc))) == std::vector<std::string>{"/teams/0/name", "/teams/0/colour",
                                                                                    "/teams/0/apiKey",
                                                                                    "/teams/1/apiKey", "/extra"});
        CHECK(single(bj::object{}).path == path{"teams"});
    }
    SECTION("an API key used twice") {
        CHECK(single(fixture_of({team_with("k1"), team_with("k2"), team_with("k1")})).path ==
              path{"teams", "2", "apiKey"});
    }
    SECTION("a fixed uuid used twice") {
        const std::string u = "c0000000-0000-4000-8000-000000000001";
        CHECK(single(fixture_of({team_with("k1", {{"uuid", u}}), team_with("k2", {{"uuid", u}})})).path ==
              path{"teams", "1", "uuid"});
        CHECK(single(fixture_of({team_with("k1", {{"defaultWorkspaceUuid", u},
                                                  {"workspaces", bj::array{bj::object{{"name", "W"}, {"uuid", u}}}}})}))
                  .path == path{"teams", "0", "workspaces", "0", "uuid"});
        CHECK(single(fixture_of({team_with("k1", {{"envelopes", bj::array{envelope_with({{"uuid", u}}),
                                                                          envelope_with({{"uuid", u}})}}})}))
                  .path == path{"teams", "0", "envelopes", "1", "uuid"});
        bj::object workspace{{"name", "W"}, {"templates", bj::array{template_with({{"uuid", u}})}}};
        CHECK(single(fixture_of({team_with("k1", {{"templates", bj::array{template_with({{"uuid", u}})}},
                                                  {"workspaces", bj::array{workspace}}})}))
                  .path == path{"teams", "0", "workspaces", "0", "templates", "0", "uuid"});
    }
    SECTION("what the operations refuse") {
        auto twice = single(fixture_of(
            {team_with("k1", {{"contacts", bj::array{person("a@example.com"), person("a@example.com", "B")}}})}));
        CHECK(twice.path == path{"teams", "0", "contacts"});
        CHECK(twice.message.find("CONTACT_EMAIL_ALREADY_EXISTS") == 0);
        CHECK(twice.message.find("a@example.com") != std::string::npos);

        bj::object workspace{{"name", "W"}, {"contacts", bj::array{person("a@example.invalid")}}};
        auto reserved = single(fixture_of({team_with("k1", {{"workspaces", bj::array{workspace}}})}));
        CHECK(reserved.path == path{"teams", "0", "workspaces", "0", "contacts"});
        CHECK(reserved.message.find("INVALID_EMAIL") == 0);

        auto labels = single(fixture_of(
            {team_with("k1", {{"templates", bj::array{template_with({{"recipientLabels", bj::array{"A", "A"}}})}}})}));
        CHECK(labels.path == path{"teams", "0", "templates", "0", "recipientLabels", "1"});

        auto sms = [](bj::object extra) {
            extra["verificationType"] = "sms";
            return envelope_with({{"recipients", bj::array{recipient("s@example.com", extra)}}});
        };
        auto no_phone = single(fixture_of({team_with("k1", {{"envelopes", bj::array{sms({})}}})}));
        CHECK(no_phone.path == path{"teams", "0", "envelopes", "0", "recipients", "0", "phone"});

        auto no_sms = single(fixture_of(
            {team_with("k1", {{"features", bj::array{}}, {"envelopes", bj::array{sms({{"phone", "+1 555"}})}}})}));
        CHECK(no_sms.path == path{"teams", "0", "envelopes", "0", "recipients"});
        CHECK(no_sms.message.find("FEATURE_NOT_IN_CURRENT_PLAN") == 0);

        auto duplicate = envelope_with(
            {{"recipients", bj::array{recipient("s@example.com"), recipient("s@example.com", {{"firstname", "T"}})}}});
        auto duplicate_recipient = single(fixture_of({team_with("k1", {{"envelopes", bj::array{duplicate}}})}));
        CHECK(duplicate_recipient.path == path{"teams", "0", "envelopes", "0", "recipients"});
        CHECK(duplicate_recipient.message.find("DUPLICATE_RECIPIENT") == 0);
    }
    SECTION("webhooks: decoded as a webhook/create body") {
        auto doc = fixture_of({team_with(
            "k1", {{"webhooks",
                    bj::array{webhook_body({{"url", "not a uri"}}), webhook_body({{"events", bj::array{"NOPE"}}}),
                              bj::object{{"url", "https://x.example.com"}}, webhook_body({{"colour", "red"}})}}})});
        CHECK(paths_of(problems_of(bj::serialize(doc))) ==
              std::vector<std::string>{"/teams/0/webhooks/0/url", "/teams/0/webhooks/1/events/0",
                                       "/teams/0/webhooks/2/contentType", "/teams/0/webhooks/2/sslVerify",
                                       "/teams/0/webhooks/2/active", "/teams/0/webhooks/3/colour"});
    }
    SECTION("webhooks: what webhook/create refuses") {
        auto link_local = single(fixture_of(
            {team_with("k1", {{"webhooks", bj::array{webhook_body({{"url", "http://169.254.169.254/latest"}})}}})}));
        CHECK(link_local.path == path{"teams", "0", "webhooks", "0"});
        CHECK(link_local.message.find("WEBHOOK_URL_REFUSED") == 0);

        auto no_feature = single(
            fixture_of({team_with("k1", {{"features", bj::array{"sms"}}, {"webhooks", bj::array{webhook_body()}}})}));
        CHECK(no_feature.path == path{"teams", "0", "webhooks", "0"});
        CHECK(no_feature.message.find("FEATURE_NOT_IN_CURRENT_PLAN") == 0);

        // another team's workspace is not one of this team's
        const std::string other_ws = "c0000000-0000-4000-8000-0000000000d1";
        auto foreign = single(fixture_of(
            {team_with("k1", {{"defaultWorkspaceUuid", other_ws}}),
             team_with("k2",
                       {{"webhooks", bj::array{webhook_body({{"workspaceUuids", bj::array{str(other_ws)}}})}}})}));
        CHECK(foreign.path == path{"teams", "1", "webhooks", "0"});
        CHECK(foreign.message.find("WORKSPACE_NOT_FOUND") == 0);

        bj::array many;
        for (int i = 0; i <= 20; ++i) many.push_back(webhook_body());
        auto limit = single(fixture_of({team_with("k1", {{"webhooks", many}})}));
        CHECK(limit.path == path{"teams", "0", "webhooks", "20"});
        CHECK(limit.message.find("WEBHOOK_LIMIT_REACHED") == 0);

        const std::string u = "c0000000-0000-4000-8000-0000000000b1";
        CHECK(single(fixture_of({team_with("k1", {{"webhooks", bj::array{webhook_body({{"uuid", u}})}}}),
                                 team_with("k2", {{"webhooks", bj::array{webhook_body({{"uuid", u}})}}})}))
                  .path == path{"teams", "1", "webhooks", "0", "uuid"});
    }
    SECTION("every problem of the document is reported") {
        auto doc =
            fixture_of({team_with("k1"), team_with("k1"),
                        team_with("k3", {{"contacts", bj::array{person("a@example.com"), person("a@example.com")}}})});
        CHECK(paths_of(problems_of(bj::serialize(doc))) ==
              std::vector<std::string>{"/teams/1/apiKey", "/teams/2/contacts"});
    }
}

TEST_CASE("fixture: webhooks follow the server's webhook URL mode and name the fixture's workspaces",
          "[backend][fixture]") {
    const std::string ws = "c0000000-0000-4000-8000-0000000000d2";
    const std::string text = bj::serialize(fixture_of(
        {team_with("k1", {{"workspaces", bj::array{bj::object{{"uuid", ws}, {"name", "W"}}}},
                          {"webhooks", bj::array{webhook_body({{"url", "http://127.0.0.1:9000/hook"},
                                                               {"contentType", "application/x-www-form-urlencoded"},
                                                               {"secret", nullptr},
                                                               {"workspaceUuids", bj::array{str(ws)}}})}}})}));
    backend open(options_with(text));
    INFO(messages_of(open.fixture_problems()));
    REQUIRE(open.fixture_problems().empty());
    auto hooks = post(open, "/public/webhook/list", "k1").body.at("webhooks");
    REQUIRE(hooks.as_array().size() == 1);
    CHECK(hooks.at(0).at("workspaceUuids") == bj::array{str(ws)});
    CHECK(hooks.at(0).at("contentType") == "application/x-www-form-urlencoded");
    CHECK(hooks.at(0).at("title").is_null());
    CHECK(hooks.at(0).at("events") == bj::array{});
    open.inspect([](const esign::reference::state& st) { CHECK(!st.webhooks.begin()->second.secret); });

    backend_options public_only = options_with(text);
    public_only.public_webhooks_only = true;
    backend closed(std::move(public_only));
    REQUIRE(closed.fixture_problems().size() == 1);
    CHECK(closed.fixture_problems()[0].path == esign::problem_path{"teams", "0", "webhooks", "0"});
    CHECK(closed.fixture_problems()[0].message.find("WEBHOOK_URL_REFUSED") == 0);
    CHECK(!closed.authenticate("/public/workspace/list", "k1"));
}

TEST_CASE("fixture: an empty document and no fixture at all", "[backend][fixture]") {
    backend empty(options_with(R"({"teams": []})"));
    CHECK(empty.fixture_problems().empty());
    empty.inspect([](const esign::reference::state& st) { CHECK(st.teams.empty()); });

    backend none;
    CHECK(none.fixture_problems().empty());
    REQUIRE(post(none, "/_control/team/create", "").status == 200);
    REQUIRE(post(none, "/_control/reset", "").status == 200);
    none.inspect([](const esign::reference::state& st) { CHECK(st.teams.empty()); });
}

}  // namespace test_backend_fixture
