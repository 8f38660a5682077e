// SPDX-License-Identifier: BSL-1.0
// A constraint type of the user's (issue 41): `iso_date`, a day of the calendar written
// YYYY-MM-DD, defined here with its rule and its facts and nothing else; esign::check (with and
// without JSON), json::read and the schema export take it as they take esign's own types. What
// a new constraint type touches: its own header (here, this file) and its tests.
#include <catch2/catch.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <boost/describe/class.hpp>
#include <boost/json/serialize.hpp>

#include <esign/json/check.hpp>
#include <esign/json/decode.hpp>
#include <esign/json/encode.hpp>
#include <esign/schema/json_schema.hpp>
#include <esign/types/bounded_string.hpp>
#include <esign/validation/check.hpp>
#include <esign/validation/format.hpp>

namespace test_custom_constraint {

// "2026-02-28": four digits, two, two, and a day that exists (2026-02-29 does not).
struct iso_date : std::string {
    using std::string::string;
    iso_date() = default;
    iso_date(std::string s) : std::string(std::move(s)) {}

    // Its facts, for the schema export (each optional; see schema/json_schema.hpp).
    static constexpr std::string_view format = "date";
    static constexpr std::size_t min_length = 10;
    static constexpr std::size_t max_length = 10;
    static constexpr bool ascii = true;
    static constexpr std::string_view pattern() noexcept { return "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"; }

    // Its rule (validation/rule.hpp): the form, then the day.
    static bool check(const iso_date& value, esign::problem_sink& out) {
        auto digits = [&](std::size_t at, std::size_t n) {
            int v = 0;
            for (std::size_t i = at; i < at + n; ++i) {
                if (value[i] < '0' || value[i] > '9') return -1;
                v = v * 10 + (value[i] - '0');
            }
            return v;
        };
        const bool form = value.size() == 10 && value[4] == '-' && value[7] == '-';
        const int year = form ? digits(0, 4) : -1, month = form ? digits(5, 2) : -1, day = form ? digits(8, 2) : -1;
        if (year < 0 || month < 0 || day < 0) {
            out.add(esign::problem_kind::pattern, "must be a date written YYYY-MM-DD");
            return false;
        }
        const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
        constexpr int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
        if (month < 1 || month > 12 || day < 1 || day > days[month - 1] + (month == 2 && leap)) {
            out.add(esign::problem_kind::range, "must be a day of the calendar");
            return false;
        }
        return true;
    }

    static esign::result<iso_date> make(std::string s) { return esign::validation::checked(iso_date(std::move(s))); }
};

struct leave_request {
    iso_date firstDay;
    std::optional<iso_date> lastDay;
    esign::bounded_string<0, 100> reason;
};
BOOST_DESCRIBE_STRUCT(leave_request, (), (firstDay, lastDay, reason))

namespace {

std::string first_problem(const esign::problem_list& problems) {
    return problems.empty() ? std::string("(none)") : esign::to_text(problems.front());
}

}  // namespace

TEST_CASE("custom constraint: the type's rule, by check with and without JSON", "[custom_constraint]") {
    CHECK(iso_date::make("2024-02-29"));
    CHECK(first_problem(iso_date::make("2026-02-29").problems()) == "(body): must be a day of the calendar (range)");
    CHECK(first_problem(iso_date::make("2026-2-1").problems()) ==
          "(body): must be a date written YYYY-MM-DD (pattern)");

    leave_request ok{iso_date("2026-03-01"), iso_date("2026-03-31"), "holidays"};
    CHECK(esign::check(ok));
    CHECK(esign::validation::check(ok));

    leave_request bad{iso_date("2026-13-01"), iso_date("31/03/2026"), ""};
    const auto judged = esign::check(bad);
    REQUIRE(judged.problems().size() == 2);
    CHECK(esign::to_text(judged.problems()[0]) == "firstDay: must be a day of the calendar (range)");
    CHECK(esign::to_text(judged.problems()[1]) == "lastDay: must be a date written YYYY-MM-DD (pattern)");
    // The validation layer alone gives the same (no wire format is involved in these rules).
    CHECK(esign::validation::check(bad).problems() == judged.problems());
    // Not valid UTF-8: its rule is not judged, as for esign's own strings.
    leave_request not_utf8{iso_date("\xff"), std::nullopt, ""};
    CHECK(first_problem(esign::check(not_utf8).problems()) == "firstDay: must be valid UTF-8 (syntax)");
}

TEST_CASE("custom constraint: json::read judges it by the same rule", "[custom_constraint]") {
    const auto read = esign::json::read<leave_request>(R"({"firstDay":"2026-02-30","reason":"x"})");
    REQUIRE_FALSE(read);
    REQUIRE(read.problems().size() == 1);
    CHECK(esign::to_text(read.problems()[0]) == "firstDay: must be a day of the calendar (range)");

    const auto good =
        esign::json::read<leave_request>(R"({"firstDay":"2026-02-28","lastDay":"2026-03-02","reason":""})");
    REQUIRE(good);
    CHECK(good->firstDay == "2026-02-28");
    CHECK(esign::json::write(*good) == R"({"firstDay":"2026-02-28","lastDay":"2026-03-02","reason":""})");

    // check and read agree, problem for problem.
    leave_request bad{iso_date("2026-00-10"), iso_date("tomorrow"), std::string(101, 'r')};
    const auto written = esign::json::write(bad);
    CHECK(esign::check(bad).problems() == esign::json::read<leave_request>(written).problems());
    CHECK(esign::check(bad).problems().size() == 3);
}

TEST_CASE("custom constraint: the schema export reads its facts", "[custom_constraint]") {
    const auto schema = esign::schema::json_schema<leave_request>();
    CHECK(
        boost::json::serialize(schema.at("properties").at("firstDay")) ==
        R"({"type":"string","format":"date","pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}$","minLength":10,"maxLength":10})");
    CHECK(schema.at("properties").at("lastDay") == schema.at("properties").at("firstDay"));
    CHECK(boost::json::serialize(schema.at("required")) == R"(["firstDay","reason"])");
}

}  // namespace test_custom_constraint
