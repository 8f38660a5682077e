// SPDX-License-Identifier: BSL-1.0
// Decoding every request type of the operation table against interface.md and contract.md §2.
//
// The suite is the table of tests/request_examples.hpp: each row is decoded with the request type
// of its operation and must give exactly the problems it lists. A coverage test checks that every
// operation of the table has at least one valid row and one violation row. Typed checks
// (tri-states, stored texts) follow the table.
#include "request_examples.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <boost/json.hpp>
#include <fmt/format.h>

#include <esign/esign.hpp>
#include <esign/rules/envelope_rules.hpp>  // not included by esign.hpp

namespace test_requests {

namespace {

using namespace request_examples;

// ---------------------------------------------------------------------------------------------
// One row: exactly the expected problems

void check_row(const row& r) {
    const std::string body = r.body();
    INFO(r.op << (r.strict ? " (strict)" : "") << ": " << r.change.description);
    INFO("body: " << (body.size() > 400 ? body.substr(0, 400) + "..." : body));
    auto problems = read_request(r.op, body, r.strict);
    REQUIRE(problems.has_value());
    INFO("problems:" << describe(*problems));

    auto key = [](const json_path& p, problem_kind kind) { return std::make_tuple(p, kind); };
    std::vector<expected_problem> expected = r.expected;
    std::sort(expected.begin(), expected.end(),
              [&](const auto& a, const auto& b) { return key(a.path, a.kind) < key(b.path, b.kind); });
    problem_list got = *problems;
    std::sort(got.begin(), got.end(),
              [&](const auto& a, const auto& b) { return key(a.path, a.kind) < key(b.path, b.kind); });

    CHECK(got.size() == expected.size());  // not REQUIRE: the other rows of the operation still run
    if (got.size() != expected.size()) return;
    for (std::size_t i = 0; i < got.size(); ++i) {
        CHECK(got[i].path == expected[i].path);
        CHECK(got[i].kind == expected[i].kind);
        CHECK(got[i].limit == expected[i].limit);
        CHECK_FALSE(got[i].message.empty());
    }
}

void run_rows(std::string_view op) {
    std::size_t n = 0;
    for (const auto& r : table()) {
        if (r.op != op) continue;
        ++n;
        check_row(r);
    }
    CHECK(n > 0);
}

// ---------------------------------------------------------------------------------------------
// Typed helpers

template <class T>
T read_ok(const std::string& body, bool strict = false) {
    INFO(body);
    auto r = esign::json::read<T>(body, esign::json::decode_options{.strict = strict});
    INFO("problems:" << describe(r.problems()));
    REQUIRE(r.has_value());
    return std::move(r).value();
}

std::string add_blocks_body(const std::string& block_members) {
    return R"({"envelopeUuid":")" + U + R"(","documentUuid":")" + U2 +
           R"(","blocks":[{"page":"1","x":1,"y":2,"type":"text","text":"t")" + block_members + "}]}";
}

}  // namespace

// =============================================================================================
// Coverage: every operation has at least one valid example and one violation

TEST_CASE("requests: coverage of the operation table", "[requests][coverage]") {
    std::map<std::string, std::pair<int, int>> counts;  // path → (valid rows, violation rows)
    for (const auto& r : table()) {
        INFO(r.op);
        CHECK(find_operation(r.op).has_value());  // a row for an operation that does not exist
        auto& c = counts[r.op];
        (r.expected.empty() ? c.first : c.second) += 1;
    }
    STATIC_REQUIRE(operation_count == 49);
    std::size_t public_ops = 0, control_ops = 0, signer_ops = 0;
    for_each_operation([&](const auto& op) {
        INFO(op.path);
        CHECK(counts[std::string(op.path)].first >= 1);
        CHECK(counts[std::string(op.path)].second >= 1);
        (op.access == operation_access::signer ? signer_ops : op.is_control ? control_ops : public_ops) += 1;
    });
    CHECK(public_ops == 27);
    CHECK(control_ops == 19);
    CHECK(signer_ops == 3);
}

