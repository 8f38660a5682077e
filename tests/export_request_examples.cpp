// SPDX-License-Identifier: BSL-1.0
// Writes the request examples of tests/request_examples.hpp, with the decoder's verdict on each,
// as JSON for the validators outside C++ (tests/schema/validate_openapi.mjs runs Ajv on them).
// Hidden from a plain run; tests/schema/validate_openapi.sh runs it:
//   ESIGN_EXAMPLES_JSON=out.json esign_tests "[export-examples]"
// The file: {"rows": [{op, strict, body, decoderAccepts, gap}], "schemas": {op: {lax, strict}}},
// where "schemas" holds the exported JSON Schema of every operation's request (the _control
// operations are not in the OpenAPI document).
#include "request_examples.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <string>
#include <type_traits>

#include <boost/json.hpp>

#include <esign/schema/json_schema.hpp>

namespace test_export_request_examples {

namespace {

using namespace request_examples;

std::string_view gap_name(schema_gap gap) {
    switch (gap) {
        case schema_gap::none:
            return "none";
        case schema_gap::duplicate_member:
            return "duplicate_member";
        case schema_gap::unique_key:
            return "unique_key";
        case schema_gap::ipv6_literal:
            return "ipv6_literal";
        case schema_gap::valijson_integer_fraction:
            return "valijson_integer_fraction";
        case schema_gap::valijson_big_integer:
            return "valijson_big_integer";
    }
    return "?";
}

}  // namespace

TEST_CASE("export the request examples and their verdicts as JSON", "[.export-examples]") {
    const char* out_path = std::getenv("ESIGN_EXAMPLES_JSON");
    REQUIRE(out_path != nullptr);

    bj::array rows;
    for (const auto& r : table()) {
        const std::string body = r.body();
        auto problems = read_request(r.op, body, r.strict);
        REQUIRE(problems.has_value());
        CHECK(problems->empty() == r.expected.empty());  // the table's own verdict
        rows.push_back(bj::object{{"op", r.op},
                                  {"strict", r.strict},
                                  {"body", body},
                                  {"decoderAccepts", problems->empty()},
                                  {"gap", gap_name(r.gap)}});
    }
    bj::object schemas;
    for_each_operation([&](const auto& operation) {
        using request = typename std::remove_cvref_t<decltype(operation)>::request_type;
        schemas[operation.path] = bj::object{{"lax", esign::schema::json_schema<request>({.strict = false})},
                                             {"strict", esign::schema::json_schema<request>({.strict = true})}};
    });
    REQUIRE(rows.size() > 500);

    std::ofstream out(out_path, std::ios::binary);
    out << bj::serialize(bj::object{{"rows", std::move(rows)}, {"schemas", std::move(schemas)}});
    out.close();
    REQUIRE(out.good());
}

}  // namespace test_export_request_examples
