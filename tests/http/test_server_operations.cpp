// SPDX-License-Identifier: BSL-1.0
// Black-box tests of esign-reference-server's operations (interface.md "Endpoints", contract.md
// §3-§5): what each public operation answers and changes, read back through the API; the
// lifecycle through /_control/recipient/act; expiry and reminders as the clock advances; the
// e-mail outbox; reset and fixtures. Errors and the coverage of every code: test_server_errors.cpp.
#include "test_support.hpp"

#include <cstdint>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace test_server_operations {

using namespace esign::test;
using boost::json::array;
using boost::json::object;
using boost::json::value;

namespace {

constexpr std::int64_t day_ms = 86'400'000;

std::set<std::string> names(std::initializer_list<const char*> list) { return {list.begin(), list.end()}; }

// A server and one team on it (owner Alice Martin, team "Acme"), with shorthands.
struct world {
    test_server srv;
    team t;
    api_caller api;

    explicit world(std::vector<std::string> args = {})
        : srv(std::move(args)),
          t(create_team(
              srv.host(), srv.port(),
              R"({"name":"Acme","ownerEmail":"alice@acme.example.com","ownerFirstname":"Alice","ownerLastname":"Martin"})")),
          api{srv, t.api_key} {}

    object ok(const std::string& path, const value& body) { return api.ok(path, body); }
    object control(const std::string& path, const value& body = object{}) { return control_ok(srv, path, body); }

    // A draft in the default workspace (or `workspace`): {envelopeUuid, documentUuids, attachmentUuids}.
    object envelope(const std::string& title = "Deal", std::int64_t pages = 2, const array& attachments = {},
                    const std::string& workspace = {}) {
        object body{{"title", title}, {"documents", array{object{{"title", "doc.pdf"}, {"pageCount", pages}}}}};
        if (!attachments.empty()) body["attachments"] = attachments;
        if (!workspace.empty()) body["workspaceUuid"] = workspace;
        return ok("/_control/envelope/create", body);
    }
    std::string draft(const std::string& title = "Deal") { return string_member(envelope(title), "envelopeUuid"); }

    object get(const std::string& envelope_uuid) {
        return ok("/public/envelope/get", object{{"envelopeUuid", envelope_uuid}});
    }

    object add(const std::string& envelope_uuid, const array& recipients) {
        return ok("/public/envelope/add-recipients",
                  object{{"envelopeUuid", envelope_uuid}, {"recipients", recipients}});
    }
    object set_role(const std::string& envelope_uuid, const std::string& email, const std::string& role) {
        return ok("/public/envelope/update-recipient", object{{"envelopeUuid", envelope_uuid},
                                                              {"email", email},
                                                              {"role", "signer"},
                                                              {"updates", object{{"role", role}}}});
    }
    object act(const std::string& envelope_uuid, const std::string& email, const std::string& action) {
        return control("/_control/recipient/act",
                       object{{"envelopeUuid", envelope_uuid}, {"email", email}, {"action", action}});
    }
    http_response try_act(const std::string& envelope_uuid, const std::string& email, const std::string& action) {
        return srv.post(
            "/_control/recipient/act",
            boost::json::serialize(object{{"envelopeUuid", envelope_uuid}, {"email", email}, {"action", action}}));
    }
    array outbox() { return control("/_control/outbox/list").at("emails").as_array(); }
    std::int64_t now() { return control("/_control/clock/now").at("now").as_int64(); }
    std::int64_t advance(std::int64_t ms) {
        return control("/_control/clock/advance", object{{"milliseconds", ms}}).at("now").as_int64();
    }
    array logs(const object& filter) { return ok("/public/logs/list", filter).at("logs").as_array(); }
};

object person(const std::string& email, const std::string& first = "First", const std::string& last = "Last") {
    return object{{"type", "manual"}, {"email", email}, {"firstname", first}, {"lastname", last}};
}

std::vector<std::string> event_types(const array& logs) {
    std::vector<std::string> out;
    for (const auto& l : logs) out.push_back(string_member(l, "eventType"));
    return out;
}

std::vector<std::string> outbox_lines(const array& emails) {
    std::vector<std::string> out;
    for (const auto& e : emails) out.push_back(string_member(e, "kind") + " " + string_member(e, "to"));
    return out;
}

}  // namespace

TEST_CASE("operations: webhook create, update, list, delete", "[http][operations]") {
    world w;
    const auto created = w.ok("/public/webhook/create", object{{"url", "https://hooks.example.com/in"},
                                                               {"contentType", "application/x-www-form-urlencoded"},
                                                               {"sslVerify", true},
                                                               {"active", true},
                                                               {"secret", "s3cr3t"},
                                                               {"events", array{"ENVELOPE_SENT", "ENVELOPE_COMPLETED"}},
                                                               {"workspaceUuids", array{w.t.default_workspace_uuid}},
                                                               {"title", "Audit"}})
                             .at("webhook");
    CHECK(member_names(created) == names({"uuid", "title", "active", "sslVerify", "contentType", "events",
                                          "workspaceUuids", "creationDate", "updateDate"}));  // no url, no secret
    const auto uuid = string_member(created, "uuid");
    CHECK(is_lowercase_uuid(uuid));
    CHECK(created.at("title") == "Audit");
    CHECK(created.at("contentType") == "application/x-www-form-urlencoded");
    CHECK(created.at("events") == value(array{"ENVELOPE_SENT", "ENVELOPE_COMPLETED"}));
    CHECK(created.at("workspaceUuids") == value(array{w.t.default_workspace_uuid}));
    CHECK(created.at("creationDate").is_int64());
    CHECK(created.at("creationDate") == created.at("updateDate"));

    const auto second = w.ok("/public/webhook/create", object{{"url", "http://127.0.0.1:9/x"},
                                                              {"contentType", "application/json"},
                                                              {"sslVerify", false},
                                                              {"active", false}})
                            .at("webhook");
    CHECK(second.at("title").is_null());
    CHECK(second.at("events") == value(array{}));
    CHECK(second.at("workspaceUuids") == value(array{}));

    w.advance(1000);
    SECTION("update changes only the members given") {
        const auto updated =
            w.ok("/public/webhook/update", object{{"uuid", uuid}, {"active", false}, {"secret", nullptr}})
                .at("webhook");
        CHECK(updated.at("active") == false);
        CHECK(updated.at("title") == "Audit");
        CHECK(updated.at("sslVerify") == true);
        CHECK(updated.at("events") == created.at("events"));
        CHECK(updated.at("creationDate") == created.at("creationDate"));
        CHECK(updated.at("updateDate").as_int64() >= created.at("updateDate").as_int64() + 1000);
        const auto listed = w.ok("/public/webhook/list", object{{"active", false}});
        REQUIRE(listed.at("webhooks").as_array().size() == 2);
        CHECK(listed.at("webhooks").as_array()[0] == updated);  // creation order
    }
    SECTION("list: creation order, the active filter, pagination") {
        const auto all = w.ok("/public/webhook/list", object{});
        REQUIRE(all.at("webhooks").as_array().size() == 2);
        CHECK(string_member(all.at("webhooks").as_array()[0], "uuid") == uuid);
        CHECK(all.at("pagination") == value(object{{"totalRecords", 2},
                                                   {"currentPage", 1},
                                                   {"totalPages", 1},
                                                   {"nextPage", nullptr},
                                                   {"prevPage", nullptr}}));
        const auto active = w.ok("/public/webhook/list", object{{"active", true}}).at("webhooks").as_array();
        REQUIRE(active.size() == 1);
        CHECK(string_member(active[0], "uuid") == uuid);
        const auto page2 = w.ok("/public/webhook/list", object{{"limit", 1}, {"page", 2}});
        CHECK(string_member(page2.at("webhooks").as_array().at(0), "uuid") == string_member(second, "uuid"));
        CHECK(page2.at("pagination") ==
              value(object{
                  {"totalRecords", 2}, {"currentPage", 2}, {"totalPages", 2}, {"nextPage", nullptr}, {"prevPage", 1}}));
    }
    SECTION("delete, and the team logs of all three") {
        w.ok("/public/webhook/update", object{{"uuid", uuid}, {"title", "Renamed"}});
        CHECK(w.ok("/public/webhook/delete", object{{"uuid", uuid}}).empty());
        const auto left = w.ok("/public/webhook/list", object{}).at("webhooks").as_array();
        REQUIRE(left.size() == 1);
        CHECK(string_member(left[0], "uuid") == string_member(second, "uuid"));
        const auto types =
            event_types(w.logs(object{{"category", "team"},
                                      {"sortOrder", "asc"},
                                      {"eventTypes", array{"WEBHOOK_CREATED", "WEBHOOK_UPDATED", "WEBHOOK_DELETED"}}}));
        CHECK(types ==
              std::vector<std::string>{"WEBHOOK_CREATED", "WEBHOOK_CREATED", "WEBHOOK_UPDATED", "WEBHOOK_DELETED"});
    }
}

