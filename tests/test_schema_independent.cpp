// SPDX-License-Identifier: BSL-1.0
// An independent JSON Schema validator, valijson, judges every request example of
// tests/request_examples.hpp (the table of tests/test_requests.cpp) against the schema that
// esign::schema exports for the request type of its operation, and must reach the decoder's
// verdict: accepted or refused. On the rows marked `.beyond_schema(reason)` it must reach the
// other verdict, the one the reason gives, so a mark that stops being true fails too.
//
// valijson 1.0 implements drafts 3, 4 and 7, not 2020-12. The exported schemas are read as
// draft 7, unchanged: they use only keywords that mean the same in draft 7 and in 2020-12 (the
// second test case checks it, so a new keyword cannot be ignored in silence), and "$defs" is
// reached by "$ref": "#/$defs/Name", a JSON pointer, which any draft resolves.
//
// Built only where the valijson headers are (tests/CMakeLists.txt, meson.build).
#include "request_examples.hpp"

#include <catch2/catch.hpp>

#include <cstddef>
#include <exception>
#include <map>
#include <memory>
#include <set>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <boost/json.hpp>

#ifndef VALIJSON_USE_EXCEPTIONS
#define VALIJSON_USE_EXCEPTIONS 1  // valijson's errors as exceptions, not abort()
#endif
#include <valijson/adapters/boost_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <esign/schema/json_schema.hpp>