TEST_CASE("requests: every base body is a valid example", "[requests][coverage]") {
    // Whatever else a section tests, its base decodes cleanly (also in strict mode: no stray members).
    std::set<std::pair<std::string, std::string>> bases;
    for (const auto& r : table())
        if (!r.raw) bases.insert({r.op, r.base});
    for (const auto& [op, base] : bases) {
        INFO(op << ": " << base);
        auto problems = read_request(op, base, true);
        REQUIRE(problems.has_value());
        INFO("problems:" << describe(*problems));
        CHECK(problems->empty());
    }
}

// =============================================================================================
// One test case per operation

TEST_CASE("requests: /public/webhook/update", "[requests]") { run_rows("/public/webhook/update"); }
TEST_CASE("requests: /public/webhook/list", "[requests]") { run_rows("/public/webhook/list"); }
TEST_CASE("requests: /public/webhook/delete", "[requests]") { run_rows("/public/webhook/delete"); }
TEST_CASE("requests: /public/webhook/create", "[requests]") { run_rows("/public/webhook/create"); }
TEST_CASE("requests: /public/envelope/get", "[requests]") { run_rows("/public/envelope/get"); }
TEST_CASE("requests: /public/envelope/list", "[requests]") { run_rows("/public/envelope/list"); }
TEST_CASE("requests: /public/envelope/update", "[requests]") { run_rows("/public/envelope/update"); }
TEST_CASE("requests: /public/envelope/send", "[requests]") { run_rows("/public/envelope/send"); }
TEST_CASE("requests: /public/envelope/create-from-template", "[requests]") {
    run_rows("/public/envelope/create-from-template");
}
TEST_CASE("requests: /public/envelope/delete-attachment", "[requests]") {
    run_rows("/public/envelope/delete-attachment");
}
TEST_CASE("requests: /public/envelope/add-recipients", "[requests]") { run_rows("/public/envelope/add-recipients"); }
TEST_CASE("requests: /public/envelope/update-recipient", "[requests]") {
    run_rows("/public/envelope/update-recipient");
}
TEST_CASE("requests: /public/envelope/delete-recipients", "[requests]") {
    run_rows("/public/envelope/delete-recipients");
}
TEST_CASE("requests: /public/envelope/add-blocks", "[requests]") { run_rows("/public/envelope/add-blocks"); }
TEST_CASE("requests: /public/envelope/delete-blocks", "[requests]") { run_rows("/public/envelope/delete-blocks"); }
TEST_CASE("requests: /public/workspace/list", "[requests]") { run_rows("/public/workspace/list"); }
TEST_CASE("requests: /public/workspace/get", "[requests]") { run_rows("/public/workspace/get"); }
TEST_CASE("requests: /public/workspace/create", "[requests]") { run_rows("/public/workspace/create"); }
TEST_CASE("requests: /public/workspace/update", "[requests]") { run_rows("/public/workspace/update"); }
TEST_CASE("requests: /public/contact/update", "[requests]") { run_rows("/public/contact/update"); }
TEST_CASE("requests: /public/contact/create", "[requests]") { run_rows("/public/contact/create"); }
TEST_CASE("requests: /public/contact/list", "[requests]") { run_rows("/public/contact/list"); }
TEST_CASE("requests: /public/contact/delete", "[requests]") { run_rows("/public/contact/delete"); }
TEST_CASE("requests: /public/template/list", "[requests]") { run_rows("/public/template/list"); }
TEST_CASE("requests: /public/logs/list", "[requests]") { run_rows("/public/logs/list"); }
TEST_CASE("requests: /public/authentication/create-iframe-token", "[requests]") {
    run_rows("/public/authentication/create-iframe-token");
}
TEST_CASE("requests: /public/utils/whoami", "[requests]") { run_rows("/public/utils/whoami"); }
TEST_CASE("requests: /_control/reset", "[requests][control]") { run_rows("/_control/reset"); }
TEST_CASE("requests: /_control/team/create", "[requests][control]") { run_rows("/_control/team/create"); }
TEST_CASE("requests: /_control/team/update", "[requests][control]") { run_rows("/_control/team/update"); }
TEST_CASE("requests: /_control/team/reset", "[requests][control]") { run_rows("/_control/team/reset"); }
TEST_CASE("requests: /_control/envelope/create", "[requests][control]") { run_rows("/_control/envelope/create"); }
TEST_CASE("requests: /_control/template/create", "[requests][control]") { run_rows("/_control/template/create"); }
TEST_CASE("requests: /_control/recipient/act", "[requests][control]") { run_rows("/_control/recipient/act"); }
TEST_CASE("requests: /_control/envelope/cancel", "[requests][control]") { run_rows("/_control/envelope/cancel"); }
TEST_CASE("requests: /_control/clock/advance", "[requests][control]") { run_rows("/_control/clock/advance"); }
TEST_CASE("requests: /_control/clock/now", "[requests][control]") { run_rows("/_control/clock/now"); }
TEST_CASE("requests: /_control/outbox/list", "[requests][control]") { run_rows("/_control/outbox/list"); }
TEST_CASE("requests: /_control/webhook/deliveries", "[requests][control]") { run_rows("/_control/webhook/deliveries"); }