TEST_CASE("operations: workspace list, get, create, update", "[http][operations]") {
    world w;
    const auto def =
        w.ok("/public/workspace/get", object{{"workspaceUuid", w.t.default_workspace_uuid}}).at("workspace");
    CHECK(member_names(def) ==
          names({"uuid", "name", "creationDate", "updateDate", "isDefault", "colorHex", "sandbox", "membersCount"}));
    CHECK(def.at("name") == "Default");
    CHECK(def.at("isDefault") == true);
    CHECK(def.at("colorHex") == "#228be6");
    CHECK(def.at("sandbox") == false);
    CHECK(def.at("membersCount") == 1);

    const auto made =
        w.ok("/public/workspace/create", object{{"name", "Légal"}, {"colorHex", "#A1b2C3"}}).at("workspace");
    CHECK(member_names(made) ==
          names({"uuid", "name", "creationDate", "updateDate", "isDefault", "colorHex", "sandbox"}));
    CHECK(made.at("name") == "Légal");
    CHECK(made.at("colorHex") == "#A1b2C3");
    CHECK(made.at("isDefault") == false);
    CHECK(made.at("sandbox") == false);
    const auto plain = w.ok("/public/workspace/create", object{{"name", std::string(100, 'n')}}).at("workspace");
    CHECK(plain.at("colorHex") == "#228be6");
    const auto uuid = string_member(made, "uuid");

    w.advance(5000);
    const auto updated =
        w.ok("/public/workspace/update", object{{"workspaceUuid", uuid}, {"sandbox", true}}).at("workspace");
    CHECK(updated.at("sandbox") == true);
    CHECK(updated.at("membersCount") == 1);
    CHECK(updated.at("updateDate").as_int64() >= made.at("updateDate").as_int64() + 5000);
    CHECK(w.ok("/public/workspace/get", object{{"workspaceUuid", uuid}}).at("workspace") == updated);

    const auto list = w.ok("/public/workspace/list", object{});
    const auto& items = list.at("workspaces").as_array();
    REQUIRE(items.size() == 3);
    CHECK(member_names(items[0]) == names({"uuid", "name", "creationDate", "updateDate", "sandbox", "membersCount"}));
    CHECK(string_member(items[0], "uuid") == w.t.default_workspace_uuid);  // creation order
    CHECK(string_member(items[1], "uuid") == uuid);
    CHECK(items[1].at("sandbox") == true);
    CHECK(list.at("pagination").at("totalRecords") == 3);
    const auto last = w.ok("/public/workspace/list", object{{"limit", 2}, {"page", 2}});
    CHECK(last.at("workspaces").as_array().size() == 1);
    CHECK(last.at("pagination").at("prevPage") == 1);

    // Another team sees none of them.
    const auto other = w.srv.new_team();
    api_caller b{w.srv, other.api_key};
    CHECK(b.ok("/public/workspace/list", object{}).at("workspaces").as_array().size() == 1);
    check_error(b.call("/public/workspace/get", object{{"workspaceUuid", uuid}}), 400, "WORKSPACE_NOT_FOUND",
                "/public/workspace/get");
    CHECK(event_types(w.logs(object{{"category", "team"}, {"sortOrder", "asc"}})) ==
          std::vector<std::string>{"TEAM_CREATED", "WORKSPACE_CREATED", "WORKSPACE_CREATED", "WORKSPACE_CREATED",
                                   "WORKSPACE_UPDATED"});
}

TEST_CASE("operations: contact create, update, list, delete", "[http][operations]") {
    world w;
    const auto created =
        w.ok("/public/contact/create", object{{"contacts", array{object{{"email", "bob@client.example.com"},
                                                                        {"firstname", "Bob"},
                                                                        {"lastname", "Durand"},
                                                                        {"phone", "+33 6"},
                                                                        {"language", "fr"},
                                                                        {"company", "Client SA"},
                                                                        {"city", "Lyon"}},
                                                                 object{{"email", "carol@partner.example.com"},
                                                                        {"firstname", "Carol"},
                                                                        {"lastname", "Smith"}}}}})
            .at("contacts")
            .as_array();
    REQUIRE(created.size() == 2);
    CHECK(is_lowercase_uuid(string_member(created[0], "uuid")));
    CHECK(created[0].at("language") == "fr");
    CHECK(created[0].at("company") == "Client SA");
    CHECK(created[1].at("phone").is_null());  // omitted means null
    CHECK_FALSE(created[1].as_object().contains("company"));

    const auto updated = w.ok("/public/contact/update", object{{"contact", object{{"email", "bob@client.example.com"},
                                                                                  {"firstname", "Robert"},
                                                                                  {"lastname", "Durand"},
                                                                                  {"phone", nullptr},
                                                                                  {"city", "Paris"}}}})
                             .at("contact");
    CHECK(updated.at("uuid") == created[0].at("uuid"));
    CHECK(updated.at("firstname") == "Robert");
    CHECK(updated.at("phone").is_null());
    CHECK(updated.at("city") == "Paris");
    CHECK(updated.at("company") == "Client SA");  // absent optional members stay
    CHECK(updated.at("language") == "fr");

    const auto list = w.ok("/public/contact/list", object{});
    REQUIRE(list.at("contacts").as_array().size() == 2);
    CHECK(list.at("contacts").as_array()[0] == updated);  // creation order
    CHECK(list.at("pagination").at("totalRecords") == 2);
    const auto page = w.ok("/public/contact/list", object{{"limit", 1}, {"page", 3}});
    CHECK(page.at("contacts").as_array().empty());  // past the end: empty, same arithmetic
    CHECK(page.at("pagination") ==
          value(object{
              {"totalRecords", 2}, {"currentPage", 3}, {"totalPages", 2}, {"nextPage", nullptr}, {"prevPage", 2}}));

    // Contacts belong to a workspace.
    const auto ws = string_member(w.ok("/public/workspace/create", object{{"name", "Other"}}).at("workspace"), "uuid");
    CHECK(w.ok("/public/contact/list", object{{"workspaceUuid", ws}}).at("contacts").as_array().empty());
    w.ok("/public/contact/create",
         object{
             {"workspaceUuid", ws},
             {"contacts", array{object{{"email", "bob@client.example.com"}, {"firstname", "B"}, {"lastname", "D"}}}}});

    CHECK(w.ok("/public/contact/delete", object{{"emails", array{"bob@client.example.com", "bob@client.example.com"}}})
              .empty());
    const auto left = w.ok("/public/contact/list", object{}).at("contacts").as_array();
    REQUIRE(left.size() == 1);
    CHECK(left[0].at("email") == "carol@partner.example.com");
    CHECK(w.ok("/public/contact/list", object{{"workspaceUuid", ws}}).at("contacts").as_array().size() == 1);
    CHECK(event_types(w.logs(object{{"category", "team"},
                                    {"sortOrder", "asc"},
                                    {"eventTypes", array{"CONTACT_CREATED", "CONTACT_UPDATED", "CONTACT_DELETED"}}})) ==
          std::vector<std::string>{"CONTACT_CREATED", "CONTACT_CREATED", "CONTACT_UPDATED", "CONTACT_CREATED",
                                   "CONTACT_DELETED"});
}

