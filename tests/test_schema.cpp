// SPDX-License-Identifier: BSL-1.0
// JSON Schema and OpenAPI generated from the reflected types (schema/json_schema.hpp, openapi.hpp).
#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <string_view>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <esign/json/decode.hpp>
#include <esign/model/operations.hpp>
#include <esign/schema/json_schema.hpp>
#include <esign/schema/openapi.hpp>

namespace test_schema {

namespace {

using boost::json::array;
using boost::json::object;
using boost::json::value;

std::string str(const value& v) { return std::string(v.as_string().c_str()); }

// Follows a local "$ref" (JSON pointer into `root`), once or repeatedly.
const value& deref(const value& root, const value& v) {
    const value* at = &v;
    while (at->is_object() && at->as_object().contains("$ref")) {
        std::string ref = str(at->at("$ref"));
        REQUIRE(ref.starts_with("#"));
        at = &root.at_pointer(ref.substr(1));
    }
    return *at;
}

// Calls f(object) for every object anywhere in v.
template <class F>
void for_each_object(const value& v, F&& f) {
    if (v.is_object()) {
        f(v.as_object());
        for (const auto& m : v.as_object()) for_each_object(m.value(), f);
    } else if (v.is_array()) {
        for (const auto& item : v.as_array()) for_each_object(item, f);
    }
}

std::set<std::string> strings_of(const value& v) {
    std::set<std::string> out;
    for (const auto& item : v.as_array()) out.insert(str(item));
    return out;
}

template <class T>
value schema_of(esign::schema::schema_options options = {}) {
    return esign::schema::json_schema<T>(options);
}

}  // namespace

TEST_CASE("schema: add-recipients request has the decoder's constraints", "[schema]") {
    value s = schema_of<esign::envelope_add_recipients_request>();
    CHECK(str(s.at("$schema")) == "https://json-schema.org/draft/2020-12/schema");
    CHECK(str(s.at("type")) == "object");
    CHECK(strings_of(s.at("required")) == std::set<std::string>{"envelopeUuid", "recipients"});

    const value& workspace = s.at_pointer("/properties/workspaceUuid");
    CHECK(workspace.at("minLength").to_number<int>() == 36);
    CHECK(workspace.at("maxLength").to_number<int>() == 36);

    const value& recipients = s.at_pointer("/properties/recipients");
    CHECK(str(recipients.at("type")) == "array");
    CHECK(recipients.at("minItems").to_number<int>() == 1);
    CHECK(recipients.at("maxItems").to_number<int>() == 50);

    const value& item = deref(s, recipients.at("items"));
    CHECK(strings_of(item.at("required")) == std::set<std::string>{"type", "email", "firstname", "lastname"});
    const value& email = item.at_pointer("/properties/email");
    CHECK(str(email.at("type")) == "string");
    CHECK(email.at("maxLength").to_number<int>() == 128);
    CHECK(str(email.at("pattern")) == std::string(esign::regex::general_email_pattern));
    CHECK(strings_of(item.at_pointer("/properties/language/enum")) ==
          std::set<std::string>{"en", "fr", "es", "it", "fi"});
    CHECK(strings_of(item.at_pointer("/properties/type/enum")) == std::set<std::string>{"manual"});
    // Unknown members are allowed by default, like the non-strict decoder.
    CHECK_FALSE(item.as_object().contains("additionalProperties"));
}

TEST_CASE("schema: lengths, patterns, ranges, nullability", "[schema]") {
    value create = schema_of<esign::workspace_create_request>();
    CHECK(create.at_pointer("/properties/name/minLength").to_number<int>() == 1);
    CHECK(create.at_pointer("/properties/name/maxLength").to_number<int>() == 100);
    CHECK(str(create.at_pointer("/properties/name/$comment")).find("code points") != std::string::npos);
    CHECK(str(create.at_pointer("/properties/colorHex/pattern")) == std::string(esign::hex_color::pattern()));
    CHECK(strings_of(create.at("required")) == std::set<std::string>{"name"});

    value update = schema_of<esign::envelope_update_request>();
    CHECK(strings_of(update.at("required")) == std::set<std::string>{"envelopeUuid", "update"});
    const value& fields = deref(update, update.at_pointer("/properties/update"));
    CHECK_FALSE(fields.as_object().contains("required"));  // every member of `update` may be absent
    CHECK(fields.at_pointer("/properties/customInvitationMessage/type") == value(array{"string", "null"}));
    CHECK(fields.at_pointer("/properties/expirationPeriod/type") == value("integer"));
    CHECK(fields.at_pointer("/properties/expirationPeriod/minimum").to_number<int>() == 1);
    CHECK(fields.at_pointer("/properties/expirationPeriod/maximum").to_number<int>() == 90);
    CHECK(fields.at_pointer("/properties/title/maxLength").to_number<int>() == 255);

    value recipient = schema_of<esign::envelope_update_recipient_request>();
    CHECK(str(recipient.at_pointer("/properties/email/pattern")) ==
          std::string(esign::regex::update_recipient_email_pattern));
    CHECK(recipient.at_pointer("/properties/email/maxLength").to_number<int>() == 255);

    value blocks = schema_of<esign::envelope_add_blocks_request>();
    const value& block = deref(blocks, blocks.at_pointer("/properties/blocks/items"));
    CHECK(block.at_pointer("/properties/defaultValue/type") == value(array{"string", "number", "boolean"}));
    CHECK(block.at_pointer("/properties/x/type") == value("number"));
    CHECK(block.at_pointer("/properties/maxLength/minimum").to_number<int>() == 1);
    CHECK(str(block.at_pointer("/properties/page/pattern")) == std::string(esign::page_key::pattern()));

    value webhook = schema_of<esign::webhook_update_request>();
    CHECK(webhook.at_pointer("/properties/secret/type") == value(array{"string", "null"}));
    CHECK(strings_of(webhook.at_pointer("/properties/contentType/enum")) ==
          std::set<std::string>{"application/json", "application/x-www-form-urlencoded"});
    CHECK(str(webhook.at_pointer("/properties/url/pattern")) == std::string(esign::absolute_uri::pattern()));
    CHECK(webhook.at_pointer("/properties/title/maxLength").to_number<int>() == 256);
    CHECK(webhook.at_pointer("/properties/url/maxLength").to_number<int>() == 2048);
    CHECK(webhook.at_pointer("/properties/secret/maxLength").to_number<int>() == 256);
}

TEST_CASE("schema: shared types are $defs, maps are additionalProperties", "[schema]") {
    value s = schema_of<esign::envelope_get_response>();
    CHECK(str(s.at("title")) == "Envelope");
    const value& documents = s.at_pointer("/properties/documents/items");
    CHECK(str(documents.at("$ref")) == "#/$defs/Document");
    const value& document = deref(s, documents);
    const value& blocks = document.at_pointer("/properties/blocks");
    CHECK(str(blocks.at("type")) == "object");
    CHECK(str(blocks.at_pointer("/additionalProperties/type")) == "array");
    CHECK(str(blocks.at_pointer("/additionalProperties/items/$ref")) == "#/$defs/Block");
    CHECK(s.at_pointer("/properties/sentDate/type") == value(array{"integer", "null"}));
    // tri_state in a response: may be absent and null.
    const value& owner = s.at_pointer("/properties/owner");
    CHECK(strings_of(owner.at("required")) == std::set<std::string>{"uuid", "email"});
    CHECK(owner.at_pointer("/properties/firstname/type") == value(array{"string", "null"}));

    value logs = schema_of<esign::logs_list_response>();
    const value& entry = deref(logs, logs.at_pointer("/properties/logs/items"));
    CHECK(entry.at_pointer("/properties/eventData/type") == value("object"));

    // A nullable $ref: anyOf [$ref, null]; every $ref resolves within the schema.
    for_each_object(s, [&](const object& o) {
        if (o.contains("$ref")) CHECK_NOTHROW(deref(s, value(o)));
    });
}

TEST_CASE("schema: the rules across members that JSON Schema can state", "[schema]") {
    // sms needs a non-empty phone: if verificationType is "sms", phone is required, non-empty.
    value add = schema_of<esign::envelope_add_recipients_request>();
    const value& item = deref(add, add.at_pointer("/properties/recipients/items"));
    CHECK(str(item.at_pointer("/if/properties/verificationType/const")) == "sms");
    CHECK(strings_of(item.at_pointer("/if/required")) == std::set<std::string>{"verificationType"});
    CHECK(strings_of(item.at_pointer("/then/required")) == std::set<std::string>{"phone"});
    CHECK(item.at_pointer("/then/properties/phone/minLength").to_number<int>() == 1);

    // Event types by category: one if/then per category with a list, none for user or dataroom.
    value logs = schema_of<esign::logs_list_request>();
    const array& branches = logs.at("allOf").as_array();
    REQUIRE(branches.size() == 2);
    std::set<std::string> categories;
    for (const value& branch : branches) {
        const std::string category = str(branch.at_pointer("/if/properties/category/const"));
        categories.insert(category);
        const std::set<std::string> listed = strings_of(branch.at_pointer("/then/properties/eventTypes/items/enum"));
        CHECK(listed.contains(category == "envelope" ? "ENVELOPE_SENT" : "WORKSPACE_CREATED"));
        CHECK_FALSE(listed.contains(category == "envelope" ? "WORKSPACE_CREATED" : "ENVELOPE_SENT"));
    }
    CHECK(categories == std::set<std::string>{"envelope", "team"});

    // Distinct template labels.
    value templ = schema_of<esign::control_template_create_request>();
    CHECK(templ.at_pointer("/properties/recipientLabels/uniqueItems") == value(true));
}

TEST_CASE("schema: strict mode refuses unknown members on every object", "[schema]") {
    value s = schema_of<esign::envelope_add_recipients_request>({.strict = true});
    std::size_t objects = 0;
    for_each_object(s, [&](const object& o) {
        // Object schemas; the if/then of a rule across members (sms needs a phone) only adds
        // conditions to the recipient's.
        const value* type = o.if_contains("type");
        if (type && *type == value("object")) {
            ++objects;
            CHECK(o.at("additionalProperties") == value(false));
        }
    });
    CHECK(objects == 2);  // the request and a recipient
}

TEST_CASE("schema: `required` is exactly what the decoder reports missing", "[schema]") {
    // Decoding {} reports every required member of the request; the schema lists the same.
    esign::for_each_operation([](const auto& op) {
        using request = typename std::remove_cvref_t<decltype(op)>::request_type;
        esign::json::decoder d;
        request out{};
        esign::json::decode_value(value(object{}), out, d);
        std::set<std::string> missing;
        for (const auto& p : d.problems())
            if (p.kind == esign::problem_kind::missing && p.path.size() == 1) missing.insert(p.path[0]);
        value s = esign::schema::json_schema<request>();
        std::set<std::string> required;
        if (auto* r = s.as_object().if_contains("required")) required = strings_of(*r);
        INFO(op.path);
        CHECK(required == missing);
    });
}

TEST_CASE("openapi: the document covers the public operations", "[schema][openapi]") {
    value doc = esign::schema::openapi_document();
    CHECK(str(doc.at("openapi")) == "3.1.0");
    CHECK(str(doc.at("jsonSchemaDialect")) == "https://json-schema.org/draft/2020-12/schema");
    CHECK(str(doc.at_pointer("/servers/0/url")) == "http://127.0.0.1:8080");
    CHECK(str(doc.at_pointer("/components/securitySchemes/bearerAuth/type")) == "http");
    CHECK(str(doc.at_pointer("/components/securitySchemes/bearerAuth/scheme")) == "bearer");
    CHECK(doc.at_pointer("/security/0/bearerAuth") == value(array{}));

    const object& paths = doc.at("paths").as_object();
    CHECK(paths.size() == 30);  // the 27 public operations and the signer's 3 (contract.md §7.1)
    std::size_t public_count = 0;
    esign::for_each_operation([&](const auto& op) {
        if (op.is_control) return;
        if (op.access != esign::operation_access::signer)
            ++public_count;
        else
            CHECK(paths.at(op.path).at_pointer("/post/security") == value(array{}));  // no API key
        INFO(op.path);
        REQUIRE(paths.contains(op.path));
        const value& post = paths.at(op.path).at("post");
        CHECK(str(post.at("operationId")) == esign::schema::operation_id(op.path));
        CHECK(post.at_pointer("/requestBody/required") == value(true));
        CHECK(post.at_pointer("/requestBody/content/application~1json/schema").as_object().contains("$ref"));
        const object& responses = post.at("responses").as_object();
        for (auto status : {"200", "400", "401", "403", "500", "404", "405", "413", "415"})
            CHECK(responses.contains(status));
    });
    CHECK(public_count == 27);
    for (const auto& p : paths) CHECK_FALSE(std::string_view(p.key()).starts_with("/_control/"));

    std::set<std::string> ids;
    for (const auto& p : paths) ids.insert(str(p.value().at_pointer("/post/operationId")));
    CHECK(ids.size() == 30);

    CHECK(
        str(doc.at_pointer("/paths/~1public~1envelope~1get/post/requestBody/content/application~1json/schema/$ref")) ==
        "#/components/schemas/EnvelopeGetRequest");
    CHECK(str(doc.at_pointer("/paths/~1public~1envelope~1add-recipients/post/responses/200/content/application~1json/"
                             "schema/$ref")) == "#/components/schemas/EnvelopeAddRecipientsResponse");
}

TEST_CASE("openapi: every $ref resolves inside the document", "[schema][openapi]") {
    for (bool strict : {false, true}) {
        value doc = esign::schema::openapi_document({.schema = {.strict = strict}});
        std::size_t refs = 0;
        for_each_object(doc, [&](const object& o) {
            if (auto* ref = o.if_contains("$ref")) {
                ++refs;
                std::string target = str(*ref);
                INFO(target);
                REQUIRE(target.starts_with("#/"));
                boost::system::error_code ec;
                CHECK(doc.find_pointer(target.substr(1), ec) != nullptr);
            }
        });
        CHECK(refs > 27 * 2);
    }
}

TEST_CASE("openapi: error responses list each operation's codes under their status", "[schema][openapi]") {
    value doc = esign::schema::openapi_document();
    auto codes = [&](std::string_view path, std::string_view status) {
        std::string pointer =
            "/paths/" + std::string(path) + "/post/responses/" + std::string(status) + "/x-error-codes";
        return strings_of(doc.at_pointer(pointer));
    };
    auto send = codes("~1public~1envelope~1send", "400");
    for (auto c : {"NO_RECIPIENTS", "NO_SIGNERS", "SES_LIMIT_EXCEEDED", "INVALID_REQUEST_FORMAT"})
        CHECK(send.contains(c));
    CHECK_FALSE(send.contains("WEBHOOK_NOT_FOUND"));
    CHECK(codes("~1public~1envelope~1add-recipients", "403") ==
          std::set<std::string>{"AUTHORIZATION_ERROR", "FEATURE_NOT_IN_CURRENT_PLAN"});
    CHECK(codes("~1public~1utils~1whoami", "401").contains("AUTHENTICATION_ERROR"));
    CHECK(codes("~1public~1utils~1whoami", "500") == std::set<std::string>{"INTERNAL_SERVER_ERROR"});
    CHECK(codes("~1public~1utils~1whoami", "415") == std::set<std::string>{"INVALID_REQUEST_FORMAT"});
    // Every code is listed under the status the error table gives it.
    for_each_object(doc.at("paths"), [&](const object& o) {
        if (!o.contains("responses")) return;
        for (const auto& r : o.at("responses").as_object()) {
            auto* listed = r.value().as_object().if_contains("x-error-codes");
            if (!listed) continue;
            unsigned status = static_cast<unsigned>(std::stoul(std::string(r.key())));
            if (status == 404 || status == 405 || status == 413 || status == 415) continue;
            for (const auto& c : listed->as_array()) {
                auto code = esign::enum_from_wire<esign::error_code>(str(c));
                REQUIRE(code);
                CHECK(esign::rules::info(*code).http_status == status);
            }
        }
    });

    const value& error_body = doc.at_pointer("/components/schemas/ErrorBody");
    CHECK(strings_of(error_body.at("required")) ==
          std::set<std::string>{"statusCode", "error", "requestId", "timestamp", "path"});
}

TEST_CASE("openapi: openapi_json is the serialized document", "[schema][openapi]") {
    std::string text = esign::schema::openapi_json();
    CHECK(boost::json::parse(text) == value(esign::schema::openapi_document()));
}

TEST_CASE("schema: operation names come from the path", "[schema]") {
    CHECK(esign::schema::operation_base_name("/public/envelope/add-recipients") == "EnvelopeAddRecipients");
    CHECK(esign::schema::operation_base_name("/public/authentication/create-iframe-token") ==
          "AuthenticationCreateIframeToken");
    CHECK(esign::schema::operation_base_name("/_control/team/create") == "ControlTeamCreate");
    CHECK(esign::schema::operation_id("/public/utils/whoami") == "utilsWhoami");
    CHECK(esign::schema::schema_name<esign::envelope_add_recipients_request>() ==
          std::optional<std::string>("EnvelopeAddRecipientsRequest"));
    CHECK(esign::schema::schema_name<esign::envelope_send_response>() == std::optional<std::string>("EmptyResponse"));
    CHECK_FALSE(esign::schema::schema_name<esign::add_recipients_item>());
}

namespace {
template <class T>
bool decoder_accepts(std::string_view body, bool strict = false) {
    esign::json::decoder d({.strict = strict});
    T out{};
    esign::json::decode_value(boost::json::parse(body), out, d);
    return d.problem_count() == 0;
}
}  // namespace

// The verdicts tests/schema/validate_openapi.mjs expects from an independent JSON Schema
// validator (Ajv, draft 2020-12) over the exported document are the decoder's own.
TEST_CASE("schema: the decoder's verdicts on the examples of validate_openapi.mjs", "[schema]") {
    using add = esign::envelope_add_recipients_request;
    const std::string uuid = "123e4567-e89b-42d3-a456-426614174000";
    const std::string r = R"({"type":"manual","email":"ada@example.com","firstname":"Ada","lastname":"L"})";
    auto body = [&](std::string recipients, std::string extra = "") {
        return R"({"envelopeUuid":")" + uuid + R"(","recipients":)" + recipients + extra + "}";
    };
    CHECK(decoder_accepts<add>(body("[" + r + "]")));
    CHECK_FALSE(decoder_accepts<add>(body("[]")));
    std::string many = "[" + r;
    for (int i = 1; i < 51; ++i) many += "," + r;
    CHECK_FALSE(decoder_accepts<add>(body(many + "]")));
    CHECK_FALSE(decoder_accepts<add>(R"({"envelopeUuid":")" + uuid + R"("})"));
    CHECK_FALSE(decoder_accepts<add>(body(R"([{"type":"manual","email":"ada@","firstname":"A","lastname":"L"}])")));
    CHECK_FALSE(
        decoder_accepts<add>(body(R"([{"type":"auto","email":"ada@example.com","firstname":"A","lastname":"L"}])")));
    CHECK_FALSE(decoder_accepts<add>(body(R"([{"type":"manual","email":")" + std::string(120, 'a') +
                                          R"(@example.com","firstname":"A","lastname":"L"}])")));
    CHECK(decoder_accepts<add>(body("[" + r + "]", R"(,"extra":1)")));
    CHECK_FALSE(decoder_accepts<add>(body("[" + r + "]", R"(,"extra":1)"), true));