// =============================================================================================
// json::read's direct reader (json/detail/direct_reader.hpp) against the decoder's events

namespace {

// `body` with whitespace (all four JSON kinds) after every '{', '[', ',' and ':' and before every
// '}' and ']' outside strings: the same document, with the bytes between tokens the direct reader
// must step over.
std::string spaced(std::string_view body) {
    std::string out;
    bool in_string = false;
    for (std::size_t i = 0; i < body.size(); ++i) {
        const char c = body[i];
        if (in_string) {
            out += c;
            if (c == '\\')
                out += body[++i];
            else if (c == '"')
                in_string = false;
            continue;
        }
        if (c == '}' || c == ']') out += "\r\n ";
        out += c;
        if (c == '"') in_string = true;
        if (c == '{' || c == '[' || c == ',' || c == ':') out += " \t";
    }
    return " \n" + out + "\t ";
}

// `v` with the members of every object in reverse order.
bj::value reversed(const bj::value& v) {
    if (v.is_array()) {
        bj::array out;
        for (const auto& item : v.get_array()) out.push_back(reversed(item));
        return out;
    }
    if (!v.is_object()) return v;
    bj::object out;
    const auto& in = v.get_object();
    for (auto it = in.end(); it != in.begin();) {
        --it;
        out[it->key()] = reversed(it->value());
    }
    return out;
}

// How deep the containers of a JSON document nest (the root object is 1).
std::size_t depth_of(const bj::value& v) {
    std::size_t inner = 0;
    if (v.is_object())
        for (const auto& m : v.get_object()) inner = std::max(inner, depth_of(m.value()));
    else if (v.is_array())
        for (const auto& item : v.get_array()) inner = std::max(inner, depth_of(item));
    else
        return 0;
    return inner + 1;
}

// What read<T> gives for `body`, through the direct reader, is what the decoder's events give
// into a new value: the same verdict, the same problems, the same value (its JSON text). The
// direct reader itself accepts only bodies the events accept, into the same value. Returns whether
// the direct reader read the body (false: it gave up).
template <class T>
bool same_as_events(std::string_view body, const esign::json::decode_options& options,
                    esign::json::parse_limits limits = {}) {
    T events_value{};
    const auto events = esign::json::detail::read_events(body, events_value, options, limits);
    T direct_value{};
    const bool direct = esign::json::detail::read_direct(body, direct_value, options, limits);
    INFO("events:" << describe(events.problems()));
    CHECK((!direct || events));
    if (direct && events) CHECK(esign::json::write(direct_value) == esign::json::write(events_value));

    const auto read = esign::json::read<T>(body, options, limits);
    CHECK(read.has_value() == bool(events));
    CHECK(read.problems() == events.problems());
    if (read && events) CHECK(esign::json::write(*read) == esign::json::write(events_value));
    return direct;
}

}  // namespace