TEST_CASE("operations: envelope get (full form) and list", "[http][operations]") {
    world w;
    const auto made = w.envelope("Service agreement", 12, array{object{{"title", "price-list.pdf"}}});
    const auto uuid = string_member(made, "envelopeUuid");
    const auto env = w.get(uuid);
    CHECK(member_names(env) ==
          names({"uuid", "title", "status", "creationDate", "updateDate", "sentDate", "owner", "sender", "documents",
                 "attachments", "tags", "metrics", "signatureOrder", "customMessage", "useUserAsSenderName",
                 "timestampEnabled", "expirationPeriod", "reminderFrequencyPeriod", "recipients"}));
    // The defaults of a new envelope (contract.md §3), member by member.
    const object expected{
        {"uuid", uuid},
        {"status", "draft"},
        {"sentDate", nullptr},
        {"owner", object{{"uuid", w.t.owner_uuid},
                         {"email", "alice@acme.example.com"},
                         {"firstname", "Alice"},
                         {"lastname", "Martin"}}},
        {"sender", object{{"email", "alice@acme.example.com"}, {"name", "Acme"}}},
        {"signatureOrder", false},
        {"customMessage", nullptr},
        {"useUserAsSenderName", false},
        {"timestampEnabled", true},
        {"expirationPeriod", 30},
        {"reminderFrequencyPeriod", nullptr},
        {"metrics",
         object{
             {"signatureCount", 0}, {"signatureRequiredCount", 0}, {"approvalCount", 0}, {"approvalRequiredCount", 0}}},
        {"recipients", array{}},
    };
    for (const auto& [name, v] : expected) {
        INFO(std::string(name));
        CHECK(env.at(name) == v);
    }
    REQUIRE(env.at("documents").as_array().size() == 1);
    const auto& d = env.at("documents").as_array()[0];
    CHECK(d.at("uuid") == made.at("documentUuids").as_array()[0]);
    CHECK(d.at("pageCount") == 12);
    CHECK(d.at("blocks") == value(object{}));
    CHECK(d.at("signaturesOnSeparatePage") == false);
    CHECK(d.at("initialsOnAllPages") == false);
    CHECK(d.at("initialsVerticalMargin") == 0);
    CHECK(d.at("mustReadAllPages") == false);
    CHECK(env.at("attachments") ==
          value(array{object{{"uuid", made.at("attachmentUuids").as_array()[0]}, {"title", "price-list.pdf"}}}));

    SECTION("list: newest first, tags and status filters, its own workspace only") {
        w.advance(10);
        const auto tagged = string_member(
            w.ok("/_control/envelope/create", object{{"title", "Tagged"},
                                                     {"documents", array{object{{"title", "t"}, {"pageCount", 1}}}},
                                                     {"tags", array{"sales", "2026", "sales"}}}),
            "envelopeUuid");
        const auto ws = string_member(w.ok("/public/workspace/create", object{{"name", "W"}}).at("workspace"), "uuid");
        w.envelope("Elsewhere", 1, {}, ws);
        const auto list = w.ok("/public/envelope/list", object{});
        const auto& items = list.at("envelopes").as_array();
        REQUIRE(items.size() == 2);
        CHECK(member_names(items[0]) == names({"uuid", "title", "creationDate", "updateDate", "sentDate", "status",
                                               "workspaceUuid", "owner", "metrics", "tags"}));
        CHECK(string_member(items[0], "uuid") == tagged);
        CHECK(items[0].at("tags") == value(array{"sales", "2026"}));
        CHECK(items[0].at("workspaceUuid") == value(w.t.default_workspace_uuid));
        CHECK(string_member(items[1], "uuid") == uuid);
        const auto by_tag =
            w.ok("/public/envelope/list", object{{"tags", array{"2026", "nope"}}}).at("envelopes").as_array();
        REQUIRE(by_tag.size() == 1);
        CHECK(string_member(by_tag[0], "uuid") == tagged);
        CHECK(w.ok("/public/envelope/list", object{{"status", array{"signing", "complete"}}})
                  .at("envelopes")
                  .as_array()
                  .empty());
        CHECK(w.ok("/public/envelope/list", object{{"status", array{"draft"}}, {"tags", array{}}})
                  .at("envelopes")
                  .as_array()
                  .size() == 2);
        const auto other = w.ok("/public/envelope/list", object{{"workspaceUuid", ws}}).at("envelopes").as_array();
        REQUIRE(other.size() == 1);
        CHECK(other[0].at("title") == "Elsewhere");
    }
    SECTION("list: 50 per page") {
        for (int i = 0; i < 50; ++i) w.draft("E" + std::to_string(i));
        const auto first = w.ok("/public/envelope/list", object{});
        CHECK(first.at("envelopes").as_array().size() == 50);
        CHECK(
            first.at("pagination") ==
            value(object{
                {"totalRecords", 51}, {"currentPage", 1}, {"totalPages", 2}, {"nextPage", 2}, {"prevPage", nullptr}}));
        const auto second = w.ok("/public/envelope/list", object{{"page", 2}});
        REQUIRE(second.at("envelopes").as_array().size() == 1);
        CHECK(string_member(second.at("envelopes").as_array()[0], "uuid") == uuid);  // the oldest last
    }
}

