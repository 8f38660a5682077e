// SPDX-License-Identifier: BSL-1.0
// The bytes layer of the JSON engine (contract.md §1): body errors (empty, invalid JSON or
// UTF-8, lone surrogates, trailing garbage, non-object roots, depth), robustness (decoding never
// throws), decode(value) against read(bytes), the error body, HTTP statuses per code, and the
// fmt formatting of problems and enums.
#include <catch2/catch.hpp>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <limits>
#include <set>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/json.hpp>
#include <fmt/format.h>

#include <esign/esign.hpp>

#include "../fuzz/json_events_oracle.hpp"

namespace test_json_engine {

namespace {

using namespace esign;
namespace bj = boost::json;

// ---------------------------------------------------------------------------------------------
// Helpers

const std::string U = "0b5c2a1e-9a7e-4c5b-8a3d-2f6e1d4c3b2a";  // 36 characters

// Decodes `bytes` as the request of every operation; the problems of each, in table order.
std::vector<problem_list> read_as_every_request(std::string_view bytes, bool strict = false) {
    std::vector<problem_list> out;
    for_each_operation([&](const auto& op) {
        using request = typename std::remove_cvref_t<decltype(op)>::request_type;
        auto r = esign::json::read<request>(bytes, esign::json::decode_options{.strict = strict});
        out.push_back(r.problems());
    });
    return out;
}

// A body error: exactly one problem, at [], of kind syntax (for every request type).
void check_body_error(std::string_view bytes) {
    INFO("body: " << std::string(bytes));
    for (const auto& problems : read_as_every_request(bytes)) {
        REQUIRE(problems.size() == 1);
        CHECK(problems[0].path.empty());
        CHECK(problems[0].kind == problem_kind::syntax);
        CHECK_FALSE(problems[0].limit.has_value());
        CHECK_FALSE(problems[0].message.empty());
    }
}

// A body the bytes layer accepts (any problems are the request's own, never syntax).
void check_not_body_error(std::string_view bytes) {
    INFO("body: " << std::string(bytes));
    auto r = esign::json::read<control_reset_request>(bytes);
    CHECK(r.has_value());
    for (const auto& p : r.problems()) CHECK(p.kind != problem_kind::syntax);
}

std::string nested_arrays(std::size_t arrays) {  // {"a": [[...]]}: depth arrays + 1
    return "{\"a\":" + std::string(arrays, '[') + std::string(arrays, ']') + "}";
}
std::string nested_objects(std::size_t objects) {  // {"a":{"a":{...}}}: depth objects
    std::string s;
    for (std::size_t i = 1; i < objects; ++i) s += "{\"a\":";
    s += "{}";
    for (std::size_t i = 1; i < objects; ++i) s += "}";
    return s;
}
std::string nested_mixed(std::size_t depth) {  // {"a":[{"a":[...]}]}: alternating, root object
    std::string open, close;
    for (std::size_t d = 1; d <= depth; ++d) {
        if (d % 2 == 1) {
            open += d == depth ? "{" : "{\"a\":";
            close = "}" + close;
        } else {
            open += "[";
            close = "]" + close;
        }
    }
    return open + close;
}

// The civil date of a unix day (Howard Hinnant's days_from_civil inverse), written here so
// iso8601_ms is checked against an independent computation.
std::string expected_iso8601(std::int64_t ms) {
    std::int64_t secs = ms >= 0 ? ms / 1000 : -((-ms + 999) / 1000);
    std::int64_t millis = ms - secs * 1000;
    std::time_t t = static_cast<std::time_t>(secs);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                  tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(millis));
    return buf;
}

// contract.md §1: 401, 403, 500, else 400.
unsigned expected_status(error_code code) {
    switch (code) {
        case error_code::AUTHENTICATION_ERROR:
        case error_code::DBSC_COOKIE_INVALID:
        case error_code::TUNNEL_ERROR:
        case error_code::TUNNEL_SESSION_NOT_FOUND:
            return 401;
        case error_code::AUTHORIZATION_ERROR:
        case error_code::FEATURE_NOT_IN_CURRENT_PLAN:
            return 403;
        case error_code::INTERNAL_SERVER_ERROR:
            return 500;
        case error_code::TEAM_LIMIT_REACHED:  // contract.md §6.9
            return 429;
        case error_code::SIGNING_TOKEN_UNKNOWN:  // contract.md §7.1, the signing page's
            return 404;
        case error_code::SIGNING_TOKEN_USED:
            return 409;
        case error_code::SIGNING_TOKEN_EXPIRED:
            return 410;
        case error_code::SIGNING_SESSION_INVALID:
            return 401;
        default:
            return 400;
    }
}

problem make_problem(problem_path path, problem_kind kind, std::string message) {
    return problem{std::move(path), kind, std::nullopt, std::move(message)};
}

// Inputs for the robustness test: valid bodies of several operations, and pieces of JSON.
const std::vector<std::string>& seed_bodies() {
    static const std::vector<std::string> seeds{
        R"({"envelopeUuid":")" + U +
            R"(","recipients":[{"type":"manual","email":"a@example.com","firstname":"A","lastname":"B","verificationType":"sms","phone":"+1"}]})",
        R"({"envelopeUuid":")" + U + R"(","documentUuid":")" + U +
            R"(","blocks":[{"page":"01","x":1.5,"y":-2e3,"type":"text","text":"t","defaultValue":true,"maxLength":3.0}]})",
        R"({"envelopeUuid":")" + U +
            R"(","update":{"title":"\u00e9\ud83d\ude00","customInvitationMessage":null,"documents":[{"uuid":")" + U +
            R"(","initialsVerticalMargin":120}]}})",
        R"({"category":"envelope","eventTypes":["ENVELOPE_SENT"],"page":1,"limit":50,"sortBy":"id"})",
        R"({"name":"W","colorHex":"#a1b2c3"})",
        R"({"uuid":")" + U + R"(","url":"https://example.com/h","secret":null,"events":["ENVELOPE_SENT"],"title":"t"})",
        R"({"contact":{"email":"a@example.com","firstname":"A","lastname":"B","phone":null}})",
        R"({"a":[1,2,{"b":[null,true,false,"x\n\t\"\\"]}],"c":{}})",
        R"({})",
    };
    return seeds;
}

std::string mutate(std::string s, std::mt19937& rng) {
    static const std::string alphabet = "{}[]\":,\\ \t\n0123456789.eE+-truefalsnu\x80\xbf\xc3\xe2\xf0\xff\x00";
    std::uniform_int_distribution<int> op_dist(0, 6);
    int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
        std::size_t pos = s.empty() ? 0 : rng() % (s.size() + 1);
        char c = alphabet[rng() % alphabet.size()];
        switch (op_dist(rng)) {
            case 0:
                s.insert(s.begin() + static_cast<std::ptrdiff_t>(pos), c);
                break;
            case 1:
                if (pos < s.size()) s[pos] = c;
                break;
            case 2:
                if (pos < s.size()) s.erase(pos, 1);
                break;
            case 3:
                s = s.substr(0, pos);
                break;  // truncation
            case 4:
                if (pos < s.size()) s[pos] = static_cast<char>(rng() & 0xFF);
                break;
            case 5:
                s.insert(pos, s.substr(pos, rng() % 16));
                break;  // duplicate a slice
            default: {
                std::size_t from = s.empty() ? 0 : rng() % s.size();
                s.insert(pos, s.substr(from, rng() % 24));
            }
        }
    }
    return s;
}

}  // namespace

// =============================================================================================
// Body errors: exactly one problem at [] of kind syntax

TEST_CASE("json engine: empty and blank bodies", "[json][body]") {
    check_body_error("");
    check_body_error(" ");
    check_body_error("\n\t\r ");
}

