// SPDX-License-Identifier: BSL-1.0
// The C++ examples of README.md, compiled and run (CTest and Meson test readme_snippets), with
// checks of what each one does and of what its comments say.
//
// Every ```cpp block of README.md is the text between a `// README snippet: NAME` line and the
// next `// README snippet end` line of this file, without its indentation; a snippet in several
// pieces (an #include at file scope, then statements in a function) is its pieces joined by an
// empty line, in order. tests/snippets/check_readme.py (test readme_in_sync) checks that README.md
// and this file say the same, in the same order; `check_readme.py --update` writes this file's
// snippets into README.md.
#include <cassert>
#include <charconv>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include <boost/json/parse.hpp>

// What the tour does with each recipient it read (recorded below).
void use(const std::string& email, const std::string& firstname);

// README snippet: tour
#include <esign/esign.hpp>
// README snippet end

namespace {

int failures = 0;

void expect(bool ok, std::string_view what, int line) {
    if (ok) return;
    ++failures;
    fmt::print(stderr, "readme.cpp:{}: FAILED: {}\n", line, what);
}
#define EXPECT(...) expect((__VA_ARGS__), #__VA_ARGS__, __LINE__)

// The text of the first problem of `judged`, as fmt prints it.
template <class Result>
std::string first_problem(const Result& judged) {
    if (judged || judged.problems().empty()) return "(no problem)";
    return fmt::format("{}", judged.problems().front());
}

std::vector<std::pair<std::string, std::string>> used;

}  // namespace

void use(const std::string& email, const std::string& firstname) { used.emplace_back(email, firstname); }

// ---------------------------------------------------------------------------------------------
// A short tour

void tour(std::string_view body) {
    // README snippet: tour
    auto request = esign::json::read<esign::envelope_add_recipients_request>(body);
    if (!request) {
        for (const esign::problem& p : request.problems())
            fmt::print("{}\n", p);  // recipients[1].email: must be a valid e-mail address (pattern)
        return;
    }
    for (const auto& r : request->recipients) use(r.email.str(), r.firstname);
    // README snippet end
}

constexpr std::string_view an_envelope = "c0000000-0000-4000-8000-000000000001";

std::string add_recipients_body(std::string_view second_email) {
    return fmt::format(R"({{"envelopeUuid": "{}", "recipients": [)"
                       R"({{"type": "manual", "email": "ada@example.com", "firstname": "Ada", "lastname": "L"}},)"
                       R"({{"type": "manual", "email": "{}", "firstname": "Alan", "lastname": "T"}}]}})",
                       an_envelope, second_email);
}

void check_tour() {
    const std::string bad = add_recipients_body("alan@example");
    EXPECT(first_problem(esign::json::read<esign::envelope_add_recipients_request>(bad)) ==
           "recipients[1].email: must be a valid e-mail address (pattern)");
    tour(bad);
    EXPECT(used.empty());
    tour(add_recipients_body("alan@example.com"));
    EXPECT(used ==
           std::vector<std::pair<std::string, std::string>>{{"ada@example.com", "Ada"}, {"alan@example.com", "Alan"}});
}

// ---------------------------------------------------------------------------------------------
// A type of your own

// README snippet: your own type
#include <esign/schema/json_schema.hpp>  // only where its JSON Schema is wanted

// A day written "2026-11-26": its codec is the one place that says how it is read, judged and
// written, and what its JSON Schema is.
struct calendar_day {
    int year = 1970, month = 1, day = 1;
};