TEST_CASE("operations: envelope update", "[http][operations]") {
    world w;
    const auto made = w.envelope();
    const auto uuid = string_member(made, "envelopeUuid");
    const auto doc = made.at("documentUuids").as_array().at(0);
    const auto before = w.get(uuid);
    w.advance(1000);
    const auto answer = w.ok("/public/envelope/update",
                             object{{"envelopeUuid", uuid},
                                    {"update", object{{"title", "Renamed"},
                                                      {"documents", array{object{{"uuid", doc},
                                                                                 {"title", "main.pdf"},
                                                                                 {"initialsOnAllPages", true},
                                                                                 {"initialsVerticalMargin", 120},
                                                                                 {"mustReadAllPages", true}}}},
                                                      {"tags", array{"b", "a", "b"}},
                                                      {"signatureOrder", true},
                                                      {"expirationPeriod", 90},
                                                      {"reminderFrequencyPeriod", 3},
                                                      {"customInvitationMessage", "Please sign"},
                                                      {"useUserAsSenderName", true}}}});
    CHECK(member_names(answer) == names({"updateDate"}));
    const auto after = w.get(uuid);
    CHECK(answer.at("updateDate") == after.at("updateDate"));
    CHECK(after.at("updateDate").as_int64() >= before.at("updateDate").as_int64() + 1000);
    CHECK(after.at("title") == "Renamed");
    CHECK(after.at("tags") == value(array{"b", "a"}));
    CHECK(after.at("signatureOrder") == true);
    CHECK(after.at("expirationPeriod") == 90);
    CHECK(after.at("reminderFrequencyPeriod") == 3);
    CHECK(after.at("customMessage") == "Please sign");
    CHECK(after.at("sender") == value(object{{"email", "alice@acme.example.com"}, {"name", "Alice Martin"}}));
    const auto& d = after.at("documents").as_array().at(0);
    CHECK(d.at("title") == "main.pdf");
    CHECK(d.at("initialsOnAllPages") == true);
    CHECK(d.at("initialsVerticalMargin") == 120);
    CHECK(d.at("mustReadAllPages") == true);

    SECTION("absent members stay, null clears the message, tags are added as a set") {
        w.ok("/public/envelope/update",
             object{{"envelopeUuid", uuid},
                    {"update", object{{"customInvitationMessage", nullptr}, {"tags", array{"a", "c"}}}}});
        const auto again = w.get(uuid);
        CHECK(again.at("customMessage").is_null());
        CHECK(again.at("tags") == value(array{"b", "a", "c"}));
        CHECK(again.at("title") == "Renamed");
        CHECK(again.at("expirationPeriod") == 90);
    }
}

TEST_CASE("operations: recipients add, update, delete", "[http][operations]") {
    world w;
    w.ok("/public/contact/create",
         object{{"contacts",
                 array{object{{"email", "bob@client.example.com"}, {"firstname", "Bob"}, {"lastname", "D"}}}}});
    const auto uuid = w.draft();
    array many;
    for (int i = 0; i < 11; ++i) many.push_back(person("r" + std::to_string(i) + "@client.example.com"));
    many[0] = person("bob@client.example.com", "Bob", "Durand");
    many[1].as_object()["phone"] = "+1 555";
    many[1].as_object()["verificationType"] = "sms";
    many[1].as_object()["language"] = "it";
    const auto added = w.add(uuid, many).at("recipients").as_array();
    REQUIRE(added.size() == 11);
    CHECK(added[0] == value(object{{"email", "bob@client.example.com"},
                                   {"firstname", "Bob"},
                                   {"lastname", "Durand"},
                                   {"role", "signer"},
                                   {"associatedContact", true},
                                   {"status", "pending"},
                                   {"colorVariant", "primary"}}));
    CHECK(added[1].at("associatedContact") == false);
    const char* colours[] = {"primary", "info", "auxiliary", "success", "warning", "danger",
                             "teal",    "pink", "grape",     "lime",    "primary"};
    for (std::size_t i = 0; i < added.size(); ++i) CHECK(added[i].at("colorVariant") == colours[i]);

    const auto env = w.get(uuid);
    const auto& recipients = env.at("recipients").as_array();
    REQUIRE(recipients.size() == 11);
    CHECK(recipients[1].at("order") == 2);
    CHECK(recipients[1].at("verificationType") == "sms");
    CHECK(recipients[1].at("language") == "it");
    CHECK(recipients[2].at("phone") == "");
    CHECK(recipients[2].at("language") == "en");
    CHECK(recipients[2].at("verificationType") == "none");
    CHECK_FALSE(recipients[2].as_object().contains("invitation"));
    CHECK_FALSE(recipients[2].as_object().contains("id"));
    CHECK(env.at("metrics").at("signatureRequiredCount") == 11);

    const auto updated =
        w.ok("/public/envelope/update-recipient", object{{"envelopeUuid", uuid},
                                                         {"email", "r2@client.example.com"},
                                                         {"role", "signer"},
                                                         {"updates", object{{"firstname", "Ann"},
                                                                            {"role", "approver"},
                                                                            {"order", 30},
                                                                            {"company", "ACME"},
                                                                            {"verificationType", "email"},
                                                                            {"language", "fi"}}}})
            .at("recipient");
    CHECK(updated.at("firstname") == "Ann");
    CHECK(updated.at("lastname") == "Last");
    CHECK(updated.at("role") == "approver");
    CHECK(updated.at("order") == 30);
    CHECK(updated.at("company") == "ACME");
    CHECK(updated.at("phone") == "");
    CHECK(updated.at("language") == "fi");
    CHECK(updated.at("verificationType") == "email");
    CHECK(updated.at("colorVariant") == "auxiliary");
    CHECK(updated.at("status") == "pending");
    CHECK(w.get(uuid).at("metrics").at("approvalRequiredCount") == 1);
    // The next one added comes after the highest order.
    w.add(uuid, array{person("late@client.example.com")});
    CHECK(w.get(uuid).at("recipients").as_array().back().at("order") == 31);  // 1 + the highest, not the count

    CHECK(w.ok("/public/envelope/delete-recipients",
               object{{"envelopeUuid", uuid},
                      {"recipients",
                       array{object{{"email", "r2@client.example.com"}}, object{{"email", "bob@client.example.com"}}}}})
              .empty());
    const auto left = w.get(uuid).at("recipients").as_array();
    CHECK(left.size() == 10);
    for (const auto& r : left) {
        CHECK(r.at("email") != "r2@client.example.com");
        CHECK(r.at("email") != "bob@client.example.com");
    }
}

