// SPDX-License-Identifier: BSL-1.0
// The envelope domain of the reference backend, driven like a client: envelope/create (control),
// get, list, update, delete-attachment, create-from-template, the recipient and block operations,
// and create-iframe-token. (Send, signing, cancel and time: test_backend_lifecycle.cpp.)
#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json.hpp>

#include "backend_support.hpp"

namespace test_backend_envelopes {

namespace {

namespace json = boost::json;
using namespace backend_support;

constexpr std::int64_t t0 = start_ms;

using path = std::vector<std::string>;

// One backend with a fixed clock and one team; helpers that call it as a client would.
struct api : client {
    api() : client(fixed_clock(5)) {}

    // A draft with one document of 3 pages (and what `extra` adds or replaces).
    json::object create(json::object extra = {}, const team* as = nullptr) {
        json::object body{{"title", "Contract"},
                          {"documents", json::array{json::object{{"title", "Main"}, {"pageCount", 3}}}}};
        for (auto& [k, v] : extra) body[k] = v;
        auto a = raw("/_control/envelope/create", (as ? *as : main).key, body);
        require_ok(a);
        return a.obj();
    }
    std::string envelope(json::object extra = {}) {
        return std::string(create(std::move(extra)).at("envelopeUuid").as_string());
    }

    answer add_recipients(const std::string& env, json::array items) {
        return call("/public/envelope/add-recipients",
                    json::object{{"envelopeUuid", env}, {"recipients", std::move(items)}});
    }
    void add(const std::string& env, std::initializer_list<std::string> emails) {
        json::array items;
        for (const auto& e : emails) items.push_back(recipient(e));
        require_ok(add_recipients(env, std::move(items)));
    }

    void send(const std::string& env) {
        require_ok(call("/public/envelope/send", json::object{{"envelopeUuid", env}}));
    }