TEST_CASE("json engine: invalid JSON", "[json][body]") {
    check_body_error("{");
    check_body_error("}");
    check_body_error("{\"a\"}");
    check_body_error("{\"a\":}");
    check_body_error("{\"a\":1,}");  // trailing comma
    check_body_error("{'a':1}");     // single quotes
    check_body_error("{a:1}");       // unquoted key
    check_body_error("{\"a\":01}");  // leading zero
    check_body_error("{\"a\":NaN}");
    check_body_error("{\"a\":Infinity}");
    check_body_error("{\"a\":tru}");
    check_body_error("{\"a\":\"unterminated}");
    check_body_error("{\"a\":\"ctrl\x01\"}");  // unescaped control character
    check_body_error("{\"a\":\"\\x41\"}");     // invalid escape
    check_body_error("{/*comment*/}");         // comments are not JSON
    check_body_error("// c\n{}");
    check_body_error(std::string_view("{\0}", 3));
}

TEST_CASE("json engine: invalid UTF-8", "[json][body]") {
    check_body_error("{\"title\":\"\xff\"}");
    check_body_error("{\"title\":\"a\xc3\"}");             // truncated sequence
    check_body_error("{\"title\":\"\xc0\xaf\"}");          // overlong
    check_body_error("{\"title\":\"\xed\xa0\x80\"}");      // a surrogate encoded in UTF-8
    check_body_error("{\"title\":\"\xf4\x90\x80\x80\"}");  // beyond U+10FFFF
    check_body_error("{\"\xff\":1}");                      // in a member name
    check_body_error("{\"a\":1}\xff");                     // after the object
}

TEST_CASE("json engine: lone surrogate escapes", "[json][body]") {
    check_body_error(R"({"title":"\ud800"})");
    check_body_error(R"({"title":"\udc00"})");  // lone trailing surrogate
    check_body_error(R"({"title":"a\ud800b"})");
    check_body_error(R"({"title":"\ud800\u0041"})");  // high surrogate, then not a low one
    check_body_error(R"({"title":"\ud800\ud800"})");
    check_body_error(R"({"\ud800":1})");  // in a member name
    // A proper pair is fine.
    check_not_body_error(R"({"title":"\ud83d\ude00"})");
}

TEST_CASE("json engine: trailing garbage", "[json][body]") {
    check_body_error("{} x");
    check_body_error("{}{}");
    check_body_error("{}}");
    check_body_error("{},");
    check_body_error("{} 1");
    check_body_error("{}\n[]");
    // Whitespace around the object is not garbage.
    check_not_body_error("{} ");
    check_not_body_error("{}\n");
    check_not_body_error(" \r\n\t{}\r\n\t ");
}

TEST_CASE("json engine: non-object roots", "[json][body]") {
    check_body_error("[]");
    check_body_error("[{}]");
    check_body_error("\"{}\"");
    check_body_error("1");
    check_body_error("-1.5e3");
    check_body_error("null");
    check_body_error("true");
    check_body_error("false");
}

TEST_CASE("json engine: depth 64 accepted, 65 refused", "[json][body]") {
    // The root object is depth 1.
    check_not_body_error(nested_arrays(63));
    check_body_error(nested_arrays(64));
    check_not_body_error(nested_objects(64));
    check_body_error(nested_objects(65));
    check_not_body_error(nested_mixed(64));
    check_body_error(nested_mixed(65));
    check_body_error(nested_arrays(1000));
    check_body_error(std::string(100000, '['));  // deep and unterminated: still one problem
}

// =============================================================================================
// The scanner (json/detail/scanner.hpp) against boost::json::basic_parser: the same verdict and
// the same events (fuzz_decode checks the same on every input it makes)

TEST_CASE("json engine: the scanner gives boost::json::basic_parser's verdict and events", "[json][scanner]") {
    std::vector<std::string> inputs = seed_bodies();
    // Numbers at the edges of each kind, and malformed ones.
    for (const char* n : {"0",
                          "-0",
                          "-0.0",
                          "1",
                          "-1",
                          "9223372036854775807",
                          "9223372036854775808",
                          "-9223372036854775808",
                          "-9223372036854775809",
                          "18446744073709551615",
                          "18446744073709551616",
                          "123456789012345678901234567890",
                          "1e2",
                          "1E+2",
                          "1e-2",
                          "1.5e308",
                          "1e309",
                          "-1e309",
                          "1e-400",
                          "4.9e-324",
                          "2.2250738585072014e-308",
                          "0.1",
                          "00",
                          "01",
                          "-",
                          "-a",
                          "1.",
                          ".5",
                          "1e",
                          "1e+",
                          "+1",
                          "1.5.5",
                          "0x10",
                          "1e2147483647",
                          "1e2147483648",
                          "-1e-2147483648",
                          "0e5555",
                          "-0e99999999999"}) {
        inputs.push_back(std::string(R"({"n":)") + n + "}");
        inputs.push_back(std::string(R"({"n":[)") + n + "]}");
    }
    // Every special byte at every position around the 16-byte blocks a string is scanned in.
    for (const std::string special : {R"(\\)",
                                      R"(\")",
                                      R"(\n)",
                                      R"(\u00e9)",
                                      R"(\ud83d\ude00)",
                                      R"(\ud83d)",
                                      R"(\x)",
                                      R"(\)",
                                      "\x01",
                                      "\x7f",
                                      "\xc3\xa9",
                                      "\xe2\x82\xac",
                                      "\xf0\x9f\x98\x80",
                                      "\xc3",
                                      "\xe2\x82",
                                      "\xff",
                                      "\xed\xa0\x80",
                                      "\xc0\xaf",
                                      "\xf4\x90\x80\x80",
                                      "\""}) {
        for (std::size_t before = 0; before < 40; ++before) {
            const std::string text = std::string(before, 'a') + special + std::string(before % 7, 'b');
            inputs.push_back(R"({"s":")" + text + R"("})");
            inputs.push_back(R"({")" + text + R"(":1})");
            inputs.push_back(R"({"s":")" + text);  // the body ends inside the string
        }
    }
    // Structure: whitespace, nesting, literals, depth at the limit.
    for (const char* body : {" { } ",
                             "{\"a\":[]}",
                             "{\"a\":[[],{}]}",
                             "{\"a\":{\"b\":{}}}",
                             "{\"a\":true}",
                             "{\"a\":false}",
                             "{\"a\":null}",
                             "{\"a\":nul}",
                             "{\"a\":truex}",
                             "{\"a\":[1 2]}",
                             "{\"a\" 1}",
                             "{\"a\":1 \"b\":2}",
                             "{,}",
                             "[,]",
                             "{\"a\":[1,]}",
                             "\t\r\n{}\t\r\n",
                             "{}\f",
                             "\"x\"",
                             "[]",
                             "1",
                             "null",
                             "",
                             " ",
                             "{\"a\":\"\\/\\b\\f\\r\\t\"}"}) {
        inputs.push_back(body);
    }
    // Whitespace of each kind at every place in a body (between its tokens, where the scanner skips
    // it only when the byte it expects is not there, and inside tokens, where it is an error or
    // part of a string).
    for (const std::string& body : {std::string(R"({"a":[1,{"b":"x"},true],"c":{"d":null,"e":-1.5e2}})"),
                                    std::string(R"({"a":[[],{}],"b":"\u00e9"})")}) {
        for (std::size_t at = 0; at <= body.size(); ++at)
            for (const char* space : {" ", "\t", "\n", "\r", " \n\t\r "})
                inputs.push_back(body.substr(0, at) + space + body.substr(at));
    }
    for (std::size_t depth : {63u, 64u, 65u}) {
        inputs.push_back(std::string(depth, '[') + std::string(depth, ']'));
        inputs.push_back("{\"a\":" + std::string(depth - 1, '[') + std::string(depth - 1, ']') + "}");
    }
    std::mt19937 rng(20261126u);
    for (int i = 0; i < 3000; ++i) inputs.push_back(mutate(seed_bodies()[rng() % seed_bodies().size()], rng));

    for (const std::string& input : inputs) {
        INFO(input);
        CHECK(esign_fuzz::first_difference(input).empty());
    }
}