template <>
struct esign::json::codec<calendar_day> {
    static void read(const scalar& s, calendar_day& out, decoder& d) {  // as the parser meets it
        if (!s.is_string()) return d.add(problem_kind::type, "must be a string");
        const std::string_view t = s.text;
        auto number = [&](std::size_t at, std::size_t length, int& field) {
            return std::from_chars(t.data() + at, t.data() + at + length, field).ptr == t.data() + at + length;
        };
        if (t.size() != 10 || t[4] != '-' || t[7] != '-' || !number(0, 4, out.year) || !number(5, 2, out.month) ||
            !number(8, 2, out.day))
            return d.add(problem_kind::pattern, "must be a day written YYYY-MM-DD");
        auto sink = d.sink();
        check(out, sink);  // the rules of a value: the same for esign::check
    }
    static bool check(const calendar_day& in, problem_sink& out) {
        if (in.month >= 1 && in.month <= 12 && in.day >= 1 && in.day <= 31) return true;
        out.add(problem_kind::range, "must be a day of the calendar");
        return false;
    }
    static std::string text(const calendar_day& in) {
        return fmt::format("{:04}-{:02}-{:02}", in.year, in.month, in.day);
    }
    static void encode(const calendar_day& in, boost::json::value& out) { out = text(in); }
    static void write(const calendar_day& in, text_buffer& out) { write_string(text(in), out); }  // optional
    static boost::json::object schema(auto& /*context*/) {                                        // optional
        return {{"type", "string"}, {"format", "date"}};
    }
};

struct leave_request {
    calendar_day first;
    std::optional<calendar_day> last;
};
BOOST_DESCRIBE_STRUCT(leave_request, (), (first, last))
// README snippet end

void own_type() {
    // README snippet: your own type
    auto leave = esign::json::read<leave_request>(R"({"first": "2026-12-21", "last": "2026-13-02"})");
    // !leave: last: must be a day of the calendar (range)
    auto text = esign::json::write(leave_request{{2026, 12, 21}, {}});  // {"first":"2026-12-21"}
    auto schema = esign::schema::json_schema<leave_request>();          // properties.first: type string, format date
    // README snippet end
    static_assert(esign::json::text_codec<calendar_day>);  // write is used, not encode through a DOM
    EXPECT(first_problem(leave) == "last: must be a day of the calendar (range)");
    EXPECT(text == R"({"first":"2026-12-21"})");
    EXPECT(esign::json::encode(leave_request{{2026, 12, 21}, {}}) == boost::json::parse(text));
    const boost::json::value expected_first{{"type", "string"}, {"format", "date"}};
    EXPECT(schema.at("properties").at("first") == expected_first);
    EXPECT(schema.at("required") == boost::json::array{"first"});
    for (const char* bad : {"2026-1-2", "2026", "", "2026-01-0x", "2026_01_02"})
        EXPECT(first_problem(esign::json::read<leave_request>(fmt::format(R"({{"first": "{}"}})", bad))) ==
               "first: must be a day written YYYY-MM-DD (pattern)");
    EXPECT(first_problem(esign::json::read<leave_request>(R"({"first": 20261221})")) ==
           "first: must be a string (type)");
    EXPECT(first_problem(esign::check(leave_request{{2026, 2, 0}, {}})) ==
           "first: must be a day of the calendar (range)");
    auto read_back =
        esign::json::read<leave_request>(esign::json::write(leave_request{{2026, 1, 2}, calendar_day{2027, 3, 4}}));
    EXPECT(read_back && read_back->last && read_back->last->year == 2027 && read_back->first.day == 2);
}

// ---------------------------------------------------------------------------------------------
// Validating a value built in code

bool reached_end_of_check = false;

void validate_in_code(const std::function<esign::envelope_add_recipients_request()>& make_request,
                      const std::string& text, const std::string& input, std::int64_t days) {
    reached_end_of_check = false;
    // README snippet: check
    esign::envelope_add_recipients_request request = make_request();  // built in code
    if (auto judged = esign::check(request); !judged) {               // esign::result<void>
        for (const esign::problem& p : judged.problems())
            fmt::print("{}\n", p);  // recipients[3].email: must be a valid e-mail address (pattern)
        return;
    }
    auto id = esign::uuid36::make(text);  // esign::result<uuid36>: the value, or its problems
    auto name = esign::bounded_string<1, 100>::make(input);
    auto period = esign::ranged<1, 90>::make(days);     // also email<...>, pattern_string<...>,
    auto color = esign::hex_color::make("#228be6");     // absolute_uri, bounded_vector<...>
    auto checked = esign::checked(std::move(request));  // any type: esign::result<T>
    // README snippet end
    reached_end_of_check = true;
    EXPECT(id && *id == text);
    EXPECT(!name && name.problems().front().kind == esign::problem_kind::too_short);
    EXPECT(!period && period.problems().front().kind == esign::problem_kind::range &&
           period.problems().front().limit == 90);
    EXPECT(color && color->str() == "#228be6");
    EXPECT(checked && checked->recipients.size() == 4);
}