TEST_CASE("requests: the direct reader gives the events' outcome for every row", "[requests][direct]") {
    std::size_t direct_reads = 0, clean_rows = 0;
    for (const auto& r : table()) {
        const std::string body = r.body();
        for (const std::string& text : {body, spaced(body)}) {
            INFO(r.op << (r.strict ? " (strict)" : "") << ": " << r.change.description << "\nbody: " << text);
            for_each_operation([&](const auto& operation) {
                if (operation.path != r.op) return;
                using request = typename std::remove_cvref_t<decltype(operation)>::request_type;
                const esign::json::decode_options options{.strict = r.strict};
                const bool direct = same_as_events<request>(text, options);
                direct_reads += direct;
                // A body the strict decoder accepts has no member its type lacks: read directly
                // (a member kept as JSON, as restore's log eventData, included).
                if (esign::json::read<request>(text, esign::json::decode_options{.strict = true})) {
                    ++clean_rows;
                    CHECK(direct);
                }
            });
        }
    }
    CHECK(direct_reads > 400);
    CHECK(clean_rows > 400);
}

TEST_CASE("requests: the direct reader reads a member kept as JSON as the events build it", "[requests][direct]") {
    const auto entry = [](std::string_view event_data) {
        return R"({"category":"envelope","eventType":"ENVELOPE_SENT","eventData":)" + std::string(event_data) +
               R"(,"timestamp":1,"author":{"uuid":"u","email":"a@example.com","name":"n"}})";
    };
    const esign::json::decode_options lenient{};
    // Every kind of value, nested, names and strings with escapes, numbers of each kind.
    const std::string all_kinds =
        entry(R"({"a":[1,-2,18446744073709551615,-2.5e3,0.1,"x\u00e9\n",true,false,null,{},[]],)"
              R"("b\"c":{"d":{"e":[[{"f":"g"}]]}},"":""})");
    CHECK(same_as_events<esign::log_entry>(all_kinds, lenient));
    CHECK(same_as_events<esign::log_entry>(spaced(all_kinds), lenient));
    auto read = esign::json::read<esign::log_entry>(all_kinds);
    REQUIRE(read.has_value());
    CHECK(bj::value(read->eventData) == bj::parse(all_kinds).at("eventData"));
    // A name twice, at any depth: the events report it with its path; the direct reader gives up.
    CHECK_FALSE(same_as_events<esign::log_entry>(entry(R"({"x":1,"x":2})"), lenient));
    CHECK_FALSE(same_as_events<esign::log_entry>(entry(R"({"x":[{"y":1,"y":1}]})"), lenient));
    // Not an object where one is kept: the events say so.
    CHECK_FALSE(same_as_events<esign::log_entry>(entry("[1]"), lenient));
    CHECK_FALSE(same_as_events<esign::log_entry>(entry("3"), lenient));
    // Containers deeper than the limit, inside the kept JSON: refused by both.
    // (The root object is level 1, eventData level 2.)
    const auto nested = [&](std::size_t n) {
        return entry(R"({"a":)" + std::string(n, '[') + std::string(n, ']') + "}");
    };
    CHECK(same_as_events<esign::log_entry>(nested(62), lenient));
    CHECK_FALSE(same_as_events<esign::log_entry>(nested(63), lenient));
}