// The message of a body that is not JSON says what is wrong and at which byte.
TEST_CASE("json engine: a body that is not JSON is told what is wrong and where", "[json][scanner]") {
    const std::pair<std::string, std::string> cases[] = {
        {"{", "the body ends where a member name should be (at byte 1)"},
        {R"({"a")", "the body ends where ':' should be (at byte 4)"},
        {R"({"a":)", "the body ends where a value should be (at byte 5)"},
        {R"({"a":1)", "the body ends inside an object (at byte 6)"},
        {R"({"a":[1)", "the body ends inside an array (at byte 7)"},
        {R"({"a":1,})", "expected a member name (a string) (at byte 7)"},
        {R"({"a" 1})", "expected ':' after a member name (at byte 5)"},
        {R"({"a":01})", "expected ',' or '}' after a member's value (at byte 6)"},
        {R"({"a":[1 2]})", "expected ',' or ']' after an array item (at byte 8)"},
        {R"({"a":NaN})", "expected a value (an object, array, string, number, true, false or null) (at byte 5)"},
        {R"({"a":"x)", "a string is not closed (at byte 7)"},
        {"{\"a\":\"x\x01\"}", "a string holds a control character (U+0000 to U+001F) that is not escaped (at byte 7)"},
        {R"({"a":"\x"})", "a string holds an unknown escape (at byte 6)"},
        {R"({"a":"\u12"})", "a \\u escape needs four hex digits (at byte 10)"},
        {R"({"a":"\ud800"})", "a \\u escape is a lone surrogate (at byte 6)"},
        {"{\"a\":\"\xff\"}", "a string is not valid UTF-8 (at byte 6)"},
        {R"({"a":-})", "a number needs a digit (at byte 6)"},
        {R"({"a":1.})", "a number's fraction needs a digit (at byte 7)"},
        {R"({"a":1e})", "a number's exponent needs a digit (at byte 7)"},
        {"{} x", "there is more after the JSON value (at byte 3)"},
        // The same places after whitespace: the byte after it is the one told.
        {"{  ", "the body ends where a member name should be (at byte 3)"},
        {"{ 1}", "expected a member name (a string) (at byte 2)"},
        {R"({"a"  )", "the body ends where ':' should be (at byte 6)"},
        {R"({"a" ,1})", "expected ':' after a member name (at byte 5)"},
        {R"({"a" :  )", "the body ends where a value should be (at byte 8)"},
        {R"({"a":  })", "expected a value (an object, array, string, number, true, false or null) (at byte 7)"},
        {R"({"a":1 , })", "expected a member name (a string) (at byte 9)"},
        {R"({"a":[1 ,  ]})", "expected a value (an object, array, string, number, true, false or null) (at byte 11)"},
        {R"({"a":[ )", "the body ends where a value should be (at byte 7)"},
        {"{\"a\":\n\t-}", "a number needs a digit (at byte 8)"},
    };
    for (const auto& [body, what] : cases) {
        INFO(body);
        const auto r = esign::json::read<control_reset_request>(body);
        REQUIRE_FALSE(r.has_value());
        REQUIRE(r.problems().size() == 1);
        CHECK(r.problems()[0].message == "the request body is not valid JSON: " + what);
    }
}

TEST_CASE("json engine: the scanner's doubles are correctly rounded (std::from_chars's)", "[json][scanner]") {
    std::mt19937_64 rng(20261126u);
    std::vector<std::string> numbers{"0.1",
                                     "-0.0",
                                     "0.3",
                                     "1e22",
                                     "1e23",
                                     "9007199254740993.0",
                                     "9007199254740992.5",
                                     "123456789012345678.5",
                                     "1.7976931348623157e308",
                                     "2.2250738585072011e-308",
                                     "4.9406564584124654e-324",
                                     "0.000001e-22",
                                     "1e-22",
                                     "12345678901234567890e-30"};
    for (int i = 0; i < 20000; ++i) {
        // Up to 20 digits with a point somewhere, and an exponent or not.
        std::string digits = std::to_string(rng() % 100000000000000000ull);
        if (rng() % 3 == 0) digits += std::to_string(rng() % 1000);
        const std::size_t point = 1 + rng() % digits.size();
        std::string n = (rng() % 2 ? "-" : "") + digits.substr(0, point);
        if (point < digits.size()) n += "." + digits.substr(point);
        if (rng() % 2) n += "e" + std::to_string(static_cast<int>(rng() % 61) - 30);
        if (n.find_first_of(".e") == std::string::npos) n += ".0";
        numbers.push_back(std::move(n));
    }
    for (const std::string& n : numbers) {
        INFO(n);
        const auto recorded = esign_fuzz::record_with_esign(R"({"n":)" + n + "}", 64);
        REQUIRE(recorded.accepted);
        REQUIRE(recorded.events.size() == 4);
        const auto& number = recorded.events[2];
        REQUIRE(number.value.kind == bj::kind::double_);
        double expected = 0;
        REQUIRE(std::from_chars(n.data(), n.data() + n.size(), expected).ec == std::errc{});
        CHECK(std::memcmp(&number.value.double_, &expected, sizeof expected) == 0);  // the same bits, sign of 0 too
        CHECK(number.text == n);
    }
}

TEST_CASE("json engine: a DOM's double kept as text is written as fmt writes {}", "[json][scalar]") {
    // scalar_text's text of a number read from a boost::json::value (no source text): the
    // detail writer against fmt itself, on the thresholds of fixed notation, the extremes, and
    // random bit patterns, random integers and short decimals.
    std::vector<double> values{0.0,
                               -0.0,
                               1.0,
                               -1.0,
                               0.1,
                               0.0001,
                               0.00012345,
                               0.00001,
                               1.5e-5,
                               1e15,
                               1e16,
                               1.5e16,
                               123456789012345.6,
                               9999999999999998.0,
                               1e21,
                               1e22,
                               1e100,
                               1e-100,
                               1e300,
                               1e-300,
                               5e-324,
                               2.2250738585072014e-308,
                               1.7976931348623157e308,
                               100.0,
                               1234.5,
                               -0.5,
                               3.0e-4,
                               0.3};
    std::mt19937_64 rng(20261207u);
    for (int i = 0; i < 20000; ++i) {
        const std::uint64_t bits = rng();
        double d = 0;
        std::memcpy(&d, &bits, sizeof d);
        if (std::isfinite(d)) values.push_back(d);
        values.push_back(static_cast<double>(static_cast<std::int64_t>(rng() % 100000000000000000ull)) /
                         std::pow(10.0, static_cast<double>(rng() % 25)));
    }
    for (double d : values) {
        INFO(fmt::format("{:a}", d));
        CHECK(esign::json::detail::general_double_text(d) == fmt::format("{}", d));
    }
    CHECK(esign::json::detail::general_double_text(std::numeric_limits<double>::infinity()) == "inf");
    CHECK(esign::json::detail::general_double_text(-std::numeric_limits<double>::infinity()) == "-inf");
    CHECK(esign::json::detail::general_double_text(std::numeric_limits<double>::quiet_NaN()) == "nan");
    // Through the codec: a defaultValue decoded from a DOM.
    const auto block = esign::json::decode<esign::add_blocks_item>(
        bj::parse(R"({"page":"1","x":0,"y":0,"type":"text","text":"t","defaultValue":1.5e-7})"));
    REQUIRE(block);
    CHECK(block->defaultValue->str() == "1.5e-07");
}

