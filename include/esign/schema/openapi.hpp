#pragma once
// The OpenAPI 3.1 document of the public interface, generated from the operation table
// (model/operations.hpp) and the reflected types (schema/json_schema.hpp). The reference
// backend serves it at GET /openapi.json (openapi_json()).
//
// Per operation: POST, operationId from the path, the request body and the 200 response as
// component schemas, and the error responses, each an ErrorBody whose error.code is limited to
// the codes that status can carry for that operation (the per-operation list is the table
// operation_error_codes below; every code goes to the status of rules::info(code)). Transport
// failures (404, 405, 413, 415) are INVALID_REQUEST_FORMAT without details.
// Control operations (/_control/) are not part of the document.
#include <array>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include <esign/model/enums.hpp>
#include <esign/model/operations.hpp>
#include <esign/rules/error_codes.hpp>
#include <esign/schema/json_schema.hpp>
#include <esign/types/enum_names.hpp>

namespace esign::schema {

struct openapi_options {
    schema_options schema{};                       // strict: additionalProperties false everywhere
    std::string_view server_url = "http://127.0.0.1:8080";
    std::string_view title = "Electronic Signature Service";
    std::string_view version = "0.1.0";
};

// ---------------------------------------------------------------------------------------------
// Operation-specific error codes (interface.md "Endpoints", contract.md §4), as data: the codes
// of one operation separated by spaces. The common codes (401, 403, 500 groups and
// INVALID_REQUEST_FORMAT) are added to every operation and need not be listed.

struct operation_error_row {
    std::string_view path;
    std::string_view codes;
};

inline constexpr std::array operation_error_codes{
    operation_error_row{"/public/webhook/update",
                        "WEBHOOK_NOT_FOUND WORKSPACE_NOT_FOUND WEBHOOK_URL_REFUSED FEATURE_NOT_IN_CURRENT_PLAN"},
    operation_error_row{"/public/webhook/list", ""},
    operation_error_row{"/public/webhook/delete", "WEBHOOK_NOT_FOUND"},
    operation_error_row{"/public/webhook/create",
                        "WORKSPACE_NOT_FOUND WEBHOOK_LIMIT_REACHED WEBHOOK_URL_REFUSED FEATURE_NOT_IN_CURRENT_PLAN"},
    operation_error_row{"/public/envelope/get", "WORKSPACE_NOT_FOUND ENVELOPE_NOT_FOUND"},
    operation_error_row{"/public/envelope/list", "WORKSPACE_NOT_FOUND"},
    operation_error_row{"/public/envelope/update",
                        "WORKSPACE_NOT_FOUND ENVELOPE_NOT_FOUND DOCUMENT_NOT_FOUND ENVELOPE_NOT_IN_DRAFT"},
    operation_error_row{"/public/envelope/send",
                        "WORKSPACE_NOT_FOUND ENVELOPE_NOT_FOUND NO_RECIPIENTS NO_SIGNERS ENVELOPE_NOT_IN_DRAFT "
                        "SUBSCRIPTION_NOT_FOUND SES_LIMIT_EXCEEDED API_CREDITS_LIMIT_EXCEEDED INVALID_EMAIL"},
    operation_error_row{"/public/envelope/create-from-template",
                        "WORKSPACE_NOT_FOUND TEMPLATE_NOT_FOUND CONTACT_NOT_FOUND USER_NOT_FOUND "
                        "INVALID_RECIPIENT_LABELS INVALID_EMAIL"},
    operation_error_row{"/public/envelope/delete-attachment",
                        "WORKSPACE_NOT_FOUND ENVELOPE_NOT_FOUND DOCUMENT_NOT_FOUND DOCUMENT_NOT_ATTACHMENT "
                        "ENVELOPE_NOT_IN_DRAFT"},
    operation_error_row{"/public/envelope/add-recipients",
                        "WORKSPACE_NOT_FOUND ENVELOPE_NOT_FOUND DUPLICATE_RECIPIENT ENVELOPE_NOT_IN_DRAFT "
                        "CONTACT_NOT_FOUND USER_NOT_FOUND FEATURE_NOT_IN_CURRENT_PLAN INVALID_EMAIL"},
    operation_error_row{"/public/envelope/update-recipient",
                        "WORKSPACE_NOT_FOUND ENVELOPE_NOT_FOUND RECIPIENT_NOT_FOUND DUPLICATE_RECIPIENT "
                        "ENVELOPE_NOT_IN_DRAFT FEATURE_NOT_IN_CURRENT_PLAN"},
    operation_error_row{"/public/envelope/delete-recipients",
                        "WORKSPACE_NOT_FOUND ENVELOPE_NOT_FOUND RECIPIENT_NOT_FOUND ENVELOPE_NOT_IN_DRAFT"},
    operation_error_row{"/public/envelope/add-blocks",
                        "WORKSPACE_NOT_FOUND ENVELOPE_NOT_FOUND DOCUMENT_NOT_FOUND ENVELOPE_NOT_IN_DRAFT "
                        "INVALID_RECIPIENT_EMAIL"},
    operation_error_row{"/public/envelope/delete-blocks",
                        "WORKSPACE_NOT_FOUND ENVELOPE_NOT_FOUND DOCUMENT_NOT_FOUND ENVELOPE_NOT_IN_DRAFT"},
    operation_error_row{"/public/workspace/list", ""},
    operation_error_row{"/public/workspace/get", "WORKSPACE_NOT_FOUND"},
    operation_error_row{"/public/workspace/create", ""},
    operation_error_row{"/public/workspace/update", "WORKSPACE_NOT_FOUND"},
    operation_error_row{"/public/contact/update", "WORKSPACE_NOT_FOUND CONTACT_NOT_FOUND INVALID_EMAIL"},
    operation_error_row{"/public/contact/create", "WORKSPACE_NOT_FOUND CONTACT_EMAIL_ALREADY_EXISTS INVALID_EMAIL"},
    operation_error_row{"/public/contact/list", "WORKSPACE_NOT_FOUND"},
    operation_error_row{"/public/contact/delete", "WORKSPACE_NOT_FOUND CONTACT_NOT_FOUND"},
    operation_error_row{"/public/template/list", "WORKSPACE_NOT_FOUND"},
    operation_error_row{"/public/logs/list", "WORKSPACE_NOT_FOUND ENVELOPE_NOT_FOUND LOG_CATEGORY_NOT_IMPLEMENTED"},
    operation_error_row{"/public/authentication/create-iframe-token",
                        "WORKSPACE_NOT_FOUND ENVELOPE_NOT_FOUND SIGNER_NOT_IN_ENVELOPE "
                        "RECIPIENT_VERIFICATION_DISABLED"},
    operation_error_row{"/public/utils/whoami", ""},
};

// Codes every operation may answer (interface.md "Errors", common table).
inline constexpr std::string_view common_error_codes =
    "AUTHENTICATION_ERROR DBSC_COOKIE_INVALID TUNNEL_ERROR TUNNEL_SESSION_NOT_FOUND "
    "AUTHORIZATION_ERROR FEATURE_NOT_IN_CURRENT_PLAN INTERNAL_SERVER_ERROR INVALID_REQUEST_FORMAT";

// Statuses of transport failures (contract.md §1): INVALID_REQUEST_FORMAT without details.
inline constexpr std::array<std::pair<unsigned, std::string_view>, 4> transport_statuses{{
    {404, "Unknown path."},
    {405, "Method other than POST."},
    {413, "Body over the size limit (default 1 MiB)."},
    {415, "Content type other than application/json."},
}};

namespace detail {
// Calls f(code) for every space-separated word; false when a word is not an error_code.
template <class F>
constexpr bool for_each_code(std::string_view list, F&& f) {
    while (!list.empty()) {
        auto space = list.find(' ');
        auto word = list.substr(0, space);
        list = space == std::string_view::npos ? std::string_view{} : list.substr(space + 1);
        if (word.empty()) continue;
        auto code = enum_from_wire<error_code>(word);
        if (!code) return false;
        f(*code);
    }
    return true;
}

// The table names real codes, and exactly the public operations, in the table's order.
constexpr bool error_table_matches_operations() {
    std::size_t row = 0;
    bool ok = for_each_code(common_error_codes, [](error_code) {});
    for_each_operation([&](const auto& op) {
        if (op.is_control) return;
        if (row >= operation_error_codes.size() || operation_error_codes[row].path != op.path) ok = false;
        else ok = ok && for_each_code(operation_error_codes[row].codes, [](error_code) {});
        ++row;
    });
    return ok && row == operation_error_codes.size();
}
static_assert(error_table_matches_operations(),
              "operation_error_codes must name real error codes and list every public operation in table order");

inline std::string_view operation_errors_of(std::string_view path) {
    for (const auto& row : operation_error_codes)
        if (row.path == path) return row.codes;
    return {};
}

inline std::string_view status_description(unsigned status) {
    switch (status) {
    case 400: return "The request is refused (validation or business rule).";
    case 401: return "Authentication failed.";
    case 403: return "The API key may not perform this operation.";
    case 500: return "Unexpected server error.";
    default: break;
    }
    for (const auto& [s, text] : transport_statuses)
        if (s == status) return text;
    return "Error.";
}

inline boost::json::object error_response(unsigned status, const std::vector<error_code>& codes) {
    boost::json::array names;
    std::string listed;
    for (auto code : codes) {
        auto name = enum_to_wire(code);
        names.emplace_back(sv(name));
        if (!listed.empty()) listed += ", ";
        listed.append(name);
    }
    boost::json::object schema{
        {"allOf",
         boost::json::array{
             boost::json::object{{"$ref", "#/components/schemas/ErrorBody"}},
             boost::json::object{
                 {"properties",
                  boost::json::object{
                      {"statusCode", boost::json::object{{"const", status}}},
                      {"error", boost::json::object{{"properties",
                                                     boost::json::object{{"code", boost::json::object{
                                                                                      {"enum", names}}}}}}}}}}}}};
    std::string description(status_description(status));
    description += " Codes: " + listed + ".";
    return {{"description", description},
            {"x-error-codes", names},
            {"content", boost::json::object{{"application/json", boost::json::object{{"schema", std::move(schema)}}}}}};
}

template <class Op>
boost::json::object path_item(const Op& op, schema_context& ctx) {
    using request = typename Op::request_type;
    using response = typename Op::response_type;
    boost::json::object request_schema = ctx.use<request>();
    boost::json::object response_schema = ctx.use<response>();

    // Codes by status: common ones, then the operation's own, each once, in table order.
    std::map<unsigned, std::vector<error_code>> by_status;
    std::set<error_code> seen;
    auto add = [&](error_code code) {
        if (seen.insert(code).second) by_status[rules::info(code).http_status].push_back(code);
    };
    for_each_code(common_error_codes, add);
    for_each_code(operation_errors_of(op.path), add);

    boost::json::object responses;
    responses["200"] = boost::json::object{
        {"description", "Success."},
        {"content", boost::json::object{{"application/json", boost::json::object{{"schema", response_schema}}}}}};
    for (const auto& [status, codes] : by_status) responses[std::to_string(status)] = error_response(status, codes);
    for (const auto& [status, text] : transport_statuses)
        responses[std::to_string(status)] = error_response(status, {error_code::INVALID_REQUEST_FORMAT});

    std::string path(op.path);
    auto group = path.substr(8, path.find('/', 8) - 8);  // "/public/<group>/..."
    boost::json::object post{
        {"operationId", operation_id(op.path)},
        {"summary", path},
        {"tags", boost::json::array{sv(group)}},
        {"requestBody",
         boost::json::object{
             {"required", true},
             {"content", boost::json::object{{"application/json", boost::json::object{{"schema", request_schema}}}}}}},
        {"responses", std::move(responses)},
    };
    return {{"post", std::move(post)}};
}
} // namespace detail

// The OpenAPI 3.1.0 document of every public operation.
inline boost::json::object openapi_document(const openapi_options& options = {}) {
    schema_context ctx(options.schema, "#/components/schemas/");
    ctx.define<error_body>("ErrorBody");

    boost::json::object paths;
    for_each_operation([&](const auto& op) {
        if (op.is_control) return;
        paths[op.path] = detail::path_item(op, ctx);
    });

    boost::json::object security_schemes{
        {"bearerAuth", boost::json::object{{"type", "http"},
                                           {"scheme", "bearer"},
                                           {"description", "Authorization: Bearer <API_KEY> (a team API key)."}}}};
    return {
        {"openapi", "3.1.0"},
        {"jsonSchemaDialect", detail::sv(json_schema_dialect)},
        {"info", boost::json::object{{"title", detail::sv(options.title)},
                                     {"version", detail::sv(options.version)},
                                     {"description", "Every operation is POST with a JSON body. Generated from the "
                                                     "reflected C++ types of esign."}}},
        {"servers", boost::json::array{boost::json::object{{"url", detail::sv(options.server_url)}}}},
        {"security", boost::json::array{boost::json::object{{"bearerAuth", boost::json::array{}}}}},
        {"paths", std::move(paths)},
        {"components", boost::json::object{{"schemas", ctx.definitions()}, {"securitySchemes", security_schemes}}},
    };
}

// openapi_document(), serialized (what GET /openapi.json answers).
inline std::string openapi_json(const openapi_options& options = {}) {
    return boost::json::serialize(openapi_document(options));
}

} // namespace esign::schema