TEST_CASE("requests: the direct reader gives up where the events refuse or skip", "[requests][direct]") {
    for (const auto& r : table()) {
        if (!r.expected.empty() || r.raw) continue;
        const std::string body = r.body();
        const std::size_t depth = depth_of(bj::parse(body));
        INFO(r.op << ": " << r.change.description << "\nbody: " << body);
        for_each_operation([&](const auto& operation) {
            if (operation.path != r.op) return;
            using request = typename std::remove_cvref_t<decltype(operation)>::request_type;
            const esign::json::decode_options lenient{}, strict{.strict = true};
            // Members in another order, read by turns with the first (the direct reader guesses
            // which member comes next from the order it saw last): the same value.
            const std::string other_order = bj::serialize(reversed(bj::parse(body)));
            const bool read_directly = bool(esign::json::read<request>(body, strict));
            for (int turn = 0; turn < 2; ++turn) {
                CHECK(same_as_events<request>(other_order, lenient) == read_directly);
                CHECK(same_as_events<request>(body, lenient) == read_directly);
            }
            // The containers' depth limit: met, then one short.
            same_as_events<request>(body, lenient, {.max_depth = depth});
            CHECK_FALSE(same_as_events<request>(body, lenient, {.max_depth = depth - 1}));
            // A member the type does not have, holding containers and every kind of scalar: skipped
            // by the lenient events, reported by the strict ones; the direct reader gives up on both.
            const std::string with_other =
                R"({"zz-other":{"a":[1,-2.5e3,"x\u00e9",true,false,null,{}],"b":[]},)" + body.substr(1);
            if (body != "{}") {
                CHECK_FALSE(same_as_events<request>(with_other, lenient));
                CHECK_FALSE(same_as_events<request>(with_other, strict));
            }
            // Cut short anywhere: refused by both.
            for (std::size_t n = 0; n < body.size(); n += 1 + n / 8)
                CHECK_FALSE(same_as_events<request>(body.substr(0, n), lenient));
            // Followed by more: refused by both.
            CHECK_FALSE(same_as_events<request>(body + " {}", lenient));
            CHECK_FALSE(same_as_events<request>(body + ",", lenient));
        });
    }
}

TEST_CASE("requests: read_into through the direct reader gives read's value, over any earlier one",
          "[requests][direct]") {
    // Every row of an operation read into one value, in table order, then in reverse: each time the
    // value read into is the one the row before left (a longer or shorter array, other optionals).
    for_each_operation([&](const auto& operation) {
        using request = typename std::remove_cvref_t<decltype(operation)>::request_type;
        std::vector<std::string> bodies;
        for (const auto& r : table())
            if (r.op == operation.path && !r.strict) bodies.push_back(r.body());
        for (int pass = 0; pass < 2; ++pass) {
            request kept{};
            for (const std::string& body : bodies) {
                INFO(operation.path << ": " << body);
                const auto read = esign::json::read<request>(body);
                const auto into = esign::json::read_into(body, kept);
                REQUIRE(bool(into) == read.has_value());
                CHECK(into.problems() == read.problems());
                if (read) CHECK(esign::json::write(kept) == esign::json::write(*read));
            }
            std::reverse(bodies.begin(), bodies.end());
        }
    });
}

// =============================================================================================
// Decoded values

