// SPDX-License-Identifier: BSL-1.0
// esign::check, esign::checked and the `make` factories (issue 17): a value built in code is
// judged by the rules json::read judges a body by. Each constrained type, valid and invalid;
// paths deep in vectors of structs; rules across members; enumerators outside their enum; what
// JSON cannot say; the factories; a codec of the user's. And the invariant
//   check(v).problems() == json::read<T>(json::write(v)).problems()   (path, kind, limit, message)
// on every example of tests/request_examples.hpp as read leaves it (valid and invalid), and on
// values of every request and response type of the operation table from the generator of
// fuzz/value_generator.hpp (valid ones, and ones with invalid values in them). And json::read_into
// on pairs of those generated bodies: the second read into the value the first left.
#include "request_examples.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <boost/describe/class.hpp>
#include <boost/json.hpp>
#include <fmt/format.h>

#include <esign/esign.hpp>

#include "../fuzz/value_generator.hpp"

// ---------------------------------------------------------------------------------------------
// A type of the user's, with a codec that has rules (`check`), one whose codec has none, and a
// struct of them.

namespace user {
struct even {
    std::int64_t value = 0;
};
struct label {
    std::string text;
};
struct order {
    even quantity;
    label note;
    std::vector<even> more;
};
BOOST_DESCRIBE_STRUCT(order, (), (quantity, note, more))
// Optional members, one with a default of its own (read_into).
struct page_request {
    std::optional<std::int64_t> limit = 10;
    std::optional<std::string> cursor;
};
BOOST_DESCRIBE_STRUCT(page_request, (), (limit, cursor))
}  // namespace user

namespace esign::json {
template <>
struct codec<user::even> {
    static void read(const scalar& s, user::even& out, decoder& d) {
        if (!s.is_number()) return d.add(problem_kind::type, "expected an integer");
        const auto i = integral_value(s);
        if (!i) return d.add(problem_kind::range, "must be an integer");
        auto sink = d.sink();
        if (check(user::even{*i}, sink)) out.value = *i;
    }
    static bool check(const user::even& value, problem_sink& out) {
        if (value.value % 2 == 0) return true;
        out.add(problem_kind::range, "must be even");
        return false;
    }
    static void encode(const user::even& in, boost::json::value& out) { out = in.value; }
};
template <>
struct codec<user::label> {
    static void read(const scalar& s, user::label& out, decoder& d) {
        if (!s.is_string()) return d.add(problem_kind::type, "expected a string");
        out.text.assign(s.text);
    }
    static void encode(const user::label& in, boost::json::value& out) { out = boost::json::string_view(in.text); }
};
}  // namespace esign::json