    std::string workspace(std::string name = "Other") {
        auto a = call("/public/workspace/create", json::object{{"name", std::move(name)}});
        require_ok(a);
        return std::string(a.obj().at("workspace").at("uuid").as_string());
    }
};

const json::value ghost = "00000000-0000-4000-8000-000000000000";

}  // namespace

// ---------------------------------------------------------------------------------------------
// /_control/envelope/create and /public/envelope/get

TEST_CASE("control envelope/create makes a draft with the defaults of a new envelope", "[backend][envelopes]") {
    api t;
    auto created = t.create(
        {{"attachments", json::array{json::object{{"title", "Annex"}}}}, {"tags", json::array{"b", "a", "b"}}});
    const std::string env(created.at("envelopeUuid").as_string());
    REQUIRE(created.at("documentUuids").as_array().size() == 1);
    REQUIRE(created.at("attachmentUuids").as_array().size() == 1);

    auto e = t.get(env);
    CHECK(e.at("uuid") == str(env));
    CHECK(e.at("title") == "Contract");
    CHECK(e.at("status") == "draft");
    CHECK(e.at("creationDate") == t0);
    CHECK(e.at("updateDate") == t0);
    CHECK(e.at("sentDate").is_null());
    CHECK(e.at("owner").at("uuid") == str(t.main.owner_uuid));
    CHECK(e.at("owner").at("email") == str(t.main.owner_email));
    CHECK(e.at("sender").at("email") == str(t.main.owner_email));
    CHECK(strings(e.at("tags")) == std::vector<std::string>{"b", "a"});
    CHECK(e.at("signatureOrder") == false);
    CHECK(e.at("customMessage").is_null());
    CHECK(e.at("useUserAsSenderName") == false);
    CHECK(e.at("timestampEnabled") == true);
    CHECK(e.at("expirationPeriod") == 30);
    CHECK(e.at("reminderFrequencyPeriod").is_null());
    CHECK(e.at("recipients").as_array().empty());
    CHECK(e.at("metrics") == json::value{{"signatureCount", 0},
                                         {"signatureRequiredCount", 0},
                                         {"approvalCount", 0},
                                         {"approvalRequiredCount", 0}});

    const auto& doc = e.at("documents").at(0).as_object();
    CHECK(doc.at("uuid") == created.at("documentUuids").at(0));
    CHECK(doc.at("title") == "Main");
    CHECK(doc.at("pageCount") == 3);
    CHECK(doc.at("blocks") == json::object{});
    CHECK(doc.at("signaturesOnSeparatePage") == false);
    CHECK(doc.at("initialsOnAllPages") == false);
    CHECK(doc.at("initialsVerticalMargin") == 0);
    CHECK(doc.at("mustReadAllPages") == false);
    CHECK(e.at("attachments") ==
          json::array{json::object{{"uuid", created.at("attachmentUuids").at(0)}, {"title", "Annex"}}});

    CHECK(t.log_types(env) == std::vector<std::string>{"ENVELOPE_CREATED"});
}

TEST_CASE("control envelope/create: timestampEnabled follows the plan, workspaces are the team's",
          "[backend][envelopes]") {
    api t;
    team plain = t.make_team({{"features", json::array{"sms"}}});
    auto created = t.create({}, &plain);
    auto e = t.call_as(plain, "/public/envelope/get", json::object{{"envelopeUuid", created.at("envelopeUuid")}});
    require_ok(e);
    CHECK(e.obj().at("timestampEnabled") == false);

    // In a named workspace of the team; another team's workspace is not found.
    const std::string ws = t.workspace();
    const std::string env = t.envelope({{"workspaceUuid", ws}});
    require_ok(t.call("/public/envelope/get", json::object{{"workspaceUuid", ws}, {"envelopeUuid", env}}));
    auto foreign = t.raw("/_control/envelope/create", t.main.key,
                         json::object{{"workspaceUuid", plain.default_ws},
                                      {"title", "x"},
                                      {"documents", json::array{json::object{{"title", "d"}, {"pageCount", 1}}}}});
    require_error(foreign, 400, "WORKSPACE_NOT_FOUND");
    require_error(t.control("/_control/envelope/create", json::object{{"title", "x"}}), 401, "AUTHENTICATION_ERROR");
}

TEST_CASE("envelope/get finds envelopes only in the resolved workspace of the caller's team", "[backend][envelopes]") {
    api t;
    const std::string env = t.envelope();
    const std::string ws = t.workspace();
    team other = t.make_team({});

    require_error(t.call("/public/envelope/get", json::object{{"envelopeUuid", ghost}}), 400, "ENVELOPE_NOT_FOUND");
    // It exists, but not in that workspace.
    require_error(t.call("/public/envelope/get", json::object{{"workspaceUuid", ws}, {"envelopeUuid", env}}), 400,
                  "ENVELOPE_NOT_FOUND");
    // Another team's workspace, and another team's envelope.
    require_error(
        t.call("/public/envelope/get", json::object{{"workspaceUuid", other.default_ws}, {"envelopeUuid", env}}), 400,
        "WORKSPACE_NOT_FOUND");
    require_error(t.call_as(other, "/public/envelope/get", json::object{{"envelopeUuid", env}}), 400,
                  "ENVELOPE_NOT_FOUND");
    // WORKSPACE_NOT_FOUND comes first.
    require_error(t.call("/public/envelope/get", json::object{{"workspaceUuid", ghost}, {"envelopeUuid", ghost}}), 400,
                  "WORKSPACE_NOT_FOUND");
}

// ---------------------------------------------------------------------------------------------
// /public/envelope/list

TEST_CASE("envelope/list: newest first, ties by insertion, filters any-of", "[backend][envelopes]") {
    api t;
    const std::string a = t.envelope({{"title", "a"}, {"tags", json::array{"x"}}});
    t.advance(1000);
    const std::string b = t.envelope({{"title", "b"}, {"tags", json::array{"y"}}});
    const std::string c = t.envelope({{"title", "c"}, {"tags", json::array{"x", "z"}}});  // same instant as b
    t.add(c, {"s@example.com"});
    t.send(c);
    t.envelope({{"workspaceUuid", t.workspace()}, {"title", "elsewhere"}});

    auto titles = [&](json::object body) {
        auto r = t.call("/public/envelope/list", body);
        require_ok(r);
        std::vector<std::string> out;
        for (const auto& e : r.obj().at("envelopes").as_array()) out.emplace_back(e.at("title").as_string());
        return out;
    };
    CHECK(titles({}) == std::vector<std::string>{"c", "b", "a"});
    CHECK(titles({{"tags", json::array{}}, {"status", json::array{}}}) == std::vector<std::string>{"c", "b", "a"});
    CHECK(titles({{"tags", json::array{"x"}}}) == std::vector<std::string>{"c", "a"});
    CHECK(titles({{"tags", json::array{"y", "z"}}}) == std::vector<std::string>{"c", "b"});
    CHECK(titles({{"status", json::array{"draft"}}}) == std::vector<std::string>{"b", "a"});
    CHECK(titles({{"status", json::array{"signing", "complete"}}}) == std::vector<std::string>{"c"});
    CHECK(titles({{"status", json::array{"draft"}}, {"tags", json::array{"x"}}}) == std::vector<std::string>{"a"});

    auto r = t.call("/public/envelope/list", json::object{{"tags", json::array{"x"}}});
    const auto& item = r.obj().at("envelopes").at(0).as_object();
    CHECK(item.at("uuid") == str(c));
    CHECK(item.at("workspaceUuid") == str(t.main.default_ws));
    CHECK(item.at("status") == "signing");
    CHECK(item.at("sentDate") == t0 + 1000);
    CHECK(item.at("owner") == json::value{{"uuid", t.main.owner_uuid},
                                          {"email", t.main.owner_email},
                                          {"firstname", nullptr},
                                          {"lastname", nullptr}});
    CHECK(item.at("metrics").at("signatureRequiredCount") == 1);
    CHECK(strings(item.at("tags")) == std::vector<std::string>{"x", "z"});
    CHECK(
        r.obj().at("pagination") ==
        json::value{
            {"totalRecords", 2}, {"currentPage", 1}, {"totalPages", 1}, {"nextPage", nullptr}, {"prevPage", nullptr}});

    require_error(t.call("/public/envelope/list", json::object{{"workspaceUuid", ghost}}), 400, "WORKSPACE_NOT_FOUND");
}

TEST_CASE("envelope/list pages by 50", "[backend][envelopes]") {
    api t;
    for (int i = 0; i < 51; ++i) t.envelope({{"title", "e" + std::to_string(i)}});
    auto p1 = t.call("/public/envelope/list", json::object{});
    CHECK(p1.obj().at("envelopes").as_array().size() == 50);
    CHECK(p1.obj().at("envelopes").at(0).at("title") == "e50");
    CHECK(p1.obj().at("pagination") ==
          json::value{
              {"totalRecords", 51}, {"currentPage", 1}, {"totalPages", 2}, {"nextPage", 2}, {"prevPage", nullptr}});
    auto p2 = t.call("/public/envelope/list", json::object{{"page", 2}});
    CHECK(p2.obj().at("envelopes").as_array().size() == 1);
    CHECK(p2.obj().at("envelopes").at(0).at("title") == "e0");
    auto p3 = t.call("/public/envelope/list", json::object{{"page", 3}});
    CHECK(p3.obj().at("envelopes").as_array().empty());
    CHECK(p3.obj().at("pagination").at("prevPage") == 2);
    CHECK(p3.obj().at("pagination").at("nextPage").is_null());
}

// ---------------------------------------------------------------------------------------------
// /public/envelope/update

TEST_CASE("envelope/update changes what it is given and sets updateDate", "[backend][envelopes]") {
    api t;
    auto created = t.create({{"tags", json::array{"a"}}});
    const std::string env(created.at("envelopeUuid").as_string());
    const json::value doc = created.at("documentUuids").at(0);
    const std::int64_t later = t.advance(5000);

    auto r = t.call(
        "/public/envelope/update",
        json::object{{"envelopeUuid", env},
                     {"update", json::object{{"title", "Renamed"},
                                             {"documents", json::array{json::object{{"uuid", doc},
                                                                                    {"title", "Doc 2"},
                                                                                    {"initialsOnAllPages", true},
                                                                                    {"initialsVerticalMargin", 120},
                                                                                    {"mustReadAllPages", true}}}},
                                             {"tags", json::array{"b", "a", "c", "b"}},
                                             {"signatureOrder", true},
                                             {"expirationPeriod", 90},
                                             {"reminderFrequencyPeriod", 2},
                                             {"customInvitationMessage", "Please sign"},
                                             {"useUserAsSenderName", true}}}});
    require_ok(r);
    CHECK(r.body == json::value{{"updateDate", later}});

    auto e = t.get(env);
    CHECK(e.at("title") == "Renamed");
    CHECK(e.at("updateDate") == later);
    CHECK(e.at("creationDate") == t0);
    CHECK(strings(e.at("tags")) == std::vector<std::string>{"a", "b", "c"});
    CHECK(e.at("signatureOrder") == true);
    CHECK(e.at("expirationPeriod") == 90);
    CHECK(e.at("reminderFrequencyPeriod") == 2);
    CHECK(e.at("customMessage") == "Please sign");
    CHECK(e.at("useUserAsSenderName") == true);
    CHECK(e.at("sender").at("name") == str(t.main.owner_email));  // the owner has no names: the e-mail
    const auto& d = e.at("documents").at(0);
    CHECK(d.at("title") == "Doc 2");
    CHECK(d.at("initialsOnAllPages") == true);
    CHECK(d.at("initialsVerticalMargin") == 120);
    CHECK(d.at("mustReadAllPages") == true);

    // customInvitationMessage: absent leaves it, null clears it.
    require_ok(t.call("/public/envelope/update", json::object{{"envelopeUuid", env}, {"update", json::object{}}}));
    CHECK(t.get(env).at("customMessage") == "Please sign");
    require_ok(
        t.call("/public/envelope/update",
               json::object{{"envelopeUuid", env}, {"update", json::object{{"customInvitationMessage", nullptr}}}}));
    CHECK(t.get(env).at("customMessage").is_null());
}

TEST_CASE("envelope/update: the sender name is the team's or the owner's", "[backend][envelopes]") {
    api t;
    team named = t.make_team({{"name", "Acme"}, {"ownerFirstname", "Grace"}, {"ownerLastname", "Hopper"}});
    auto env = t.create({}, &named).at("envelopeUuid");
    auto get = [&] {
        return t.call_as(named, "/public/envelope/get", json::object{{"envelopeUuid", env}}).obj().at("sender");
    };
    CHECK(get() == json::value{{"email", named.owner_email}, {"name", "Acme"}});
    require_ok(t.call_as(named, "/public/envelope/update",
                         json::object{{"envelopeUuid", env}, {"update", json::object{{"useUserAsSenderName", true}}}}));
    CHECK(get() == json::value{{"email", named.owner_email}, {"name", "Grace Hopper"}});
}

TEST_CASE("envelope/update errors, in the contract's order, change nothing", "[backend][envelopes]") {
    api t;
    auto created = t.create({{"attachments", json::array{json::object{{"title", "Annex"}}}}});
    const std::string env(created.at("envelopeUuid").as_string());
    const json::value attachment = created.at("attachmentUuids").at(0);
    auto update = [&](json::value doc_uuid) {
        return t.call(
            "/public/envelope/update",
            json::object{{"envelopeUuid", env},
                         {"update", json::object{{"title", "Changed"},
                                                 {"documents", json::array{json::object{{"uuid", doc_uuid}}}}}}});
    };
    require_error(update(ghost), 400, "DOCUMENT_NOT_FOUND");
    require_error(update(attachment), 400, "DOCUMENT_NOT_FOUND");  // attachments are not documents
    CHECK(t.get(env).at("title") == "Contract");

    t.add(env, {"s@example.com"});
    t.send(env);
    require_error(update(ghost), 400, "DOCUMENT_NOT_FOUND");  // before ENVELOPE_NOT_IN_DRAFT
    require_error(update(created.at("documentUuids").at(0)), 400, "ENVELOPE_NOT_IN_DRAFT");
    CHECK(t.get(env).at("title") == "Contract");
}

// ---------------------------------------------------------------------------------------------
// /public/envelope/delete-attachment

TEST_CASE("envelope/delete-attachment", "[backend][envelopes]") {
    api t;
    auto created =
        t.create({{"attachments", json::array{json::object{{"title", "A1"}}, json::object{{"title", "A2"}}}}});
    const std::string env(created.at("envelopeUuid").as_string());
    const json::value a1 = created.at("attachmentUuids").at(0);
    const json::value doc = created.at("documentUuids").at(0);
    auto remove = [&](const json::value& uuid) {
        return t.call("/public/envelope/delete-attachment",
                      json::object{{"envelopeUuid", env}, {"documentUuid", uuid}});
    };

    require_error(remove(ghost), 400, "DOCUMENT_NOT_FOUND");
    require_error(remove(doc), 400, "DOCUMENT_NOT_ATTACHMENT");
    CHECK(t.get(env).at("attachments").as_array().size() == 2);

    t.advance(10);
    auto r = remove(a1);
    require_ok(r);
    CHECK(r.body == json::object{});
    auto e = t.get(env);
    CHECK(e.at("attachments").as_array().size() == 1);
    CHECK(e.at("attachments").at(0).at("title") == "A2");
    CHECK(e.at("documents").as_array().size() == 1);
    CHECK(e.at("updateDate") == t0 + 10);
    require_error(remove(a1), 400, "DOCUMENT_NOT_FOUND");

    // Document errors come before ENVELOPE_NOT_IN_DRAFT.
    t.add(env, {"s@example.com"});
    t.send(env);
    require_error(remove(ghost), 400, "DOCUMENT_NOT_FOUND");
    require_error(remove(doc), 400, "DOCUMENT_NOT_ATTACHMENT");
    require_error(remove(created.at("attachmentUuids").at(1)), 400, "ENVELOPE_NOT_IN_DRAFT");
}

// ---------------------------------------------------------------------------------------------
// /public/envelope/add-recipients

TEST_CASE("add-recipients: signers with the defaults, order and colour", "[backend][recipients]") {
    api t;
    const std::string env = t.envelope();
    require_ok(t.call(
        "/public/contact/create",
        json::object{{"contacts", json::array{json::object{
                                      {"email", "known@example.com"}, {"firstname", "K"}, {"lastname", "N"}}}}}));
    json::object with_options = recipient("sms@example.com", "Sam", "Sms");
    with_options["phone"] = "+33600000000";
    with_options["language"] = "fr";
    with_options["verificationType"] = "sms";

    auto r =
        t.call("/public/envelope/add-recipients",
               json::object{{"envelopeUuid", env},
                            {"recipients", json::array{recipient("known@example.com", "Kay", "Known"), with_options}}});
    require_ok(r);
    CHECK(r.body == json::value{{"recipients", json::array{json::object{{"email", "known@example.com"},
                                                                        {"firstname", "Kay"},
                                                                        {"lastname", "Known"},
                                                                        {"role", "signer"},
                                                                        {"associatedContact", true},
                                                                        {"status", "pending"},
                                                                        {"colorVariant", "primary"}},
                                                           json::object{{"email", "sms@example.com"},
                                                                        {"firstname", "Sam"},
                                                                        {"lastname", "Sms"},
                                                                        {"role", "signer"},
                                                                        {"associatedContact", false},
                                                                        {"status", "pending"},
                                                                        {"colorVariant", "info"}}}}});

    auto e = t.get(env);
    CHECK(recipient_of(e, "known@example.com") == json::value{{"email", "known@example.com"},
                                                              {"firstname", "Kay"},
                                                              {"lastname", "Known"},
                                                              {"phone", ""},
                                                              {"role", "signer"},
                                                              {"order", 1},
                                                              {"associatedContact", true},
                                                              {"status", "pending"},
                                                              {"language", "en"},
                                                              {"verificationType", "none"}});
    const auto& sms = recipient_of(e, "sms@example.com");
    CHECK(sms.at("order") == 2);
    CHECK(sms.at("phone") == "+33600000000");
    CHECK(sms.at("language") == "fr");
    CHECK(sms.at("verificationType") == "sms");
    CHECK(e.at("metrics").at("signatureRequiredCount") == 2);
    CHECK(e.at("metrics").at("signatureCount") == 0);

    // The next order is 1 + the highest, whatever the count.
    require_ok(t.call("/public/envelope/update-recipient", json::object{{"envelopeUuid", env},
                                                                        {"email", "known@example.com"},
                                                                        {"role", "signer"},
                                                                        {"updates", json::object{{"order", 7}}}}));
    t.add(env, {"late@example.com"});
    CHECK(recipient_of(t.get(env), "late@example.com").at("order") == 8);
}

TEST_CASE("add-recipients: colours cycle through the ten block colours", "[backend][recipients]") {
    api t;
    const std::string env = t.envelope();
    json::array first_batch;
    for (int i = 0; i < 9; ++i) first_batch.push_back(recipient("r" + std::to_string(i) + "@example.com"));
    require_ok(
        t.call("/public/envelope/add-recipients", json::object{{"envelopeUuid", env}, {"recipients", first_batch}}));
    auto r = t.call("/public/envelope/add-recipients",
                    json::object{{"envelopeUuid", env},
                                 {"recipients", json::array{recipient("r9@example.com"), recipient("r10@example.com"),
                                                            recipient("r11@example.com")}}});
    require_ok(r);
    const auto& items = r.obj().at("recipients").as_array();
    CHECK(items.at(0).at("colorVariant") == "lime");
    CHECK(items.at(1).at("colorVariant") == "primary");
    CHECK(items.at(2).at("colorVariant") == "info");
    CHECK(recipient_of(t.get(env), "r11@example.com").at("order") == 12);
}

// contract.md §2: e-mails compare case-sensitively, everywhere (recipient/act has its own test).
TEST_CASE("e-mails compare case-sensitively: duplicates, contacts, associatedContact", "[backend][recipients][email]") {
    api t;
    const std::string env = t.envelope();
    t.add(env, {"Ann@example.com"});
    auto add = [&](json::array items) { return t.add_recipients(env, std::move(items)); };
    // Same address in another case: a different recipient, not DUPLICATE_RECIPIENT.
    require_ok(add({recipient("ann@example.com")}));
    require_error(add({recipient("ann@example.com")}), 400, "DUPLICATE_RECIPIENT");
    require_ok(add({recipient("BOB@example.com"), recipient("bob@example.com")}));
    CHECK(t.get(env).at("recipients").as_array().size() == 4);

    // Contacts: another case is another contact; the same case exists already.
    auto create_contact = [&](std::string email) {
        return t.call(
            "/public/contact/create",
            json::object{{"contacts", json::array{json::object{
                                          {"email", std::move(email)}, {"firstname", "C"}, {"lastname", "D"}}}}});
    };
    require_ok(create_contact("Carol@example.com"));
    require_ok(create_contact("carol@example.com"));
    require_error(create_contact("carol@example.com"), 400, "CONTACT_EMAIL_ALREADY_EXISTS");

    // associatedContact: true only for the address in the contact's own case.
    const std::string env2 = t.envelope();
    require_ok(t.add_recipients(env2, {recipient("Carol@example.com"), recipient("CAROL@example.com")}));
    CHECK(recipient_of(t.get(env2), "Carol@example.com").at("associatedContact") == true);
    CHECK(recipient_of(t.get(env2), "CAROL@example.com").at("associatedContact") == false);
}

TEST_CASE("add-recipients errors, in the contract's order, add nothing", "[backend][recipients]") {
    api t;
    const std::string env = t.envelope();
    t.add(env, {"a@example.com"});
    auto add = [&](json::array items) { return t.add_recipients(env, std::move(items)); };
    json::object sms = recipient("sms@example.com");
    sms["verificationType"] = "sms";
    sms["phone"] = "+1555";

    // A batch with one bad item adds none.
    require_error(add({recipient("new@example.com"), recipient("a@example.com")}), 400, "DUPLICATE_RECIPIENT");
    require_error(add({recipient("x@example.com"), recipient("x@example.com")}), 400, "DUPLICATE_RECIPIENT");
    require_error(add({recipient("new@example.com"), recipient("bad@example.invalid")}), 400, "INVALID_EMAIL");
    require_error(add({recipient("new@example.com"), recipient("bad@EXAMPLE.INVALID")}), 400, "INVALID_EMAIL");
    CHECK(t.get(env).at("recipients").as_array().size() == 1);

    // sms without a phone is a validation problem at its path.
    json::object no_phone = recipient("p@example.com");
    no_phone["verificationType"] = "sms";
    auto invalid = add({recipient("ok@example.com"), no_phone});
    require_error(invalid, 400, "INVALID_REQUEST_FORMAT");
    CHECK(invalid.detail_paths() == std::vector<path>{{"recipients", "1", "phone"}});

    // Without the sms feature; DUPLICATE_RECIPIENT comes first, INVALID_EMAIL after.
    require_ok(
        t.control("/_control/team/update", json::object{{"teamUuid", t.main.uuid}, {"features", json::array{}}}));
    require_error(add({sms}), 403, "FEATURE_NOT_IN_CURRENT_PLAN");
    require_error(add({sms, recipient("a@example.com")}), 400, "DUPLICATE_RECIPIENT");
    require_error(add({sms, recipient("bad@example.invalid")}), 403, "FEATURE_NOT_IN_CURRENT_PLAN");
    CHECK(t.get(env).at("recipients").as_array().size() == 1);

    // ENVELOPE_NOT_IN_DRAFT comes before DUPLICATE_RECIPIENT.
    t.send(env);
    require_error(add({recipient("a@example.com")}), 400, "ENVELOPE_NOT_IN_DRAFT");
    require_error(
        t.call("/public/envelope/add-recipients",
               json::object{{"envelopeUuid", ghost}, {"recipients", json::array{recipient("a@example.com")}}}),
        400, "ENVELOPE_NOT_FOUND");
}

// ---------------------------------------------------------------------------------------------
// /public/envelope/update-recipient

TEST_CASE("update-recipient changes the given members and answers the recipient", "[backend][recipients]") {
    api t;
    const std::string env = t.envelope();
    t.add(env, {"a@example.com", "b@example.com"});
    const std::int64_t later = t.advance(3);
    auto r = t.call("/public/envelope/update-recipient",
                    json::object{{"envelopeUuid", env},
                                 {"email", "b@example.com"},
                                 {"role", "signer"},
                                 {"updates", json::object{{"firstname", "Bea"},
                                                          {"jobTitle", "CTO"},
                                                          {"company", "Acme"},
                                                          {"city", "Paris"},
                                                          {"role", "approver"},
                                                          {"order", 5},
                                                          {"language", "it"},
                                                          {"verificationType", "email"}}}});
    require_ok(r);
    CHECK(r.body == json::value{{"recipient", json::object{{"email", "b@example.com"},
                                                           {"firstname", "Bea"},
                                                           {"lastname", "Lovelace"},
                                                           {"phone", ""},
                                                           {"jobTitle", "CTO"},
                                                           {"company", "Acme"},
                                                           {"city", "Paris"},
                                                           {"role", "approver"},
                                                           {"order", 5},
                                                           {"associatedContact", false},
                                                           {"status", "pending"},
                                                           {"language", "it"},
                                                           {"verificationType", "email"},
                                                           {"colorVariant", "info"}}}});
    auto e = t.get(env);
    CHECK(recipient_of(e, "b@example.com").at("role") == "approver");
    CHECK(e.at("updateDate") == later);
    CHECK(e.at("metrics").at("approvalRequiredCount") == 1);
    CHECK(e.at("metrics").at("signatureRequiredCount") == 1);

    // The recipient is now found as an approver only.
    require_error(
        t.call("/public/envelope/update-recipient",
               json::object{
                   {"envelopeUuid", env}, {"email", "b@example.com"}, {"role", "signer"}, {"updates", json::object{}}}),
        400, "RECIPIENT_NOT_FOUND");
}

TEST_CASE("update-recipient errors, in the contract's order", "[backend][recipients]") {
    api t;
    const std::string env = t.envelope();
    t.add(env, {"a@example.com"});
    auto update = [&](std::string role, json::object updates) {
        return t.call(
            "/public/envelope/update-recipient",
            json::object{{"envelopeUuid", env}, {"email", "a@example.com"}, {"role", role}, {"updates", updates}});
    };

    require_error(update("viewer", {{"verificationType", "sms"}}), 400, "RECIPIENT_NOT_FOUND");
    auto no_phone = update("signer", {{"verificationType", "sms"}});
    require_error(no_phone, 400, "INVALID_REQUEST_FORMAT");
    CHECK(no_phone.detail_paths() == std::vector<path>{{"updates", "phone"}});
    require_error(update("signer", {{"verificationType", "sms"}, {"phone", ""}}), 400, "INVALID_REQUEST_FORMAT");
    CHECK(recipient_of(t.get(env), "a@example.com").at("verificationType") == "none");

    // Judged on the recipient after the update: a phone given before counts.
    require_ok(update("signer", {{"phone", "+1555"}}));
    require_ok(update("signer", {{"verificationType", "sms"}}));
    auto cleared = update("signer", {{"phone", ""}});
    require_error(cleared, 400, "INVALID_REQUEST_FORMAT");
    CHECK(cleared.detail_paths() == std::vector<path>{{"updates", "phone"}});
    require_ok(update("signer", {{"verificationType", "none"}}));

    // Without the feature: the sms/phone problem first, then FEATURE_NOT_IN_CURRENT_PLAN.
    require_ok(
        t.control("/_control/team/update", json::object{{"teamUuid", t.main.uuid}, {"features", json::array{}}}));
    require_error(update("signer", {{"verificationType", "sms"}, {"phone", ""}}), 400, "INVALID_REQUEST_FORMAT");
    require_error(update("signer", {{"verificationType", "sms"}}), 403, "FEATURE_NOT_IN_CURRENT_PLAN");
    CHECK(recipient_of(t.get(env), "a@example.com").at("verificationType") == "none");
    require_ok(update("signer", {{"firstname", "Still editable"}}));

    // ENVELOPE_NOT_IN_DRAFT comes before RECIPIENT_NOT_FOUND.
    t.send(env);
    require_error(update("viewer", {}), 400, "ENVELOPE_NOT_IN_DRAFT");
}

TEST_CASE("update-recipient: DUPLICATE_RECIPIENT when the new role repeats an e-mail and role",
          "[backend][recipients]") {
    // No public operation makes two recipients with one e-mail, so the store is built by hand.
    using namespace esign::reference;
    hand_built store;
    recipient_record signer;
    signer.data.email = "a@example.com";
    signer.data.role = esign::recipient_role::signer;
    recipient_record approver = signer;
    approver.data.role = esign::recipient_role::approver;
    const envelope_record& env = store.envelope({signer, approver});
    context& c = store.c;

    esign::envelope_update_recipient_request r;
    r.envelopeUuid = env.uuid;
    r.email = "a@example.com";
    r.role = esign::recipient_role::signer;
    r.updates.role = esign::recipient_role::approver;
    r.updates.firstname = "changed";
    auto out = handlers::handle(c, r);
    REQUIRE(std::holds_alternative<failure>(out));
    CHECK(std::get<failure>(out).code == esign::error_code::DUPLICATE_RECIPIENT);
    CHECK(env.recipients[0].data.firstname.empty());

    r.updates.role = esign::recipient_role::viewer;
    REQUIRE(std::holds_alternative<esign::envelope_update_recipient_response>(handlers::handle(c, r)));
}

// ---------------------------------------------------------------------------------------------
// /public/envelope/delete-recipients

TEST_CASE("delete-recipients is all or nothing", "[backend][recipients]") {
    api t;
    const std::string env = t.envelope();
    t.add(env, {"a@example.com", "b@example.com", "c@example.com"});
    auto remove = [&](std::initializer_list<std::string> emails) {
        json::array items;
        for (const auto& e : emails) items.push_back(json::object{{"email", e}});
        return t.call("/public/envelope/delete-recipients", json::object{{"envelopeUuid", env}, {"recipients", items}});
    };
    require_error(remove({"a@example.com", "nobody@example.com"}), 400, "RECIPIENT_NOT_FOUND");
    CHECK(t.get(env).at("recipients").as_array().size() == 3);

    auto r = remove({"a@example.com", "c@example.com"});
    require_ok(r);
    CHECK(r.body == json::object{});
    auto e = t.get(env);
    REQUIRE(e.at("recipients").as_array().size() == 1);
    CHECK(e.at("recipients").at(0).at("email") == "b@example.com");
    // A recipient added afterwards: order 1 + the highest left, colour by the count left.
    auto added = t.call("/public/envelope/add-recipients",
                        json::object{{"envelopeUuid", env}, {"recipients", json::array{recipient("d@example.com")}}});
    CHECK(added.obj().at("recipients").at(0).at("colorVariant") == "info");
    CHECK(recipient_of(t.get(env), "d@example.com").at("order") == 3);

    t.send(env);
    require_error(remove({"nobody@example.com"}), 400, "ENVELOPE_NOT_IN_DRAFT");
}

// ---------------------------------------------------------------------------------------------
// /public/envelope/add-blocks and delete-blocks

TEST_CASE("add-blocks stores blocks as the contract says", "[backend][blocks]") {
    api t;
    auto created = t.create();
    const std::string env(created.at("envelopeUuid").as_string());
    const json::value doc = created.at("documentUuids").at(0);
    t.add(env, {"a@example.com", "b@example.com"});
    const std::int64_t later = t.advance(42);

    auto r = t.call(
        "/public/envelope/add-blocks",
        json::object{
            {"envelopeUuid", env},
            {"documentUuid", doc},
            {"blocks",
             json::array{
                 json::object{{"page", "01"}, {"x", 10.5}, {"y", 20}, {"type", "text"}, {"text", "Name"}},
                 json::object{{"page", "3"},
                              {"x", 1},
                              {"y", 2},
                              {"height", 30},
                              {"width", 40},
                              {"recipientEmail", "b@example.com"},
                              {"required", true},
                              {"placeholder", "Your city"},
                              {"defaultValue", 12},
                              {"type", "text"},
                              {"text", "City"},
                              {"maxLength", 64},
                              {"templatedText", "city"}},
                 json::object{
                     {"page", "1"}, {"x", 0}, {"y", 0}, {"defaultValue", true}, {"type", "text"}, {"text", "Flag"}}}}});
    require_ok(r);
    CHECK(r.body == json::value{{"snapshotDate", later}});

    auto e = t.get(env);
    const auto& d = e.at("documents").at(0).as_object();
    CHECK(d.at("snapshotDate") == later);
    const auto& blocks = d.at("blocks").as_object();
    REQUIRE(blocks.size() == 2);
    REQUIRE(blocks.at("1").as_array().size() == 2);
    REQUIRE(blocks.at("3").as_array().size() == 1);

    json::object first = blocks.at("1").at(0).as_object();
    CHECK(first.at("uuid").as_string().size() == 36);
    first.erase("uuid");
    CHECK(first == json::object{{"label", "Name"},
                                {"labelIcon", "text-t"},
                                {"x", 10.5},
                                {"y", 20},
                                {"exportable", false},
                                {"color", "primary"},
                                {"value", nullptr},
                                {"type", "text"},
                                {"text", "Name"}});
    json::object city = blocks.at("3").at(0).as_object();
    city.erase("uuid");
    CHECK(city == json::object{{"label", "City"},
                               {"labelIcon", "text-t"},
                               {"x", 1},
                               {"y", 2},
                               {"height", 30},
                               {"width", 40},
                               {"exportable", false},
                               {"recipientEmail", "b@example.com"},
                               {"color", "info"},
                               {"required", true},
                               {"placeholder", "Your city"},
                               {"defaultValue", "12"},
                               {"value", nullptr},
                               {"type", "text"},
                               {"text", "City"},
                               {"maxLength", 64},
                               {"templatedText", "city"}});
    CHECK(blocks.at("1").at(1).at("defaultValue") == "true");
}

TEST_CASE("add-blocks errors, in the contract's order, add nothing", "[backend][blocks]") {
    api t;
    auto created = t.create({{"attachments", json::array{json::object{{"title", "Annex"}}}}});
    const std::string env(created.at("envelopeUuid").as_string());
    const json::value doc = created.at("documentUuids").at(0);
    t.add(env, {"a@example.com"});
    auto block = [](std::string page, std::optional<std::string> email = std::nullopt) {
        json::object b{{"page", std::move(page)}, {"x", 1}, {"y", 1}, {"type", "text"}, {"text", "t"}};
        if (email) b["recipientEmail"] = *email;
        return b;
    };
    auto add = [&](const json::value& document, json::array blocks) {
        return t.call("/public/envelope/add-blocks",
                      json::object{{"envelopeUuid", env}, {"documentUuid", document}, {"blocks", blocks}});
    };

    require_error(add(ghost, {block("1")}), 400, "DOCUMENT_NOT_FOUND");
    require_error(add(created.at("attachmentUuids").at(0), {block("1")}), 400, "DOCUMENT_NOT_FOUND");

    auto pages = add(doc, {block("1"), block("4"), block("0"), block("2", "nobody@example.com"), block("00003")});
    require_error(pages, 400, "INVALID_REQUEST_FORMAT");
    CHECK(pages.detail_paths() == std::vector<path>{{"blocks", "1", "page"}, {"blocks", "2", "page"}});
    auto not_digits = add(doc, {block("1a")});
    CHECK(not_digits.detail_paths() == std::vector<path>{{"blocks", "0", "page"}});

    require_error(add(doc, {block("1", "a@example.com"), block("2", "nobody@example.com")}), 400,
                  "INVALID_RECIPIENT_EMAIL");
    CHECK(t.get(env).at("documents").at(0).at("blocks") == json::object{});

    t.send(env);
    require_error(add(ghost, {block("9")}), 400, "DOCUMENT_NOT_FOUND");
    require_error(add(doc, {block("9")}), 400, "ENVELOPE_NOT_IN_DRAFT");  // before the page range
}

TEST_CASE("delete-blocks removes the listed blocks and ignores unknown ones", "[backend][blocks]") {
    api t;
    auto created = t.create();
    const std::string env(created.at("envelopeUuid").as_string());
    const json::value doc = created.at("documentUuids").at(0);
    auto block = [](std::string page, std::string text) {
        return json::object{{"page", std::move(page)}, {"x", 1}, {"y", 1}, {"type", "text"}, {"text", std::move(text)}};
    };
    require_ok(t.call("/public/envelope/add-blocks",
                      json::object{{"envelopeUuid", env},
                                   {"documentUuid", doc},
                                   {"blocks", json::array{block("1", "a"), block("1", "b"), block("2", "c")}}}));
    auto blocks = t.get(env).at("documents").at(0).at("blocks");
    const json::value a = blocks.at("1").at(0).at("uuid");
    const json::value c = blocks.at("2").at(0).at("uuid");

    const std::int64_t later = t.advance(7);
    auto remove = [&](const json::value& document, json::array uuids) {
        return t.call("/public/envelope/delete-blocks",
                      json::object{{"envelopeUuid", env}, {"documentUuid", document}, {"blockUuids", uuids}});
    };
    auto r = remove(doc, {a, c, json::value(ghost)});
    require_ok(r);
    CHECK(r.body == json::value{{"snapshotDate", later}});
    auto left = t.get(env).at("documents").at(0);
    CHECK(left.at("snapshotDate") == later);
    REQUIRE(left.at("blocks").as_object().size() == 1);
    CHECK(left.at("blocks").at("1").as_array().size() == 1);
    CHECK(left.at("blocks").at("1").at(0).at("text") == "b");
    require_ok(remove(doc, {a}));  // idempotent

    require_error(remove(ghost, {a}), 400, "DOCUMENT_NOT_FOUND");
    t.add(env, {"s@example.com"});
    t.send(env);
    require_error(remove(ghost, {a}), 400, "DOCUMENT_NOT_FOUND");
    require_error(remove(doc, {a}), 400, "ENVELOPE_NOT_IN_DRAFT");
}

// ---------------------------------------------------------------------------------------------
// /public/envelope/create-from-template

TEST_CASE("create-from-template makes a draft with one signer per label", "[backend][envelopes]") {
    api t;
    require_ok(t.call(
        "/public/contact/create",
        json::object{{"contacts",
                      json::array{json::object{{"email", "c@example.com"}, {"firstname", "C"}, {"lastname", "C"}}}}}));
    auto tpl = t.call("/_control/template/create",
                      json::object{{"title", "NDA"},
                                   {"recipientLabels", json::array{"Client", "Company"}},
                                   {"documents", json::array{json::object{{"title", "NDA"}, {"pageCount", 2}},
                                                             json::object{{"title", "Annex"}, {"pageCount", 1}}}}});
    require_ok(tpl);
    const json::value tpl_uuid = tpl.obj().at("templateUuid");

    // Given in another order than the template's labels.
    auto r = t.call("/public/envelope/create-from-template",
                    json::object{{"templateUuid", tpl_uuid},
                                 {"recipients", json::array{[] {
                                                                auto x = recipient("c@example.com", "Cee", "Company");
                                                                x["label"] = "Company";
                                                                return x;
                                                            }(),
                                                            [] {
                                                                auto x = recipient("k@example.com", "Kay", "Client");
                                                                x["label"] = "Client";
                                                                return x;
                                                            }()}}});
    require_ok(r);
    const std::string env(r.obj().at("envelopeUuid").as_string());
    const auto doc_uuids = strings(r.obj().at("documentUuids"));
    REQUIRE(doc_uuids.size() == 2);
    CHECK(doc_uuids != strings(tpl.obj().at("documentUuids")));

    auto e = t.get(env);
    CHECK(e.at("status") == "draft");
    CHECK(e.at("title") == "NDA");
    REQUIRE(e.at("documents").as_array().size() == 2);
    CHECK(e.at("documents").at(0).at("uuid") == str(doc_uuids[0]));
    CHECK(e.at("documents").at(0).at("pageCount") == 2);
    CHECK(e.at("documents").at(1).at("title") == "Annex");
    const auto& client = e.at("recipients").at(0).as_object();
    const auto& company = e.at("recipients").at(1).as_object();
    CHECK(client.at("email") == "k@example.com");
    CHECK(client.at("order") == 1);
    CHECK(client.at("role") == "signer");
    CHECK(client.at("associatedContact") == false);
    CHECK(company.at("email") == "c@example.com");
    CHECK(company.at("order") == 2);
    CHECK(company.at("associatedContact") == true);
    CHECK(t.log_types(env) == std::vector<std::string>{"ENVELOPE_CREATED"});

    // The colours follow the label order: the next recipient is the third.
    auto added = t.call("/public/envelope/add-recipients",
                        json::object{{"envelopeUuid", env}, {"recipients", json::array{recipient("z@example.com")}}});
    CHECK(added.obj().at("recipients").at(0).at("colorVariant") == "auxiliary");
}

TEST_CASE("create-from-template errors, in the contract's order", "[backend][envelopes]") {
    api t;
    auto tpl = t.call("/_control/template/create",
                      json::object{{"title", "T"},
                                   {"recipientLabels", json::array{"A", "B"}},
                                   {"documents", json::array{json::object{{"title", "D"}, {"pageCount", 1}}}}});
    require_ok(tpl);
    const json::value uuid = tpl.obj().at("templateUuid");
    auto given = [](std::string label, std::string email) {
        auto x = recipient(std::move(email));
        x["label"] = std::move(label);
        return x;
    };
    auto create = [&](json::array recipients, json::object extra = {}) {
        json::object body{{"templateUuid", uuid}, {"recipients", recipients}};
        for (auto& [k, v] : extra) body[k] = v;
        return t.call("/public/envelope/create-from-template", body);
    };
    auto count = [&] {
        return t.call("/public/envelope/list", json::object{}).obj().at("pagination").at("totalRecords").as_int64();
    };

    team other = t.make_team({});
    require_error(
        create({given("A", "a@example.com"), given("B", "b@example.com")}, {{"workspaceUuid", other.default_ws}}), 400,
        "WORKSPACE_NOT_FOUND");
    require_error(
        create({given("A", "a@example.com"), given("B", "b@example.com")}, {{"workspaceUuid", t.workspace()}}), 400,
        "TEMPLATE_NOT_FOUND");
    require_error(
        t.call("/public/envelope/create-from-template",
               json::object{{"templateUuid", ghost}, {"recipients", json::array{given("A", "a@example.com")}}}),
        400, "TEMPLATE_NOT_FOUND");
    require_error(create({given("A", "a@example.com")}), 400, "INVALID_RECIPIENT_LABELS");
    require_error(create({given("A", "a@example.com"), given("B", "b@example.com"), given("C", "c@example.com")}), 400,
                  "INVALID_RECIPIENT_LABELS");
    require_error(create({given("A", "a@example.com"), given("A", "b@example.com")}), 400, "INVALID_RECIPIENT_LABELS");
    require_error(create({given("A", "a@example.com"), given("b", "b@example.com")}), 400, "INVALID_RECIPIENT_LABELS");
    require_error(create({given("A", "a@example.com"), given("C", "b@example.invalid")}), 400,
                  "INVALID_RECIPIENT_LABELS");
    require_error(create({given("A", "a@example.com"), given("B", "b@example.invalid")}), 400, "INVALID_EMAIL");
    auto same = create({given("A", "a@example.com"), given("B", "a@example.com")});
    require_error(same, 400, "INVALID_REQUEST_FORMAT");
    CHECK(same.detail_paths() == std::vector<path>{{"recipients", "1", "email"}});
    CHECK(count() == 0);
}

// ---------------------------------------------------------------------------------------------
// /public/authentication/create-iframe-token

TEST_CASE("create-iframe-token gives a new sit. token per call for a verified signer", "[backend][signing]") {
    api t;
    const std::string env = t.envelope();
    json::object verified = recipient("v@example.com");
    verified["verificationType"] = "email";
    require_ok(t.call(
        "/public/envelope/add-recipients",
        json::object{{"envelopeUuid", env},
                     {"recipients", json::array{verified, recipient("n@example.com"), recipient("ap@example.com")}}}));
    json::object to_approver{{"envelopeUuid", env},
                             {"email", "ap@example.com"},
                             {"role", "signer"},
                             {"updates", json::object{{"role", "approver"}, {"verificationType", "email"}}}};
    require_ok(t.call("/public/envelope/update-recipient", to_approver));
    auto token = [&](std::string email) {
        return t.call("/public/authentication/create-iframe-token",
                      json::object{{"envelopeUuid", env}, {"signerEmail", std::move(email)}});
    };

    auto first = token("v@example.com");
    require_ok(first);
    auto second = token("v@example.com");
    require_ok(second);
    const std::string a(first.obj().at("iframeToken").as_string());
    const std::string b(second.obj().at("iframeToken").as_string());
    const std::regex format("^sit\\.[A-Za-z0-9_-]{43}$");
    CHECK(std::regex_match(a, format));
    CHECK(std::regex_match(b, format));
    CHECK(a != b);
    t.b.inspect([&](const esign::reference::state& st) {
        REQUIRE(st.iframe_tokens.count(a) == 1);
        const auto& record = st.iframe_tokens.at(a);
        CHECK(record.envelope_uuid == env);
        CHECK(record.signer_email == "v@example.com");
        CHECK(record.expires_at == t0 + 3'600'000);
        return 0;
    });

    require_error(token("nobody@example.com"), 400, "SIGNER_NOT_IN_ENVELOPE");
    require_error(token("ap@example.com"), 400, "SIGNER_NOT_IN_ENVELOPE");  // an approver is not a signer
    require_error(token("n@example.com"), 400, "RECIPIENT_VERIFICATION_DISABLED");
    require_error(t.call("/public/authentication/create-iframe-token",
                         json::object{{"envelopeUuid", ghost}, {"signerEmail", "v@example.com"}}),
                  400, "ENVELOPE_NOT_FOUND");
    require_error(
        t.call("/public/authentication/create-iframe-token",
               json::object{{"workspaceUuid", ghost}, {"envelopeUuid", env}, {"signerEmail", "v@example.com"}}),
        400, "WORKSPACE_NOT_FOUND");
}

// ---------------------------------------------------------------------------------------------
// Every draft-only operation

TEST_CASE("the eight draft-only operations answer ENVELOPE_NOT_IN_DRAFT once sent", "[backend][envelopes]") {
    api t;
    auto created = t.create({{"attachments", json::array{json::object{{"title", "Annex"}}}}});
    const json::value env = created.at("envelopeUuid");
    const json::value doc = created.at("documentUuids").at(0);
    t.add(std::string(env.as_string()), {"a@example.com"});
    t.send(std::string(env.as_string()));
    const json::object block{{"page", "1"}, {"x", 1}, {"y", 1}, {"type", "text"}, {"text", "t"}};

    const std::vector<std::pair<std::string, json::object>> calls{
        {"/public/envelope/add-recipients",
         {{"envelopeUuid", env}, {"recipients", json::array{recipient("b@example.com")}}}},
        {"/public/envelope/update", {{"envelopeUuid", env}, {"update", json::object{{"title", "x"}}}}},
        {"/public/envelope/update-recipient",
         {{"envelopeUuid", env}, {"email", "a@example.com"}, {"role", "signer"}, {"updates", json::object{}}}},
        {"/public/envelope/add-blocks", {{"envelopeUuid", env}, {"documentUuid", doc}, {"blocks", json::array{block}}}},
        {"/public/envelope/delete-blocks",
         {{"envelopeUuid", env}, {"documentUuid", doc}, {"blockUuids", json::array{ghost}}}},
        {"/public/envelope/delete-recipients",
         {{"envelopeUuid", env}, {"recipients", json::array{json::object{{"email", "a@example.com"}}}}}},
        {"/public/envelope/delete-attachment",
         {{"envelopeUuid", env}, {"documentUuid", created.at("attachmentUuids").at(0)}}},
        {"/public/envelope/send", {{"envelopeUuid", env}}},
    };
    CHECK(calls.size() == esign::rules::draft_only_operations.size());
    for (const auto& [p, body] : calls) {
        INFO(p);
        CHECK(esign::rules::is_draft_only(p));
        require_error(t.call(p, body), 400, "ENVELOPE_NOT_IN_DRAFT");
    }
}

}  // namespace test_backend_envelopes