TEST_CASE("requests: tri-states tell absent, null and a value apart", "[requests][values]") {
    const std::string head = R"({"envelopeUuid":")" + U + R"(","update":{)";
    SECTION("envelope update customInvitationMessage") {
        auto absent = read_ok<envelope_update_request>(head + "}}");
        auto null = read_ok<envelope_update_request>(head + R"("customInvitationMessage":null}})");
        auto value = read_ok<envelope_update_request>(head + R"("customInvitationMessage":"Bonjour"}})");
        auto empty = read_ok<envelope_update_request>(head + R"("customInvitationMessage":""}})");
        CHECK_FALSE(absent.update.customInvitationMessage.has_value());
        REQUIRE(null.update.customInvitationMessage.has_value());
        CHECK(null.update.customInvitationMessage->is_null());
        REQUIRE(value.update.customInvitationMessage.has_value());
        REQUIRE_FALSE(value.update.customInvitationMessage->is_null());
        CHECK(**value.update.customInvitationMessage == "Bonjour");
        REQUIRE(empty.update.customInvitationMessage.has_value());
        REQUIRE_FALSE(empty.update.customInvitationMessage->is_null());
        CHECK((*empty.update.customInvitationMessage)->empty());
        // Re-encoding keeps the three states apart.
        CHECK_FALSE(esign::json::encode(absent).at("update").as_object().contains("customInvitationMessage"));
        CHECK(esign::json::encode(null).at("update").at("customInvitationMessage").is_null());
        CHECK(esign::json::encode(value).at("update").at("customInvitationMessage") == "Bonjour");
    }
    SECTION("webhook update secret") {
        const std::string h = R"({"uuid":")" + U + R"(")";
        auto absent = read_ok<webhook_update_request>(h + "}");
        auto null = read_ok<webhook_update_request>(h + R"(,"secret":null})");
        auto value = read_ok<webhook_update_request>(h + R"(,"secret":"k"})");
        CHECK_FALSE(absent.secret.has_value());
        REQUIRE(null.secret.has_value());
        CHECK(null.secret->is_null());
        REQUIRE(value.secret.has_value());
        CHECK(**value.secret == "k");
        // Absent optionals stay absent.
        CHECK_FALSE(absent.url.has_value());
        CHECK_FALSE(absent.title.has_value());
        CHECK_FALSE(absent.events.has_value());
    }
    SECTION("contact create phone") {
        auto body = [](const std::string& phone) {
            return R"({"contacts":[{"email":"a@example.com","firstname":"A","lastname":"B")" + phone + "}]}";
        };
        auto absent = read_ok<contact_create_request>(body(""));
        auto null = read_ok<contact_create_request>(body(R"(,"phone":null)"));
        auto value = read_ok<contact_create_request>(body(R"(,"phone":"+1")"));
        CHECK_FALSE(absent.contacts[0].phone.has_value());
        REQUIRE(null.contacts[0].phone.has_value());
        CHECK(null.contacts[0].phone->is_null());
        REQUIRE(value.contacts[0].phone.has_value());
        CHECK(**value.contacts[0].phone == "+1");
    }
    SECTION("contact update phone: required, null or a value") {
        auto body = [](const std::string& phone) {
            return R"({"contact":{"email":"a@example.com","firstname":"A","lastname":"B","phone":)" + phone + "}}";
        };
        auto null = read_ok<contact_update_request>(body("null"));
        auto value = read_ok<contact_update_request>(body(R"("+1")"));
        CHECK(null.contact.phone.is_null());
        REQUIRE_FALSE(value.contact.phone.is_null());
        CHECK(*value.contact.phone == "+1");
        CHECK_FALSE(null.workspaceUuid.has_value());
        CHECK_FALSE(null.contact.language.has_value());
    }
}

TEST_CASE("requests: add-blocks defaultValue is kept as text", "[requests][values]") {
    auto default_of = [](const std::string& json) {
        auto r = read_ok<envelope_add_blocks_request>(add_blocks_body(R"(,"defaultValue":)" + json));
        REQUIRE(r.blocks[0].defaultValue.has_value());
        return r.blocks[0].defaultValue->str();
    };
    CHECK(default_of(R"("x")") == "x");
    CHECK(default_of(R"("")") == "");
    CHECK(default_of(R"("3")") == "3");
    CHECK(default_of("3") == "3");
    CHECK(default_of("-7") == "-7");
    CHECK(default_of("true") == "true");
    CHECK(default_of("false") == "false");
    CHECK(default_of("2.5") == "2.5");
    CHECK(default_of("12345678901234567890") == "12345678901234567890");
    // contract.md §3: "a number or boolean as its JSON text, as written in the request".
    CHECK(default_of("2.50") == "2.50");
    CHECK(default_of("3.0") == "3.0");
    CHECK(default_of("1e2") == "1e2");
    CHECK(default_of("-0") == "-0");
    // Absent stays absent.
    auto none = read_ok<envelope_add_blocks_request>(add_blocks_body(""));
    CHECK_FALSE(none.blocks[0].defaultValue.has_value());
}

