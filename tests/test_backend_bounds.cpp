// SPDX-License-Identifier: BSL-1.0
// contract.md §6.7, no team can stall another: a request's work is bounded by its own size and
// its page, never by a stored collection times a list of the request; every per-team collection
// that grows has a bound and a behaviour beyond it (reference/team/limits.hpp); a journal/list
// answer takes a bounded amount of memory (reference/harness/journal.hpp; the bytes themselves are
// counted by tests/memory/journal_memory_bound.cpp).
#include "backend_support.hpp"

#include <string>
#include <type_traits>
#include <vector>

#include <esign/reference/handlers/logs.hpp>
#include <esign/reference/harness/journal.hpp>
#include <esign/reference/team/limits.hpp>

namespace test_backend_bounds {

using namespace backend_support;
namespace ref = esign::reference;

namespace {

const bj::object envelope_body{{"title", "t"}, {"documents", bj::array{bj::object{{"title", "d"}, {"pageCount", 1}}}}};

bj::array event_types(std::size_t n) {
    bj::array out;
    out.reserve(n);
    for (std::size_t i = 0; i < n; ++i) out.emplace_back(i % 2 ? "ENVELOPE_SENT" : "ENVELOPE_CREATED");
    return out;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Work bounded by the request and its page

TEST_CASE("bounds: a logs/list eventTypes filter is a set of the category's types", "[backend][bounds]") {
    // The filter a request builds holds one bit per event type: its size, and the work of judging
    // a log against it, do not grow with the request's list.
    STATIC_REQUIRE(std::is_same_v<decltype(ref::log_filter::event_types), ref::event_type_set>);
    std::vector<std::string> many;
    for (int i = 0; i < 50'000; ++i) many.emplace_back(i % 2 ? "ENVELOPE_SENT" : "ENVELOPE_CREATED");
    const ref::event_type_set set(esign::log_category::envelope, &many);
    CHECK(set.filters());
    CHECK(set.count() == 2);
    CHECK(set.keeps("ENVELOPE_SENT"));
    CHECK(set.keeps("ENVELOPE_CREATED"));
    CHECK_FALSE(set.keeps("ENVELOPE_COMPLETED"));
    CHECK_FALSE(set.keeps("WORKSPACE_CREATED"));  // a team event, not of this category
    const std::vector<std::string> none;
    CHECK_FALSE(ref::event_type_set(esign::log_category::envelope, &none).filters());
    CHECK_FALSE(ref::event_type_set(esign::log_category::envelope, nullptr).filters());
    const std::vector<std::string> team{"WORKSPACE_CREATED", "WORKSPACE_CREATED"};
    const ref::event_type_set team_set(esign::log_category::team, &team);
    CHECK(team_set.count() == 1);
    CHECK(team_set.keeps("WORKSPACE_CREATED"));
    CHECK_FALSE(team_set.keeps("ENVELOPE_CREATED"));

    // 50,000 event types against 8,000 logs: answered, and right.
    client c(fixed_clock(71));
    for (int i = 0; i < 8'000; ++i) require_ok(c.call("/_control/envelope/create", envelope_body));
    auto a = c.call("/public/logs/list",
                    bj::object{{"category", "envelope"}, {"eventTypes", event_types(50'000)}, {"limit", 50}});
    require_ok(a);
    CHECK(a.obj().at("pagination").at("totalRecords") == 8'000);
    CHECK(a.obj().at("logs").as_array().size() == 50);
    auto sent = c.call("/public/logs/list", bj::object{{"category", "envelope"},
                                                       {"eventTypes", bj::array(20'000, bj::value("ENVELOPE_SENT"))}});
    require_ok(sent);
    CHECK(sent.obj().at("pagination").at("totalRecords") == 0);
}

TEST_CASE("bounds: a webhook keeps its events and workspaces once each", "[backend][bounds]") {
    client c(fixed_clock(72));
    bj::array events;
    for (int i = 0; i < 5'000; ++i) events.emplace_back(i % 2 ? "ENVELOPE_SENT" : "ENVELOPE_COMPLETED");
    auto a =
        c.call("/public/webhook/create",
               webhook_body({{"events", events}, {"workspaceUuids", bj::array(3'000, bj::value(c.main.default_ws))}}));
    require_ok(a);
    CHECK(strings(a.obj().at("webhook").at("events")) ==
          std::vector<std::string>{"ENVELOPE_COMPLETED", "ENVELOPE_SENT"});
    CHECK(strings(a.obj().at("webhook").at("workspaceUuids")) == std::vector<std::string>{c.main.default_ws});
    const std::string uuid(a.obj().at("webhook").at("uuid").as_string());
    auto u = c.call("/public/webhook/update",
                    bj::object{{"uuid", uuid}, {"events", bj::array(4'000, bj::value("ENVELOPE_SIGNED"))}});
    require_ok(u);
    CHECK(strings(u.obj().at("webhook").at("events")) == std::vector<std::string>{"ENVELOPE_SIGNED"});
}

TEST_CASE("bounds: contact/delete deletes its contacts in one pass, logged in order", "[backend][bounds]") {
    client c(fixed_clock(73));
    bj::array contacts;
    for (int i = 0; i < 10; ++i)
        contacts.push_back(
            bj::object{{"email", "c" + std::to_string(i) + "@example.com"}, {"firstname", "F"}, {"lastname", "L"}});
    require_ok(c.call("/public/contact/create", bj::object{{"contacts", contacts}}));
    require_ok(c.call("/public/contact/delete", bj::object{{"emails", bj::array{"c7@example.com", "c2@example.com",
                                                                                "c7@example.com", "c0@example.com"}}}));
    auto list = c.call("/public/contact/list", bj::object{{"limit", 50}});
    require_ok(list);
    CHECK(strings_at(list.obj().at("contacts"), "email") ==
          std::vector<std::string>{"c1@example.com", "c3@example.com", "c4@example.com", "c5@example.com",
                                   "c6@example.com", "c8@example.com", "c9@example.com"});
    // Each contact found again by its e-mail after the others moved (the index is whole).
    require_ok(c.call("/public/contact/update", bj::object{{"contact", bj::object{{"email", "c9@example.com"},
                                                                                  {"firstname", "G"},
                                                                                  {"lastname", "M"},
                                                                                  {"phone", nullptr}}}}));
    auto logs = c.call("/public/logs/list", bj::object{{"category", "team"},
                                                       {"eventTypes", bj::array{"CONTACT_DELETED"}},
                                                       {"sortBy", "id"},
                                                       {"sortOrder", "asc"}});
    require_ok(logs);
    std::vector<std::string> deleted;
    for (const auto& l : logs.obj().at("logs").as_array())
        deleted.emplace_back(l.at("eventData").at("email").as_string());
    CHECK(deleted == std::vector<std::string>{"c7@example.com", "c2@example.com", "c0@example.com"});
}

// ---------------------------------------------------------------------------------------------
// Per-team collections: bounded, refused or trimmed beyond

TEST_CASE("bounds: the per-team bounds", "[backend][bounds]") {
    STATIC_REQUIRE(ref::max_envelopes_per_team >= 1'000'000);  // a long run's million envelopes
    STATIC_REQUIRE(ref::max_kept_records == 10'000);           // contract.md §6.7
    STATIC_REQUIRE(ref::max_pending_deliveries == 10'000);
    CHECK(ref::has_room(0, 1, 1));
    CHECK(ref::has_room(999, 1, 1000));
    CHECK_FALSE(ref::has_room(1000, 1, 1000));
    CHECK(ref::has_room(950, 50, 1000));
    CHECK_FALSE(ref::has_room(951, 50, 1000));
    CHECK_FALSE(ref::has_room(2000, 0, 1000));  // already beyond (a restored state): nothing more
    const esign::problem p = ref::collection_full({"contacts"}, "contacts", 100'000);
    CHECK(p.path == esign::problem_path{"contacts"});
    CHECK(p.kind == esign::problem_kind::size);
    CHECK(p.limit == 100'000);
    CHECK(p.message == "the team would hold more than 100000 contacts, the most it may");
}

TEST_CASE("bounds: workspaces and templates beyond their bound are refused", "[backend][bounds]") {
    client c(fixed_clock(74));
    // The default workspace counts.
    for (std::size_t i = 1; i < ref::max_workspaces_per_team; ++i)
        require_ok(c.call("/public/workspace/create", bj::object{{"name", "w" + std::to_string(i)}}));
    auto full = c.call("/public/workspace/create", bj::object{{"name", "one more"}});
    require_error(full, 400, "INVALID_REQUEST_FORMAT");
    CHECK(full.detail_path() == bj::value(bj::array{}));
    CHECK(full.body.at("error").at("details").at(0).at("message") ==
          str("the team would hold more than 1000 workspaces, the most it may"));
    auto list = c.call("/public/workspace/list", bj::object{{"limit", 1}});
    CHECK(list.obj().at("pagination").at("totalRecords") == ref::max_workspaces_per_team);

    const bj::object tpl{{"title", "t"},
                         {"recipientLabels", bj::array{"Signer"}},
                         {"documents", bj::array{bj::object{{"title", "d"}, {"pageCount", 1}}}}};
    for (std::size_t i = 0; i < ref::max_templates_per_team; ++i) require_ok(c.call("/_control/template/create", tpl));
    auto no_template = c.call("/_control/template/create", tpl);
    require_error(no_template, 400, "INVALID_REQUEST_FORMAT");
    CHECK(no_template.detail_path() == bj::value(bj::array{}));

    // A reset makes room again.
    require_ok(c.call("/_control/team/reset", bj::object{}));
    require_ok(c.call("/public/workspace/create", bj::object{{"name", "again"}}));
    require_ok(c.call("/_control/template/create", tpl));
}

TEST_CASE("bounds: contacts beyond their bound are refused, and deleting makes room", "[backend][bounds]") {
    client c(fixed_clock(75));
    std::size_t n = 0;
    auto batch = [&](std::size_t count) {
        bj::array contacts;
        for (std::size_t i = 0; i < count; ++i, ++n)
            contacts.push_back(
                bj::object{{"email", "p" + std::to_string(n) + "@example.com"}, {"firstname", "F"}, {"lastname", "L"}});
        return bj::object{{"contacts", std::move(contacts)}};
    };
    while (n + 50 <= ref::max_contacts_per_team) require_ok(c.call("/public/contact/create", batch(50)));
    REQUIRE(n == ref::max_contacts_per_team);
    auto full = c.call("/public/contact/create", batch(1));
    require_error(full, 400, "INVALID_REQUEST_FORMAT");
    CHECK(full.detail_path() == bj::value(bj::array{"contacts"}));
    require_ok(c.call("/public/contact/delete", bj::object{{"emails", bj::array{"p0@example.com"}}}));
    require_ok(c.call("/public/contact/create", batch(1)));
    require_error(c.call("/public/contact/create", batch(1)), 400, "INVALID_REQUEST_FORMAT");
}

// An envelope's collections that repeated updates of a draft grow (team/limits.hpp): tags by
// envelope/update, recipients by add-recipients, blocks by add-blocks; each bounded, the request
// that would pass the bound refused at its member and changing nothing.
TEST_CASE("bounds: an envelope's tags, recipients and blocks stop at their bounds", "[backend][bounds]") {
    client c(fixed_clock(76));
    auto created = c.call("/_control/envelope/create", envelope_body);
    require_ok(created);
    const std::string env(created.obj().at("envelopeUuid").as_string());
    const std::string doc(created.obj().at("documentUuids").at(0).as_string());

    SECTION("tags") {
        auto add_tags = [&](bj::array names) {
            return c.call("/public/envelope/update",
                          bj::object{{"envelopeUuid", env}, {"update", bj::object{{"tags", std::move(names)}}}});
        };
        // One at a time up to the bound; names already there are no new tags.
        for (std::size_t i = 0; i < ref::max_tags_per_envelope; ++i)
            require_ok(add_tags(bj::array{"t" + std::to_string(i), "t0"}));
        require_ok(add_tags(bj::array{"t1", "t2"}));
        auto full = add_tags(bj::array{"one more"});
        require_error(full, 400, "INVALID_REQUEST_FORMAT");
        CHECK(full.detail_path() == bj::value(bj::array{"update", "tags"}));
        CHECK(full.body.at("error").at("details").at(0).at("message") ==
              str("the envelope would hold more than 100 tags, the most it may"));
        CHECK(c.get(env).at("tags").as_array().size() == ref::max_tags_per_envelope);
        // A name longer than an envelope title, at its index.
        auto other = c.call("/_control/envelope/create", envelope_body);
        require_ok(other);
        auto too_long =
            c.call("/public/envelope/update",
                   bj::object{{"envelopeUuid", other.obj().at("envelopeUuid")},
                              {"update", bj::object{{"tags", bj::array{"fine", bj::string(std::string(256, 'n'))}}}}});
        require_error(too_long, 400, "INVALID_REQUEST_FORMAT");
        CHECK(too_long.detail_path() == bj::value(bj::array{"update", "tags", "1"}));
        // envelope/create's tags too.
        bj::object many = envelope_body;
        bj::array names;
        for (std::size_t i = 0; i <= ref::max_tags_per_envelope; ++i) names.emplace_back("n" + std::to_string(i));
        many["tags"] = std::move(names);
        auto refused = c.call("/_control/envelope/create", many);
        require_error(refused, 400, "INVALID_REQUEST_FORMAT");
        CHECK(refused.detail_path() == bj::value(bj::array{"tags"}));
        // The full envelope's snapshot restores; one tag more is refused there too.
        auto snap = c.b.handle("/_control/team/snapshot", c.main.key, "{}");
        REQUIRE(snap.status == 200);
        bj::value team = bj::parse(snap.body).at("team");
        require_ok(c.call("/_control/team/restore", bj::object{{"team", team}}));
        team.at("state").at("envelopes").at(env).at("tags").as_array().emplace_back("extra");
        auto beyond = c.call("/_control/team/restore", bj::object{{"team", team}});
        require_error(beyond, 400, "INVALID_REQUEST_FORMAT");
        CHECK(beyond.detail_path() == bj::value(bj::array{"team", "state", "envelopes", env, "tags"}));
    }
    SECTION("recipients") {
        std::size_t n = 0;
        auto add = [&](std::size_t count) {
            bj::array items;
            for (std::size_t i = 0; i < count; ++i, ++n)
                items.push_back(recipient("r" + std::to_string(n) + "@example.com"));
            return c.call("/public/envelope/add-recipients",
                          bj::object{{"envelopeUuid", env}, {"recipients", std::move(items)}});
        };
        while (n + 50 <= ref::max_recipients_per_envelope) require_ok(add(50));
        REQUIRE(n == ref::max_recipients_per_envelope);
        auto full = add(1);
        require_error(full, 400, "INVALID_REQUEST_FORMAT");
        CHECK(full.detail_path() == bj::value(bj::array{"recipients"}));
        CHECK(c.get(env).at("recipients").as_array().size() == ref::max_recipients_per_envelope);
    }
    SECTION("blocks") {
        auto add = [&](std::size_t count) {
            bj::array blocks;
            for (std::size_t i = 0; i < count; ++i)
                blocks.push_back(bj::object{{"page", "1"}, {"x", 1}, {"y", 1}, {"type", "text"}, {"text", "b"}});
            return c.call("/public/envelope/add-blocks",
                          bj::object{{"envelopeUuid", env}, {"documentUuid", doc}, {"blocks", std::move(blocks)}});
        };
        for (std::size_t i = 0; i < ref::max_blocks_per_document / 1000; ++i) require_ok(add(1000));
        auto full = add(1);
        require_error(full, 400, "INVALID_REQUEST_FORMAT");
        CHECK(full.detail_path() == bj::value(bj::array{"blocks"}));
    }
}

TEST_CASE("bounds: logs beyond their bound drop the oldest eighth", "[backend][bounds]") {
    ref::state st;
    auto log = [&](std::int64_t t) {
        ref::log_record rec;
        rec.team_uuid = "team";
        rec.entry.category = esign::log_category::team;
        rec.entry.eventType = "WORKSPACE_CREATED";
        rec.entry.timestamp = t;
        rec.seq = st.sequence();
        return rec;
    };
    for (std::int64_t t = 0; t < 80; ++t) st.add_log(log(t), 80);
    CHECK(st.logs.size() == 80);
    st.add_log(log(80), 80);  // the 81st: the oldest 10 go
    REQUIRE(st.logs.size() == 71);
    CHECK(st.logs.front().entry.timestamp == 10);
    CHECK(st.logs.back().entry.timestamp == 80);
    // Indexed again: every remaining log at its new position.
    CHECK(st.logs_by.indexed == st.logs.size());
    CHECK(ref::log_index::in(st.logs_by.by_category, esign::log_category::team).size() == 71);
    CHECK(ref::log_index::in(st.logs_by.by_category, esign::log_category::team).back() == 70);
    st.add_log(log(81), 80);
    CHECK(st.logs.size() == 72);
    CHECK(st.logs_by.indexed == 72);
    STATIC_REQUIRE(ref::max_kept_logs >= 1'000'000);
    STATIC_REQUIRE(ref::dropped_logs_batch == ref::max_kept_logs / 8);
}

// ---------------------------------------------------------------------------------------------
// The journal: what one journal/list answer may hold

TEST_CASE("bounds: the journal counts what listing a body takes, without building it", "[backend][bounds][journal]") {
    namespace jd = ref::detail;
    const auto obj = jd::journal_cost(R"({"a":"b","n":[1,2.5,true,null]})");
    CHECK(obj.json);
    CHECK(obj.bytes >= 30);
    CHECK_FALSE(jd::journal_cost("{not json").json);
    CHECK_FALSE(jd::journal_cost(R"({"a":1} x)").json);  // extra data, as boost::json::parse says
    CHECK_FALSE(jd::journal_cost(std::string(40, '[') + std::string(40, ']')).json);  // deeper than parse takes
    CHECK(jd::written_string_size("a\"b\n\x01") == 2 + 1 + 2 + 1 + 2 + 6);
    // A long array of small numbers takes far more built than written.
    std::string numbers = "[0";
    for (int i = 0; i < 10'000; ++i) numbers += ",0";
    numbers += ']';
    CHECK(jd::journal_cost(numbers).bytes > 30 * numbers.size());
}

TEST_CASE("bounds: a body too large to list whole is kept cut, as text", "[backend][bounds][journal]") {
    ref::request_journal j;
    std::string control(1 << 20, '\x01');  // 6 bytes each, written
    j.record(1, "/public/workspace/list", 400, control, R"({"error":{}})");
    std::string numbers = "[0";
    for (int i = 0; i < 10'000; ++i) numbers += ",0";
    numbers += ']';
    j.record(2, "/public/workspace/list", 400, numbers, "{}");
    const std::string fine = R"({"title":")" + std::string(30'000, 'x') + R"("})";
    j.record(3, "/public/workspace/list", 400, fine, "{}");
    const auto out = j.list({});
    REQUIRE(out.entries.size() == 3);
    const auto& cut = out.entries[0].request;
    REQUIRE(cut.is_string());
    const std::string_view text(cut.get_string().data(), cut.get_string().size());
    CHECK(text.starts_with("\x01\x01\x01"));
    CHECK(text.ends_with(" [cut by the journal: 1048576 bytes in all]"));
    CHECK(bj::serialize(cut).size() <= ref::max_journal_cut_bytes);
    CHECK(out.entries[0].response == bj::parse(R"({"error":{}})"));
    REQUIRE(out.entries[1].request.is_string());  // 20 KiB of numbers: too much built
    CHECK(std::string_view(out.entries[1].request.get_string()).starts_with("[0,0,0"));
    CHECK(out.entries[2].request == bj::parse(fine));  // listed whole, as JSON
    // A cut keeps whole UTF-8 sequences.
    std::string euros;
    for (int i = 0; i < 40'000; ++i) euros += "\xe2\x82\xac";
    ref::request_journal k;
    k.record(1, "/p", 200, euros, "{}");
    const auto e = k.list({});
    REQUIRE(e.entries[0].request.is_string());
    const std::string_view kept(e.entries[0].request.get_string());
    CHECK(kept.starts_with("\xe2\x82\xac"));
    CHECK(kept.find(" [cut by the journal") % 3 == 0);
}

TEST_CASE("bounds: a journal page stops at its budget, and `since` goes on", "[backend][bounds][journal]") {
    ref::request_journal j;
    const std::string body = R"({"title":")" + std::string(40'000, 'x') + R"("})";
    for (int i = 0; i < 20; ++i) j.record(i, "/public/workspace/list", 200, body, "{}");
    esign::control_journal_list_request q;
    q.limit = esign::ranged<1, 1000>{1000};
    std::size_t seen = 0, pages = 0;
    while (true) {
        const auto page = j.list(q);
        if (page.entries.empty()) break;
        ++pages;
        std::size_t bytes = 0;
        for (const auto& e : page.entries) {
            CHECK(e.request == bj::parse(body));  // whole
            bytes += bj::serialize(e.request).size();
        }
        CHECK(bytes <= ref::max_journal_page_cost);
        seen += page.entries.size();
        q.since = esign::ranged<0>{static_cast<std::int32_t>(page.entries.back().sequence)};
    }
    CHECK(seen == 20);
    CHECK(pages > 1);
    // The budget counts only the entries the filters keep.
    esign::control_journal_list_request only_last;
    only_last.since = esign::ranged<0>{19};
    CHECK(j.list(only_last).entries.size() == 1);
}

}  // namespace test_backend_bounds
