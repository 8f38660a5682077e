// SPDX-License-Identifier: BSL-1.0
// Black-box coverage of esign-reference-server: one script, run against the real process, that
// calls every operation of esign's operation table (the 27 public ones and every /_control/ one)
// and provokes every error code of esign's error table that the server can produce, each with
// its exact HTTP status, code and error body. After every failing step the whole visible state
// (every list, every envelope, the outbox, the webhook deliveries) is read back and must be
// unchanged. At the end, what went over the wire (wire_log) is compared with esign's own tables,
// so that a new operation or a new code fails this test until the script covers it.
#include "test_support.hpp"

#include <array>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <esign/model/operations.hpp>
#include <esign/rules/error_codes.hpp>

namespace test_server_errors {

using namespace esign::test;

namespace {

using captures = std::vector<std::pair<std::string, std::string>>;      // name → JSON pointer
using expectations = std::vector<std::pair<std::string, std::string>>;  // JSON pointer → JSON text

// One request of the script and what must come back. Strings may hold {NAME} placeholders,
// replaced by values captured from earlier answers.
struct step {
    std::string path;
    std::string key;   // the API key ({KEY}, ...), sent as "Authorization: Bearer"; empty: none
    std::string body;  // JSON
    unsigned status = 200;
    std::string code;  // the error code expected, empty for a success
    std::string
        detail;        // for INVALID_REQUEST_FORMAT: "none", or a path expected among the details ("[]": the only one)
    captures capture;  // values of a success to remember
    expectations expect;  // members of a success, and their values
    http::verb method = http::verb::post;
    std::string content_type = "application/json";
};

step ok(std::string path, std::string key, std::string body, captures capture = {}, expectations expect = {}) {
    step s;
    s.path = std::move(path);
    s.key = std::move(key);
    s.body = std::move(body);
    s.capture = std::move(capture);
    s.expect = std::move(expect);
    return s;
}

step fails(std::string path, std::string key, std::string body, std::string code, std::string detail = {}) {
    step s;
    s.path = std::move(path);
    s.key = std::move(key);
    s.body = std::move(body);
    s.code = std::move(code);
    s.status = contract_status(s.code);
    s.detail = std::move(detail);
    return s;
}

step transport(std::string path, std::string key, std::string body, unsigned status,
               http::verb method = http::verb::post, std::string content_type = "application/json") {
    step s = fails(std::move(path), std::move(key), std::move(body), "INVALID_REQUEST_FORMAT", "none");
    s.status = status;
    s.method = method;
    s.content_type = std::move(content_type);
    return s;
}

step invalid(std::string path, std::string key, std::string body, std::string detail) {
    return fails(std::move(path), std::move(key), std::move(body), "INVALID_REQUEST_FORMAT", std::move(detail));
}

// ---- the script ---------------------------------------------------------------------------

const std::string A = "{KEY}";
const std::string B = "{B_KEY}";
const std::string sam = R"({"type":"manual","email":"sam@client.example.com","firstname":"Sam","lastname":"Signer"})";
const std::string vic = R"({"type":"manual","email":"vic@client.example.com","firstname":"Vic","lastname":"Verified",)"
                        R"("phone":"+1 555 0100","verificationType":"email"})";

std::vector<step> script() {
    std::vector<step> s;
    auto add = [&](step x) { s.push_back(std::move(x)); };

    // ---- setup, through the control operations and the public ones --------------------------
    add(ok("/_control/reset", "", "{}"));
    add(ok("/_control/team/create", "",
           R"({"name":"Acme","ownerEmail":"alice@acme.example.com","ownerFirstname":"Alice","ownerLastname":"Martin"})",
           {{"KEY", "/apiKey"}, {"TEAM", "/teamUuid"}, {"WS", "/defaultWorkspaceUuid"}},
           {{"/ownerEmail", R"("alice@acme.example.com")"}}));
    add(ok("/_control/team/create", "", R"({"name":"Globex"})",
           {{"B_KEY", "/apiKey"}, {"B_TEAM", "/teamUuid"}, {"B_WS", "/defaultWorkspaceUuid"}}));
    add(ok("/_control/envelope/create", A,
           R"({"title":"Deal","documents":[{"title":"deal.pdf","pageCount":2}],"attachments":[{"title":"annex.pdf"}],)"
           R"("tags":["sales"]})",
           {{"ENV", "/envelopeUuid"}, {"DOC", "/documentUuids/0"}, {"ATT", "/attachmentUuids/0"}}));
    add(ok("/_control/envelope/create", A, R"({"title":"Empty","documents":[{"title":"e.pdf","pageCount":1}]})",
           {{"ENV0", "/envelopeUuid"}}));
    add(ok("/_control/envelope/create", A, R"({"title":"Approval","documents":[{"title":"a.pdf","pageCount":1}]})",
           {{"ENV1", "/envelopeUuid"}}));
    add(ok("/_control/envelope/create", B, R"({"title":"Theirs","documents":[{"title":"b.pdf","pageCount":1}]})",
           {{"B_ENV", "/envelopeUuid"}}));
    add(ok("/_control/template/create", A,
           R"({"title":"NDA","recipientLabels":["Client","Company"],"documents":[{"title":"nda.pdf","pageCount":1}]})",
           {{"TPL", "/templateUuid"}}));
    add(ok("/public/workspace/create", A, R"({"name":"Trials","colorHex":"#abc"})", {{"WS2", "/workspace/uuid"}},
           {{"/workspace/name", R"("Trials")"}, {"/workspace/sandbox", "false"}}));
    add(ok("/public/workspace/update", A, R"({"workspaceUuid":"{WS2}","sandbox":true})", {},
           {{"/workspace/sandbox", "true"}}));
    add(ok("/public/contact/create", A,
           R"({"contacts":[{"email":"bob@client.example.com","firstname":"Bob","lastname":"Durand"}]})", {},
           {{"/contacts/0/email", R"("bob@client.example.com")"}, {"/contacts/0/phone", "null"}}));
    add(ok("/public/webhook/create", A,
           R"({"url":"http://127.0.0.1:9/hook","contentType":"application/json","sslVerify":false,"active":false})",
           {{"HOOK", "/webhook/uuid"}}, {{"/webhook/active", "false"}, {"/webhook/events", "[]"}}));
    add(ok("/public/envelope/add-recipients", A, R"({"envelopeUuid":"{ENV}","recipients":[)" + sam + "," + vic + "]}",
           {}, {{"/recipients/0/role", R"("signer")"}, {"/recipients/1/colorVariant", R"("info")"}}));
    add(ok(
        "/public/envelope/add-recipients", A,
        R"({"envelopeUuid":"{ENV1}","recipients":[{"type":"manual","email":"ann@client.example.com","firstname":"Ann","lastname":"Approver"}]})"));
    add(ok(
        "/public/envelope/update-recipient", A,
        R"({"envelopeUuid":"{ENV1}","email":"ann@client.example.com","role":"signer","updates":{"role":"approver"}})",
        {}, {{"/recipient/role", R"("approver")"}, {"/recipient/order", "1"}}));
    add(ok(
        "/public/envelope/add-blocks", A,
        R"({"envelopeUuid":"{ENV}","documentUuid":"{DOC}","blocks":[{"page":"1","x":10,"y":20,"type":"text",)"
        R"("text":"Name","recipientEmail":"sam@client.example.com"},{"page":"02","x":1,"y":2,"type":"text","text":"Date"}]})"));
    add(ok("/public/envelope/get", A, R"({"envelopeUuid":"{ENV}"})", {{"BLOCK", "/documents/0/blocks/2/0/uuid"}},
           {{"/status", R"("draft")"}, {"/documents/0/blocks/1/0/color", R"("primary")"}, {"/tags", R"(["sales"])"}}));
    add(ok("/public/envelope/delete-blocks", A,
           R"({"envelopeUuid":"{ENV}","documentUuid":"{DOC}","blockUuids":["{BLOCK}"]})"));
    add(ok("/public/envelope/update", A, R"({"envelopeUuid":"{ENV}","update":{"title":"Deal 2026","tags":["q3"]}})"));
    add(ok("/public/envelope/list", A, R"({"tags":["q3"]})", {},
           {{"/envelopes/0/title", R"("Deal 2026")"}, {"/pagination/totalRecords", "1"}}));
    add(ok("/public/envelope/create-from-template", A,
           R"({"templateUuid":"{TPL}","recipients":[{"type":"manual","label":"Company","email":"co@acme.example.com",)"
           R"("firstname":"Co","lastname":"Pany"},{"type":"manual","label":"Client","email":"cl@client.example.com",)"
           R"("firstname":"Cli","lastname":"Ent"}]})",
           {{"ENV2", "/envelopeUuid"}}));
    add(ok("/public/envelope/delete-recipients", A,
           R"({"envelopeUuid":"{ENV2}","recipients":[{"email":"co@acme.example.com"}]})"));
    add(ok("/public/webhook/update", A, R"({"uuid":"{HOOK}","title":"Audit","events":["ENVELOPE_SENT"]})", {},
           {{"/webhook/title", R"("Audit")"}, {"/webhook/events", R"(["ENVELOPE_SENT"])"}}));
    add(ok("/public/webhook/list", A, "{}", {}, {{"/webhooks/0/uuid", R"("{HOOK}")"}}));
    add(ok("/public/workspace/list", A, "{}", {}, {{"/pagination/totalRecords", "2"}}));
    add(ok("/public/workspace/get", A, R"({"workspaceUuid":"{WS2}"})", {}, {{"/workspace/colorHex", R"("#abc")"}}));
    add(ok("/public/contact/update", A,
           R"({"contact":{"email":"bob@client.example.com","firstname":"Robert","lastname":"Durand","phone":null}})",
           {}, {{"/contact/firstname", R"("Robert")"}}));
    add(ok("/public/contact/list", A, "{}", {}, {{"/contacts/0/firstname", R"("Robert")"}}));
    add(ok("/public/template/list", A, "{}", {}, {{"/templates/0/uuid", R"("{TPL}")"}}));
    add(ok("/public/logs/list", A,
           R"({"category":"envelope","envelopeUuid":"{ENV}","eventTypes":["ENVELOPE_CREATED"]})", {},
           {{"/logs/0/eventType", R"("ENVELOPE_CREATED")"}, {"/pagination/totalRecords", "1"}}));
    add(ok("/public/utils/whoami", A, "{}", {}, {{"/teamUuid", R"("{TEAM}")"}, {"/teamName", R"("Acme")"}}));
    add(ok("/public/authentication/create-iframe-token", A,
           R"({"envelopeUuid":"{ENV}","signerEmail":"vic@client.example.com"})", {{"TOKEN", "/iframeToken"}}));
    // contract.md §7.1: the signing page's operations (no key); the envelope is still a draft.
    add(ok("/embeds/session/start", "", R"({"token":"{TOKEN}"})", {{"SESSION", "/session"}}));
    add(fails("/embeds/session/start", "", R"({"token":"{TOKEN}"})", "SIGNING_TOKEN_USED"));
    add(fails("/embeds/session/start", "", R"({"token":"sit.unknown"})", "SIGNING_TOKEN_UNKNOWN"));
    add(ok("/embeds/envelope/get", "", R"({"session":"{SESSION}"})", {},
           {{"/notAllowedReason", R"("The envelope has not been sent yet.")"}}));
    add(fails("/embeds/recipient/act", "", R"({"session":"{SESSION}","action":"open"})", "ACTION_NOT_ALLOWED"));
    add(fails("/embeds/envelope/get", "", R"({"session":"sss.unknown"})", "SIGNING_SESSION_INVALID"));
    add(invalid("/embeds/recipient/act", "", R"({"session":"{SESSION}","action":"sign"})", R"(["signatureName"])"));
    add(ok("/_control/clock/now", "", "{}"));
    add(ok("/_control/outbox/list", "", "{}", {}, {{"/emails", "[]"}}));
    add(ok("/_control/webhook/deliveries", "", "{}", {}, {{"/deliveries", "[]"}}));

    // ---- transport (contract.md §1) --------------------------------------------------------
    add(transport("/public/nope", A, "{}", 404));
    add(transport("/public/workspace/list", A, "{}", 405, http::verb::get));
    add(transport("/public/workspace/list", A, "{}", 415, http::verb::post, "text/plain"));
    add(transport("/public/workspace/list", A, R"({"x":"{BIG}"})", 413));
    add(invalid("/public/workspace/list", A, "[]", "[]"));
    add(invalid("/_control/clock/advance", "", "{", "[]"));
    add(fails("/public/envelope/get", "", R"({"envelopeUuid":"{ENV}"})", "AUTHENTICATION_ERROR", "none"));
    add(fails("/public/envelope/get", "{KEY}x", R"({"envelopeUuid":"{ENV}"})", "AUTHENTICATION_ERROR", "none"));
    add(fails("/_control/template/create", "",
              R"({"title":"T","recipientLabels":["A"],"documents":[{"title":"d","pageCount":1}]})",
              "AUTHENTICATION_ERROR", "none"));

    // ---- validation of each request: INVALID_REQUEST_FORMAT with the problem's path ---------
    add(invalid("/public/envelope/get", A, "{}", R"(["envelopeUuid"])"));
    add(invalid("/public/envelope/get", A, R"({"envelopeUuid":"short"})", R"(["envelopeUuid"])"));
    add(invalid("/public/envelope/list", A, R"({"status":["nope"]})", R"(["status","0"])"));
    add(invalid("/public/envelope/update", A, R"({"envelopeUuid":"{ENV}","update":{"expirationPeriod":91}})",
                R"(["update","expirationPeriod"])"));
    add(invalid("/public/envelope/send", A, R"({"envelopeUuid":"{ENV}","distributionMethod":"fax"})",
                R"(["distributionMethod"])"));
    add(invalid(
        "/public/envelope/add-recipients", A,
        R"({"envelopeUuid":"{ENV}","recipients":[{"type":"manual","email":"not-an-email","firstname":"N","lastname":"O"}]})",
        R"(["recipients","0","email"])"));
    add(invalid(
        "/public/envelope/add-recipients", A,
        R"({"envelopeUuid":"{ENV}","recipients":[{"type":"manual","email":"s@client.example.com","firstname":"S",)"
        R"("lastname":"M","verificationType":"sms"}]})",
        R"(["recipients","0","phone"])"));
    add(invalid(
        "/public/envelope/update-recipient", A,
        R"({"envelopeUuid":"{ENV}","email":"sam@client.example.com","role":"signer","updates":{"verificationType":"sms"}})",
        R"(["updates","phone"])"));
    add(invalid("/public/envelope/delete-recipients", A, R"({"envelopeUuid":"{ENV}","recipients":[]})",
                R"(["recipients"])"));
    add(invalid(
        "/public/envelope/add-blocks", A,
        R"({"envelopeUuid":"{ENV}","documentUuid":"{DOC}","blocks":[{"page":"one","x":1,"y":1,"type":"text","text":"t"}]})",
        R"(["blocks","0","page"])"));
    add(invalid(
        "/public/envelope/add-blocks", A,
        R"({"envelopeUuid":"{ENV}","documentUuid":"{DOC}","blocks":[{"page":"3","x":1,"y":1,"type":"text","text":"t"}]})",
        R"(["blocks","0","page"])"));
    add(invalid("/public/envelope/delete-blocks", A,
                R"({"envelopeUuid":"{ENV}","documentUuid":"{DOC}","blockUuids":["x"]})", R"(["blockUuids","0"])"));
    add(invalid("/public/envelope/delete-attachment", A, R"({"envelopeUuid":"{ENV}"})", R"(["documentUuid"])"));
    add(invalid(
        "/public/envelope/create-from-template", A,
        R"({"templateUuid":"{TPL}","recipients":[{"type":"manual","label":"Client","email":"x@client.example.com",)"
        R"("firstname":"X","lastname":"Y"},{"type":"manual","label":"Company","email":"x@client.example.com",)"
        R"("firstname":"X","lastname":"Y"}]})",
        R"(["recipients","1","email"])"));
    add(invalid("/public/workspace/create", A, R"({"name":""})", R"(["name"])"));
    add(invalid("/public/workspace/create", A, R"({"name":"W","colorHex":"#12"})", R"(["colorHex"])"));
    add(invalid("/public/workspace/get", A, "{}", R"(["workspaceUuid"])"));
    add(invalid("/public/workspace/update", A, R"({"workspaceUuid":"{WS2}","sandbox":"yes"})", R"(["sandbox"])"));
    add(invalid("/public/workspace/list", A, R"({"limit":51})", R"(["limit"])"));
    add(invalid("/public/webhook/create", A,
                R"({"url":"not a uri","contentType":"application/json","sslVerify":true,"active":true})",
                R"(["url"])"));
    add(invalid(
        "/public/webhook/create", A,
        R"({"url":"https://hooks.example.com/","contentType":"application/json","sslVerify":true,"active":true,"events":["NOPE"]})",
        R"(["events","0"])"));
    add(invalid("/public/webhook/update", A, R"({"uuid":"{HOOK}","title":")" + std::string(257, 't') + R"("})",
                R"(["title"])"));
    add(invalid("/public/webhook/list", A, R"({"page":0})", R"(["page"])"));
    add(invalid("/public/webhook/delete", A, "{}", R"(["uuid"])"));
    add(invalid("/public/contact/create", A, R"({"contacts":[]})", R"(["contacts"])"));
    add(invalid("/public/contact/update", A,
                R"({"contact":{"email":"bob@client.example.com","firstname":"B","lastname":"D"}})",
                R"(["contact","phone"])"));
    add(invalid("/public/contact/list", A, R"({"page":1.5})", R"(["page"])"));
    add(invalid("/public/contact/delete", A, R"({"emails":["bob"]})", R"(["emails","0"])"));
    add(invalid("/public/template/list", A, R"({"page":"1"})", R"(["page"])"));
    add(invalid("/public/logs/list", A, "{}", R"(["category"])"));
    add(invalid("/public/logs/list", A, R"({"category":"envelope","eventTypes":["NOPE"]})", R"(["eventTypes","0"])"));
    add(invalid("/public/authentication/create-iframe-token", A, R"({"envelopeUuid":"{ENV}","signerEmail":"vic"})",
                R"(["signerEmail"])"));
    add(invalid("/public/utils/whoami", A, "[1]", "[]"));
    add(invalid("/_control/team/create", "", R"({"apiCredits":"many"})", R"(["apiCredits"])"));
    add(invalid("/_control/team/update", "", R"({"teamUuid":"00000000-0000-4000-8000-000000000000"})",
                R"(["teamUuid"])"));
    add(invalid("/_control/envelope/create", A, R"({"title":"T","documents":[]})", R"(["documents"])"));
    add(invalid("/_control/template/create", A,
                R"({"title":"T","recipientLabels":["A","A"],"documents":[{"title":"d","pageCount":1}]})",
                R"(["recipientLabels","1"])"));
    add(invalid("/_control/recipient/act", "",
                R"({"envelopeUuid":"{ENV}","email":"sam@client.example.com","action":"dance"})", R"(["action"])"));
    add(invalid("/_control/envelope/cancel", "", "{}", R"(["envelopeUuid"])"));
    add(invalid("/_control/clock/advance", "", R"({"milliseconds":-1})", R"(["milliseconds"])"));
    add(invalid("/_control/reset", "", "null", "[]"));
    add(invalid("/_control/clock/now", "", "[]", "[]"));
    add(invalid("/_control/outbox/list", "", "\"\"", "[]"));
    add(invalid("/_control/webhook/deliveries", "", R"({"webhookUuid":"x"})", R"(["webhookUuid"])"));

    // ---- workspaces, envelopes, documents ----------------------------------------------------
    add(fails("/public/workspace/get", A, R"({"workspaceUuid":"{B_WS}"})", "WORKSPACE_NOT_FOUND"));
    add(fails("/public/workspace/update", A, R"({"workspaceUuid":"{B_WS}","sandbox":true})", "WORKSPACE_NOT_FOUND"));
    add(fails("/public/envelope/get", A, R"({"workspaceUuid":"{B_WS}","envelopeUuid":"{ENV}"})",
              "WORKSPACE_NOT_FOUND"));
    add(fails("/public/envelope/list", A, R"({"workspaceUuid":"00000000-0000-4000-8000-000000000000"})",
              "WORKSPACE_NOT_FOUND"));
    add(fails("/public/contact/list", A, R"({"workspaceUuid":"{B_WS}"})", "WORKSPACE_NOT_FOUND"));
    add(fails("/public/template/list", A, R"({"workspaceUuid":"{B_WS}"})", "WORKSPACE_NOT_FOUND"));
    add(fails("/public/logs/list", A, R"({"category":"envelope","workspaceUuid":"{B_WS}"})", "WORKSPACE_NOT_FOUND"));
    add(fails("/_control/envelope/create", A,
              R"({"workspaceUuid":"{B_WS}","title":"T","documents":[{"title":"d","pageCount":1}]})",
              "WORKSPACE_NOT_FOUND"));
    add(fails("/public/envelope/get", A, R"({"envelopeUuid":"{B_ENV}"})", "ENVELOPE_NOT_FOUND"));
    add(fails("/public/envelope/get", A, R"({"workspaceUuid":"{WS2}","envelopeUuid":"{ENV}"})", "ENVELOPE_NOT_FOUND"));
    add(fails("/public/envelope/update", B, R"({"envelopeUuid":"{ENV}","update":{"title":"mine"}})",
              "ENVELOPE_NOT_FOUND"));
    add(fails("/public/logs/list", A, R"({"category":"envelope","envelopeUuid":"{B_ENV}"})", "ENVELOPE_NOT_FOUND"));
    add(fails(
        "/_control/recipient/act", "",
        R"({"envelopeUuid":"00000000-0000-4000-8000-000000000000","email":"sam@client.example.com","action":"open"})",
        "ENVELOPE_NOT_FOUND"));
    add(fails("/_control/envelope/cancel", "", R"({"envelopeUuid":"00000000-0000-4000-8000-000000000000"})",
              "ENVELOPE_NOT_FOUND"));
    add(fails("/public/envelope/update", A,
              R"({"envelopeUuid":"{ENV}","update":{"title":"changed","documents":[{"uuid":"{ATT}","title":"x"}]}})",
              "DOCUMENT_NOT_FOUND"));
    add(fails(
        "/public/envelope/add-blocks", A,
        R"({"envelopeUuid":"{ENV}","documentUuid":"{ATT}","blocks":[{"page":"1","x":1,"y":1,"type":"text","text":"t"}]})",
        "DOCUMENT_NOT_FOUND"));
    add(fails(
        "/public/envelope/delete-blocks", A,
        R"({"envelopeUuid":"{ENV}","documentUuid":"00000000-0000-4000-8000-000000000000","blockUuids":["{BLOCK}"]})",
        "DOCUMENT_NOT_FOUND"));
    add(fails("/public/envelope/delete-attachment", A, R"({"envelopeUuid":"{ENV}","documentUuid":"{DOC}"})",
              "DOCUMENT_NOT_ATTACHMENT"));

    // ---- recipients, blocks, templates, contacts ---------------------------------------------
    add(fails(
        "/public/envelope/add-recipients", A,
        R"({"envelopeUuid":"{ENV}","recipients":[{"type":"manual","email":"new@client.example.com","firstname":"N",)"
        R"("lastname":"W"},)" +
            sam + "]}",
        "DUPLICATE_RECIPIENT"));
    add(fails(
        "/public/envelope/add-recipients", A,
        R"({"envelopeUuid":"{ENV}","recipients":[{"type":"manual","email":"twice@client.example.com","firstname":"A",)"
        R"("lastname":"B"},{"type":"manual","email":"twice@client.example.com","firstname":"C","lastname":"D"}]})",
        "DUPLICATE_RECIPIENT"));
    add(fails(
        "/public/envelope/add-recipients", A,
        R"({"envelopeUuid":"{ENV}","recipients":[{"type":"manual","email":"ok@client.example.com","firstname":"O",)"
        R"("lastname":"K"},{"type":"manual","email":"nobody@mail.invalid","firstname":"N","lastname":"O"}]})",
        "INVALID_EMAIL"));
    add(fails(
        "/public/envelope/update-recipient", A,
        R"({"envelopeUuid":"{ENV}","email":"sam@client.example.com","role":"approver","updates":{"firstname":"X"}})",
        "RECIPIENT_NOT_FOUND"));
    add(fails(
        "/public/envelope/delete-recipients", A,
        R"({"envelopeUuid":"{ENV}","recipients":[{"email":"sam@client.example.com"},{"email":"nobody@client.example.com"}]})",
        "RECIPIENT_NOT_FOUND"));
    add(fails("/_control/recipient/act", "",
              R"({"envelopeUuid":"{ENV}","email":"nobody@client.example.com","action":"open"})",
              "RECIPIENT_NOT_FOUND"));
    add(fails(
        "/public/envelope/add-blocks", A,
        R"({"envelopeUuid":"{ENV}","documentUuid":"{DOC}","blocks":[{"page":"1","x":1,"y":1,"type":"text","text":"t"},)"
        R"({"page":"1","x":1,"y":1,"type":"text","text":"u","recipientEmail":"nobody@client.example.com"}]})",
        "INVALID_RECIPIENT_EMAIL"));
    add(fails(
        "/public/envelope/create-from-template", A,
        R"({"templateUuid":"00000000-0000-4000-8000-000000000000","recipients":[{"type":"manual","label":"Client",)"
        R"("email":"x@client.example.com","firstname":"X","lastname":"Y"}]})",
        "TEMPLATE_NOT_FOUND"));
    add(fails("/public/envelope/create-from-template", A,
              R"({"workspaceUuid":"{WS2}","templateUuid":"{TPL}","recipients":[{"type":"manual","label":"Client",)"
              R"("email":"x@client.example.com","firstname":"X","lastname":"Y"}]})",
              "TEMPLATE_NOT_FOUND"));
    add(fails(
        "/public/envelope/create-from-template", A,
        R"({"templateUuid":"{TPL}","recipients":[{"type":"manual","label":"Client","email":"x@client.example.com",)"
        R"("firstname":"X","lastname":"Y"}]})",
        "INVALID_RECIPIENT_LABELS"));
    add(fails(
        "/public/envelope/create-from-template", A,
        R"({"templateUuid":"{TPL}","recipients":[{"type":"manual","label":"Client","email":"x@client.example.com",)"
        R"("firstname":"X","lastname":"Y"},{"type":"manual","label":"Vendor","email":"y@client.example.com",)"
        R"("firstname":"X","lastname":"Y"}]})",
        "INVALID_RECIPIENT_LABELS"));
    add(fails(
        "/public/envelope/create-from-template", A,
        R"({"templateUuid":"{TPL}","recipients":[{"type":"manual","label":"Client","email":"x@client.example.com",)"
        R"("firstname":"X","lastname":"Y"},{"type":"manual","label":"Company","email":"y@Corp.INVALID",)"
        R"("firstname":"X","lastname":"Y"}]})",
        "INVALID_EMAIL"));
    add(fails("/public/contact/create", A,
              R"({"contacts":[{"email":"new@client.example.com","firstname":"N","lastname":"W"},)"
              R"({"email":"bob@client.example.com","firstname":"B","lastname":"D"}]})",
              "CONTACT_EMAIL_ALREADY_EXISTS"));
    add(fails("/public/contact/create", A,
              R"({"contacts":[{"email":"dup@client.example.com","firstname":"N","lastname":"W"},)"
              R"({"email":"dup@client.example.com","firstname":"B","lastname":"D"}]})",
              "CONTACT_EMAIL_ALREADY_EXISTS"));
    add(fails("/public/contact/create", A,
              R"({"contacts":[{"email":"fine@client.example.com","firstname":"N","lastname":"W"},)"
              R"({"email":"gone@mail.invalid","firstname":"B","lastname":"D"}]})",
              "INVALID_EMAIL"));
    add(fails("/public/contact/update", A,
              R"({"contact":{"email":"nobody@client.example.com","firstname":"N","lastname":"O","phone":null}})",
              "CONTACT_NOT_FOUND"));
    add(fails(
        "/public/contact/update", A,
        R"({"workspaceUuid":"{WS2}","contact":{"email":"bob@client.example.com","firstname":"N","lastname":"O","phone":null}})",
        "CONTACT_NOT_FOUND"));
    add(fails("/public/contact/delete", A, R"({"emails":["bob@client.example.com","nobody@client.example.com"]})",
              "CONTACT_NOT_FOUND"));
    add(fails("/public/contact/delete", A, R"({"workspaceUuid":"{B_WS}","emails":["bob@client.example.com"]})",
              "WORKSPACE_NOT_FOUND"));

    // ---- webhooks ----------------------------------------------------------------------------
    add(fails("/public/webhook/update", A, R"({"uuid":"00000000-0000-4000-8000-000000000000","title":"x"})",
              "WEBHOOK_NOT_FOUND"));
    add(fails("/public/webhook/update", B, R"({"uuid":"{HOOK}","title":"x"})", "WEBHOOK_NOT_FOUND"));
    add(fails("/public/webhook/delete", B, R"({"uuid":"{HOOK}"})", "WEBHOOK_NOT_FOUND"));
    add(fails("/public/webhook/update", A, R"({"uuid":"{HOOK}","title":"x","workspaceUuids":["{WS}","{B_WS}"]})",
              "WORKSPACE_NOT_FOUND"));
    add(fails("/public/webhook/create", A,
              R"({"url":"https://hooks.example.com/","contentType":"application/json","sslVerify":true,"active":false,)"
              R"("workspaceUuids":["{B_WS}"]})",
              "WORKSPACE_NOT_FOUND"));
    add(fails("/public/webhook/create", A,
              R"({"url":"ftp://hooks.example.com/","contentType":"application/json","sslVerify":true,"active":false})",
              "WEBHOOK_URL_REFUSED"));
    // The metadata address in every spelling a resolver or the sender would turn into it.
    for (std::string host :
         {"169.254.169.254", "2852039166", "0251.0376.0251.0376", "0xa9fea9fe", "0xa9.0xfe.0xa9.0xfe", "169.254.43518",
          "[::ffff:169.254.169.254]", "[::ffff:a9fe:a9fe]", "[::169.254.169.254]", "[64:ff9b::169.254.169.254]",
          "[2002:a9fe:a9fe::1]", "%31%36%39.254.169.254"})
        add(fails("/public/webhook/create", A,
                  R"({"url":"http://)" + host +
                      R"(/latest","contentType":"application/json","sslVerify":true,"active":false})",
                  "WEBHOOK_URL_REFUSED"));
    add(fails("/public/webhook/update", A, R"({"uuid":"{HOOK}","title":"x","url":"http://user:pw@hooks.example.com/"})",
              "WEBHOOK_URL_REFUSED"));
    for (int i = 0; i < 20; ++i)
        add(ok("/public/webhook/create", B,
               R"({"url":"https://hooks.example.com/)" + std::to_string(i) +
                   R"(","contentType":"application/x-www-form-urlencoded","sslVerify":true,"active":false})"));
    add(ok("/public/webhook/list", B, R"({"limit":5,"page":4})", {},
           {{"/pagination/totalRecords", "20"}, {"/pagination/nextPage", "null"}, {"/pagination/prevPage", "3"}}));
    add(fails(
        "/public/webhook/create", B,
        R"({"url":"https://hooks.example.com/21","contentType":"application/json","sslVerify":true,"active":false})",
        "WEBHOOK_LIMIT_REACHED"));

    // ---- plan features ------------------------------------------------------------------------
    add(ok("/_control/team/update", "", R"({"teamUuid":"{TEAM}","features":["timestamp"]})"));
    add(fails(
        "/public/webhook/create", A,
        R"({"url":"https://hooks.example.com/","contentType":"application/json","sslVerify":true,"active":false})",
        "FEATURE_NOT_IN_CURRENT_PLAN"));
    add(fails("/public/webhook/update", A, R"({"uuid":"{HOOK}","active":true})", "FEATURE_NOT_IN_CURRENT_PLAN"));
    add(fails(
        "/public/envelope/add-recipients", A,
        R"({"envelopeUuid":"{ENV}","recipients":[{"type":"manual","email":"s@client.example.com","firstname":"S",)"
        R"("lastname":"M","phone":"+1 555 0199","verificationType":"sms"}]})",
        "FEATURE_NOT_IN_CURRENT_PLAN"));
    add(fails(
        "/public/envelope/update-recipient", A,
        R"({"envelopeUuid":"{ENV}","email":"vic@client.example.com","role":"signer","updates":{"verificationType":"sms"}})",
        "FEATURE_NOT_IN_CURRENT_PLAN"));
    add(ok("/_control/team/update", "", R"({"teamUuid":"{TEAM}","features":["sms","timestamp","webhooks"]})"));

    // ---- logs, embedded signing ---------------------------------------------------------------
    add(fails("/public/logs/list", A, R"({"category":"dataroom"})", "LOG_CATEGORY_NOT_IMPLEMENTED"));
    add(fails("/public/authentication/create-iframe-token", A,
              R"({"envelopeUuid":"{ENV}","signerEmail":"nobody@client.example.com"})", "SIGNER_NOT_IN_ENVELOPE"));
    add(fails("/public/authentication/create-iframe-token", A,
              R"({"envelopeUuid":"{ENV1}","signerEmail":"ann@client.example.com"})", "SIGNER_NOT_IN_ENVELOPE"));
    add(fails("/public/authentication/create-iframe-token", A,
              R"({"envelopeUuid":"{ENV}","signerEmail":"sam@client.example.com"})", "RECIPIENT_VERIFICATION_DISABLED"));
    add(fails("/public/authentication/create-iframe-token", A,
              R"({"envelopeUuid":"{B_ENV}","signerEmail":"sam@client.example.com"})", "ENVELOPE_NOT_FOUND"));

    // ---- actions on a draft --------------------------------------------------------------------
    add(fails("/_control/recipient/act", "",
              R"({"envelopeUuid":"{ENV}","email":"sam@client.example.com","action":"open"})", "ACTION_NOT_ALLOWED"));
    add(fails("/_control/recipient/act", "",
              R"({"envelopeUuid":"{ENV}","email":"sam@client.example.com","action":"sign"})", "ACTION_NOT_ALLOWED"));

    // ---- delete-attachment, then send and its preconditions, in the order of contract.md §3 ----
    add(ok("/public/envelope/delete-attachment", A, R"({"envelopeUuid":"{ENV}","documentUuid":"{ATT}"})"));
    add(fails("/public/envelope/delete-attachment", A, R"({"envelopeUuid":"{ENV}","documentUuid":"{ATT}"})",
              "DOCUMENT_NOT_FOUND"));
    add(fails("/public/envelope/send", A, R"({"envelopeUuid":"{ENV0}"})", "NO_RECIPIENTS"));
    add(fails("/public/envelope/send", A, R"({"envelopeUuid":"{ENV1}"})", "NO_SIGNERS"));
    add(ok("/_control/team/update", "", R"({"teamUuid":"{TEAM}","subscription":false})"));
    add(fails("/public/envelope/send", A, R"({"envelopeUuid":"{ENV}"})", "SUBSCRIPTION_NOT_FOUND"));
    add(ok("/_control/team/update", "", R"({"teamUuid":"{TEAM}","subscription":true,"apiCredits":0})"));
    add(fails("/public/envelope/send", A, R"({"envelopeUuid":"{ENV}"})", "API_CREDITS_LIMIT_EXCEEDED"));
    add(ok("/_control/team/update", "", R"({"teamUuid":"{TEAM}","apiCredits":5,"emailQuota":1})"));
    add(fails("/public/envelope/send", A, R"({"envelopeUuid":"{ENV}"})", "SES_LIMIT_EXCEEDED"));
    add(fails("/public/envelope/send", A, R"({"envelopeUuid":"{ENV}","distributionMethod":"email"})",
              "SES_LIMIT_EXCEEDED"));
    add(ok("/_control/team/update", "", R"({"teamUuid":"{TEAM}","emailQuota":2})"));
    add(ok("/public/envelope/send", A, R"({"envelopeUuid":"{ENV}"})"));
    add(ok("/public/envelope/get", A, R"({"envelopeUuid":"{ENV}"})", {},
           {{"/status", R"("signing")"}, {"/recipients/0/invitation/medium", R"("email")"}}));
    add(ok("/_control/outbox/list", "", "{}", {},
           {{"/emails/0/kind", R"("invitation")"}, {"/emails/1/to", R"("vic@client.example.com")"}}));
    // The signer's page acts once the envelope is sent (contract.md §7.1).
    add(ok("/public/authentication/create-iframe-token", A,
           R"({"envelopeUuid":"{ENV}","signerEmail":"vic@client.example.com"})", {{"SIGNER_TOKEN", "/iframeToken"}}));
    add(ok("/embeds/session/start", "", R"({"token":"{SIGNER_TOKEN}"})", {{"SIGNER_SESSION", "/session"}}));
    add(ok("/embeds/recipient/act", "", R"({"session":"{SIGNER_SESSION}","action":"open"})", {},
           {{"/envelopeStatus", R"("signing")"}, {"/completed", "false"}}));

    // ---- every draft-only operation on an envelope that is no longer a draft -------------------
    add(fails("/public/envelope/send", A, R"({"envelopeUuid":"{ENV}"})", "ENVELOPE_NOT_IN_DRAFT"));
    add(fails("/public/envelope/update", A, R"({"envelopeUuid":"{ENV}","update":{"title":"late"}})",
              "ENVELOPE_NOT_IN_DRAFT"));
    add(fails(
        "/public/envelope/add-recipients", A,
        R"({"envelopeUuid":"{ENV}","recipients":[{"type":"manual","email":"late@client.example.com","firstname":"L","lastname":"T"}]})",
        "ENVELOPE_NOT_IN_DRAFT"));
    add(fails(
        "/public/envelope/update-recipient", A,
        R"({"envelopeUuid":"{ENV}","email":"sam@client.example.com","role":"signer","updates":{"firstname":"Samuel"}})",
        "ENVELOPE_NOT_IN_DRAFT"));
    add(fails("/public/envelope/delete-recipients", A,
              R"({"envelopeUuid":"{ENV}","recipients":[{"email":"sam@client.example.com"}]})",
              "ENVELOPE_NOT_IN_DRAFT"));
    add(fails(
        "/public/envelope/add-blocks", A,
        R"({"envelopeUuid":"{ENV}","documentUuid":"{DOC}","blocks":[{"page":"1","x":1,"y":1,"type":"text","text":"t"}]})",
        "ENVELOPE_NOT_IN_DRAFT"));
    add(fails("/public/envelope/delete-blocks", A,
              R"({"envelopeUuid":"{ENV}","documentUuid":"{DOC}","blockUuids":["{BLOCK}"]})", "ENVELOPE_NOT_IN_DRAFT"));
    add(ok("/_control/envelope/create", A,
           R"({"title":"With annex","documents":[{"title":"w.pdf","pageCount":1}],"attachments":[{"title":"x.pdf"}]})",
           {{"ENV3", "/envelopeUuid"}, {"ATT3", "/attachmentUuids/0"}}));
    add(ok("/public/envelope/add-recipients", A, R"({"envelopeUuid":"{ENV3}","recipients":[)" + sam + "]}"));
    add(ok("/public/envelope/send", A, R"({"envelopeUuid":"{ENV3}","distributionMethod":"none"})"));
    add(fails("/public/envelope/delete-attachment", A, R"({"envelopeUuid":"{ENV3}","documentUuid":"{ATT3}"})",
              "ENVELOPE_NOT_IN_DRAFT"));

    // ---- the lifecycle through /_control/recipient/act, cancel, clock ---------------------------
    add(ok("/_control/recipient/act", "",
           R"({"envelopeUuid":"{ENV}","email":"vic@client.example.com","action":"open"})", {},
           {{"/envelopeStatus", R"("signing")"}, {"/recipientStatus", R"("pending")"}}));
    add(ok("/_control/recipient/act", "",
           R"({"envelopeUuid":"{ENV}","email":"sam@client.example.com","action":"sign"})", {},
           {{"/envelopeStatus", R"("signing")"}, {"/recipientStatus", R"("signed")"}}));
    add(fails("/_control/recipient/act", "",
              R"({"envelopeUuid":"{ENV}","email":"sam@client.example.com","action":"sign"})", "ACTION_NOT_ALLOWED"));
    add(ok("/_control/recipient/act", "",
           R"({"envelopeUuid":"{ENV}","email":"vic@client.example.com","action":"sign"})", {},
           {{"/envelopeStatus", R"("complete")"}, {"/recipientStatus", R"("signed")"}}));
    add(fails("/_control/envelope/cancel", "", R"({"envelopeUuid":"{ENV}"})", "ACTION_NOT_ALLOWED"));
    add(ok("/_control/envelope/cancel", "", R"({"envelopeUuid":"{ENV1}","reason":"not needed"})"));
    add(ok("/public/envelope/get", A, R"({"envelopeUuid":"{ENV1}"})", {},
           {{"/status", R"("canceled")"}, {"/recipients/0/status", R"("canceled")"}}));
    add(ok("/_control/clock/advance", "", R"({"milliseconds":2592000000})"));
    add(ok("/public/envelope/get", A, R"({"envelopeUuid":"{ENV3}"})", {}, {{"/status", R"("expired")"}}));

    // ---- the deletes that succeed ---------------------------------------------------------------
    add(ok("/public/contact/delete", A, R"({"emails":["bob@client.example.com"]})"));
    add(ok("/public/contact/list", A, "{}", {}, {{"/contacts", "[]"}}));
    add(ok("/public/webhook/delete", A, R"({"uuid":"{HOOK}"})"));
    add(fails("/public/webhook/delete", A, R"({"uuid":"{HOOK}"})", "WEBHOOK_NOT_FOUND"));

    // ---- control with a team's key: that team only (contract.md §6.2, §6.3) --------------------
    add(invalid("/_control/team/update", B, R"({"teamUuid":"{TEAM}","apiCredits":0})", R"(["teamUuid"])"));
    add(fails("/_control/envelope/cancel", B, R"({"envelopeUuid":"{ENV2}"})", "ENVELOPE_NOT_FOUND"));
    add(fails("/_control/team/create", B, "{}", "AUTHENTICATION_ERROR"));
    add(fails("/_control/reset", B, "{}", "AUTHENTICATION_ERROR"));
    const std::string C = "{C_KEY}";
    add(ok("/_control/team/create", "", "{}", {{"C_KEY", "/apiKey"}, {"C_TEAM", "/teamUuid"}}));
    add(ok("/_control/envelope/create", C, R"({"title":"c","documents":[{"title":"c.pdf","pageCount":1}]})",
           {{"C_ENV", "/envelopeUuid"}}));
    add(ok("/_control/team/reset", C, "{}"));
    add(fails("/public/envelope/get", C, R"({"envelopeUuid":"{C_ENV}"})", "ENVELOPE_NOT_FOUND"));
    add(ok("/public/utils/whoami", C, "{}", {}, {{"/teamUuid", R"("{C_TEAM}")"}}));

    // ---- a team's journal, fault rules and snapshots (contract.md §6.4-§6.6) --------------------
    add(ok("/_control/faults/add", C,
           R"({"operation":"/public/workspace/list","action":"error","error":"SES_LIMIT_EXCEEDED"})",
           {{"C_FAULT", "/faultUuid"}}));
    add(ok("/_control/faults/list", C, "{}", {},
           {{"/faults/0/faultUuid", R"("{C_FAULT}")"}, {"/faults/0/times", "1"}}));
    add(fails("/public/workspace/list", C, "{}", "SES_LIMIT_EXCEEDED"));
    add(ok("/public/workspace/list", C, "{}"));
    add(ok("/_control/faults/add", C, R"({"operation":"/public/utils/whoami","action":"drop","times":5})"));
    add(ok("/_control/faults/clear", C, "{}", {}, {}));
    add(ok("/_control/faults/list", C, "{}", {}, {{"/faults", "[]"}}));
    add(fails("/_control/faults/add", C, R"({"webhookUuid":"{ENV}","action":"fail"})", "WEBHOOK_NOT_FOUND"));
    add(invalid("/_control/faults/add", C, R"({"operation":"/_control/reset","action":"drop"})", R"(["operation"])"));
    add(ok("/_control/journal/list", C, R"({"path":"/public/workspace/list","limit":1})", {},
           {{"/entries/0/status", "400"}, {"/entries/0/response/error/code", R"("SES_LIMIT_EXCEEDED")"}}));
    add(ok("/_control/journal/clear", C, "{}"));
    add(ok("/_control/journal/list", C, "{}", {}, {{"/entries", "[]"}}));
    add(fails("/_control/journal/list", "", "{}", "AUTHENTICATION_ERROR"));
    add(ok("/_control/team/snapshot", C, "{}", {{"C_SNAPSHOT", "/team"}}));
    add(ok("/_control/envelope/create", C, R"({"title":"d","documents":[{"title":"d.pdf","pageCount":1}]})",
           {{"C_ENV2", "/envelopeUuid"}}));
    add(ok("/_control/team/restore", C, R"({"team":{C_SNAPSHOT}})"));
    add(fails("/public/envelope/get", C, R"({"envelopeUuid":"{C_ENV2}"})", "ENVELOPE_NOT_FOUND"));
    add(invalid("/_control/team/restore", C, R"({"team":{"apiKey":"esk_x"}})", R"(["team","state"])"));
    return s;
}

// ---- running it ----------------------------------------------------------------------------

class script_runner {
public:
    explicit script_runner(test_server& srv) : c_(srv.connect()) {
        vars_["BIG"] = std::string(1024 * 1024 + 10, 'a');  // over the default --max-body
    }

    // Replaces every {NAME} (capital letters, digits, _) by its captured value.
    std::string expand(const std::string& text, bool* missing = nullptr) const {
        std::string out;
        for (std::size_t i = 0; i < text.size(); ++i) {
            if (text[i] == '{') {
                const auto end = text.find('}', i);
                if (end != std::string::npos && end > i + 1 &&
                    text.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_", i + 1) == end) {
                    const auto it = vars_.find(text.substr(i + 1, end - i - 1));
                    if (it != vars_.end())
                        out += it->second;
                    else if (missing)
                        *missing = true;
                    else
                        FAIL("no value captured for " << text.substr(i, end - i + 1));
                    i = end;
                    continue;
                }
            }
            out += text[i];
        }
        return out;
    }

    void run(const step& s) {
        const std::string body = expand(s.body);
        INFO("step: " << s.path << " " << body.substr(0, 300));
        const bool failing = s.status != 200;
        const auto before = failing ? state() : std::string{};
        const auto r = send(s.method, s.path, s.key, body, s.content_type);
        if (!failing) {
            INFO("answer: " << r.status << " " << r.body);
            REQUIRE(r.status == 200);
            const auto v = r.json();
            REQUIRE(v.is_object());
            for (const auto& [pointer, expected] : s.expect) {
                INFO("member " << pointer);
                CHECK(boost::json::serialize(at(v, pointer)) ==
                      boost::json::serialize(boost::json::parse(expand(expected))));
            }
            for (const auto& [name, pointer] : s.capture) {
                const auto value = at(v, pointer);
                INFO("capture " << name << " at " << pointer << " of " << r.body);
                REQUIRE(!value.is_null());
                // A string as it is; anything else (an object) as its JSON text.
                vars_[name] = value.is_string() ? std::string(value.as_string()) : boost::json::serialize(value);
            }
            return;
        }
        const details d = s.detail == "none" ? details::none : s.detail == "[]" ? details::root_only : details::by_code;
        check_error(r, s.status, s.code, s.path, d);
        if (!s.detail.empty() && s.detail != "none") CHECK(has_detail(r, s.detail));
        CHECK(state() == before);  // a failing request changes nothing
    }

private:
    http_response send(http::verb method, const std::string& path, const std::string& key, const std::string& body,
                       const std::string& content_type) {
        header_list headers;
        if (!key.empty()) headers = bearer(expand(key));
        if (method == http::verb::post) headers.emplace_back("Content-Type", content_type);
        return c_.request(method, path, body, headers);
    }

    // Everything the script's teams can read, and the control views, as one text. Every read
    // must succeed (a read that failed would put an error code in the wire log).
    std::string state() {
        static const std::vector<std::array<std::string, 3>> reads = {
            {A, "/public/workspace/list", "{}"},
            {A, "/public/webhook/list", "{}"},
            {A, "/public/contact/list", "{}"},
            {A, "/public/contact/list", R"({"workspaceUuid":"{WS2}"})"},
            {A, "/public/template/list", "{}"},
            {A, "/public/envelope/list", R"({"status":[]})"},
            {A, "/public/envelope/list", R"({"workspaceUuid":"{WS2}"})"},
            {A, "/public/logs/list", R"({"category":"team"})"},
            {A, "/public/logs/list", R"({"category":"envelope"})"},
            {A, "/public/envelope/get", R"({"envelopeUuid":"{ENV}"})"},
            {A, "/public/envelope/get", R"({"envelopeUuid":"{ENV0}"})"},
            {A, "/public/envelope/get", R"({"envelopeUuid":"{ENV1}"})"},
            {A, "/public/envelope/get", R"({"envelopeUuid":"{ENV2}"})"},
            {A, "/public/envelope/get", R"({"envelopeUuid":"{ENV3}"})"},
            {B, "/public/workspace/list", "{}"},
            {B, "/public/webhook/list", "{}"},
            {B, "/public/envelope/get", R"({"envelopeUuid":"{B_ENV}"})"},
            {B, "/public/logs/list", R"({"category":"team"})"},
            {B, "/public/logs/list", R"({"category":"envelope"})"},
            {"", "/_control/outbox/list", "{}"},
            {"", "/_control/webhook/deliveries", "{}"},
        };
        std::string out;
        for (const auto& [key, path, body] : reads) {
            bool missing = false;
            const auto b = expand(body, &missing);
            const auto k = expand(key, &missing);
            if (missing) continue;  // not made yet
            const auto r = c_.post(path, b, k.empty() ? header_list{} : bearer(k));
            INFO("read " << path << " " << b << " -> " << r.status << " " << r.body);
            CHECK(r.status == 200);
            out += path + " " + b + " " + r.body + "\n";
        }
        return out;
    }

    http_connection c_;
    std::map<std::string, std::string> vars_;
};

// What one set has that the other has not, for the failure message.
std::string difference(const std::set<std::string>& got, const std::set<std::string>& want) {
    std::string out;
    for (const auto& x : want)
        if (!got.contains(x)) out += " missing " + x;
    for (const auto& x : got)
        if (!want.contains(x)) out += " unexpected " + x;
    return out;
}

// Codes of esign's error table that the reference server cannot produce over HTTP, and why.
const std::map<std::string_view, std::string_view> not_producible = {
    // contract.md §1: browser sessions and encrypted tunnels, which the reference server does not
    // have; the codes exist in the model and the tables, and the server never emits them.
    {"DBSC_COOKIE_INVALID", "no browser sessions"},
    {"TUNNEL_ERROR", "no encrypted tunnels"},
    {"TUNNEL_SESSION_NOT_FOUND", "no encrypted tunnels"},
    // Every API key may do everything for its own team, and another team's resources are
    // *_NOT_FOUND, never forbidden (contract.md §3: nothing of one team is visible to another).
    {"AUTHORIZATION_ERROR", "a key has every right on its team; other teams' things are not found"},
    // The reference server's only user is each team's owner, and recipients are given by value
    // ("manual"), never as references to users, so no request names a user that could be missing.
    {"USER_NOT_FOUND", "no operation refers to a user"},
    // Only a fault of the server itself (an exception in a handler, or an operation without a
    // handler): there is none to provoke from outside.
    {"INTERNAL_SERVER_ERROR", "only on a server fault"},
    // 10,000 teams by default: test_server_control_plane.cpp answers it from a small --max-teams.
    {"TEAM_LIMIT_REACHED", "needs a server full of teams (--max-teams)"},
    // An hour on the team's clock: test_server_embeds.cpp answers it after /_control/clock/advance.
    {"SIGNING_TOKEN_EXPIRED", "needs an hour on the team's clock (test_server_embeds.cpp)"},
};

}  // namespace

TEST_CASE("coverage: every operation and every producible error code, over the wire", "[http][coverage]") {
    test_server srv;
    const auto steps = script();

    // The script itself names every operation of esign's table, and every code but the excluded.
    std::set<std::string> script_paths;
    std::set<std::string> script_codes;
    for (const auto& s : steps) {
        if (esign::find_operation(s.path)) script_paths.insert(s.path);
        if (!s.code.empty()) script_codes.insert(s.code);
    }
    std::set<std::string> all_paths(esign::operation_paths.begin(), esign::operation_paths.end());
    INFO("script paths:" << difference(script_paths, all_paths));
    CHECK(script_paths == all_paths);

    std::set<std::string> producible;
    for (const auto code : esign::enum_values<esign::error_code>()) {
        const auto name = std::string(esign::enum_to_wire(code));
        if (!not_producible.contains(name)) producible.insert(name);
    }
    for (const auto& [name, reason] : not_producible) {
        INFO(name << ": " << reason);
        CHECK(esign::enum_from_wire<esign::error_code>(name).has_value());  // no stale exclusion
    }
    INFO("script codes:" << difference(script_codes, producible));
    CHECK(script_codes == producible);

    // Run it; then what came back must cover the same, with the table's statuses.
    wire_log::instance().clear();
    script_runner runner(srv);
    for (const auto& s : steps) runner.run(s);

    std::set<std::string> paths_answered;
    std::set<std::string> codes_received;
    std::set<unsigned> transport_statuses;
    for (const auto& rec : wire_log::instance().records()) {
        if (rec.status == 200) paths_answered.insert(rec.path);
        if (rec.code.empty()) continue;
        codes_received.insert(rec.code);
        const auto code = esign::enum_from_wire<esign::error_code>(rec.code);
        INFO(rec.path << " answered " << rec.status << " " << rec.code);
        REQUIRE(code);
        if (rec.status != contract_status(rec.code)) {
            CHECK(*code == esign::error_code::INVALID_REQUEST_FORMAT);
            transport_statuses.insert(rec.status);
        }
    }
    INFO("paths answered 200:" << difference(paths_answered, all_paths));
    INFO("codes received:" << difference(codes_received, producible));
    CHECK(paths_answered == all_paths);
    CHECK(codes_received == producible);
    CHECK(transport_statuses == std::set<unsigned>{404, 405, 413, 415});
    for (const auto& [name, reason] : not_producible) CHECK_FALSE(codes_received.contains(std::string(name)));
}

TEST_CASE("errors: every problem of a request is reported, at its path", "[http][errors]") {
    test_server srv;
    api_caller api{srv, srv.new_team().api_key};
    const auto env =
        string_member(api.ok("/_control/envelope/create",
                             boost::json::parse(R"({"title":"T","documents":[{"title":"d","pageCount":1}]})")),
                      "envelopeUuid");
    const std::string path = "/public/envelope/add-recipients";
    auto before = api.ok("/public/envelope/get", boost::json::object{{"envelopeUuid", env}});

    SECTION("two problems, two details") {
        const auto r = api.call(
            path,
            boost::json::parse(
                R"({"envelopeUuid":"short","recipients":[{"type":"robot","email":"x@client.example.com","firstname":"F","lastname":"L"}]})"));
        check_error(r, 400, "INVALID_REQUEST_FORMAT", path);
        const auto details = at(r.json(), "/error/details");
        REQUIRE(details.is_array());
        CHECK(details.as_array().size() == 2);
        CHECK(has_detail(r, R"(["envelopeUuid"])"));
        CHECK(has_detail(r, R"(["recipients","0","type"])"));
        for (const auto& d : details.as_array()) CHECK(member_names(d) == std::set<std::string>{"path", "message"});
    }
    SECTION("at most 100 details") {
        boost::json::array items;
        for (int i = 0; i < 50; ++i)
            items.push_back(boost::json::object{{"type", "x"}, {"email", "bad"}, {"firstname", 1}, {"lastname", "L"}});
        const auto r = api.call(path, boost::json::object{{"envelopeUuid", env}, {"recipients", items}});
        check_error(r, 400, "INVALID_REQUEST_FORMAT", path);
        CHECK(at(r.json(), "/error/details").as_array().size() == 100);
    }
    SECTION("a member given twice is a problem at its path") {
        const auto r = srv.post(
            path,
            R"({"envelopeUuid":")" + env + R"(","envelopeUuid":")" + env +
                R"(","recipients":[{"type":"manual","email":"x@client.example.com","firstname":"F","lastname":"L"}]})",
            bearer(api.key));
        check_error(r, 400, "INVALID_REQUEST_FORMAT", path);
        CHECK(has_detail(r, R"(["envelopeUuid"])"));
    }
    SECTION("no coercion; 3.0 is an integer, 3.5 is not") {
        check_error(api.call("/public/workspace/list", boost::json::parse(R"({"page":"1"})")), 400,
                    "INVALID_REQUEST_FORMAT", "/public/workspace/list");
        CHECK(api.call("/public/workspace/list", boost::json::parse(R"({"page":1.0,"limit":50.0})")).status == 200);
        const auto r = api.call("/public/workspace/list", boost::json::parse(R"({"limit":3.5})"));
        check_error(r, 400, "INVALID_REQUEST_FORMAT", "/public/workspace/list");
        CHECK(has_detail(r, R"(["limit"])"));
        check_error(api.call("/public/workspace/list", boost::json::parse(R"({"page":2147483648})")), 400,
                    "INVALID_REQUEST_FORMAT", "/public/workspace/list");
    }
    CHECK(api.ok("/public/envelope/get", boost::json::object{{"envelopeUuid", env}}) == before);
}

TEST_CASE("errors: --strict reports unknown members at their paths", "[http][errors]") {
    test_server srv({"--strict"});
    api_caller api{srv, srv.new_team().api_key};
    const auto r = api.call("/public/workspace/create", boost::json::parse(R"({"name":"W","extra":1})"));
    check_error(r, 400, "INVALID_REQUEST_FORMAT", "/public/workspace/create");
    CHECK(has_detail(r, R"(["extra"])"));
    CHECK(api.ok("/public/workspace/list", boost::json::object{}).at("workspaces").as_array().size() == 1);
}

TEST_CASE("errors: the error body's timestamp comes from the server's clock", "[http][errors]") {
    test_server srv;
    constexpr std::int64_t ten_years_ms = 10LL * 366 * 86'400'000;
    control_ok(srv, "/_control/clock/advance", boost::json::object{{"milliseconds", ten_years_ms}});
    for (const auto& r : {srv.post("/public/utils/whoami", "{}"), srv.post("/nope", "{}"),
                          srv.post("/_control/clock/advance", R"({"milliseconds":-5})")}) {
        const auto stamp = string_member(r.json(), "timestamp");
        REQUIRE(is_iso8601_ms(stamp));
        std::tm tm{};
        int ms = 0;
        REQUIRE(std::sscanf(stamp.c_str(), "%d-%d-%dT%d:%d:%d.%dZ", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
                            &tm.tm_min, &tm.tm_sec, &ms) == 7);
        tm.tm_year -= 1900;
        tm.tm_mon -= 1;
        const std::int64_t stamp_ms = static_cast<std::int64_t>(::timegm(&tm)) * 1000 + ms;
        const auto now_ms = at(control_ok(srv, "/_control/clock/now"), "/now").as_int64();
        INFO(stamp << " vs now " << now_ms);
        CHECK(stamp_ms <= now_ms);
        CHECK(stamp_ms > now_ms - 60'000);
    }
}

}  // namespace test_server_errors