TEST_CASE("operations: blocks add and delete", "[http][operations]") {
    world w;
    const auto made = w.envelope("Blocks", 3);
    const auto uuid = string_member(made, "envelopeUuid");
    const auto doc = made.at("documentUuids").as_array().at(0);
    w.add(uuid, array{person("a@client.example.com"), person("b@client.example.com")});
    w.advance(500);
    const auto answer = w.ok("/public/envelope/add-blocks",
                             object{{"envelopeUuid", uuid},
                                    {"documentUuid", doc},
                                    {"blocks", array{object{{"page", "01"},
                                                            {"x", 1.5},
                                                            {"y", 2},
                                                            {"type", "text"},
                                                            {"text", "Name"},
                                                            {"recipientEmail", "b@client.example.com"},
                                                            {"required", true},
                                                            {"defaultValue", 42},
                                                            {"maxLength", 10},
                                                            {"templatedText", "fullname"}},
                                                     object{{"page", "3"},
                                                            {"x", 0},
                                                            {"y", 0},
                                                            {"type", "text"},
                                                            {"text", "Ok"},
                                                            {"defaultValue", true},
                                                            {"width", 100},
                                                            {"height", 20}}}}});
    CHECK(member_names(answer) == names({"snapshotDate"}));
    const auto env = w.get(uuid);
    const auto& d = env.at("documents").as_array().at(0);
    CHECK(d.at("snapshotDate") == answer.at("snapshotDate"));
    CHECK(member_names(d.at("blocks")) == names({"1", "3"}));
    const auto& b = d.at("blocks").at("1").as_array().at(0);
    CHECK(is_lowercase_uuid(string_member(b, "uuid")));
    CHECK(b.at("label") == "Name");
    CHECK(b.at("labelIcon") == "text-t");
    CHECK(b.at("exportable") == false);
    CHECK(b.at("color") == "info");  // b@ is the second recipient
    CHECK(b.at("recipientEmail") == "b@client.example.com");
    CHECK(b.at("defaultValue") == "42");
    CHECK(b.at("value").is_null());
    CHECK(b.at("required") == true);
    CHECK(b.at("maxLength") == 10);
    CHECK(b.at("templatedText") == "fullname");
    CHECK(b.at("x") == 1.5);
    const auto& other = d.at("blocks").at("3").as_array().at(0);
    CHECK(other.at("color") == "primary");
    CHECK(other.at("defaultValue") == "true");
    CHECK(other.at("width").to_number<double>() == 100.0);

    w.advance(500);
    const auto deleted = w.ok("/public/envelope/delete-blocks",
                              object{{"envelopeUuid", uuid},
                                     {"documentUuid", doc},
                                     {"blockUuids", array{b.at("uuid"), "00000000-0000-4000-8000-000000000000"}}});
    const auto after = w.get(uuid).at("documents").as_array().at(0);
    CHECK(after.at("snapshotDate") == deleted.at("snapshotDate"));
    CHECK(deleted.at("snapshotDate").as_int64() >= answer.at("snapshotDate").as_int64() + 500);
    CHECK(member_names(after.at("blocks")) == names({"3"}));  // no empty page left behind
    // Deleting is idempotent.
    w.ok("/public/envelope/delete-blocks",
         object{{"envelopeUuid", uuid}, {"documentUuid", doc}, {"blockUuids", array{b.at("uuid")}}});
    CHECK(member_names(w.get(uuid).at("documents").as_array().at(0).at("blocks")) == names({"3"}));
}

TEST_CASE("operations: delete-attachment", "[http][operations]") {
    world w;
    const auto made = w.envelope("Annexes", 1, array{object{{"title", "a1"}}, object{{"title", "a2"}}});
    const auto uuid = string_member(made, "envelopeUuid");
    const auto& atts = made.at("attachmentUuids").as_array();
    CHECK(
        w.ok("/public/envelope/delete-attachment", object{{"envelopeUuid", uuid}, {"documentUuid", atts[0]}}).empty());
    const auto env = w.get(uuid);
    CHECK(env.at("attachments") == value(array{object{{"uuid", atts[1]}, {"title", "a2"}}}));
    CHECK(env.at("documents").as_array().size() == 1);
}

TEST_CASE("operations: template list and create-from-template", "[http][operations]") {
    world w;
    const auto tpl =
        w.ok("/_control/template/create", object{{"title", "NDA"},
                                                 {"recipientLabels", array{"Client", "Company"}},
                                                 {"documents", array{object{{"title", "nda.pdf"}, {"pageCount", 3}}}}});
    const auto list = w.ok("/public/template/list", object{});
    REQUIRE(list.at("templates").as_array().size() == 1);
    const auto& t = list.at("templates").as_array()[0];
    CHECK(member_names(t) ==
          names({"uuid", "title", "creationDate", "updateDate", "workspaceUuid", "documents", "recipients"}));
    CHECK(t.at("uuid") == tpl.at("templateUuid"));
    CHECK(t.at("workspaceUuid") == value(w.t.default_workspace_uuid));
    CHECK(t.at("documents") ==
          value(array{object{{"uuid", tpl.at("documentUuids").as_array()[0]}, {"title", "nda.pdf"}}}));
    CHECK(t.at("recipients") == value(array{object{{"label", "Client"}}, object{{"label", "Company"}}}));
    CHECK(list.at("pagination").at("totalRecords") == 1);

    auto given = [](const char* label, const char* email) {
        object o = person(email, label, "X");
        o["label"] = label;
        return o;
    };
    const auto made = w.ok("/public/envelope/create-from-template",
                           object{{"templateUuid", tpl.at("templateUuid")},
                                  {"recipients", array{given("Company", "co@acme.example.com"),
                                                       given("Client", "cl@client.example.com")}}});
    CHECK(member_names(made) == names({"envelopeUuid", "documentUuids"}));
    const auto env = w.get(string_member(made, "envelopeUuid"));
    CHECK(env.at("status") == "draft");
    CHECK(env.at("title") == "NDA");
    REQUIRE(env.at("recipients").as_array().size() == 2);
    const auto& first = env.at("recipients").as_array()[0];
    CHECK(first.at("email") == "cl@client.example.com");  // template label order
    CHECK(first.at("order") == 1);
    CHECK(first.at("role") == "signer");
    CHECK(env.at("recipients").as_array()[1].at("order") == 2);
    REQUIRE(env.at("documents").as_array().size() == 1);
    CHECK(env.at("documents").as_array()[0].at("uuid") == made.at("documentUuids").as_array()[0]);
    CHECK(env.at("documents").as_array()[0].at("uuid") != tpl.at("documentUuids").as_array()[0]);
    CHECK(env.at("documents").as_array()[0].at("pageCount") == 3);
    const auto logs = w.logs(object{{"category", "envelope"}, {"envelopeUuid", made.at("envelopeUuid")}});
    CHECK(event_types(logs) == std::vector<std::string>{"ENVELOPE_CREATED"});
}