// =============================================================================================
// Robustness: decoding never throws

TEST_CASE("json engine: decoding random and mutated inputs never throws", "[json][robust]") {
    std::mt19937 rng(20240611u);
    std::vector<std::string> inputs;
    for (int i = 0; i < 300; ++i) {
        const auto& seed = seed_bodies()[rng() % seed_bodies().size()];
        inputs.push_back(mutate(seed, rng));
    }
    for (int i = 0; i < 60; ++i) {  // plain random bytes
        std::string s(rng() % 64, '\0');
        for (auto& c : s) c = static_cast<char>(rng() & 0xFF);
        inputs.push_back(s);
    }
    for (const auto& input : inputs) {
        std::vector<problem_list> results;
        CHECK_NOTHROW(results = read_as_every_request(input, (input.size() % 2) == 0));
        // Invariants: a body error is alone at []; otherwise no problem is a syntax problem.
        for (const auto& problems : results) {
            bool syntax = false;
            for (const auto& p : problems) syntax = syntax || p.kind == problem_kind::syntax;
            if (syntax) {
                CHECK(problems.size() == 1);
                CHECK(problems[0].path.empty());
            }
        }
        // decode(value) too, when the bytes are JSON.
        bj::error_code ec;
        bj::value v = bj::parse(input, ec);
        if (!ec) {
            CHECK_NOTHROW(for_each_operation([&](const auto& op) {
                using request = typename std::remove_cvref_t<decltype(op)>::request_type;
                (void)esign::json::decode<request>(v);
            }));
        }
    }
}

TEST_CASE("json engine: hostile values never throw", "[json][robust]") {
    const std::string bodies[] = {
        R"({"page":1e400})",
        R"({"page":-1e400})",
        R"({"page":18446744073709551615})",
        R"({"page":18446744073709551616})",
        R"({"page":-9223372036854775809})",
        R"({"page":9223372036854775807})",
        R"({"page":1e-400})",
        R"({"page":-0.0})",
        R"({"limit":[[[[[[[[]]]]]]]],"page":{"a":{"b":null}}})",
        R"({"recipients":[null,1,"x",[],{}],"envelopeUuid":null})",
        R"({"blocks":[{"defaultValue":1e308,"maxLength":1e308,"x":1e308,"y":-1e308}]})",
        R"({"milliseconds":9223372036854775808})",
        "{\"title\":\"" + std::string(100000, 'x') + "\"}",
    };
    for (const auto& body : bodies) {
        INFO(body.substr(0, 80));
        CHECK_NOTHROW(read_as_every_request(body, true));
    }
}

// contract.md §2: an integer member is a number without a fractional part, from -2^31 to 2^31-1
// and within its own range (page at least 1). Each hostile page is refused at ["page"] and
// nowhere else; the largest in range is accepted.
TEST_CASE("json engine: hostile numbers get their verdict", "[json][robust]") {
    const std::vector<std::string> refused{"1e400",
                                           "-1e400",
                                           "18446744073709551615",
                                           "18446744073709551616",
                                           "-9223372036854775809",
                                           "9223372036854775807",
                                           "2147483648",
                                           "1e-400",
                                           "-0.0",
                                           "0",
                                           "1.5",
                                           "[[[[[[[[]]]]]]]]",
                                           R"({"a":{"b":null}})",
                                           "null",
                                           R"("1")",
                                           "true"};
    for (const auto& page : refused) {
        const std::string body = R"({"page":)" + page + "}";
        INFO(body);
        const auto r = esign::json::read<workspace_list_request>(body);
        REQUIRE_FALSE(r.has_value());
        REQUIRE(r.problems().size() == 1);
        CHECK(r.problems()[0].path == problem_path{"page"});
    }
    for (const auto& page : {"1", "1.0", "2147483647", "2147483647.0"}) {
        const std::string body = std::string(R"({"page":)") + page + "}";
        INFO(body);
        const auto r = esign::json::read<workspace_list_request>(body);
        REQUIRE(r.has_value());
        REQUIRE(r->page.has_value());
        CHECK(r->page->value == (std::string_view(page).starts_with("2147483647") ? 2147483647 : 1));
    }
    // Several wrong members: one problem each, at its own path.
    const auto r = esign::json::read<workspace_list_request>(R"({"limit":[[[]]],"page":{"a":{"b":null}}})");
    REQUIRE_FALSE(r.has_value());
    std::set<problem_path> paths;
    for (const auto& p : r.problems()) paths.insert(p.path);
    CHECK(paths == std::set<problem_path>{problem_path{"limit"}, problem_path{"page"}});
}

// =============================================================================================
// decode(value) and read(bytes) agree

TEST_CASE("json engine: decode<T>(value) gives the same problems as read<T>(bytes)", "[json][decode]") {
    struct doc {
        std::string_view op;
        std::string text;
    };
    const std::vector<doc> docs{
        {"/public/envelope/add-recipients",
         R"({"envelopeUuid":"short","recipients":[{"type":"robot","email":"not-an-email","firstname":1},{"type":"manual","email":"a@example.com","firstname":"A","lastname":"B","verificationType":"sms"}]})"},
        {"/public/envelope/update",
         R"({"envelopeUuid":")" + U +
             R"(","update":{"title":null,"expirationPeriod":91,"reminderFrequencyPeriod":0.5,"documents":[{"initialsVerticalMargin":121}]}})"},
        {"/public/envelope/add-blocks", R"({"blocks":[{"page":"1a","x":"1","type":"image","defaultValue":{}}]})"},
        {"/public/logs/list", R"({"category":"team","eventTypes":["ENVELOPE_SENT","TEAM_CREATED"],"limit":51})"},
        {"/public/workspace/create", R"({"name":"","colorHex":"#abcd","extra":1})"},
        {"/public/envelope/create-from-template",
         R"({"templateUuid":")" + U +
             R"(","recipients":[{"type":"manual","label":"A","email":"a@example.com","firstname":"A","lastname":"B"},{"type":"manual","label":"B","email":"a@example.com","firstname":"A","lastname":"B"}]})"},
        {"/public/contact/delete", R"({"emails":[]})"},
        {"/public/webhook/create", R"({"url":"relative/path","contentType":"text/xml","sslVerify":"yes"})"},
        {"/public/utils/whoami", R"({"unknown":{"nested":true}})"},
        {"/public/envelope/get", R"({"envelopeUuid":")" + U + R"("})"},
    };
    for (bool strict : {false, true}) {
        for (const auto& d : docs) {
            INFO(d.op << (strict ? " (strict) " : " ") << d.text);
            bool found = false;
            for_each_operation([&](const auto& op) {
                if (op.path != d.op) return;
                found = true;
                using request = typename std::remove_cvref_t<decltype(op)>::request_type;
                const esign::json::decode_options options{.strict = strict};
                auto from_bytes = esign::json::read<request>(d.text, options);
                auto from_value = esign::json::decode<request>(bj::parse(d.text), options);
                CHECK(from_bytes.has_value() == from_value.has_value());
                CHECK(from_bytes.problems() == from_value.problems());
            });
            REQUIRE(found);
        }
    }
}

TEST_CASE("json engine: decode<T>(value) of a non-object root is one problem at []", "[json][decode]") {
    for (const char* text : {"[]", "\"x\"", "1", "null", "true"}) {
        INFO(text);
        auto r = esign::json::decode<envelope_get_request>(bj::parse(text));
        REQUIRE(r.problems().size() == 1);
        CHECK(r.problems()[0].path.empty());
    }
}

// =============================================================================================
// The error body