    using ws = esign::workspace_create_request;
    CHECK(decoder_accepts<ws>(R"({"name":"Sales"})"));
    CHECK_FALSE(decoder_accepts<ws>(R"({"name":""})"));
    CHECK_FALSE(decoder_accepts<ws>(R"({"name":")" + std::string(101, 'x') + R"("})"));
    std::string e_acute;
    for (int i = 0; i < 100; ++i) e_acute += "\xC3\xA9";
    CHECK(decoder_accepts<ws>(R"({"name":")" + e_acute + R"("})"));
    CHECK(decoder_accepts<ws>(R"({"name":"Sales","colorHex":"#a1b2c3"})"));
    CHECK_FALSE(decoder_accepts<ws>(R"({"name":"Sales","colorHex":"#a1b2"})"));

    using upd = esign::envelope_update_request;
    auto update = [&](std::string u) { return R"({"envelopeUuid":")" + uuid + R"(","update":)" + u + "}"; };
    CHECK(decoder_accepts<upd>(update(R"({"customInvitationMessage":null})")));
    CHECK_FALSE(decoder_accepts<upd>(update(R"({"customInvitationMessage":5})")));
    CHECK(decoder_accepts<upd>(update(R"({"expirationPeriod":90})")));
    CHECK_FALSE(decoder_accepts<upd>(update(R"({"expirationPeriod":91})")));
    CHECK_FALSE(decoder_accepts<upd>(update(R"({"expirationPeriod":1.5})")));
    CHECK(decoder_accepts<upd>(update("{}")));
    CHECK_FALSE(decoder_accepts<upd>(R"({"envelopeUuid":")" + uuid + R"("})"));

    using blocks = esign::envelope_add_blocks_request;
    auto block = [&](std::string b) {
        return R"({"envelopeUuid":")" + uuid + R"(","documentUuid":")" + uuid + R"(","blocks":[)" + b + "]}";
    };
    CHECK(decoder_accepts<blocks>(block(R"({"page":"1","x":1,"y":2.5,"type":"text","text":"t","defaultValue":true})")));
    CHECK_FALSE(decoder_accepts<blocks>(block(R"({"page":"p1","x":1,"y":2,"type":"text","text":"t"})")));
    CHECK_FALSE(
        decoder_accepts<blocks>(block(R"({"page":"1","x":1,"y":2,"type":"text","text":"t","defaultValue":null})")));

    using hook = esign::webhook_update_request;
    CHECK(decoder_accepts<hook>(R"({"uuid":")" + uuid + R"(","secret":null,"contentType":"application/json"})"));
    CHECK_FALSE(decoder_accepts<hook>(R"({"uuid":")" + uuid + R"(","contentType":"text/plain"})"));
    CHECK_FALSE(decoder_accepts<hook>(R"({"uuid":")" + uuid + R"(","url":"not a uri"})"));

    CHECK(decoder_accepts<esign::logs_list_request>(R"({"category":"envelope","limit":50})"));
    CHECK_FALSE(decoder_accepts<esign::logs_list_request>(R"({"category":"envelope","limit":51})"));
    CHECK(decoder_accepts<esign::utils_whoami_request>("{}"));
}

}  // namespace test_schema