TEST_CASE("requests: decoded values", "[requests][values]") {
    SECTION("integers written with a zero fraction") {
        auto r = read_ok<envelope_update_request>(
            R"({"envelopeUuid":")" + U + R"(","update":{"expirationPeriod":3.0,"reminderFrequencyPeriod":1e1}})");
        REQUIRE(r.update.expirationPeriod.has_value());
        CHECK(r.update.expirationPeriod->value == 3);
        REQUIRE(r.update.reminderFrequencyPeriod.has_value());
        CHECK(r.update.reminderFrequencyPeriod->value == 10);
        auto w = read_ok<webhook_list_request>(R"({"page":2147483647,"limit":50.0})");
        CHECK(w.page->value == 2147483647);
        CHECK(w.limit->value == 50);
        auto c = read_ok<control_clock_advance_request>(R"({"milliseconds":7776000000})");
        CHECK(c.milliseconds == 7776000000LL);
    }
    SECTION("strings are kept as given (no trimming, code points intact)") {
        auto r = read_ok<envelope_get_request>(R"({"envelopeUuid":")" + rep(36, "é") + R"("})");
        CHECK(r.envelopeUuid.str() == rep(36, "é"));
        auto b = read_ok<envelope_add_blocks_request>(add_blocks_body(""));
        CHECK(b.blocks[0].page.str() == "1");
        auto p = read_ok<envelope_add_blocks_request>(
            R"({"envelopeUuid":")" + U + R"(","documentUuid":")" + U2 +
            R"(","blocks":[{"page":"01","x":1,"y":2,"type":"text","text":"  t  "}]})");
        CHECK(p.blocks[0].page.str() == "01");
        CHECK(p.blocks[0].text == "  t  ");
        CHECK(rules::page_in_document(p.blocks[0].page.str(), 3) == 1);  // "01" names page 1
    }
    SECTION("enums and defaults") {
        auto s = read_ok<envelope_send_request>(R"({"envelopeUuid":")" + U + R"("})");
        CHECK_FALSE(s.distributionMethod.has_value());
        CHECK(distribution_method_or_default(s) == distribution_method::email);
        auto n = read_ok<envelope_send_request>(R"({"envelopeUuid":")" + U + R"(","distributionMethod":"none"})");
        CHECK(distribution_method_or_default(n) == distribution_method::none);
        auto w = read_ok<webhook_create_request>(
            R"({"url":"https://example.com","contentType":"application/x-www-form-urlencoded","sslVerify":true,"active":false})");
        CHECK(w.contentType == webhook_content_type::application_x_www_form_urlencoded);
        auto l = read_ok<logs_list_request>(R"({"category":"team","sortBy":"id","sortOrder":"asc"})");
        CHECK(l.category == log_category::team);
        CHECK(l.sortBy == log_sort_by::id);
        CHECK(l.sortOrder == sort_order::asc);
    }
    SECTION("unknown members are ignored by default and do not change the value") {
        auto plain = read_ok<workspace_create_request>(R"({"name":"W"})");
        auto extra = read_ok<workspace_create_request>(R"({"name":"W","sandbox":true,"x":{"y":[1]}})");
        CHECK(esign::json::encode(plain) == esign::json::encode(extra));
    }
}

TEST_CASE("requests: validate hooks run only on clean values, and all member problems are reported",
          "[requests][values]") {
    // Many independent problems in one request: every one is reported.
    std::string body = R"({"envelopeUuid":")" + U + R"(","recipients":[)";
    for (int i = 0; i < 10; ++i)
        body += std::string(i ? "," : "") + R"({"type":"manual","email":"bad)" + std::to_string(i) +
                R"(","firstname":"A","lastname":"B"})";
    body += "]}";
    auto r = esign::json::read<envelope_add_recipients_request>(body);
    REQUIRE(r.problems().size() == 10);
    for (int i = 0; i < 10; ++i) {
        CHECK(r.problems()[i].path == json_path{"recipients", std::to_string(i), "email"});
        CHECK(r.problems()[i].kind == problem_kind::pattern);
    }
    // The sms rule of an item is still judged when another item has a problem.
    auto s = esign::json::read<envelope_add_recipients_request>(
        R"({"envelopeUuid":")" + U +
        R"(","recipients":[{"type":"manual","email":"bad","firstname":"A","lastname":"B"},{"type":"manual","email":"s@example.com","firstname":"S","lastname":"T","verificationType":"sms"}]})");
    REQUIRE(s.problems().size() == 2);
    CHECK(s.problems()[0].path == json_path{"recipients", "0", "email"});
    CHECK(s.problems()[1].path == json_path{"recipients", "1", "phone"});
    CHECK(s.problems()[1].kind == problem_kind::rule);
}

}  // namespace test_requests