TEST_CASE("json engine: error body members", "[json][error-body]") {
    const esign::rules::error_context ctx{"/public/envelope/get", "0b5c2a1e-9a7e-4c5b-8a3d-2f6e1d4c3b2a",
                                          1795000000123};
    for (auto code : enum_values<error_code>()) {
        INFO(enum_to_wire(code));
        const problem_list problems{make_problem({"recipients", "3", "email"}, problem_kind::pattern, "bad e-mail")};
        const auto body = esign::rules::make_error_body(code, ctx, problems);
        CHECK(body.statusCode == expected_status(code));
        CHECK(body.error.code == code);
        CHECK_FALSE(body.error.message.empty());
        CHECK_FALSE(body.error.suggestion.empty());
        CHECK_FALSE(body.error.documentationUrl.empty());
        CHECK(body.requestId == ctx.request_id);
        CHECK(body.timestamp == "2026-11-18T11:06:40.123Z");
        CHECK(body.path == "/public/envelope/get");

        const auto json = esign::json::encode(body);
        const auto& o = json.as_object();
        CHECK(o.size() == 5);
        CHECK(o.at("statusCode") == static_cast<std::int64_t>(expected_status(code)));
        CHECK(o.at("requestId") == ctx.request_id.c_str());
        CHECK(o.at("timestamp") == "2026-11-18T11:06:40.123Z");
        CHECK(o.at("path") == "/public/envelope/get");
        const auto& e = o.at("error").as_object();
        CHECK(e.at("code") == bj::string_view(enum_to_wire(code).data(), enum_to_wire(code).size()));
        CHECK(e.at("message").is_string());
        CHECK(e.at("suggestion").is_string());
        CHECK(e.at("documentationUrl").is_string());
        if (code == error_code::INVALID_REQUEST_FORMAT) {
            REQUIRE(body.error.details.has_value());
            REQUIRE(body.error.details->size() == 1);
            CHECK((*body.error.details)[0].path == std::vector<std::string>{"recipients", "3", "email"});
            CHECK((*body.error.details)[0].message == "bad e-mail");
            REQUIRE(e.contains("details"));
            CHECK(e.at("details") == bj::parse(R"([{"path":["recipients","3","email"],"message":"bad e-mail"}])"));
            CHECK(e.size() == 5);
        } else {
            CHECK_FALSE(body.error.details.has_value());
            CHECK_FALSE(e.contains("details"));
            CHECK(e.size() == 4);
        }
    }
}

TEST_CASE("json engine: documentationUrl is the configured base followed by the code", "[json][error-body]") {
    esign::rules::error_context ctx{"/public/envelope/get", "id", 0};
    CHECK(esign::rules::make_error_body(error_code::ENVELOPE_NOT_FOUND, ctx).error.documentationUrl ==
          "https://esign.example/docs/errors#ENVELOPE_NOT_FOUND");
    ctx.documentation_base = "https://docs.test/errors/";
    for (auto code : enum_values<error_code>()) {
        INFO(enum_to_wire(code));
        CHECK(esign::rules::make_error_body(code, ctx).error.documentationUrl ==
              "https://docs.test/errors/" + std::string(enum_to_wire(code)));
    }
}

TEST_CASE("json engine: error body details", "[json][error-body]") {
    const esign::rules::error_context ctx{"/public/envelope/add-recipients", "id", 0};
    SECTION("a body error has one detail at path []") {
        auto bad = esign::json::read<envelope_get_request>("[]");
        REQUIRE_FALSE(bad.has_value());
        auto body = esign::rules::make_error_body(error_code::INVALID_REQUEST_FORMAT, ctx, bad.problems());
        REQUIRE(body.error.details.has_value());
        REQUIRE(body.error.details->size() == 1);
        CHECK(body.error.details->front().path.empty());
        const auto json = esign::json::encode(body);
        CHECK(json.at("error").at("details").at(0).at("path") == bj::array{});
    }
    SECTION("every problem is a detail, in order") {
        problem_list problems;
        for (int i = 0; i < 7; ++i)
            problems.push_back(make_problem({"recipients", std::to_string(i), "email"}, problem_kind::pattern,
                                            "m" + std::to_string(i)));
        auto body = esign::rules::make_error_body(error_code::INVALID_REQUEST_FORMAT, ctx, problems);
        REQUIRE(body.error.details.has_value());
        REQUIRE(body.error.details->size() == 7);
        for (int i = 0; i < 7; ++i) {
            CHECK((*body.error.details)[i].path == problems[i].path);
            CHECK((*body.error.details)[i].message == problems[i].message);
        }
    }
    SECTION("capped at 100") {
        for (std::size_t n : {99u, 100u, 101u, 250u}) {
            problem_list problems;
            for (std::size_t i = 0; i < n; ++i)
                problems.push_back(make_problem({"emails", std::to_string(i)}, problem_kind::pattern, "bad"));
            auto body = esign::rules::make_error_body(error_code::INVALID_REQUEST_FORMAT, ctx, problems);
            REQUIRE(body.error.details.has_value());
            CHECK(body.error.details->size() == std::min<std::size_t>(n, 100));
            CHECK(esign::json::encode(body).at("error").at("details").as_array().size() ==
                  std::min<std::size_t>(n, 100));
        }
    }
    SECTION("transport failures: their own status, no details") {
        for (unsigned status :
             {rules::transport_status::not_found, rules::transport_status::method_not_allowed,
              rules::transport_status::payload_too_large, rules::transport_status::unsupported_media_type}) {
            auto body = esign::rules::make_error_body(error_code::INVALID_REQUEST_FORMAT, ctx, {}, {}, status);
            CHECK(body.statusCode == status);
            CHECK_FALSE(body.error.details.has_value());
            CHECK_FALSE(esign::json::encode(body).at("error").as_object().contains("details"));
        }
        CHECK(rules::transport_status::not_found == 404);
        CHECK(rules::transport_status::method_not_allowed == 405);
        CHECK(rules::transport_status::payload_too_large == 413);
        CHECK(rules::transport_status::unsupported_media_type == 415);
    }
    SECTION("a message replaces the table's message") {
        auto body = esign::rules::make_error_body(error_code::ENVELOPE_NOT_FOUND, ctx, {}, "custom words");
        CHECK(body.error.message == "custom words");
        CHECK(body.statusCode == 400);
    }
    SECTION("the error body round-trips") {
        problem_list problems{make_problem({}, problem_kind::syntax, "x"),
                              make_problem({"a", "0"}, problem_kind::type, "y")};
        auto body = esign::rules::make_error_body(error_code::INVALID_REQUEST_FORMAT, ctx, problems);
        auto back = esign::json::read<error_body>(esign::json::write(body));
        REQUIRE(back.has_value());
        CHECK(esign::json::encode(*back) == esign::json::encode(body));
    }
}

TEST_CASE("json engine: iso8601_ms", "[json][error-body]") {
    CHECK(esign::rules::iso8601_ms(0) == "1970-01-01T00:00:00.000Z");
    CHECK(esign::rules::iso8601_ms(1795000000123) == "2026-11-18T11:06:40.123Z");
    CHECK(esign::rules::iso8601_ms(951782400500) == "2000-02-29T00:00:00.500Z");
    CHECK(esign::rules::iso8601_ms(-1) == "1969-12-31T23:59:59.999Z");
    CHECK(esign::rules::iso8601_ms(999) == "1970-01-01T00:00:00.999Z");
    CHECK(esign::rules::iso8601_ms(1000) == "1970-01-01T00:00:01.000Z");
    CHECK(esign::rules::iso8601_ms(86399999) == "1970-01-01T23:59:59.999Z");
    // Against an independent computation, over a spread of instants.
    std::mt19937_64 rng(7);
    for (int i = 0; i < 200; ++i) {
        std::int64_t ms = static_cast<std::int64_t>(rng() % 4102444800000ull);  // 1970 .. 2100
        INFO(ms);
        CHECK(esign::rules::iso8601_ms(ms) == expected_iso8601(ms));
    }
    // Years of fewer than four digits and before year 1, padded as %04d pads them (a minus sign
    // counts): 0001, 0000, -001, -10000; and the last instant of 9999.
    for (std::int64_t ms : {std::int64_t{-62135596800000}, std::int64_t{-62167219200000}, std::int64_t{-62198755200000},
                            std::int64_t{-377705116800000}, std::int64_t{253402300799999}}) {
        INFO(ms);
        CHECK(esign::rules::iso8601_ms(ms) == expected_iso8601(ms));
    }
    for (int i = 0; i < 200; ++i) {
        const auto ms = static_cast<std::int64_t>(rng() % 600000000000000ull) - 300000000000000;  // about ±9,500 years
        INFO(ms);
        CHECK(esign::rules::iso8601_ms(ms) == expected_iso8601(ms));
    }
}