TEST_CASE("operations: send, invitations, credits, quota, sandbox", "[http][operations]") {
    world w;
    const auto uuid = w.draft();
    w.add(uuid, array{person("s1@client.example.com"), person("s2@client.example.com"), person("v@client.example.com"),
                      person("a@client.example.com")});
    w.set_role(uuid, "v@client.example.com", "viewer");
    w.set_role(uuid, "a@client.example.com", "approver");
    w.ok("/public/envelope/update", object{{"envelopeUuid", uuid}, {"update", object{{"expirationPeriod", 2}}}});
    w.control("/_control/team/update", object{{"teamUuid", w.t.team_uuid}, {"apiCredits", 1}, {"emailQuota", 4}});
    const auto sent_at = w.now();
    CHECK(w.ok("/public/envelope/send", object{{"envelopeUuid", uuid}, {"useUserAsSenderName", true}}).empty());

    const auto env = w.get(uuid);
    CHECK(env.at("status") == "approving");
    CHECK(env.at("sentDate").as_int64() >= sent_at);
    CHECK(env.at("useUserAsSenderName") == false);  // deprecated on send: ignored
    for (const auto& r : env.at("recipients").as_array()) {
        const auto& inv = r.at("invitation");
        CHECK(member_names(inv) ==
              names({"valid", "expirationDate", "creationDate", "lastNotificationDate", "medium", "verificationType"}));
        CHECK(inv.at("valid") == true);
        CHECK(inv.at("creationDate") == env.at("sentDate"));
        CHECK(inv.at("expirationDate").as_int64() == env.at("sentDate").as_int64() + 2 * day_ms);
        CHECK(inv.at("medium") == "email");
        CHECK(inv.at("verificationType") == "none");
    }
    // E-mails at send: the approver (its turn) and the viewer; the signers when their turn comes.
    CHECK(outbox_lines(w.outbox()) ==
          std::vector<std::string>{"invitation v@client.example.com", "invitation a@client.example.com"});
    const auto& recipients = env.at("recipients").as_array();
    CHECK(recipients[0].at("invitation").at("lastNotificationDate").is_null());
    CHECK(recipients[3].at("invitation").at("lastNotificationDate") == env.at("sentDate"));
    const auto e = w.outbox().at(0);
    CHECK(e.at("envelopeUuid") == value(uuid));
    CHECK(e.at("teamUuid") == value(w.t.team_uuid));
    CHECK(e.at("timestamp") == env.at("sentDate"));

    SECTION("the credit is used up: the next send fails") {
        const auto next = w.draft("Next");
        w.add(next, array{person("x@client.example.com")});
        check_error(w.api.call("/public/envelope/send", object{{"envelopeUuid", next}}), 400,
                    "API_CREDITS_LIMIT_EXCEEDED", "/public/envelope/send");
        CHECK(w.get(next).at("status") == "draft");
    }
    SECTION("the quota: two e-mails left; distributionMethod none needs none and sends none") {
        w.control("/_control/team/update", object{{"teamUuid", w.t.team_uuid}, {"apiCredits", 10}});
        const auto next = w.draft("Next");
        w.add(next,
              array{person("x@client.example.com"), person("y@client.example.com"), person("z@client.example.com")});
        check_error(w.api.call("/public/envelope/send", object{{"envelopeUuid", next}}), 400, "SES_LIMIT_EXCEEDED",
                    "/public/envelope/send");
        w.ok("/public/envelope/send", object{{"envelopeUuid", next}, {"distributionMethod", "none"}});
        const auto sent = w.get(next);
        CHECK(sent.at("status") == "signing");
        CHECK(sent.at("recipients").as_array()[0].at("invitation").at("medium") == "none");
        CHECK(w.outbox().size() == 2);
    }
    SECTION("a sandbox workspace: no credit, no quota, no e-mail") {
        w.control("/_control/team/update", object{{"teamUuid", w.t.team_uuid}, {"apiCredits", 0}, {"emailQuota", 0}});
        const auto ws =
            string_member(w.ok("/public/workspace/create", object{{"name", "Sandbox"}}).at("workspace"), "uuid");
        w.ok("/public/workspace/update", object{{"workspaceUuid", ws}, {"sandbox", true}});
        const auto sandboxed = string_member(w.envelope("Trial", 1, {}, ws), "envelopeUuid");
        w.ok("/public/envelope/add-recipients", object{{"workspaceUuid", ws},
                                                       {"envelopeUuid", sandboxed},
                                                       {"recipients", array{person("t@client.example.com")}}});
        w.ok("/public/envelope/send", object{{"workspaceUuid", ws}, {"envelopeUuid", sandboxed}});
        const auto sent = w.ok("/public/envelope/get", object{{"workspaceUuid", ws}, {"envelopeUuid", sandboxed}});
        CHECK(sent.at("status") == "signing");
        CHECK(sent.at("recipients").as_array()[0].at("invitation").at("lastNotificationDate").is_null());
        // Still no e-mail once the workspace is no longer a sandbox: not for the next turn, nor reminders.
        w.ok("/public/workspace/update", object{{"workspaceUuid", ws}, {"sandbox", false}});
        CHECK(w.act(sandboxed, "t@client.example.com", "sign").at("envelopeStatus") == "complete");
        CHECK(w.outbox().size() == 2);
    }
    SECTION("a sandbox envelope with a later turn and reminders sends nothing") {
        const auto ws =
            string_member(w.ok("/public/workspace/create", object{{"name", "Sandbox"}}).at("workspace"), "uuid");
        w.ok("/public/workspace/update", object{{"workspaceUuid", ws}, {"sandbox", true}});
        const auto sandboxed = string_member(w.envelope("Trial", 1, {}, ws), "envelopeUuid");
        w.ok("/public/envelope/add-recipients",
             object{{"workspaceUuid", ws},
                    {"envelopeUuid", sandboxed},
                    {"recipients", array{person("t1@client.example.com"), person("t2@client.example.com")}}});
        w.ok("/public/envelope/update",
             object{{"workspaceUuid", ws},
                    {"envelopeUuid", sandboxed},
                    {"update", object{{"signatureOrder", true}, {"reminderFrequencyPeriod", 1}}}});
        w.ok("/public/envelope/send", object{{"workspaceUuid", ws}, {"envelopeUuid", sandboxed}});
        w.ok("/public/workspace/update", object{{"workspaceUuid", ws}, {"sandbox", false}});
        w.act(sandboxed, "t1@client.example.com", "sign");
        w.advance(3 * day_ms);
        CHECK(w.outbox().size() == 2);
    }
}