namespace test_check {

namespace {

using namespace esign;
using k = problem_kind;

const std::string U = "0b5c2a1e-9a7e-4c5b-8a3d-2f6e1d4c3b2a";  // 36 characters

problem make_problem(problem_path path, problem_kind kind, std::optional<std::int64_t> limit, std::string message) {
    return problem{std::move(path), kind, limit, std::move(message)};
}

std::string describe(const problem_list& problems) { return esign_fuzz::describe(problems); }

// What decode<T>(encode(v)) finds: the reference for a value whose JSON is not an object (read
// takes only objects).
template <class T>
problem_list decoded_problems(const T& value) {
    return json::decode<T>(json::encode(value)).problems();
}

// check(v) and read(write(v)) give the same problems (esign_fuzz::check_against_read).
template <class T>
void require_same_as_read(const T& value) {
    const std::string mismatch = esign_fuzz::check_against_read(value);
    INFO(mismatch);
    CHECK(mismatch.empty());
}

// The value json::read leaves in a T for `body`, problems or not (what a decoder has read).
template <class T>
T value_as_read(std::string_view body) {
    json::decoder d;
    T out{};
    d.start(json::slot_for(out));
    (void)json::parse_events(body, d);
    return out;
}

envelope_add_recipients_request recipients_request(std::size_t count) {
    envelope_add_recipients_request r;
    r.envelopeUuid = U;
    for (std::size_t i = 0; i < count; ++i) {
        add_recipients_item item;
        item.email = fmt::format("signer{}@example.com", i);
        item.firstname = "First";
        item.lastname = "Last";
        r.recipients.push_back(item);
    }
    return r;
}

}  // namespace

// =============================================================================================
// The constrained types, one by one

TEST_CASE("check: result<void>", "[check]") {
    result<void> ok;
    CHECK(ok.has_value());
    CHECK(static_cast<bool>(ok));
    CHECK(ok.problems().empty());
    result<void> bad(problem_list{make_problem({"a"}, k::missing, std::nullopt, "is required")});
    CHECK_FALSE(bad);
    REQUIRE(bad.problems().size() == 1);
    CHECK(std::move(bad).take_problems().front().path == problem_path{"a"});
}

TEST_CASE("check: bounded strings count code points", "[check]") {
    CHECK(check(bounded_string<1, 5>("abcde")));
    CHECK(check(bounded_string<1, 5>("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9")));  // 5 code points, 10 bytes
    CHECK(check(bounded_string<1, 5>("\xf0\x9f\x98\x80")));
    CHECK(check(bounded_string<1, 5>("")).problems() ==
          problem_list{make_problem({}, k::too_short, 1, "must not be empty")});
    CHECK(check(bounded_string<2, 4>("a")).problems() ==
          problem_list{make_problem({}, k::too_short, 2, "must be at least 2 characters")});
    CHECK(check(bounded_string<1, 5>("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9")).problems() ==
          problem_list{make_problem({}, k::too_long, 5, "must be at most 5 characters")});
    CHECK(check(bounded_string<0, unbounded>(std::string(100000, 'x'))));
    for (const std::string s : {"", "a", "abcdef", "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"}) {
        INFO(s);
        CHECK(check(bounded_string<1, 5>(s)).problems() == decoded_problems(bounded_string<1, 5>(s)));
    }
}

TEST_CASE("check: code_point_count counts every sequence, whatever its place in 8-byte words", "[check]") {
    // 1- to 4-byte sequences in random order, every length of string up to 70 bytes, and at each
    // offset of a larger buffer: the count is the number of sequences, at run time (8 bytes at a
    // time) as at compile time (byte by byte).
    static_assert(code_point_count("a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80") == 4);
    const std::string_view sequences[] = {
        "a", "\x7f", "\xc3\xa9", "\xdf\xbf", "\xe2\x82\xac", "\xef\xbf\xbf", "\xf0\x9f\x98\x80", "\xf4\x8f\xbf\xbf"};
    std::mt19937 random(12);
    for (int round = 0; round < 2000; ++round) {
        std::string text = "--------";  // room for an offset
        std::size_t points = 0;
        while (text.size() < 8 + static_cast<std::size_t>(round % 71)) {
            text += sequences[random() % std::size(sequences)];
            ++points;
        }
        const std::size_t offset = random() % 8;
        const std::string_view s = std::string_view(text).substr(8);
        const std::string shifted = std::string(offset, '-') + std::string(s);
        INFO("round " << round << ", offset " << offset);
        CHECK(code_point_count(s) == points);
        CHECK(code_point_count(std::string_view(shifted).substr(offset)) == points);
    }
}

TEST_CASE("check: same_name agrees with == for names of every length, whatever byte differs", "[check]") {
    // Member names and enumerators' wire names are compared a word at a time (overlapping
    // words): every length up to 40 bytes, at every offset of a buffer, equal or not in one byte,
    // or one byte shorter.
    using esign::detail::same_name;
    static_assert(same_name("signer", "signer") && !same_name("signer", "signed"));  // compile time: ==
    for (std::size_t n = 0; n <= 40; ++n) {
        std::string name;
        for (std::size_t i = 0; i < n; ++i) name += static_cast<char>('a' + (i * 7) % 26);
        for (std::size_t offset = 0; offset < 8; ++offset) {
            const std::string buffer = std::string(offset, '-') + name + "--------";
            const std::string_view copy = std::string_view(buffer).substr(offset, n);
            INFO("length " << n << ", offset " << offset);
            CHECK(same_name(name, copy));
            if (n > 0) CHECK_FALSE(same_name(name, copy.substr(0, n - 1)));
            if (n > 1) CHECK_FALSE(same_name(name.substr(1), copy.substr(0, n - 1)));  // same length
            for (std::size_t i = 0; i < n; ++i) {
                std::string other = name;
                other[i] = static_cast<char>(other[i] ^ 0x01);
                INFO("differs at " << i);
                CHECK_FALSE(same_name(other, copy));
                CHECK_FALSE(same_name(copy, other));
            }
        }
    }
}

TEST_CASE("check: uuid36 is exactly 36 characters", "[check]") {
    CHECK(check(uuid36(U)));
    CHECK(check(uuid36(request_examples::rep(36, "\xc3\xa9"))));  // 36 code points, 72 bytes
    CHECK(check(uuid36(U.substr(0, 35))).problems() ==
          problem_list{make_problem({}, k::too_short, 36, "must be exactly 36 characters")});
    CHECK(check(uuid36(U + "0")).problems() ==
          problem_list{make_problem({}, k::too_long, 36, "must be exactly 36 characters")});
    CHECK(check(uuid36("")).problems() == decoded_problems(uuid36("")));
}

TEST_CASE("check: both e-mail forms, with their lengths", "[check]") {
    for (const char* good : {"a@example.com", "first.last+tag@mail.example.com", "o'neil_1@example.co"}) {
        INFO(good);
        CHECK(check(email128(good)));
        CHECK(check(email255(good)));
        CHECK(check(update_recipient_email255(good)));
        CHECK(check(email_address(good)));
    }
    const auto pattern = make_problem({}, k::pattern, std::nullopt, "must be a valid e-mail address");
    for (const char* bad : {"", "a", "a@", "@example.com", "a b@example.com", "a@@example.com"}) {
        INFO(bad);
        CHECK(check(email128(bad)).problems() == problem_list{pattern});
        CHECK(check(update_recipient_email255(bad)).problems() == problem_list{pattern});
        CHECK(check(email128(bad)).problems() == decoded_problems(email128(bad)));
    }
    // Too long: the length first, then the pattern if it also fails (both are judged).
    const email128 long_one(std::string(117, 'x') + "@example.com");  // 129 characters
    const auto problems = check(long_one).problems();
    REQUIRE_FALSE(problems.empty());
    CHECK(problems[0] == make_problem({}, k::too_long, 128, "must be at most 128 characters"));
    CHECK(problems == decoded_problems(long_one));
    CHECK(check(email255(std::string(117, 'x') + "@example.com")).problems() ==
          decoded_problems(email255(std::string(117, 'x') + "@example.com")));
}

TEST_CASE("check: pattern strings and absolute URIs", "[check]") {
    CHECK(check(hex_color("#abc")));
    CHECK(check(hex_color("#A1b2C3")));
    CHECK(check(hex_color("#abcd")).problems() ==
          problem_list{make_problem({}, k::pattern, std::nullopt, "must match ^#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$")});
    CHECK(check(page_key("12")));
    CHECK(check(page_key("")).problems() == decoded_problems(page_key("")));

    CHECK(check(absolute_uri("https://hooks.example.com/esign?x=1#y")));
    CHECK(check(absolute_uri("https://[2001:db8::1]:8443/")));
    CHECK(check(absolute_uri("ftp://files.example.com/")));  // a URI: refusing it is a business rule
    const auto not_uri = make_problem({}, k::pattern, std::nullopt, "must be an absolute URI");
    for (const char* bad : {"", "http:x", "mailto:a@example.com", "http://", "http://a:99999/", "//a.b/"}) {
        INFO(bad);
        CHECK(check(absolute_uri(bad)).problems() == problem_list{not_uri});
    }
    const std::string base = "https://example.com/";
    CHECK(check(absolute_uri(base + std::string(2048 - base.size(), 'a'))));
    CHECK(check(absolute_uri(base + std::string(2049 - base.size(), 'a'))).problems() ==
          problem_list{make_problem({}, k::too_long, 2048, "must be at most 2048 characters")});
}

TEST_CASE("check: ranges and integers", "[check]") {
    CHECK(check(ranged<1, 90>(1)));
    CHECK(check(ranged<1, 90>(90)));
    CHECK(check(ranged<1, 90>(0)).problems() == problem_list{make_problem({}, k::range, 1, "must be at least 1")});
    CHECK(check(ranged<1, 90>(91)).problems() == problem_list{make_problem({}, k::range, 90, "must be at most 90")});
    CHECK(check(ranged<1, 90>{}));  // the default is in range
    CHECK(check(int32(std::numeric_limits<std::int32_t>::min())));
    CHECK(check(std::int64_t{-5}));
    CHECK(check(std::uint64_t{9223372036854775807u}));
    CHECK(check(std::numeric_limits<std::uint64_t>::max()).problems() ==
          problem_list{make_problem({}, k::range, 0, "must be an integer of at least 0")});
    CHECK(check(std::numeric_limits<std::uint64_t>::max()).problems() ==
          decoded_problems(std::numeric_limits<std::uint64_t>::max()));
    CHECK(check(2.5));
}

TEST_CASE("check: an enumerator outside its enum is refused like an unknown string", "[check]") {
    CHECK(check(recipient_role::approver));
    CHECK(check(recipient_status::signed_));
    CHECK(check(static_cast<recipient_role>(7)).problems() ==
          problem_list{make_problem({}, k::enum_value, std::nullopt, "must be one of: signer, approver, viewer")});
    // An enum with wire names of its own (wire_name): the message lists them.
    CHECK(check(static_cast<recipient_status>(-1)).problems() ==
          problem_list{make_problem({}, k::enum_value, std::nullopt,
                                    "must be one of: pending, approved, signed, declined, canceled")});
    CHECK(check(static_cast<webhook_content_type>(2)).problems() ==
          decoded_problems(static_cast<webhook_content_type>(2)));
}

TEST_CASE("check: optional, nullable and tri-state", "[check]") {
    using short_text = bounded_string<1, 3>;
    CHECK(check(nullable<short_text>()));  // null is what a nullable allows
    CHECK(check(nullable<short_text>(short_text("ab"))));
    CHECK(check(nullable<short_text>(short_text("abcd"))).problems() ==
          problem_list{make_problem({}, k::too_long, 3, "must be at most 3 characters")});

    // A tri-state member: absent, null, or a value judged by its type.
    webhook_update_request w;
    w.uuid = U;
    CHECK(check(w));
    w.secret.emplace();  // null: removes the secret
    CHECK(check(w));
    w.secret.emplace(webhook_secret(std::string(257, 's')));
    CHECK(check(w).problems() ==
          problem_list{make_problem({"secret"}, k::too_long, 256, "must be at most 256 characters")});
    require_same_as_read(w);

    // An absent optional member is not written; an empty optional elsewhere is written as null,
    // which its type's reader refuses.
    const std::vector<std::optional<short_text>> items{short_text("ab"), std::nullopt, short_text("abcd")};
    const problem_list expected{make_problem({"1"}, k::type, std::nullopt, "expected a string, got null"),
                                make_problem({"2"}, k::too_long, 3, "must be at most 3 characters")};
    CHECK(check(items).problems() == expected);
    CHECK(decoded_problems(items) == expected);
    const std::vector<tri_state<short_text>> states{std::nullopt, nullable<short_text>(), short_text("x")};
    CHECK(check(states));
}

TEST_CASE("check: vectors, bounded vectors and maps", "[check]") {
    using labels = bounded_vector<bounded_string<1, 3>, 1, 2>;
    CHECK(check(labels{"a", "bc"}));
    CHECK(check(labels{}).problems() == problem_list{make_problem({}, k::size, 1, "must have at least 1 item")});
    CHECK(check(labels{"a", "b", "c"}).problems() ==
          problem_list{make_problem({}, k::size, 2, "must have at most 2 items")});
    // Items beyond the maximum are not judged (read does not read them): one size problem.
    CHECK(check(labels{"abcd", "", "xxxxx", ""}).problems() ==
          problem_list{make_problem({"0"}, k::too_long, 3, "must be at most 3 characters"),
                       make_problem({"1"}, k::too_short, 1, "must not be empty"),
                       make_problem({}, k::size, 2, "must have at most 2 items")});
    CHECK(check(labels{"abcd", "", "xxxxx", ""}).problems() == decoded_problems(labels{"abcd", "", "xxxxx", ""}));
    CHECK(check(std::vector<ranged<0, 1>>{0, 1, 2, 1, -1}).problems() ==
          problem_list{make_problem({"2"}, k::range, 1, "must be at most 1"),
                       make_problem({"4"}, k::range, 0, "must be at least 0")});

    const std::map<std::string, ranged<1, 5>> counts{{"a", 0}, {"b", 3}, {"c", 6}};
    CHECK(check(counts).problems() == problem_list{make_problem({"a"}, k::range, 1, "must be at least 1"),
                                                   make_problem({"c"}, k::range, 5, "must be at most 5")});
    CHECK(check(counts).problems() == decoded_problems(counts));
}

// =============================================================================================
// Requests: paths, order, rules across members

TEST_CASE("check: a valid request built in code has no problem", "[check]") {
    CHECK(check(recipients_request(1)));
    CHECK(check(recipients_request(50)));
    envelope_add_blocks_request blocks;
    blocks.envelopeUuid = U;
    blocks.documentUuid = U;
    blocks.blocks.resize(3);
    for (auto& b : blocks.blocks) b.page = "1";
    CHECK(check(blocks));
    require_same_as_read(blocks);
}

TEST_CASE("check: problems deep in vectors of structs, in document order", "[check]") {
    auto r = recipients_request(40);
    r.envelopeUuid = "short";
    r.recipients[3].email = "not an address";
    r.recipients[37].email = email128(std::string(120, 'x') + "@@example.com");  // too long, and malformed
    r.recipients[37].type = static_cast<recipient_type>(3);
    const auto problems = check(r).problems();
    INFO(describe(problems));
    REQUIRE(problems.size() == 5);
    CHECK(problems[0] == make_problem({"envelopeUuid"}, k::too_short, 36, "must be exactly 36 characters"));
    CHECK(problems[1] ==
          make_problem({"recipients", "3", "email"}, k::pattern, std::nullopt, "must be a valid e-mail address"));
    CHECK(problems[2] ==
          make_problem({"recipients", "37", "type"}, k::enum_value, std::nullopt, "must be one of: manual"));
    CHECK(problems[3] ==
          make_problem({"recipients", "37", "email"}, k::too_long, 128, "must be at most 128 characters"));
    CHECK(problems[4].path == problem_path{"recipients", "37", "email"});
    CHECK(problems[4].kind == k::pattern);
    require_same_as_read(r);

    envelope_update_request u;
    u.envelopeUuid = U;
    auto& docs = u.update.documents.emplace(3);
    for (auto& d : docs) d.uuid = U;
    docs[2].initialsVerticalMargin = 130;
    docs[0].title = bounded_string<0, 255>(std::string(256, 't'));
    u.update.expirationPeriod = 0;
    CHECK(
        check(u).problems() ==
        problem_list{
            make_problem({"update", "documents", "0", "title"}, k::too_long, 255, "must be at most 255 characters"),
            make_problem({"update", "documents", "2", "initialsVerticalMargin"}, k::range, 120, "must be at most 120"),
            make_problem({"update", "expirationPeriod"}, k::range, 1, "must be at least 1")});
    require_same_as_read(u);
}

TEST_CASE("check: rules across members", "[check]") {
    // sms verification needs a phone (a rule of each item).
    auto r = recipients_request(2);
    r.recipients[1].verificationType = verification_type::sms;
    CHECK(check(r).problems() ==
          problem_list{make_problem({"recipients", "1", "phone"}, k::rule, std::nullopt,
                                    "a recipient with verificationType sms needs a non-empty phone")});
    require_same_as_read(r);
    r.recipients[1].phone = "+33612345678";
    CHECK(check(r));

    // Distinct template labels (a rule of the request), after the members' own problems.
    control_template_create_request t;
    t.content.title = "T";
    t.content.recipientLabels = {"A", "", "A"};
    CHECK(check(t).problems() ==
          problem_list{
              make_problem({"recipientLabels", "1"}, k::too_short, 1, "must not be empty"),
              make_problem({"recipientLabels", "2"}, k::rule, std::nullopt, "recipient labels must be distinct")});
    require_same_as_read(t);
    // A rule's problem where the member has one of its own is dropped, as read drops it.
    t.content.recipientLabels = {std::string(256, 'L'), std::string(256, 'L')};
    CHECK(check(t).problems() ==
          problem_list{make_problem({"recipientLabels", "0"}, k::too_long, 255, "must be at most 255 characters"),
                       make_problem({"recipientLabels", "1"}, k::too_long, 255, "must be at most 255 characters")});
    require_same_as_read(t);

    // The same e-mail under two labels.
    envelope_create_from_template_request f;
    f.templateUuid = U;
    f.recipients.resize(2);
    f.recipients[0].label = "Signer";
    f.recipients[1].label = "Witness";
    for (auto& x : f.recipients) x.email = "same@example.com";
    CHECK(check(f).problems() == problem_list{make_problem({"recipients", "1", "email"}, k::rule, std::nullopt,
                                                           "the same e-mail is given under two labels")});
    require_same_as_read(f);

    // Members that go together (faults/add).
    control_faults_add_request fault;
    fault.operation = "/public/envelope/get";
    fault.action = fault_action::delay;
    CHECK(check(fault).problems() ==
          problem_list{make_problem({"delayMs"}, k::missing, std::nullopt, "is required for action delay")});
    require_same_as_read(fault);
    fault.delayMs = 40'000;
    CHECK(check(fault).problems() ==
          problem_list{make_problem({"delayMs"}, k::range, 30'000, "must be at most 30000")});
    require_same_as_read(fault);
}

TEST_CASE("check: a rule across members sees a refused member as read leaves it", "[check]") {
    // An unknown action is not stored by read: the member keeps its default (error), and the
    // rule then asks for `error`. check judges the value read would have.
    control_faults_add_request fault;
    fault.operation = "/public/envelope/get";
    fault.action = static_cast<fault_action>(9);
    CHECK(check(fault).problems() ==
          problem_list{make_problem({"action"}, k::enum_value, std::nullopt,
                                    "must be one of: error, delay, drop, fail, timeout"),
                       make_problem({"error"}, k::missing, std::nullopt, "is required for action error")});
    require_same_as_read(fault);
    fault.error = error_code::ENVELOPE_NOT_FOUND;
    CHECK(check(fault).problems() == problem_list{make_problem({"action"}, k::enum_value, std::nullopt,
                                                               "must be one of: error, delay, drop, fail, timeout")});
    require_same_as_read(fault);
    fault.error = static_cast<error_code>(999);  // present: read emplaces it, the rule sees one
    require_same_as_read(fault);
    fault.delayMs = 0;  // out of range, and present: the rule says it is only for delay
    require_same_as_read(fault);

    // A rule that asks whether its member is bad (logs/list: the category) judges nothing then.
    logs_list_request logs;
    logs.category = static_cast<log_category>(8);
    logs.eventTypes = std::vector<std::string>{"NOT_AN_EVENT"};
    CHECK(check(logs).problems().size() == 1);
    require_same_as_read(logs);
    logs.category = log_category::team;
    CHECK(check(logs).problems() == problem_list{make_problem({"eventTypes", "0"}, k::enum_value, std::nullopt,
                                                              "not an event type of the team category")});
    require_same_as_read(logs);
}

TEST_CASE("check: at most max_reported_problems problems, as read", "[check]") {
    control_template_create_request t;
    t.content.recipientLabels.assign(150, bounded_string<1, 255>(""));
    const auto problems = check(t).problems();
    CHECK(problems.size() == max_reported_problems);
    CHECK(problems.back().path == problem_path{"recipientLabels", "99"});
    require_same_as_read(t);
}

// =============================================================================================
// What JSON cannot say: check says it at the value's path, read(write) refuses the whole body

TEST_CASE("check: strings that are not UTF-8, NaN, values nested too deep", "[check]") {
    auto refused_body = [](const auto& value) {
        using T = std::remove_cvref_t<decltype(value)>;
        const auto read = json::read<T>(json::write(value)).problems();
        REQUIRE(read.size() == 1);
        CHECK(read[0].kind == k::syntax);
        CHECK(read[0].path.empty());
    };
    auto r = recipients_request(3);
    r.recipients[1].firstname = "Bj\xf6rn";  // Latin-1, not UTF-8
    r.recipients[2].email = "a@example.com";
    CHECK(check(r).problems() ==
          problem_list{make_problem({"recipients", "1", "firstname"}, k::syntax, std::nullopt, "must be valid UTF-8")});
    refused_body(r);
    require_same_as_read(r);

    // A constrained string that is not UTF-8 has that problem only (its length means nothing).
    r.envelopeUuid = uuid36(std::string(36, '\xff'));
    CHECK(check(r).problems().front() ==
          make_problem({"envelopeUuid"}, k::syntax, std::nullopt, "must be valid UTF-8"));
    CHECK(check(r).problems().size() == 2);
    for (const char* bad : {"\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe2\x82", "\x80"}) {
        INFO(describe(check(std::string(bad)).problems()));
        CHECK(check(std::string(bad)).problems().size() == 1);
    }
    CHECK(check(std::string("\xf4\x8f\xbf\xbf\xef\xbf\xbf")));  // U+10FFFF, U+FFFF
    static_assert(valid_utf8("a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80") && !valid_utf8("0123456789\xc3"));
    CHECK(valid_utf8(std::string(1000, 'a') + "\xc3\xa9" + std::string(9, 'b')));
    CHECK_FALSE(valid_utf8(std::string(1000, 'a') + "\xc3" + std::string(9, 'b')));

    // Items beyond a bounded_vector's maximum are parsed by read, not judged: must still be JSON.
    auto many = recipients_request(52);
    many.recipients[51].firstname = "\xff";
    many.recipients[50].email = "bad";  // not judged
    CHECK(check(many).problems() ==
          problem_list{make_problem({"recipients", "51", "firstname"}, k::syntax, std::nullopt, "must be valid UTF-8"),
                       make_problem({"recipients"}, k::size, 50, "must have at most 50 items")});
    refused_body(many);

    envelope_add_blocks_request blocks;
    blocks.envelopeUuid = U;
    blocks.documentUuid = U;
    blocks.blocks.resize(2);
    blocks.blocks[0].page = "1";
    blocks.blocks[1].page = "x";
    blocks.blocks[1].width = std::numeric_limits<double>::quiet_NaN();
    blocks.blocks[1].x = -std::numeric_limits<double>::infinity();
    CHECK(check(blocks).problems() ==
          problem_list{make_problem({"blocks", "1", "page"}, k::pattern, std::nullopt, "must match ^[0-9]+$"),
                       make_problem({"blocks", "1", "x"}, k::syntax, std::nullopt, "must be a finite number"),
                       make_problem({"blocks", "1", "width"}, k::syntax, std::nullopt, "must be a finite number")});
    refused_body(blocks);
    require_same_as_read(blocks);

    // A boost::json value as deep as read takes (the root object is level 1), and one deeper.
    auto nested = [](std::size_t levels) {
        boost::json::value v;
        boost::json::value* at = &v;
        for (std::size_t i = 0; i < levels; ++i) at = &at->emplace_object()["a"];
        return v;
    };
    control_journal_list_response journal;  // {entries: [{request: ...}]}: the request at level 4
    journal.entries.resize(1);
    journal.entries[0].request = nested(61);  // levels 4 to 64
    CHECK(check(journal));
    CHECK(json::read<control_journal_list_response>(json::write(journal)));
    journal.entries[0].request = nested(62);
    problem_path deepest{"entries", "0", "request"};
    for (int i = 0; i < 61; ++i) deepest.push_back("a");
    const auto deep = check(journal).problems();
    CHECK(deep == problem_list{make_problem(deepest, k::syntax, std::nullopt, "is nested deeper than 64 levels")});
    refused_body(journal);
    require_same_as_read(journal);

    journal.entries[0].request = nested(2);
    journal.entries[0].response = boost::json::object{{"x\xff", 1}, {"y", boost::json::string_view("\xc3")}};
    CHECK(check(journal).problems() ==
          problem_list{
              make_problem({"entries", "0", "response", "x\xff"}, k::syntax, std::nullopt, "must be valid UTF-8"),
              make_problem({"entries", "0", "response", "y"}, k::syntax, std::nullopt, "must be valid UTF-8")});
    require_same_as_read(journal);
}

// =============================================================================================
// Checked construction

TEST_CASE("check: the make factories of the constrained types", "[check]") {
    auto id = uuid36::make(U);
    REQUIRE(id);
    CHECK(id->str() == U);
    CHECK(uuid36::make("abc").problems() ==
          problem_list{make_problem({}, k::too_short, 36, "must be exactly 36 characters")});

    using name = bounded_string<1, 100>;
    CHECK(name::make("Ada"));
    CHECK(name::make("").problems() == problem_list{make_problem({}, k::too_short, 1, "must not be empty")});
    CHECK(name::make(std::string(101, 'n')).problems().front().kind == k::too_long);
    CHECK(name::make("\xff").problems().front().kind == k::syntax);

    CHECK(email128::make("a@example.com"));
    CHECK(email128::make("nope").problems() ==
          problem_list{make_problem({}, k::pattern, std::nullopt, "must be a valid e-mail address")});
    CHECK(update_recipient_email255::make("a@example.com"));

    auto color = hex_color::make("#0af");
    REQUIRE(color);
    CHECK(color->str() == "#0af");
    CHECK(hex_color::make("red").problems().front().kind == k::pattern);

    CHECK(absolute_uri::make("https://hooks.example.com/x"));
    CHECK(absolute_uri::make("hooks.example.com").problems().front().message == "must be an absolute URI");

    auto period = ranged<1, 90>::make(45);
    REQUIRE(period);
    CHECK(period->value == 45);
    CHECK(ranged<1, 90>::make(91).problems() == problem_list{make_problem({}, k::range, 90, "must be at most 90")});
    CHECK(ranged<1, 90>::make(5'000'000'000).problems() ==
          problem_list{make_problem({}, k::range, 90, "must be at most 90")});
    CHECK(ranged<1, 90>::make(-5'000'000'000).problems() ==
          problem_list{make_problem({}, k::range, 1, "must be at least 1")});

    using emails = bounded_vector<email128, 1, 2>;
    CHECK(emails::make({email128("a@example.com")}));
    CHECK(emails::make({email128("a@example.com"), email128("bad")}).problems() ==
          problem_list{make_problem({"1"}, k::pattern, std::nullopt, "must be a valid e-mail address")});
    CHECK(emails::make({}).problems().front().kind == k::size);

    // Any value: esign::checked gives it back, or its problems.
    auto request = checked(recipients_request(2));
    REQUIRE(request);
    CHECK(request->recipients.size() == 2);
    auto bad = recipients_request(2);
    bad.recipients[0].email = "x";
    CHECK(checked(bad).problems().front().path == problem_path{"recipients", "0", "email"});

    // Building the types directly still checks nothing (aggregates as before).
    bounded_string<1, 5> anything("far too long");
    ranged<1, 90> out_of_range{500};
    CHECK(anything.size() == 12);
    CHECK(out_of_range.value == 500);
}

TEST_CASE("check: a codec of the user's, with and without rules", "[check]") {
    user::order o;
    o.quantity.value = 4;
    o.note.text = "anything";
    CHECK(check(o));
    o.quantity.value = 3;
    o.more = {{2}, {5}};
    CHECK(check(o).problems() == problem_list{make_problem({"quantity"}, k::range, std::nullopt, "must be even"),
                                              make_problem({"more", "1"}, k::range, std::nullopt, "must be even")});
    require_same_as_read(o);
    CHECK(check(user::label{"no rules"}));
}

// =============================================================================================
// The invariant, on many values

TEST_CASE("check: every request example, as read leaves it, as read(write) judges it", "[check]") {
    std::size_t rows = 0, valid_rows = 0, with_problems = 0;
    for (const auto& r : request_examples::table()) {
        const std::string body = r.body();
        for_each_operation([&](const auto& op) {
            if (op.path != r.op) return;
            using request = typename std::remove_cvref_t<decltype(op)>::request_type;
            const request value = value_as_read<request>(body);
            INFO(r.op << ": " << r.change.description);
            INFO("body: " << (body.size() > 400 ? body.substr(0, 400) + "..." : body));
            require_same_as_read(value);
            const auto found = check(value);
            if (r.expected.empty() && !r.strict) {
                ++valid_rows;
                INFO(describe(found.problems()));
                CHECK(found);
            }
            with_problems += !found;
            ++rows;
        });
    }
    CHECK(rows > 600);
    CHECK(valid_rows > 100);
    CHECK(with_problems > 250);
}

TEST_CASE("check: generated requests and responses of every operation, valid and invalid", "[check]") {
    std::mt19937_64 rng(20261127);
    std::size_t values = 0, with_problems = 0, unwritable = 0;
    std::map<problem_kind, std::size_t> kinds;
    for (int round = 0; round < 40; ++round) {
        for_each_operation([&](const auto& op) {
            using operation = std::remove_cvref_t<decltype(op)>;
            for (int mode = 0; mode < 4; ++mode) {
                std::vector<std::uint8_t> data(64 + rng() % 512);
                for (auto& x : data) x = static_cast<std::uint8_t>(rng());
                esign_fuzz::bytes b{data.data(), data.size(), mode % 2 == 1};
                auto run = [&](auto value) {
                    esign_fuzz::fill(b, value);
                    ++values;
                    INFO(op.path << (mode < 2 ? " response" : " request") << (b.invalid ? ", invalid values" : ""));
                    require_same_as_read(value);
                    const auto found = check(value);
                    with_problems += !found;
                    bool syntax = false;
                    for (const auto& p : found.problems()) {
                        ++kinds[p.kind];
                        syntax = syntax || p.kind == k::syntax;
                    }
                    unwritable += syntax;
                    if (mode == 0) {  // the generator's valid responses
                        INFO(describe(found.problems()));
                        CHECK(found);
                    }
                };
                if (mode < 2)
                    run(typename operation::response_type{});
                else
                    run(typename operation::request_type{});
            }
        });
    }
    INFO(values << " values, " << with_problems << " with problems, " << unwritable << " not JSON");
    CHECK(values == 40 * 4 * operation_count);
    CHECK(with_problems > values / 8);
    CHECK(unwritable < with_problems / 2);  // most invalid values are still JSON: compared exactly
    for (problem_kind kind :
         {k::too_short, k::too_long, k::pattern, k::enum_value, k::range, k::size, k::rule, k::missing, k::syntax}) {
        INFO(fmt::format("{}", kind));
        CHECK(kinds[kind] > 0);
    }
}

// =============================================================================================
// json::read_into: a value read again is what read gives

TEST_CASE("read_into: a value read again, from any value before, is what read gives", "[json][read_into]") {
    // Pairs of generated bodies of every request and response type (valid ones, ones with problems,
    // and cut short: not JSON), the second read into what the first left (success or not): the
    // outcome and the value are read's own, and decode_value on the DOM path likewise. Optionals
    // present before and absent after, vectors longer before, nullables null after a value, maps,
    // items and structs read into again are all among them.
    std::mt19937_64 rng(20261126);
    std::size_t pairs = 0, second_valid = 0, first_failed = 0, shrunk = 0;
    auto body_of = [&](auto value, bool invalid) {
        std::vector<std::uint8_t> data(64 + rng() % 512);
        for (auto& x : data) x = static_cast<std::uint8_t>(rng());
        esign_fuzz::bytes b{data.data(), data.size(), invalid};
        esign_fuzz::fill(b, value);
        std::string body = json::write(value);
        if (rng() % 8 == 0) body.resize(body.size() / 2);  // not JSON any more
        return body;
    };
    for (int round = 0; round < 30; ++round) {
        for_each_operation([&](const auto& op) {
            using operation = std::remove_cvref_t<decltype(op)>;
            auto run = [&](auto type) {
                using T = decltype(type);
                const std::string first = body_of(T{}, rng() % 2 == 1);
                const std::string second = body_of(T{}, rng() % 4 == 0);
                INFO(op.path << "\nfirst:  " << first << "\nsecond: " << second);
                T reused{};
                first_failed += !json::read_into(first, reused);
                const std::size_t before = json::write(reused).size();
                const auto again = json::read_into(second, reused);
                const auto fresh = json::read<T>(second);
                REQUIRE(bool(again) == fresh.has_value());
                ++pairs;
                if (!fresh) {
                    CHECK(again.problems() == fresh.problems());
                    return;
                }
                ++second_valid;
                CHECK(json::write(reused) == json::write(*fresh));
                shrunk += json::write(reused).size() < before;

                auto dom = json::parse_body(second);
                REQUIRE(dom);
                json::decoder d;
                T decoded{};
                (void)json::read_into(first, decoded);
                json::decode_value(dom->value, decoded, d);
                CHECK(d.problem_count() == 0);
                CHECK(json::write(decoded) == json::write(*fresh));
            };
            run(typename operation::request_type{});
            run(typename operation::response_type{});
        });
    }
    INFO(pairs << " pairs, " << second_valid << " second bodies valid, " << first_failed << " first reads failed, "
               << shrunk << " values smaller after");
    CHECK(pairs == 30 * 2 * operation_count);
    CHECK(second_valid > pairs / 2);
    CHECK(first_failed > pairs / 4);
    CHECK(shrunk > pairs / 8);
}

TEST_CASE("read_into: what the value held and the body does not is gone", "[json][read_into]") {
    envelope_add_recipients_request r = recipients_request(5);
    r.recipients[3].phone = "+33612345678";
    r.workspaceUuid = uuid36(U);
    REQUIRE(check(r));
    const std::string body =
        fmt::format(R"({{"envelopeUuid":"{}","recipients":[{{"type":"manual","email":"a@example.com",)"
                    R"("firstname":"A","lastname":"B"}}]}})",
                    U);
    REQUIRE(json::read_into(body, r));
    CHECK_FALSE(r.workspaceUuid);
    REQUIRE(r.recipients.size() == 1);
    CHECK(r.recipients[0].email == "a@example.com");
    CHECK_FALSE(r.recipients[0].phone);
    const auto fresh = json::read<envelope_add_recipients_request>(body);
    REQUIRE(fresh);
    CHECK(json::write(r) == json::write(*fresh));

    // A body with problems: the same problems as read's.
    const std::string bad = R"({"envelopeUuid":"short","recipients":[]})";
    const auto again = json::read_into(bad, r);
    CHECK(again.problems() == json::read<envelope_add_recipients_request>(bad).problems());

    // An absent optional member holds what it holds in a new value: its default, if it has one.
    const auto fresh_page = json::read<user::page_request>("{}");
    REQUIRE(fresh_page);
    CHECK(fresh_page->limit == 10);
    CHECK_FALSE(fresh_page->cursor);
    user::page_request page;
    REQUIRE(json::read_into(R"({"limit":3,"cursor":"abc"})", page));
    CHECK((page.limit == 3 && page.cursor == "abc"));
    REQUIRE(json::read_into("{}", page));
    CHECK(page.limit == 10);
    CHECK_FALSE(page.cursor);
}

}  // namespace test_check