void check_validate_in_code() {
    auto four_recipients = [](const std::string& fourth_email) {
        esign::envelope_add_recipients_request r;
        r.envelopeUuid = esign::uuid36{std::string(an_envelope)};
        for (const std::string email : {"a@example.com", "b@example.com", "c@example.com", fourth_email.c_str()}) {
            esign::add_recipients_item item;
            item.email = email;
            item.firstname = "F";
            item.lastname = "L";
            r.recipients.push_back(std::move(item));
        }
        return r;
    };
    auto bad = [&] { return four_recipients("d@example"); };
    EXPECT(first_problem(esign::check(bad())) == "recipients[3].email: must be a valid e-mail address (pattern)");
    validate_in_code(bad, std::string(an_envelope), "name", 30);
    EXPECT(!reached_end_of_check);
    validate_in_code([&] { return four_recipients("d@example.com"); }, std::string(an_envelope), "", 91);
    EXPECT(reached_end_of_check);
}

// README snippet: in-process backend
#include <esign/reference/backend.hpp>
// README snippet end

namespace {

// Reads member `name` of a reply's JSON body.
const boost::json::value& member(const esign::reference::reply& reply, std::string_view name) {
    static boost::json::value kept;
    kept = boost::json::parse(reply.body);
    return kept.as_object().at(name);
}

// ---------------------------------------------------------------------------------------------
// The reference backend, in process

void in_process_backend() {
    // README snippet: in-process backend
    esign::reference::backend_options options;
    options.wall_clock = [] { return std::int64_t{1'800'000'000'000}; };
    esign::reference::backend backend(options);

    // Two teams, as two test suites would have; each call runs under its team's lock only.
    auto key_of = [&](std::string_view body) {
        auto team = backend.handle("/_control/team/create", std::nullopt, body);  // {apiKey, ...}
        return std::string(boost::json::parse(team.body).at("apiKey").as_string());
    };
    const std::string a = key_of(R"({"seed": 1, "startTime": 1700000000000})");  // reproducible, frozen clock
    const std::string b = key_of("{}");

    std::thread suite_a([&] {
        backend.handle("/_control/envelope/create", a, R"({"title":"t","documents":[{"title":"d","pageCount":1}]})");
        backend.handle("/_control/clock/advance", a, R"({"milliseconds": 86400000})");  // a's clock only
        backend.handle("/_control/team/reset", a, "{}");                                // a's data only
    });
    std::thread suite_b([&] {
        auto reply = backend.handle("/public/workspace/list", b, "{}");  // reply.status, reply.body (JSON)
        backend.handle("/_control/outbox/list", b, "{}");                // b's e-mails only
    });
    suite_a.join();
    suite_b.join();
    // README snippet end
    EXPECT(a != b);
    EXPECT(member(backend.handle("/_control/clock/now", a, "{}"), "now") == 1'700'000'000'000);
    EXPECT(member(backend.handle("/_control/clock/now", b, "{}"), "now") == 1'800'000'000'000);
    EXPECT(member(backend.handle("/public/envelope/list", a, "{}"), "envelopes").as_array().empty());
    const auto listed = backend.handle("/public/workspace/list", b, "{}");
    EXPECT(listed.status == 200 && member(listed, "workspaces").as_array().size() == 1);
}

// ---------------------------------------------------------------------------------------------
// Typed calls, fault rules and the journal

void typed_calls(esign::reference::backend& backend, const std::string& key,
                 const esign::envelope_send_request& send_request) {
    // README snippet: typed calls
    esign::control_faults_add_request rule;
    rule.operation = "/public/envelope/send";
    rule.action = esign::fault_action::error;
    rule.error = esign::error_code::API_CREDITS_LIMIT_EXCEEDED;
    backend.call(key, rule);

    auto sent = backend.call(key, send_request);  // typed_reply<envelope_send_response>
    assert(!sent && sent.error->error.code == esign::error_code::API_CREDITS_LIMIT_EXCEEDED);

    auto journal = backend.call(key, esign::control_journal_list_request{});
    for (const esign::journal_entry& e : journal.response->entries)
        fmt::print("{} {} {}\n", e.path, e.status, boost::json::serialize(e.request));
    // README snippet end
    EXPECT(!sent && sent.error && sent.error->error.code == esign::error_code::API_CREDITS_LIMIT_EXCEEDED);
    EXPECT(sent.raw.status == 400);
    EXPECT(journal && !journal.response->entries.empty());
    if (journal && !journal.response->entries.empty()) {
        const esign::journal_entry& last = journal.response->entries.back();
        EXPECT(last.path == "/public/envelope/send" && last.status == 400);
        EXPECT(last.request.at("envelopeUuid").as_string() == send_request.envelopeUuid.str());
    }
}

// ---------------------------------------------------------------------------------------------
// Snapshots

void snapshots(esign::reference::backend& backend, const std::string& key, const std::string& other_key) {
    // README snippet: snapshots
    auto snap = backend.call(key, esign::control_team_snapshot_request{});              // snap.response->team
    backend.call(other_key, esign::control_team_restore_request{snap.response->team});  // another team, same state
    // README snippet end
    auto other = backend.call(other_key, esign::control_team_snapshot_request{});
    EXPECT(snap && other);
    if (snap && other) {
        // The same records, each naming the team it is in: with the two teams' uuids put out of
        // the way, the two states read the same.
        const auto& team = snap.response->team;
        const auto& restored = other.response->team;
        auto without_team_uuids = [&](const boost::json::value& state) {
            std::string text = boost::json::serialize(state);
            for (const auto& uuid : {team.at("uuid").as_string(), restored.at("uuid").as_string()}) {
                for (auto at = text.find(uuid); at != std::string::npos; at = text.find(uuid, at))
                    text.replace(at, uuid.size(), "TEAM");
            }
            return boost::json::parse(text);
        };
        EXPECT(without_team_uuids(team.at("state")) == without_team_uuids(restored.at("state")));
        EXPECT(team.at("state").at("envelopes").as_object().size() == 1);
        EXPECT(snap.response->team.at("uuid") != other.response->team.at("uuid"));  // each keeps its own
    }
}

void check_backend_calls() {
    esign::reference::backend backend;
    auto key_of = [&](std::string_view body) {
        return std::string(member(backend.handle("/_control/team/create", std::nullopt, body), "apiKey").as_string());
    };
    const std::string key = key_of(R"({"seed": 7})");
    const std::string other_key = key_of(R"({"seed": 8})");
    auto created = backend.handle("/_control/envelope/create", key,
                                  R"({"title":"Contract","documents":[{"title":"c.pdf","pageCount":2}]})");
    esign::envelope_send_request send;
    send.envelopeUuid = esign::uuid36{std::string(member(created, "envelopeUuid").as_string())};
    typed_calls(backend, key, send);
    snapshots(backend, key, other_key);
}

}  // namespace

int main() {
    check_tour();
    own_type();
    check_validate_in_code();
    in_process_backend();
    check_backend_calls();
    if (failures != 0) {
        fmt::print(stderr, "{} check(s) of the README's examples failed\n", failures);
        return 1;
    }
    fmt::print("every example of README.md ran as it says\n");
    return 0;
}