TEST_CASE("lifecycle: approvers, then signers in order, metrics, logs and e-mails", "[http][lifecycle]") {
    world w;
    const auto uuid = w.draft();
    w.add(uuid, array{person("ap@client.example.com", "Ann", "Proves"), person("s1@client.example.com", "Sid", "One"),
                      person("s2@client.example.com", "Sue", "Two")});
    w.set_role(uuid, "ap@client.example.com", "approver");
    w.ok("/public/envelope/update", object{{"envelopeUuid", uuid}, {"update", object{{"signatureOrder", true}}}});
    w.ok("/public/envelope/send", object{{"envelopeUuid", uuid}});
    CHECK(outbox_lines(w.outbox()) == std::vector<std::string>{"invitation ap@client.example.com"});

    // Not the signers' turn while approving; open is allowed to anyone.
    CHECK(w.try_act(uuid, "s1@client.example.com", "sign").status == 400);
    CHECK(w.act(uuid, "s2@client.example.com", "open") ==
          value(object{{"envelopeStatus", "approving"}, {"recipientStatus", "pending"}}));
    CHECK(w.act(uuid, "ap@client.example.com", "approve") ==
          value(object{{"envelopeStatus", "signing"}, {"recipientStatus", "approved"}}));
    CHECK(outbox_lines(w.outbox()) ==
          std::vector<std::string>{"invitation ap@client.example.com", "invitation s1@client.example.com"});
    // Signature order: s2 waits for s1.
    check_error(w.try_act(uuid, "s2@client.example.com", "sign"), 400, "ACTION_NOT_ALLOWED", "/_control/recipient/act");
    CHECK(w.act(uuid, "s1@client.example.com", "sign") ==
          value(object{{"envelopeStatus", "signing"}, {"recipientStatus", "signed"}}));
    CHECK(w.outbox().size() == 3);
    CHECK(
        w.get(uuid).at("metrics") ==
        value(object{
            {"signatureCount", 1}, {"signatureRequiredCount", 2}, {"approvalCount", 1}, {"approvalRequiredCount", 1}}));
    CHECK(w.act(uuid, "s2@client.example.com", "sign") ==
          value(object{{"envelopeStatus", "complete"}, {"recipientStatus", "signed"}}));
    const auto done = w.get(uuid);
    CHECK(done.at("metrics").at("signatureCount") == 2);
    for (const auto& r : done.at("recipients").as_array()) CHECK_FALSE(r.as_object().contains("invitation"));
    CHECK(w.try_act(uuid, "s2@client.example.com", "open").status == 400);  // final

    const auto logs =
        w.logs(object{{"category", "envelope"}, {"envelopeUuid", uuid}, {"sortBy", "id"}, {"sortOrder", "asc"}});
    CHECK(event_types(logs) == std::vector<std::string>{"ENVELOPE_CREATED", "ENVELOPE_SENT", "ENVELOPE_OPENED",
                                                        "RECIPIENT_APPROVED", "DOCUMENT_SIGNED", "DOCUMENT_SIGNED",
                                                        "ENVELOPE_COMPLETED"});
    CHECK(logs[0].at("author") ==
          value(object{{"uuid", w.t.owner_uuid}, {"email", "alice@acme.example.com"}, {"name", "Alice Martin"}}));
    CHECK(logs.back().at("author") == value(object{{"uuid", "00000000-0000-0000-0000-000000000000"},
                                                   {"email", "s2@client.example.com"},
                                                   {"name", "Sue Two"}}));
    CHECK(logs.back().at("envelopeUuid") == value(uuid));
    CHECK(logs.back().at("workspaceUuid") == value(w.t.default_workspace_uuid));

    SECTION("a decline ends it and cancels the pending recipients") {
        const auto other = w.draft("Other");
        w.add(other, array{person("x@client.example.com"), person("y@client.example.com")});
        w.ok("/public/envelope/send", object{{"envelopeUuid", other}});
        CHECK(w.act(other, "y@client.example.com", "decline") ==
              value(object{{"envelopeStatus", "declined"}, {"recipientStatus", "declined"}}));
        const auto env = w.get(other);
        CHECK(env.at("recipients").as_array()[0].at("status") == "canceled");
        CHECK(w.logs(object{{"category", "envelope"}, {"envelopeUuid", other}}).at(0).at("eventType") ==
              "ENVELOPE_DECLINED");
    }
    SECTION("decline follows the turns; viewers never block completion") {
        const auto other = w.draft("Other");
        w.add(other,
              array{person("x@client.example.com"), person("y@client.example.com"), person("v@client.example.com")});
        w.set_role(other, "v@client.example.com", "viewer");
        w.ok("/public/envelope/update", object{{"envelopeUuid", other}, {"update", object{{"signatureOrder", true}}}});
        w.ok("/public/envelope/send", object{{"envelopeUuid", other}});
        check_error(w.try_act(other, "y@client.example.com", "decline"), 400, "ACTION_NOT_ALLOWED",
                    "/_control/recipient/act");
        check_error(w.try_act(other, "v@client.example.com", "sign"), 400, "ACTION_NOT_ALLOWED",
                    "/_control/recipient/act");
        w.act(other, "x@client.example.com", "sign");
        CHECK(w.act(other, "y@client.example.com", "sign").at("envelopeStatus") == "complete");
        CHECK(w.get(other).at("recipients").as_array()[2].at("status") == "pending");
    }
    SECTION("cancel from signing") {
        const auto other = w.draft("Other");
        w.add(other, array{person("x@client.example.com")});
        w.ok("/public/envelope/send", object{{"envelopeUuid", other}});
        CHECK(w.control("/_control/envelope/cancel", object{{"envelopeUuid", other}, {"reason", "changed"}}).empty());
        const auto env = w.get(other);
        CHECK(env.at("status") == "canceled");
        CHECK(env.at("recipients").as_array()[0].at("status") == "canceled");
        const auto log = w.logs(object{{"category", "envelope"}, {"envelopeUuid", other}}).at(0);
        CHECK(log.at("eventType") == "ENVELOPE_CANCELED");
        CHECK(log.at("eventData").at("reason") == "changed");
    }
}