TEST_CASE("json engine: HTTP status of every error code", "[json][error-body]") {
    for (auto code : enum_values<error_code>()) {
        INFO(enum_to_wire(code));
        CHECK(rules::http_status(code) == expected_status(code));
        CHECK(rules::info(code).code == code);
    }
    CHECK(rules::http_status(error_code::AUTHENTICATION_ERROR) == 401);
    CHECK(rules::http_status(error_code::DBSC_COOKIE_INVALID) == 401);
    CHECK(rules::http_status(error_code::TUNNEL_ERROR) == 401);
    CHECK(rules::http_status(error_code::TUNNEL_SESSION_NOT_FOUND) == 401);
    CHECK(rules::http_status(error_code::AUTHORIZATION_ERROR) == 403);
    CHECK(rules::http_status(error_code::FEATURE_NOT_IN_CURRENT_PLAN) == 403);
    CHECK(rules::http_status(error_code::INTERNAL_SERVER_ERROR) == 500);
    CHECK(rules::http_status(error_code::INVALID_REQUEST_FORMAT) == 400);
    CHECK(rules::http_status(error_code::ENVELOPE_NOT_FOUND) == 400);  // "not found" is 400, not 404
    CHECK(rules::http_status(error_code::ACTION_NOT_ALLOWED) == 400);
    CHECK(rules::http_status(error_code::TEAM_LIMIT_REACHED) == 429);
    // Every code has its own documentation URL.
    std::set<std::string> urls;
    for (auto code : enum_values<error_code>()) CHECK(urls.insert(rules::documentation_url(code)).second);
}

// =============================================================================================
// fmt formatting

TEST_CASE("json engine: problems and enums format with fmt", "[json][format]") {
    const problem p{
        {"recipients", "3", "email"}, problem_kind::pattern, std::nullopt, "must be a valid e-mail address"};
    CHECK(fmt::format("{}", p) == "recipients[3].email: must be a valid e-mail address (pattern)");
    CHECK(fmt::format("{}", path_text{p.path}) == "recipients[3].email");
    CHECK(fmt::format("{}", path_text{problem_path{}}) == "(body)");
    CHECK(fmt::format("{}", path_text{problem_path{"blockUuids", "0"}}) == "blockUuids[0]");
    CHECK(fmt::format("{}", path_text{problem_path{"update", "documents", "1", "title"}}) ==
          "update.documents[1].title");
    CHECK(fmt::format("{}", problem{{}, problem_kind::syntax, std::nullopt, "the request body is empty"}) ==
          "(body): the request body is empty (syntax)");
    CHECK(fmt::format("{}", problem{{"page"}, problem_kind::range, 1, "must be at least 1"}) ==
          "page: must be at least 1 (range)");
    // The same text without fmt.
    CHECK(to_text(p) == fmt::format("{}", p));
    CHECK(to_text(path_text{problem_path{"update", "documents", "1", "title"}}) == "update.documents[1].title");
    CHECK(to_text(path_text{problem_path{}}) == "(body)");

    CHECK(fmt::format("{}", envelope_status::draft) == "draft");
    CHECK(fmt::format("{}", recipient_status::signed_) == "signed");
    CHECK(fmt::format("{}", label_icon::text_t) == "text-t");
    CHECK(fmt::format("{}", label_icon::read_cv_logo) == "read-cv-logo");
    CHECK(fmt::format("{}", webhook_content_type::application_x_www_form_urlencoded) ==
          "application/x-www-form-urlencoded");
    CHECK(fmt::format("{}", webhook_content_type::application_json) == "application/json");
    CHECK(fmt::format("{}", error_code::INVALID_REQUEST_FORMAT) == "INVALID_REQUEST_FORMAT");
    CHECK(fmt::format("{}", problem_kind::duplicate_member) == "duplicate_member");
    CHECK(fmt::format("{:>8}", language::fr) == "      fr");
    CHECK(fmt::format("{:*<10}|{:.3}", envelope_status::draft, error_code::INVALID_REQUEST_FORMAT) == "draft*****|INV");
    CHECK(fmt::format("[{:^15}]", esign::path_text{{"recipients", "3"}}) == "[ recipients[3] ]");
    CHECK(fmt::format("{:>3}", esign::path_text{{}}) == "(body)");
    CHECK_THROWS_AS(fmt::format(fmt::runtime("{:{}}"), language::fr, 8), fmt::format_error);

    const problem_list list{p, problem{{"page"}, problem_kind::range, 1, "must be at least 1"}};
    CHECK(fmt::format("{}", fmt::join(list, "\n")) ==
          "recipients[3].email: must be a valid e-mail address (pattern)\npage: must be at least 1 (range)");

    // Every enumerator of every enum prints its wire string.
    for (auto e : enum_values<label_icon>()) CHECK(fmt::format("{}", e) == enum_to_wire(e));
    for (auto e : enum_values<recipient_status>()) CHECK(fmt::format("{}", e) == enum_to_wire(e));
    for (auto e : enum_values<error_code>()) CHECK(fmt::format("{}", e) == enum_to_wire(e));
}

TEST_CASE("json engine: real problems format as documented", "[json][format]") {
    auto r = esign::json::read<envelope_delete_recipients_request>(
        R"({"envelopeUuid":")" + U +
        R"(","recipients":[{"email":"a@example.com"},{"email":"a@example.com"},{"email":"a@example.com"},{"email":"bad"}]})");
    REQUIRE(r.problems().size() == 1);
    CHECK(fmt::format("{}", r.problems()[0]) == "recipients[3].email: must be a valid e-mail address (pattern)");
}

// ---------------------------------------------------------------------------------------------
// read<T> checks while it parses: what the parser gives in parts, numbers as written,
// duplicates wherever they are, contents it skips or captures, big arrays.

TEST_CASE("json engine: read<T> joins strings and names the parser gives in parts", "[json][stream]") {
    // Escapes make the parser hand a string over in pieces; a name can be escaped too.
    std::string long_name;
    for (int i = 0; i < 3000; ++i) long_name += i % 7 == 0 ? "\\\"" : "ab\\u00e9";
    const std::string body = R"({"e\u006evelopeUuid":")" + U +
                             R"(","recipients":[{"type":"manual","em\u0061il":"a@example.com",)" + R"("firstname":")" +
                             long_name + R"(","lastname":"B"}]})";
    auto r = esign::json::read<envelope_add_recipients_request>(body);
    REQUIRE(r.has_value());
    CHECK(r->envelopeUuid == U);
    const std::string& firstname = r->recipients.at(0).firstname;
    CHECK(firstname == bj::value_to<std::string>(bj::parse(R"(")" + long_name + R"(")")));
    CHECK(firstname.size() > 9000);
    CHECK(r->recipients.at(0).email == "a@example.com");
}

