// SPDX-License-Identifier: BSL-1.0
// Decoding hostile bodies keeps bounded memory (contract.md §6.7): at most 100 problems
// kept, member names in paths cut, items beyond an array's maximum not stored; the same on
// the streamed path (read<T>) and the DOM path (decode<T>). The memory bound itself is
// checked by tests/memory/decode_memory_bound.cpp, a program of its own.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <string_view>

#include <boost/json.hpp>

#include <esign/esign.hpp>

namespace test_decode_bounds {

namespace {

using namespace esign;

const std::string U = "0b5c2a1e-9a7e-4c5b-8a3d-2f6e1d4c3b2a";

// recipients: `items` copies of `item`, then `tail` (raw JSON, with its leading comma).
std::string recipients_body(std::size_t items, std::string_view item, std::string_view tail = "") {
    std::string body = R"({"envelopeUuid":")" + U + R"(","recipients":[)";
    for (std::size_t i = 0; i < items; ++i) {
        if (i) body += ',';
        body += item;
    }
    return body + std::string(tail) + "]}";
}

// The problems of the DOM path: parse_body's duplicates, then decode<T>'s.
template <class T>
problem_list dom_problems(std::string_view body, json::decode_options options = {}) {
    auto dom = json::parse_body(body);
    REQUIRE(dom.has_value());
    problem_list out = dom->duplicates;
    auto decoded = json::decode<T>(dom->value, options);
    if (!decoded) out.insert(out.end(), decoded.problems().begin(), decoded.problems().end());
    return out;
}

const std::string bad_item = R"({"type":"manual","email":"no","firstname":1,"lastname":2})";  // 3 problems

}  // namespace

TEST_CASE("decode bounds: at most 100 problems are kept, and the body is still refused", "[json][limits]") {
    STATIC_REQUIRE(max_reported_problems == 100);
    STATIC_REQUIRE(max_error_details == max_reported_problems);

    SECTION("exactly 100: all kept") {
        // 33 bad items (99 problems) and one item missing its email (1).
        const std::string body = recipients_body(33, bad_item, R"(,{"type":"manual","firstname":"A","lastname":"B"})");
        auto r = json::read<envelope_add_recipients_request>(body);
        REQUIRE_FALSE(r.has_value());
        CHECK(r.problems().size() == 100);
        CHECK(r.problems().back().path == problem_path{"recipients", "33", "email"});
        CHECK(r.problems().back().kind == problem_kind::missing);
    }
    SECTION("150: the first 100 kept, on both paths") {
        const std::string body = recipients_body(50, bad_item);
        auto r = json::read<envelope_add_recipients_request>(body);
        REQUIRE_FALSE(r.has_value());
        REQUIRE(r.problems().size() == 100);
        CHECK(r.problems()[99].path == problem_path{"recipients", "33", "email"});

        auto dom = json::parse_body(body);
        REQUIRE(dom.has_value());
        json::decoder d;
        envelope_add_recipients_request out;
        json::decode_value(dom->value, out, d);
        CHECK(d.problems() == r.problems());

        auto error = rules::make_error_body(error_code::INVALID_REQUEST_FORMAT,
                                            {"/public/envelope/add-recipients", "id", 0}, r.problems());
        REQUIRE(error.error.details.has_value());
        CHECK(error.error.details->size() == 100);
    }
    SECTION("thousands of duplicates: 100 kept on both paths") {
        std::string body = R"({"envelopeUuid":")" + U + R"(","x":{"a":0)";
        for (int i = 0; i < 5000; ++i) body += R"(,"a":0)";
        body += "}}";
        auto r = json::read<envelope_get_request>(body);
        REQUIRE_FALSE(r.has_value());
        CHECK(r.problems().size() == 100);
        for (const auto& p : r.problems()) CHECK(p.path == problem_path{"x", "a"});
        // The others are counted (the names of skipped contents are still walked).
        json::decoder d;
        envelope_get_request out;
        d.start(json::slot_for(out));
        REQUIRE_FALSE(json::parse_events(body, d).has_value());
        CHECK(d.problem_count() == 100);
        CHECK(d.dropped_problems() == 4900);
        auto dom = json::parse_body(body);
        REQUIRE(dom.has_value());
        CHECK(dom->duplicates.size() == 100);
        CHECK(json::decode<envelope_get_request>(dom->value).has_value());  // the DOM holds the first copy
    }
}

TEST_CASE("decode bounds: member names in problem paths are cut", "[json][limits]") {
    STATIC_REQUIRE(max_path_name_bytes == 256);

    SECTION("a long unknown member name (strict mode): 256 bytes, on both paths") {
        const std::string name(1000, 'n');
        const std::string body = R"({"envelopeUuid":")" + U + R"(",")" + name + R"(":0})";
        auto r = json::read<envelope_get_request>(body, {.strict = true});
        REQUIRE_FALSE(r.has_value());
        REQUIRE(r.problems().size() == 1);
        CHECK(r.problems()[0].kind == problem_kind::unknown_member);
        CHECK(r.problems()[0].path == problem_path{name.substr(0, 256)});
        CHECK(dom_problems<envelope_get_request>(body, {.strict = true}) == r.problems());
    }
    SECTION("a cut never splits a UTF-8 sequence") {
        std::string name = "a";
        for (int i = 0; i < 200; ++i) name += "\xc3\xa9";  // é: byte 256 is the second of one
        CHECK(path_name(name, 0).size() == 255);
        CHECK(path_name(std::string(300, 'x'), 0).size() == 256);
        CHECK(path_name("short", 0) == "short");
        const std::string body = R"({"envelopeUuid":")" + U + R"(",")" + name + R"(":{"a":0,"a":1}})";
        auto r = json::read<envelope_get_request>(body);
        REQUIRE_FALSE(r.has_value());
        REQUIRE(r.problems().size() == 1);
        CHECK(r.problems()[0].path == problem_path{name.substr(0, 255), "a"});
        CHECK(dom_problems<envelope_get_request>(body) == r.problems());
    }
    SECTION("deep in a path, names keep fewer bytes") {
        const std::string name(300, 'd');
        std::string body = "{";
        for (int i = 0; i < 10; ++i) body += '"' + name + "\":{";
        body += R"("a":0,"a":1)" + std::string(11, '}');
        auto r = json::read<envelope_get_request>(body);
        REQUIRE_FALSE(r.has_value());
        const problem* duplicate = nullptr;
        for (const auto& p : r.problems())
            if (p.kind == problem_kind::duplicate_member) duplicate = &p;
        REQUIRE(duplicate != nullptr);
        REQUIRE(duplicate->path.size() == 11);
        for (std::size_t i = 0; i < 10; ++i)
            CHECK(duplicate->path[i].size() ==
                  (i < long_path_segments ? max_path_name_bytes : max_deep_path_name_bytes));
        CHECK(duplicate->path[10] == "a");
        auto dom = json::parse_body(body);
        REQUIRE(dom.has_value());
        REQUIRE(dom->duplicates.size() == 1);
        CHECK(dom->duplicates[0] == *duplicate);
    }
}

TEST_CASE("decode bounds: items beyond an array's maximum are parsed, not stored", "[json][limits]") {
    const std::string good = R"({"type":"manual","email":"a@example.com","firstname":"A","lastname":"B"})";

    SECTION("60 items: 50 stored, one size problem as before, on both paths") {
        const std::string body = recipients_body(60, good);
        json::decoder d;
        envelope_add_recipients_request out;
        d.start(json::slot_for(out));
        REQUIRE_FALSE(json::parse_events(body, d).has_value());
        CHECK(out.recipients.size() == 50);
        REQUIRE(d.problems().size() == 1);
        const problem& p = d.problems()[0];
        CHECK(p.path == problem_path{"recipients"});
        CHECK(p.kind == problem_kind::size);
        CHECK(p.limit == 50);
        CHECK(p.message == "must have at most 50 items");
        CHECK(dom_problems<envelope_add_recipients_request>(body) == d.problems());
    }
    SECTION("a bad item beyond the maximum is not judged, its duplicates still are") {
        const std::string body = recipients_body(55, good, R"(,{"email":1},{"email":0,"email":0})");
        auto r = json::read<envelope_add_recipients_request>(body);
        REQUIRE_FALSE(r.has_value());
        REQUIRE(r.problems().size() == 2);
        CHECK(r.problems()[0].path == problem_path{"recipients", "56", "email"});
        CHECK(r.problems()[0].kind == problem_kind::duplicate_member);
        CHECK(r.problems()[1].path == problem_path{"recipients"});
        CHECK(r.problems()[1].kind == problem_kind::size);
        auto sorted = [](problem_list l) {
            std::sort(l.begin(), l.end(), [](const problem& a, const problem& b) { return a.path < b.path; });
            return l;
        };
        CHECK(sorted(dom_problems<envelope_add_recipients_request>(body)) == sorted(r.problems()));
    }
    SECTION("a malformed item beyond the maximum is a body error") {
        for (std::string_view tail : {R"(,{"email":})", R"(,{"email":"\ud800"})", ",[1,]", ",\"\xff\""}) {
            INFO(tail);
            auto r = json::read<envelope_add_recipients_request>(recipients_body(100, good, tail));
            REQUIRE_FALSE(r.has_value());
            REQUIRE(r.problems().size() == 1);
            CHECK(r.problems()[0].kind == problem_kind::syntax);
            CHECK(r.problems()[0].path.empty());
        }
    }
    SECTION("at the maximum and below, as before") {
        CHECK(json::read<envelope_add_recipients_request>(recipients_body(50, good)).has_value());
        auto none = json::read<envelope_add_recipients_request>(recipients_body(0, good));
        REQUIRE_FALSE(none.has_value());
        REQUIRE(none.problems().size() == 1);
        CHECK(none.problems()[0].message == "must have at least 1 item");
    }
}

}  // namespace test_decode_bounds