TEST_CASE("lifecycle: reminders and expiry as the clock advances", "[http][lifecycle]") {
    world w;
    const auto uuid = w.draft();
    w.add(uuid, array{person("s@client.example.com"), person("t@client.example.com")});
    w.ok("/public/envelope/update",
         object{{"envelopeUuid", uuid}, {"update", object{{"expirationPeriod", 6}, {"reminderFrequencyPeriod", 2}}}});
    w.ok("/public/envelope/send", object{{"envelopeUuid", uuid}});
    const auto sent = w.get(uuid).at("sentDate").as_int64();
    w.act(uuid, "t@client.example.com", "sign");

    w.advance(2 * day_ms - 60'000);
    CHECK(w.outbox().size() == 2);  // the two invitations only
    w.advance(60'000);
    auto mails = w.outbox();
    REQUIRE(mails.size() == 3);
    CHECK(string_member(mails[2], "kind") == "reminder");
    CHECK(string_member(mails[2], "to") == "s@client.example.com");  // t has signed
    CHECK(mails[2].at("timestamp") == sent + 2 * day_ms);
    CHECK(w.get(uuid).at("recipients").as_array()[0].at("invitation").at("lastNotificationDate") == sent + 2 * day_ms);

    // Past the second reminder and the expiry at once: applied in time order, each at its own time;
    // the reminder due at the instant of expiry (day 6) is not sent.
    const auto now = w.advance(10 * day_ms);
    CHECK(now >= sent + 12 * day_ms);
    mails = w.outbox();
    REQUIRE(mails.size() == 4);
    CHECK(string_member(mails[3], "kind") == "reminder");
    CHECK(mails[3].at("timestamp") == sent + 4 * day_ms);
    const auto env = w.get(uuid);
    CHECK(env.at("status") == "expired");
    CHECK(env.at("recipients").as_array()[0].at("status") == "canceled");
    CHECK(env.at("recipients").as_array()[1].at("status") == "signed");
    const auto expiry = w.logs(object{{"category", "envelope"}, {"eventTypes", array{"ENVELOPE_EXPIRED"}}});
    REQUIRE(expiry.size() == 1);
    CHECK(expiry[0].at("timestamp") == sent + 6 * day_ms);
    CHECK(expiry[0].at("author") ==
          value(object{{"uuid", "00000000-0000-0000-0000-000000000000"}, {"email", ""}, {"name", "System"}}));
    w.advance(10 * day_ms);
    CHECK(w.outbox().size() == 4);  // nothing after the end
}

TEST_CASE("operations: logs list filters, sorting and categories", "[http][operations]") {
    world w;
    const auto one = w.draft("One");
    w.advance(10);
    const auto two = w.draft("Two");
    w.add(two, array{person("x@client.example.com")});
    w.ok("/public/envelope/send", object{{"envelopeUuid", two}});

    const auto all = w.ok("/public/logs/list", object{{"category", "envelope"}});
    const auto& logs = all.at("logs").as_array();
    REQUIRE(logs.size() == 3);
    CHECK(event_types(logs) ==
          std::vector<std::string>{"ENVELOPE_SENT", "ENVELOPE_CREATED", "ENVELOPE_CREATED"});  // newest first
    CHECK(member_names(logs[0]) ==
          names({"category", "eventType", "eventData", "timestamp", "author", "envelopeUuid", "workspaceUuid"}));
    CHECK(logs[0].at("category") == "envelope");
    CHECK(logs[2].at("envelopeUuid") == value(one));
    const auto asc = w.logs(object{{"category", "envelope"}, {"sortOrder", "asc"}, {"limit", 2}});
    CHECK(event_types(asc) == std::vector<std::string>{"ENVELOPE_CREATED", "ENVELOPE_CREATED"});
    CHECK(w.logs(object{{"category", "envelope"}, {"envelopeUuid", one}}).size() == 1);
    CHECK(w.logs(object{{"category", "envelope"}, {"eventTypes", array{"ENVELOPE_SENT"}}}).size() == 1);
    CHECK(w.logs(object{{"category", "envelope"}, {"eventTypes", array{}}}).size() == 3);
    const auto ws = string_member(w.ok("/public/workspace/create", object{{"name", "W"}}).at("workspace"), "uuid");
    CHECK(w.logs(object{{"category", "envelope"}, {"workspaceUuid", ws}}).empty());
    CHECK(w.logs(object{{"category", "user"}}).empty());
    const auto team = w.logs(object{{"category", "team"}, {"sortOrder", "asc"}});
    CHECK(event_types(team) == std::vector<std::string>{"TEAM_CREATED", "WORKSPACE_CREATED", "WORKSPACE_CREATED"});
    CHECK_FALSE(team[0].as_object().contains("envelopeUuid"));
    const auto paged = w.ok("/public/logs/list", object{{"category", "envelope"}, {"limit", 1}, {"page", 2}});
    CHECK(paged.at("pagination") ==
          value(object{{"totalRecords", 3}, {"currentPage", 2}, {"totalPages", 3}, {"nextPage", 3}, {"prevPage", 1}}));
}

TEST_CASE("operations: create-iframe-token and whoami", "[http][operations]") {
    world w;
    const auto who = w.ok("/public/utils/whoami", object{});
    CHECK(who == value(object{{"teamUuid", w.t.team_uuid},
                              {"teamName", "Acme"},
                              {"ownerEmail", "alice@acme.example.com"},
                              {"ownerUuid", w.t.owner_uuid}}));
    const auto uuid = w.draft();
    auto signer = person("v@client.example.com");
    signer["verificationType"] = "email";
    w.add(uuid, array{signer});
    std::set<std::string> tokens;
    for (int i = 0; i < 3; ++i) {
        const auto token = string_member(w.ok("/public/authentication/create-iframe-token",
                                              object{{"envelopeUuid", uuid}, {"signerEmail", "v@client.example.com"}}),
                                         "iframeToken");
        static const std::regex form("^sit\\.[A-Za-z0-9_-]{32,}$");
        CHECK(std::regex_match(token, form));
        tokens.insert(token);
    }
    CHECK(tokens.size() == 3);
}

TEST_CASE("control: team create and update, clock, reset", "[http][control]") {
    world w;
    const auto made = w.control("/_control/team/create");
    CHECK(member_names(made) ==
          names({"teamUuid", "apiKey", "defaultWorkspaceUuid", "ownerUuid", "ownerEmail", "accessKey", "secretKey"}));
    CHECK(string_member(made, "ownerEmail") ==
          "owner-" + string_member(made, "teamUuid").substr(0, 8) + "@example.com");
    api_caller other{w.srv, string_member(made, "apiKey")};
    CHECK(other.ok("/public/utils/whoami", object{}).at("teamName") == "Team 2");

    // Without the "timestamp" feature, new envelopes have timestampEnabled false.
    w.control("/_control/team/update", object{{"teamUuid", w.t.team_uuid}, {"features", array{"sms", "webhooks"}}});
    CHECK(w.get(w.draft()).at("timestampEnabled") == false);

    const auto before = w.now();
    const auto after = w.advance(3 * day_ms);
    CHECK(after >= before + 3 * day_ms);
    CHECK(w.now() >= after);
    CHECK(w.now() < after + 60'000);

    // Something for the reset to remove: an e-mail in the outbox, a delivery record (to a port
    // that refuses connections: the record exists from the event on, attempted or not).
    const auto sent = w.draft();
    w.add(sent, array{person("s@client.example.com")});
    w.ok("/public/envelope/send", object{{"envelopeUuid", sent}});
    w.ok("/public/webhook/create", object{{"url", "http://127.0.0.1:9/hook"},
                                          {"contentType", "application/json"},
                                          {"sslVerify", false},
                                          {"active", true}});
    w.draft();
    REQUIRE(w.outbox().size() == 1);
    REQUIRE(w.control("/_control/webhook/deliveries").at("deliveries").as_array().size() == 1);

    CHECK(w.control("/_control/reset").empty());
    check_error(w.api.call("/public/utils/whoami", object{}), 401, "AUTHENTICATION_ERROR", "/public/utils/whoami",
                details::none);
    CHECK(w.now() < before + day_ms);  // the clock offset is gone too
    CHECK(w.outbox().empty());
    CHECK(w.control("/_control/webhook/deliveries").at("deliveries") == value(array{}));
}

TEST_CASE("control: --fixture examples/fixture.json, and reset back to it", "[http][control]") {
    test_server srv({"--fixture", std::string(ESIGN_SOURCE_DIR) + "/examples/fixture.json"});
    api_caller acme{srv, "esk_acme_test_key_0000000000000000000000001"};
    api_caller globex{srv, "esk_globex_test_key_00000000000000000000001"};
    const auto who = acme.ok("/public/utils/whoami", object{});
    CHECK(who.at("teamUuid") == "a0000000-0000-4000-8000-000000000001");
    CHECK(who.at("teamName") == "Acme Corp");
    const auto env = acme.ok("/public/envelope/get", object{{"envelopeUuid", "a0000000-0000-4000-8000-0000000000e1"}});
    CHECK(env.at("title") == "Service agreement 2026");
    CHECK(env.at("recipients").as_array().size() == 2);
    CHECK(env.at("recipients").as_array()[0].at("associatedContact") == true);
    CHECK(env.at("tags") == value(array{"sales", "2026"}));
    CHECK(acme.ok("/public/template/list", object{}).at("templates").as_array().size() == 1);
    CHECK(acme.ok("/public/contact/list", object{}).at("contacts").as_array().size() == 2);
    CHECK(globex.ok("/public/contact/list", object{}).at("contacts").as_array().at(0).at("firstname") == "Robert");
    check_error(globex.call("/public/envelope/get", object{{"envelopeUuid", "a0000000-0000-4000-8000-0000000000e1"}}),
                400, "ENVELOPE_NOT_FOUND", "/public/envelope/get");

    // The sandbox workspace's envelope sends without e-mail.
    acme.ok("/public/envelope/send", object{{"workspaceUuid", "a0000000-0000-4000-8000-0000000000d2"},
                                            {"envelopeUuid", "a0000000-0000-4000-8000-0000000000e2"}});
    CHECK(control_ok(srv, "/_control/outbox/list").at("emails") == value(array{}));
    acme.ok("/public/envelope/send", object{{"envelopeUuid", "a0000000-0000-4000-8000-0000000000e1"}});
    CHECK(control_ok(srv, "/_control/outbox/list").at("emails").as_array().size() == 2);

    control_ok(srv, "/_control/reset");
    const auto again =
        acme.ok("/public/envelope/get", object{{"envelopeUuid", "a0000000-0000-4000-8000-0000000000e1"}});
    CHECK(again.at("status") == "draft");
    CHECK(again.at("documents") == env.at("documents"));  // the same uuids at every load
    CHECK(again.at("recipients") == env.at("recipients"));
    CHECK(control_ok(srv, "/_control/outbox/list").at("emails") == value(array{}));
}

}  // namespace test_server_operations