TEST_CASE("json engine: read<T> keeps a number's text as written, decode<T> writes it anew", "[json][stream]") {
    const std::string body = R"({"envelopeUuid":")" + U + R"(","documentUuid":")" + U +
                             R"(","blocks":[{"page":"1","x":1,"y":2,"type":"text","text":"t","defaultValue":2.50},)"
                             R"({"page":"1","x":1,"y":2,"type":"text","text":"t","defaultValue":1e2}]})";
    auto from_bytes = esign::json::read<envelope_add_blocks_request>(body);
    auto from_value = esign::json::decode<envelope_add_blocks_request>(bj::parse(body));
    REQUIRE(from_bytes.has_value());
    REQUIRE(from_value.has_value());
    CHECK(from_bytes->blocks.at(0).defaultValue == scalar_text("2.50"));
    CHECK(from_bytes->blocks.at(1).defaultValue == scalar_text("1e2"));
    CHECK(from_value->blocks.at(0).defaultValue == scalar_text("2.5"));
    CHECK(from_value->blocks.at(1).defaultValue == scalar_text("100"));
}

TEST_CASE("json engine: problems come in the document's order, missing members when the object closes",
          "[json][stream]") {
    auto r = esign::json::read<envelope_add_recipients_request>(
        R"({"recipients":[{"lastname":5,"email":"x","type":"robot"}],"envelopeUuid":"short"})");
    REQUIRE_FALSE(r.has_value());
    std::vector<std::string> seen;
    for (const auto& p : r.problems()) seen.push_back(fmt::format("{}", p));
    CHECK(seen == std::vector<std::string>{
                      "recipients[0].lastname: expected a string, got a number (type)",
                      "recipients[0].email: must be a valid e-mail address (pattern)",
                      "recipients[0].type: must be one of: manual (enum_value)",
                      "recipients[0].firstname: is required (missing)",
                      "envelopeUuid: must be exactly 36 characters (too_short)",
                  });
}

TEST_CASE("json engine: duplicates are found in skipped, mapped and captured contents", "[json][stream]") {
    SECTION("a member the request does not have, and a member of the wrong type") {
        auto r = esign::json::read<envelope_get_request>(
            R"({"envelopeUuid":{"a":1,"a":[{"b":1,"b":2}]},"extra":[{"c":1,"c":2}],"extra":0})");
        REQUIRE_FALSE(r.has_value());
        std::set<problem_path> duplicates;
        for (const auto& p : r.problems())
            if (p.kind == problem_kind::duplicate_member) duplicates.insert(p.path);
        CHECK(duplicates ==
              std::set<problem_path>{
                  {"envelopeUuid", "a"}, {"envelopeUuid", "a", "0", "b"}, {"extra", "0", "c"}, {"extra"}});
    }
    SECTION("a map member (blocks by page) and a member read as a DOM (eventData)") {
        auto doc = esign::json::read<document>(
            R"({"uuid":"u","title":"t","blocks":{"1":[],"1":[]},"signaturesOnSeparatePage":false,)"
            R"("initialsOnAllPages":false,"initialsVerticalMargin":0,"mustReadAllPages":false,"pageCount":1})");
        REQUIRE_FALSE(doc.has_value());
        REQUIRE(doc.problems().size() == 1);
        CHECK(doc.problems()[0].path == problem_path{"blocks", "1"});
        CHECK(doc.problems()[0].kind == problem_kind::duplicate_member);

        const std::string entry =
            R"({"category":"envelope","eventType":"ENVELOPE_SENT","eventData":{"x":{"y":1,"y":2},"z":[1,2.50]},)"
            R"("timestamp":1,"author":{"uuid":"u","email":"a@example.com","name":"n"}})";
        auto log = esign::json::read<log_entry>(entry);
        REQUIRE_FALSE(log.has_value());
        REQUIRE(log.problems().size() == 1);
        CHECK(log.problems()[0].path == problem_path{"eventData", "x", "y"});
        auto fine = esign::json::read<log_entry>(
            R"({"category":"envelope","eventType":"ENVELOPE_SENT","eventData":{"x":{"y":1},"z":[1,"s",null]},)"
            R"("timestamp":1,"author":{"uuid":"u","email":"a@example.com","name":"n"}})");
        REQUIRE(fine.has_value());
        CHECK(bj::value(fine->eventData) == bj::parse(R"({"x":{"y":1},"z":[1,"s",null]})"));
    }
    SECTION("a rule across members still judges the first copy of a duplicated member") {
        // Found by fuzz_decode (fuzz/corpus/decode/regress_duplicate_hides_rule.bin): the
        // duplicate once hid the category rule's problem, on the streamed path only.
        const std::string body =
            R"({"category":"envelope","eventTypes":["TEAM_CREATED"],"eventTypes":["ENVELOPE_SENT"]})";
        auto streamed = esign::json::read<logs_list_request>(body);
        REQUIRE_FALSE(streamed.has_value());
        std::vector<std::pair<problem_path, problem_kind>> seen;
        for (const auto& p : streamed.problems()) seen.emplace_back(p.path, p.kind);
        CHECK(seen == std::vector<std::pair<problem_path, problem_kind>>{
                          {{"eventTypes"}, problem_kind::duplicate_member},
                          {{"eventTypes", "0"}, problem_kind::enum_value},
                      });
        auto dom = esign::json::parse_body(body);
        REQUIRE(dom.has_value());
        auto decoded = esign::json::decode<logs_list_request>(dom->value);
        REQUIRE_FALSE(decoded.has_value());
        REQUIRE(decoded.problems().size() == 1);
        CHECK(decoded.problems()[0].path == problem_path{"eventTypes", "0"});
    }
}

TEST_CASE("json engine: a 1 MiB recipients array: one size problem, the items beyond 50 only parsed",
          "[json][stream][limits]") {
    // The array is far beyond its limit of 50: one size problem; the first 50 items are
    // checked, the others only parsed (contract.md §6.7; bench/decode.cpp measures that the
    // time is linear in the size).
    auto body_of = [](std::size_t bytes, std::string_view item) {
        std::string body = R"({"envelopeUuid":")" + U + R"(","recipients":[)";
        std::size_t items = 0;
        while (body.size() < bytes) {
            if (items++) body += ',';
            body += item;
        }
        return std::pair{body + "]}", items};
    };
    const auto [valid, valid_items] =
        body_of(1 << 20, R"({"type":"manual","email":"someone@example.com","firstname":"A","lastname":"B"})");
    auto r = esign::json::read<envelope_add_recipients_request>(valid);
    REQUIRE_FALSE(r.has_value());
    REQUIRE(r.problems().size() == 1);
    CHECK(r.problems()[0].path == problem_path{"recipients"});
    CHECK(r.problems()[0].kind == problem_kind::size);
    CHECK(r.problems()[0].limit == 50);

    const auto [invalid, invalid_items] =
        body_of(1 << 20, R"({"type":"manual","email":"no","firstname":"A","lastname":"B"})");
    auto s = esign::json::read<envelope_add_recipients_request>(invalid);
    REQUIRE_FALSE(s.has_value());
    REQUIRE(s.problems().size() == 50 + 1);
    CHECK(s.problems().back().kind == problem_kind::size);  // known when the array closes
    CHECK(s.problems().back().limit == 50);
    CHECK(s.problems()[49].path == problem_path{"recipients", "49", "email"});
    CHECK(invalid_items > 10000);
    CHECK(valid_items > 10000);
}

