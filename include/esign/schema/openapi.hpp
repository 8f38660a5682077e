// SPDX-License-Identifier: BSL-1.0
#pragma once
// The OpenAPI 3.1 document of the public interface, generated from the operation table
// (model/operations.hpp) and the reflected types (schema/json_schema.hpp). The reference
// backend serves it at GET /openapi.json (openapi_json()).
//
// Per operation: POST, operationId from the path, the request body and the 200 response as
// component schemas, and the error responses, each an ErrorBody whose error.code is limited to
// the codes that status can carry for that operation (the `errors` of its row in the operation
// table, and common_error_codes; every code goes to the status of rules::info(code)). Transport
// failures (404, 405, 413, 415) are INVALID_REQUEST_FORMAT without details.
// Control operations (/_control/) are not part of the document.
#include <array>
#include <utility>
#include <map>
#include <optional>
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
#include <esign/validation/enum_names.hpp>

namespace esign::schema {

struct openapi_options {
    schema_options schema{};  // strict: additionalProperties false everywhere
    std::string_view server_url = "http://127.0.0.1:8080";
    std::string_view title = "Electronic Signature Service";
    std::string_view version = "0.1.0";
};

// Statuses of transport failures (contract.md §1): INVALID_REQUEST_FORMAT without details.
inline constexpr std::array<std::pair<unsigned, std::string_view>, 4> transport_statuses{{
    {404, "Unknown path."},
    {405, "Method other than POST."},
    {413, "Body over the size limit (default 1 MiB)."},
    {415, "Content type other than application/json."},
}};

namespace detail {
inline std::string_view status_description(unsigned status) {
    switch (status) {
        case 400:
            return "The request is refused (validation or business rule).";
        case 401:
            return "Authentication failed.";
        case 403:
            return "The API key may not perform this operation.";
        case 500:
            return "Unexpected server error.";
        default:
            break;
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
                      {"error",
                       boost::json::object{
                           {"properties", boost::json::object{{"code", boost::json::object{{"enum", names}}}}}}}}}}}}};
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

    // The codes the operation may answer (the operation table's), by status.
    std::map<unsigned, std::vector<error_code>> by_status;
    (common_error_codes | op.errors).for_each([&](error_code code) {
        by_status[rules::info(code).http_status].push_back(code);
    });

    boost::json::object responses;
    responses["200"] = boost::json::object{
        {"description", "Success."},
        {"content", boost::json::object{{"application/json", boost::json::object{{"schema", response_schema}}}}}};
    for (const auto& [status, codes] : by_status) responses[std::to_string(status)] = error_response(status, codes);
    for (const auto& [status, text] : transport_statuses)
        responses[std::to_string(status)] = error_response(status, {error_code::INVALID_REQUEST_FORMAT});

    std::string path(op.path);
    // "/public/<group>/...", "/embeds/..." (the signer's operations, one group).
    auto group = op.access == operation_access::signer ? std::string("embeds") : path.substr(8, path.find('/', 8) - 8);
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
    // contract.md §7.1: the signing page's operations take no API key (the body's token or session).
    if (!op.needs_api_key) post["security"] = boost::json::array{};
    return {{"post", std::move(post)}};
}
}  // namespace detail

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
                                     {"description",
                                      "Every operation is POST with a JSON body. Generated from the "
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

}  // namespace esign::schema