namespace test_schema_independent {

namespace {

using namespace request_examples;

enum class outcome { accepts, refuses, throws };

const char* name(outcome o) {
    switch (o) {
        case outcome::accepts:
            return "accepts";
        case outcome::refuses:
            return "refuses";
        case outcome::throws:
            return "throws";
    }
    return "?";
}

outcome verdict_of(bool accepts) { return accepts ? outcome::accepts : outcome::refuses; }

// How Catch2 prints an outcome in a failed check.
std::ostream& operator<<(std::ostream& out, outcome o) { return out << name(o); }

// The exported schema of the request of `op`, with or without unknown members refused.
bj::object exported_schema(std::string_view op, bool strict) {
    bj::object out;
    for_each_operation([&](const auto& operation) {
        if (operation.path != op) return;
        using request = typename std::remove_cvref_t<decltype(operation)>::request_type;
        out = esign::schema::json_schema<request>({.strict = strict});
    });
    REQUIRE_FALSE(out.empty());
    return out;
}

// An exported schema, as valijson reads it.
std::unique_ptr<valijson::Schema> parse_schema(const bj::value& document) {
    auto schema = std::make_unique<valijson::Schema>();
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    valijson::adapters::BoostJsonAdapter adapter(document);
    REQUIRE_NOTHROW(parser.populateSchema(adapter, *schema));
    return schema;
}

// The exported schemas of the requests, each parsed once.
const valijson::Schema& request_schema(const std::string& op, bool strict) {
    static std::map<std::pair<std::string, bool>, std::unique_ptr<valijson::Schema>> cache;
    auto& slot = cache[{op, strict}];
    if (!slot) slot = parse_schema(exported_schema(op, strict));
    return *slot;
}

struct judgement {
    outcome verdict;
    std::string detail;  // valijson's errors, or its exception
};

judgement judge(const valijson::Schema& schema, const std::string& body) {
    const bj::value instance = bj::parse(body);  // of a member named twice, Boost.JSON keeps the last
    valijson::Validator validator;               // strong types: "3" is no integer
    valijson::ValidationResults results;
    valijson::adapters::BoostJsonAdapter target(instance);
    bool valid = false;
    try {
        valid = validator.validate(schema, target, &results);
    } catch (const std::exception& e) {
        return {outcome::throws, e.what()};
    }
    std::string detail;
    valijson::ValidationResults::Error error;
    while (results.popError(error)) {
        detail += "\n    ";
        for (const auto& part : error.context) detail += part;
        detail += ": " + error.description;
    }
    return {valid ? outcome::accepts : outcome::refuses, detail};
}

// What a marked row must give: the decoder's verdict, and valijson's other one.
struct disagreement {
    bool decoder_accepts;
    outcome valijson;
};

disagreement documented(schema_gap gap) {
    switch (gap) {
        case schema_gap::duplicate_member:
        case schema_gap::unique_key:
        case schema_gap::ipv6_literal:
            return {false, outcome::accepts};
        case schema_gap::valijson_integer_fraction:
            return {true, outcome::refuses};
        case schema_gap::valijson_big_integer:
            return {false, outcome::throws};
        case schema_gap::none:
            break;
    }
    FAIL("no disagreement is documented for " << reason(gap));
    return {};
}

}  // namespace

TEST_CASE("valijson: the exported schemas judge every request example as the decoder does", "[schema][valijson]") {
    std::map<schema_gap, std::size_t> rows_by_gap;
    std::set<std::string> operations;
    for (const auto& r : table()) {
        const std::string body = r.body();
        INFO(r.op << (r.strict ? " (strict)" : "") << ": " << r.change.description);
        INFO("body: " << (body.size() > 400 ? body.substr(0, 400) + "..." : body));
        INFO("marked: " << reason(r.gap));
        auto problems = read_request(r.op, body, r.strict);
        REQUIRE(problems.has_value());
        INFO("decoder problems:" << describe(*problems));
        const bool decoder_accepts = problems->empty();
        CHECK(decoder_accepts == r.expected.empty());

        const judgement valijson = judge(request_schema(r.op, r.strict), body);
        INFO("valijson " << name(valijson.verdict) << ":" << valijson.detail);
        if (r.gap == schema_gap::none) {
            CHECK(valijson.verdict == verdict_of(decoder_accepts));
        } else {
            const disagreement d = documented(r.gap);
            CHECK(decoder_accepts == d.decoder_accepts);
            CHECK(valijson.verdict == d.valijson);
        }
        if (r.gap == schema_gap::duplicate_member) CHECK(r.raw);  // only bytes can hold a name twice

        ++rows_by_gap[r.gap];
        operations.insert(r.op);
    }
    // Every request type was judged, and every reason marks at least one row.
    CHECK(operations.size() == operation_count);
    for (auto gap : {schema_gap::duplicate_member, schema_gap::unique_key, schema_gap::ipv6_literal,
                     schema_gap::valijson_integer_fraction, schema_gap::valijson_big_integer}) {
        INFO(reason(gap));
        CHECK(rows_by_gap[gap] > 0);
    }
    CHECK(rows_by_gap[schema_gap::none] > 500);
}

namespace {

// The keywords of the exported schemas, which valijson reads as draft 7: each means the same in
// draft 7 and in 2020-12. ("format" values such as "uri" or "int32" are annotations in both;
// valijson checks only date, time and date-time.)
const std::set<std::string> common_keywords = {
    "type",    "enum",        "properties", "required",  "additionalProperties",
    "items",   "minItems",    "maxItems",   "minLength", "maxLength",
    "pattern", "format",      "minimum",    "maximum",   "anyOf",
    "title",   "$comment",    "if",         "then",      "const",
    "allOf",   "uniqueItems", "oneOf",      "else",      "not",
};

// Checks the schema `s` and every schema within it; `root` allows "$schema" and "$defs".
void check_keywords(const bj::value& s, bool root, std::set<std::string>& seen) {
    REQUIRE(s.is_object());
    const bj::object& o = s.as_object();
    if (o.contains("$ref")) {
        // Draft 7 ignores the siblings of "$ref", 2020-12 applies them: there are none.
        CHECK(o.size() == 1);
        CHECK(std::string_view(o.at("$ref").as_string()).starts_with("#/$defs/"));
        seen.insert("$ref");
        return;
    }
    for (const auto& member : o) {
        const std::string key(member.key());
        INFO("keyword " << key);
        if (root && (key == "$schema" || key == "$defs")) {
            seen.insert(key);
            continue;
        }
        CHECK(common_keywords.contains(key));
        // The formats valijson asserts (2020-12 only annotates them): none is used.
        if (key == "format")
            CHECK_FALSE(std::set<std::string_view>{"date", "time", "date-time"}.contains(
                std::string_view(member.value().as_string())));
        seen.insert(key);
    }
    if (auto* p = o.if_contains("properties"))
        for (const auto& m : p->as_object()) check_keywords(m.value(), false, seen);
    if (auto* i = o.if_contains("items")) check_keywords(*i, false, seen);  // one schema: same in both drafts
    if (auto* a = o.if_contains("additionalProperties"); a && a->is_object()) check_keywords(*a, false, seen);
    for (const char* list : {"anyOf", "allOf", "oneOf"})
        if (auto* items = o.if_contains(list))
            for (const auto& item : items->as_array()) check_keywords(item, false, seen);
    for (const char* one : {"if", "then", "else", "not"})
        if (auto* sub = o.if_contains(one)) check_keywords(*sub, false, seen);
    if (root)
        if (auto* defs = o.if_contains("$defs"))
            for (const auto& m : defs->as_object()) check_keywords(m.value(), false, seen);
}

}  // namespace

TEST_CASE("valijson: the exported schemas use only keywords that draft 7 reads alike", "[schema][valijson]") {
    std::set<std::string> seen;
    for_each_operation([&](const auto& operation) {
        using op_type = std::remove_cvref_t<decltype(operation)>;
        for (bool strict : {false, true}) {
            INFO(operation.path << (strict ? " (strict)" : ""));
            const bj::value request = esign::schema::json_schema<typename op_type::request_type>({.strict = strict});
            const bj::value response = esign::schema::json_schema<typename op_type::response_type>({.strict = strict});
            for (const bj::value* s : {&request, &response}) {
                CHECK(std::string_view(s->at("$schema").as_string()) == esign::schema::json_schema_dialect);
                check_keywords(*s, true, seen);
            }
        }
    });
    // The walk reached the keywords that carry the constraints.
    for (auto keyword :
         {"$ref", "$defs", "enum", "required", "additionalProperties", "items", "minItems", "maxItems", "minLength",
          "maxLength", "pattern", "minimum", "maximum", "if", "then", "const", "allOf", "uniqueItems"}) {
        INFO(keyword);
        CHECK(seen.contains(keyword));
    }
}

TEST_CASE("valijson: references into $defs are followed", "[schema][valijson]") {
    // The request schemas define nothing under $defs; a list response refers to #/$defs/Pagination.
    using response = esign::workspace_list_response;
    const bj::value exported = esign::schema::json_schema<response>();
    REQUIRE(exported.at_pointer("/properties/pagination/$ref") == bj::value("#/$defs/Pagination"));
    const auto schema = parse_schema(exported);

    auto verdicts = [&](const std::string& pagination) {
        const std::string body = R"({"workspaces":[],"pagination":)" + pagination + "}";
        INFO(body);
        const judgement valijson = judge(*schema, body);
        INFO("valijson " << name(valijson.verdict) << ":" << valijson.detail);
        const bool decoder_accepts = esign::json::read<response>(body).has_value();
        CHECK(valijson.verdict == verdict_of(decoder_accepts));
        return decoder_accepts;
    };
    CHECK(verdicts(R"({"totalRecords":0,"currentPage":1,"totalPages":1,"nextPage":null,"prevPage":null})"));
    CHECK(verdicts(R"({"totalRecords":120,"currentPage":2,"totalPages":3,"nextPage":3,"prevPage":1})"));
    CHECK_FALSE(verdicts(R"({"totalRecords":0,"currentPage":1,"totalPages":1,"nextPage":"2","prevPage":null})"));
    CHECK_FALSE(verdicts(R"({"totalRecords":0,"currentPage":1,"nextPage":null,"prevPage":null})"));
    CHECK_FALSE(verdicts(R"([])"));
}

}  // namespace test_schema_independent