TEST_CASE("json engine: a rule across members does not judge by a member that failed", "[json][stream]") {
    // eventTypes are judged by the category; with no valid category there is nothing to judge
    // them by, and the only problem is the category's.
    auto r =
        esign::json::read<logs_list_request>(R"({"category":"nope","eventTypes":["ENVELOPE_SENT","TEAM_CREATED"]})");
    REQUIRE_FALSE(r.has_value());
    REQUIRE(r.problems().size() == 1);
    CHECK(r.problems()[0].path == problem_path{"category"});
    CHECK(r.problems()[0].kind == problem_kind::enum_value);

    auto s =
        esign::json::read<logs_list_request>(R"({"category":"team","eventTypes":["ENVELOPE_SENT","TEAM_CREATED"]})");
    REQUIRE_FALSE(s.has_value());
    REQUIRE(s.problems().size() == 1);
    CHECK(s.problems()[0].path == problem_path{"eventTypes", "0"});
}

TEST_CASE("error body: write_error_body gives the bytes of json::write", "[json][error-body]") {
    const esign::rules::error_context ctx{"/public/envelope/add-recipients", "0b5c2a1e-9a7e-4c5b-8a3d-2f6e1d4c3b2a",
                                          1'800'000'000'123};
    using esign::error_code;
    esign::problem_list problems{
        {{"recipients", "3", "email"}, esign::problem_kind::pattern, std::nullopt, "must be a valid e-mail address"},
        {{"x\"y", "\\", "é\x01\n"}, esign::problem_kind::unknown_member, std::nullopt, "quote \" and \t tab"},
        {{}, esign::problem_kind::rule, std::int64_t{3}, "at the root"},
    };
    for (const auto& body : {esign::rules::make_error_body(error_code::INVALID_REQUEST_FORMAT, ctx, problems),
                             esign::rules::make_error_body(error_code::INVALID_REQUEST_FORMAT, ctx, {}, {}, 413),
                             esign::rules::make_error_body(error_code::ENVELOPE_NOT_FOUND, ctx, {}, "custom \"words\""),
                             esign::rules::make_error_body(error_code::AUTHENTICATION_ERROR, ctx)}) {
        INFO(esign::json::write(body));
        CHECK(esign::json::write_error_body(body) == esign::json::write(body));
    }
}

TEST_CASE("json engine: write gives the text of the encoded DOM, past its scratch buffer too", "[json][encode]") {
    // write builds its DOM in a buffer of the call (4 KiB, then growing): the text must not
    // depend on where the DOM lived.
    esign::envelope small;
    small.uuid = "0b1e6c1e-8f0a-4d36-9a57-2f2c4a3c9d11";
    small.title = "Contract";
    esign::envelope large = small;
    for (int d = 0; d < 3; ++d) {
        esign::document doc;
        doc.uuid = fmt::format("5a0c1d2e-3f40-4b5c-8d6e-7f8091a2b3c{}", d);
        doc.title = fmt::format("Document {} with a title long enough to fill the buffer sooner", d);
        large.documents.push_back(doc);
    }
    for (int t = 0; t < 200; ++t) large.tags.push_back(fmt::format("tag-number-{}", t));
    // Strings that need escaping (every byte below 0x80, quotes, backslashes) and some that do
    // not (UTF-8, DEL): written verbatim or through Boost.JSON's serializer, the same bytes.
    esign::envelope escaped = small;
    for (int c = 0; c < 0x80; ++c) escaped.title += static_cast<char>(c);
    escaped.tags = {"\"", "\\", "a\"b\\c", "\n\t\r\b\f", std::string(1, '\0'), "\x7f", "\xc3\xa9t\xc3\xa9", ""};
    escaped.customMessage = std::string("line\none");
    for (const auto* v : {&small, &large, &escaped}) {
        const std::string text = esign::json::write(*v);
        CHECK(text == boost::json::serialize(esign::json::encode(*v)));
        CHECK(boost::json::parse(text) == esign::json::encode(*v));
    }
    CHECK(esign::json::write(large).size() > 4096);

    // Leading optional members, present or not, and a struct with nothing to write: '{' where
    // the first written member begins, "{}" when none is.
    esign::contact_list_request list;
    CHECK(esign::json::write(list) == "{}");
    list.limit = esign::page_limit{20};
    CHECK(esign::json::write(list) == boost::json::serialize(esign::json::encode(list)));
    list.workspaceUuid = "0b1e6c1e-8f0a-4d36-9a57-2f2c4a3c9d11";
    CHECK(esign::json::write(list) == boost::json::serialize(esign::json::encode(list)));
    esign::authentication_create_iframe_token_request token;
    token.envelopeUuid = "0b1e6c1e-8f0a-4d36-9a57-2f2c4a3c9d11";
    CHECK(esign::json::write(token) == boost::json::serialize(esign::json::encode(token)));

    // encode puts every node of the DOM in the storage it is given.
    boost::json::monotonic_resource resource;
    const boost::json::storage_ptr storage(&resource);
    const auto dom = esign::json::encode(large, storage);
    CHECK(dom.storage() == storage);
    CHECK(dom.at("documents").storage() == storage);
    CHECK(dom.at("documents").at(0).at("title").storage() == storage);
    CHECK(dom == esign::json::encode(large));
}

TEST_CASE("json engine: write gives serialize's bytes for every double and every byte to escape", "[json][encode]") {
    // Doubles that are not whole are written from std::to_chars's digits in Boost.JSON's form
    // (4.025E1); NaN and the infinities through Boost.JSON's serializer.
    std::vector<double> doubles = {0.1,
                                   -2.5,
                                   1e-7,
                                   123456.789,
                                   1e300,
                                   -1e21,
                                   5e-324,
                                   2.2250738585072014e-308,
                                   1.7976931348623157e308,
                                   9007199254740992.0,
                                   -9007199254740994.0,
                                   0.5e-5,
                                   std::numeric_limits<double>::quiet_NaN(),
                                   std::numeric_limits<double>::infinity(),
                                   -std::numeric_limits<double>::infinity()};
    std::mt19937_64 random(12);
    for (int i = 0; i < 2000; ++i) {
        const std::uint64_t bits = random();
        double d;
        std::memcpy(&d, &bits, sizeof d);
        doubles.push_back(d);
    }
    // Decimals with 1 to 9 decimals and 1 to 17 digits (up to 6 decimals are written from
    // their digits, when they are the shortest).
    for (int i = 0; i < 3000; ++i) {
        const std::uint64_t digits = random() % (std::uint64_t{1} << (1 + i % 56));
        doubles.push_back(static_cast<double>(digits) / std::pow(10.0, 1 + i % 9));
    }
    for (double d : doubles) {
        esign::block b;
        b.x = d;
        b.y = -d / 3;
        const std::string text = esign::json::write(b);
        INFO(text);
        CHECK(text == boost::json::serialize(esign::json::encode(b)));
    }
    // write_double alone (a codec writes a whole double as an integer first): every double,
    // zeros and whole numbers included, as serialize writes the double.
    doubles.insert(doubles.end(), {0.0, -0.0, 1.0, -40.0, 1e15, 123456789.0});
    for (double d : doubles) {
        std::string text;
        {
            esign::json::text_buffer out(text);
            esign::json::write_double(d, out);
        }
        INFO(text);
        CHECK(text == boost::json::serialize(boost::json::value(d)));
    }

    // Strings are scanned 8 bytes at a time: each byte that is escaped, and its neighbours that
    // are not, at every place in a string of 1 to 3 words.
    std::vector<std::string> strings;
    for (const char c : {'\0', '\x1f', '"', '\\', '\x20', '!', '#', '[', ']', '\x7f', '\x80', '\xdc', '\xff'}) {
        for (std::size_t size = 1; size <= 24; ++size)
            for (std::size_t at = 0; at < size; ++at) {
                std::string s(size, 'a');
                s[at] = c;
                strings.push_back(std::move(s));
            }
    }
    esign::envelope e;
    e.tags = strings;
    CHECK(esign::json::write(e) == boost::json::serialize(esign::json::encode(e)));
}

}  // namespace test_json_engine
