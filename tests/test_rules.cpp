// SPDX-License-Identifier: BSL-1.0
// The rules headers against contract.md §3: pagination, status rules and send order, the
// envelope and recipient lifecycles and turns, block colours, the reserved e-mail domain, and
// the webhook URL refusal rule.
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/asio/ip/address.hpp>
#include <boost/json.hpp>

#include <esign/esign.hpp>
#include <esign/rules/envelope_rules.hpp>  // not included by esign.hpp

namespace test_rules {

namespace {

using namespace esign;
using rules::envelope_event;
using rules::party;

// ---------------------------------------------------------------------------------------------
// Helpers

// The expected pagination, written from contract.md §3 independently of the library.
struct expected_window {
    std::int64_t total_pages;
    std::optional<std::int64_t> next;
    std::optional<std::int64_t> prev;
    std::size_t offset;
    std::size_t count;
};

void check_window(std::size_t total, std::int32_t page, std::int32_t limit, const expected_window& e) {
    INFO("total " << total << ", page " << page << ", limit " << limit);
    const auto w = rules::paginate(total, page, limit);
    CHECK(w.offset == e.offset);
    CHECK(w.count == e.count);
    const pagination& p = w.pagination;
    CHECK(p.totalRecords == static_cast<std::int64_t>(total));
    CHECK(p.currentPage == page);
    CHECK(p.totalPages == e.total_pages);
    CHECK(static_cast<std::optional<std::int64_t>>(p.nextPage) == e.next);
    CHECK(static_cast<std::optional<std::int64_t>>(p.prevPage) == e.prev);
}

// Every (status, event) → status of contract.md §3, "Envelope lifecycle".
const std::map<std::pair<envelope_status, envelope_event>, envelope_status>& expected_envelope_transitions() {
    using s = envelope_status;
    using e = envelope_event;
    static const std::map<std::pair<s, e>, s> table{
        {{s::draft, e::sent_with_approvers}, s::approving},
        {{s::draft, e::sent_without_approvers}, s::signing},
        {{s::approving, e::all_approved}, s::signing},
        {{s::signing, e::all_signed}, s::complete},
        {{s::approving, e::declined}, s::declined},
        {{s::signing, e::declined}, s::declined},
        {{s::draft, e::canceled}, s::canceled},
        {{s::approving, e::canceled}, s::canceled},
        {{s::signing, e::canceled}, s::canceled},
        {{s::approving, e::expired}, s::expired},
        {{s::signing, e::expired}, s::expired},
    };
    return table;
}

constexpr envelope_event all_envelope_events[] = {
    envelope_event::sent_with_approvers,
    envelope_event::sent_without_approvers,
    envelope_event::all_approved,
    envelope_event::all_signed,
    envelope_event::declined,
    envelope_event::canceled,
    envelope_event::expired,
};

bool turn(const std::vector<party>& parties, std::size_t who, envelope_status status, bool order) {
    return rules::is_turn(std::span<const party>(parties.data(), parties.size()), who, status, order);
}

// Send facts that pass every check; each `break_check` makes exactly one check of the
// contract's order fail (and, where the facts are tied, never an earlier one).
rules::send_facts passing_send_facts() {
    rules::send_facts f;
    f.status = envelope_status::draft;
    f.recipients = 2;
    f.signers = 1;
    f.sandbox = false;
    f.subscription = true;
    f.api_credits = 5;
    f.email_quota = 10;
    f.invitation_emails = 2;
    f.distribution_by_email = true;
    f.every_email_deliverable = true;
    return f;
}

// The order of contract.md §3 ("Send: draft-only; then NO_RECIPIENTS, NO_SIGNERS, then (outside
// sandbox) SUBSCRIPTION_NOT_FOUND, API_CREDITS_LIMIT_EXCEEDED, SES_LIMIT_EXCEEDED, then INVALID_EMAIL").
struct send_failure {
    error_code code;
    std::function<void(rules::send_facts&)> break_check;
};
const std::vector<send_failure>& send_failures_in_order() {
    static const std::vector<send_failure> list{
        {error_code::ENVELOPE_NOT_IN_DRAFT, [](rules::send_facts& f) { f.status = envelope_status::signing; }},
        {error_code::NO_RECIPIENTS,
         [](rules::send_facts& f) {
             f.recipients = 0;
             f.signers = 0;
             f.invitation_emails = 0;
         }},
        {error_code::NO_SIGNERS, [](rules::send_facts& f) { f.signers = 0; }},
        {error_code::SUBSCRIPTION_NOT_FOUND, [](rules::send_facts& f) { f.subscription = false; }},
        {error_code::API_CREDITS_LIMIT_EXCEEDED, [](rules::send_facts& f) { f.api_credits = 0; }},
        {error_code::SES_LIMIT_EXCEEDED, [](rules::send_facts& f) { f.email_quota = 1; }},
        {error_code::INVALID_EMAIL, [](rules::send_facts& f) { f.every_email_deliverable = false; }},
    };
    return list;
}

bool refused(std::string_view url) { return rules::is_refused_webhook_url(url, false); }
bool refused_public_only(std::string_view url) { return rules::is_refused_webhook_url(url, true); }

}  // namespace

// =============================================================================================
// rules/pagination.hpp

TEST_CASE("rules: pagination with no records", "[rules][pagination]") {
    check_window(0, 1, 50, {1, std::nullopt, std::nullopt, 0, 0});
    check_window(0, 1, 1, {1, std::nullopt, std::nullopt, 0, 0});
    // Past the end of an empty list: same arithmetic, empty page.
    check_window(0, 2, 50, {1, std::nullopt, 1, 0, 0});

    // The pagination object writes null for nextPage and prevPage.
    const auto json = esign::json::encode(rules::paginate(0, 1, 50).pagination);
    const auto& o = json.as_object();
    REQUIRE(o.contains("nextPage"));
    REQUIRE(o.contains("prevPage"));
    CHECK(o.at("nextPage").is_null());
    CHECK(o.at("prevPage").is_null());
    CHECK(o.at("totalPages") == 1);
    CHECK(o.at("currentPage") == 1);
    CHECK(o.at("totalRecords") == 0);
}

TEST_CASE("rules: pagination with exact multiples and remainders", "[rules][pagination]") {
    check_window(50, 1, 50, {1, std::nullopt, std::nullopt, 0, 50});
    check_window(100, 1, 50, {2, 2, std::nullopt, 0, 50});
    check_window(100, 2, 50, {2, std::nullopt, 1, 50, 50});
    check_window(101, 2, 50, {3, 3, 1, 50, 50});
    check_window(101, 3, 50, {3, std::nullopt, 2, 100, 1});
    check_window(49, 1, 50, {1, std::nullopt, std::nullopt, 0, 49});
    check_window(51, 1, 50, {2, 2, std::nullopt, 0, 50});
    check_window(51, 2, 50, {2, std::nullopt, 1, 50, 1});
    check_window(20, 2, 10, {2, std::nullopt, 1, 10, 10});
}

TEST_CASE("rules: pagination past the end", "[rules][pagination]") {
    check_window(10, 5, 50, {1, std::nullopt, 4, 10, 0});
    check_window(100, 3, 50, {2, std::nullopt, 2, 100, 0});
    check_window(100, 4, 50, {2, std::nullopt, 3, 100, 0});
    // A very large page number does not overflow.
    check_window(7, 2147483647, 50, {1, std::nullopt, 2147483646, 7, 0});
}

TEST_CASE("rules: pagination with limit 1", "[rules][pagination]") {
    check_window(1, 1, 1, {1, std::nullopt, std::nullopt, 0, 1});
    check_window(3, 1, 1, {3, 2, std::nullopt, 0, 1});
    check_window(3, 2, 1, {3, 3, 1, 1, 1});
    check_window(3, 3, 1, {3, std::nullopt, 2, 2, 1});
    check_window(3, 4, 1, {3, std::nullopt, 3, 3, 0});
}

TEST_CASE("rules: pagination follows nextPage through every item exactly once", "[rules][pagination]") {
    for (std::size_t total : {0u, 1u, 2u, 49u, 50u, 51u, 99u, 100u, 101u, 257u}) {
        for (std::int32_t limit : {1, 2, 7, 50}) {
            INFO("total " << total << ", limit " << limit);
            std::size_t seen = 0, pages = 0;
            std::optional<std::int64_t> page = 1;
            while (page) {
                auto w = rules::paginate(total, static_cast<std::int32_t>(*page), limit);
                CHECK(w.offset == seen);
                seen += w.count;
                ++pages;
                page = w.pagination.nextPage;
                REQUIRE(pages <= total + 1);
            }
            CHECK(seen == total);
            CHECK(pages == static_cast<std::size_t>(std::max<std::size_t>(1, (total + limit - 1) / limit)));
        }
    }
}

// =============================================================================================
// rules/status_rules.hpp

TEST_CASE("rules: draft-only operations are exactly interface.md's status rule 1", "[rules][status]") {
    // interface.md "Rules that tie operations to status", rule 1.
    const std::set<std::string_view> expected{
        "/public/envelope/add-recipients",    "/public/envelope/update",        "/public/envelope/update-recipient",
        "/public/envelope/add-blocks",        "/public/envelope/delete-blocks", "/public/envelope/delete-recipients",
        "/public/envelope/delete-attachment", "/public/envelope/send",
    };
    for (auto path : expected) {
        INFO(path);
        CHECK(rules::is_draft_only(path));
        CHECK(find_operation(path).has_value());  // every row names a real operation
    }
    for (auto path : rules::draft_only_operations) CHECK(expected.count(path) == 1);
    // Every other operation of the table is not draft-only.
    for (auto path : operation_paths) {
        INFO(path);
        CHECK(rules::is_draft_only(path) == (expected.count(path) == 1));
    }
    // Exact match only.
    CHECK_FALSE(rules::is_draft_only("/public/envelope/send/"));
    CHECK_FALSE(rules::is_draft_only("/public/envelope/SEND"));
    CHECK_FALSE(rules::is_draft_only(""));
}

TEST_CASE("rules: check_draft", "[rules][status]") {
    for (auto s : enum_values<envelope_status>()) {
        INFO(enum_to_wire(s));
        if (s == envelope_status::draft)
            CHECK_FALSE(rules::check_draft(s).has_value());
        else
            CHECK(rules::check_draft(s) == error_code::ENVELOPE_NOT_IN_DRAFT);
    }
}

TEST_CASE("rules: check_send passes good facts and reports each failure alone", "[rules][status]") {
    CHECK_FALSE(rules::check_send(passing_send_facts()).has_value());
    for (const auto& failure : send_failures_in_order()) {
        INFO(enum_to_wire(failure.code));
        auto f = passing_send_facts();
        failure.break_check(f);
        CHECK(rules::check_send(f) == failure.code);
    }
    // The send_checks table is in the contract's order too.
    REQUIRE(rules::send_checks.size() == send_failures_in_order().size());
    for (std::size_t i = 0; i < rules::send_checks.size(); ++i)
        CHECK(rules::send_checks[i].code == send_failures_in_order()[i].code);
}

TEST_CASE("rules: check_send reports the first failure in the contract's order", "[rules][status]") {
    const auto& failures = send_failures_in_order();
    for (std::size_t i = 0; i < failures.size(); ++i) {
        for (std::size_t j = i + 1; j < failures.size(); ++j) {
            INFO(enum_to_wire(failures[i].code) << " with " << enum_to_wire(failures[j].code));
            auto f = passing_send_facts();
            failures[j].break_check(f);
            failures[i].break_check(f);
            CHECK(rules::check_send(f) == failures[i].code);
            // Applied in the other order, the same answer.
            auto g = passing_send_facts();
            failures[i].break_check(g);
            failures[j].break_check(g);
            CHECK(rules::check_send(g) == failures[i].code);
        }
    }
    // Everything broken at once: the draft rule wins.
    auto all = passing_send_facts();
    for (const auto& failure : failures) failure.break_check(all);
    CHECK(rules::check_send(all) == error_code::ENVELOPE_NOT_IN_DRAFT);
}

TEST_CASE("rules: check_send sandbox, distribution and exact limits", "[rules][status]") {
    // A sandbox workspace consumes no credits or quota, and needs no subscription.
    auto f = passing_send_facts();
    f.sandbox = true;
    f.subscription = false;
    f.api_credits = 0;
    f.email_quota = 0;
    CHECK_FALSE(rules::check_send(f).has_value());
    // ...but still needs recipients and signers, and deliverable addresses.
    f.every_email_deliverable = false;
    CHECK(rules::check_send(f) == error_code::INVALID_EMAIL);
    f.signers = 0;
    CHECK(rules::check_send(f) == error_code::NO_SIGNERS);

    // distributionMethod none: the e-mail quota is not needed.
    auto g = passing_send_facts();
    g.distribution_by_email = false;
    g.email_quota = 0;
    CHECK_FALSE(rules::check_send(g).has_value());

    // The quota must cover one invitation e-mail per recipient: exactly enough is enough.
    auto h = passing_send_facts();
    h.invitation_emails = 3;
    h.email_quota = 3;
    CHECK_FALSE(rules::check_send(h).has_value());
    h.email_quota = 2;
    CHECK(rules::check_send(h) == error_code::SES_LIMIT_EXCEEDED);

    // One credit per envelope sent: one credit left is enough.
    auto k = passing_send_facts();
    k.api_credits = 1;
    CHECK_FALSE(rules::check_send(k).has_value());
    k.api_credits = 0;
    CHECK(rules::check_send(k) == error_code::API_CREDITS_LIMIT_EXCEEDED);

    // Not a draft: every non-draft status.
    for (auto s : enum_values<envelope_status>()) {
        auto n = passing_send_facts();
        n.status = s;
        INFO(enum_to_wire(s));
        if (s == envelope_status::draft)
            CHECK_FALSE(rules::check_send(n).has_value());
        else
            CHECK(rules::check_send(n) == error_code::ENVELOPE_NOT_IN_DRAFT);
    }
}

// =============================================================================================
// rules/lifecycle.hpp

TEST_CASE("rules: every envelope transition of the contract, and no other", "[rules][lifecycle]") {
    const auto& expected = expected_envelope_transitions();
    for (auto from : enum_values<envelope_status>()) {
        for (auto event : all_envelope_events) {
            INFO(enum_to_wire(from) << " on event " << static_cast<int>(event));
            auto it = expected.find({from, event});
            auto got = rules::next_status(from, event);
            if (it == expected.end())
                CHECK_FALSE(got.has_value());
            else
                CHECK(got == it->second);
        }
    }
    // The library's table has exactly the expected rows.
    CHECK(rules::envelope_transitions.size() == expected.size());
    for (const auto& t : rules::envelope_transitions) {
        auto it = expected.find({t.from, t.event});
        REQUIRE(it != expected.end());
        CHECK(it->second == t.to);
    }
}

TEST_CASE("rules: final statuses have no outgoing transition", "[rules][lifecycle]") {
    const std::set<envelope_status> finals{envelope_status::complete, envelope_status::declined,
                                           envelope_status::canceled, envelope_status::expired};
    for (auto s : enum_values<envelope_status>()) {
        INFO(enum_to_wire(s));
        CHECK(rules::is_final(s) == (finals.count(s) == 1));
        if (rules::is_final(s))
            for (auto event : all_envelope_events) CHECK_FALSE(rules::next_status(s, event).has_value());
        CHECK(rules::is_in_progress(s) == (s == envelope_status::approving || s == envelope_status::signing));
    }
    // uploading is never produced, and nothing leaves it.
    for (auto event : all_envelope_events)
        CHECK_FALSE(rules::next_status(envelope_status::uploading, event).has_value());
    // Every transition target is reachable only from a non-final status.
    for (const auto& t : rules::envelope_transitions) CHECK_FALSE(rules::is_final(t.from));
}

TEST_CASE("rules: recipient transitions by role and action", "[rules][lifecycle]") {
    using r = recipient_role;
    using a = recipient_action;
    const std::map<std::pair<r, a>, recipient_status> expected{
        {{r::approver, a::approve}, recipient_status::approved},
        {{r::signer, a::sign}, recipient_status::signed_},
        {{r::approver, a::decline}, recipient_status::declined},
        {{r::signer, a::decline}, recipient_status::declined},
    };
    for (auto role : enum_values<r>()) {
        for (auto action : enum_values<a>()) {
            INFO(enum_to_wire(role) << " " << enum_to_wire(action));
            auto it = expected.find({role, action});
            auto got = rules::recipient_after(role, action);
            if (it == expected.end())
                CHECK_FALSE(got.has_value());
            else
                CHECK(got == it->second);
        }
    }
    // Viewers never change status; open never changes status.
    for (auto action : enum_values<a>()) CHECK_FALSE(rules::recipient_after(r::viewer, action).has_value());
    for (auto role : enum_values<r>()) CHECK_FALSE(rules::recipient_after(role, a::open).has_value());
}

TEST_CASE("rules: acting role per phase", "[rules][lifecycle]") {
    for (auto s : enum_values<envelope_status>()) {
        INFO(enum_to_wire(s));
        auto role = rules::acting_role(s);
        if (s == envelope_status::approving)
            CHECK(role == recipient_role::approver);
        else if (s == envelope_status::signing)
            CHECK(role == recipient_role::signer);
        else
            CHECK_FALSE(role.has_value());
    }
}

TEST_CASE("rules: turns without signature order", "[rules][lifecycle]") {
    using r = recipient_role;
    using st = recipient_status;
    const std::vector<party> parties{
        {r::approver, st::pending, 1}, {r::approver, st::approved, 2}, {r::signer, st::pending, 3},
        {r::signer, st::pending, 9},   {r::signer, st::signed_, 4},    {r::viewer, st::pending, 1},
        {r::signer, st::declined, 5},  {r::approver, st::pending, 7},
    };
    // approving: every pending approver, whatever the order.
    CHECK(turn(parties, 0, envelope_status::approving, false));
    CHECK_FALSE(turn(parties, 1, envelope_status::approving, false));  // already approved
    CHECK_FALSE(turn(parties, 2, envelope_status::approving, false));  // signers wait
    CHECK(turn(parties, 7, envelope_status::approving, false));
    CHECK_FALSE(turn(parties, 5, envelope_status::approving, false));  // viewer
    // signing: every pending signer.
    CHECK(turn(parties, 2, envelope_status::signing, false));
    CHECK(turn(parties, 3, envelope_status::signing, false));
    CHECK_FALSE(turn(parties, 4, envelope_status::signing, false));  // signed
    CHECK_FALSE(turn(parties, 6, envelope_status::signing, false));  // declined
    CHECK_FALSE(turn(parties, 0, envelope_status::signing, false));  // approvers no longer act
    CHECK_FALSE(turn(parties, 5, envelope_status::signing, false));  // viewer
    // Outside approving/signing nobody acts.
    for (auto s : enum_values<envelope_status>()) {
        if (rules::is_in_progress(s)) continue;
        for (std::size_t i = 0; i < parties.size(); ++i) CHECK_FALSE(turn(parties, i, s, false));
    }
    // Out of range index.
    CHECK_FALSE(turn(parties, parties.size(), envelope_status::signing, false));
    CHECK_FALSE(turn({}, 0, envelope_status::signing, false));
}

TEST_CASE("rules: turns with signature order", "[rules][lifecycle]") {
    using r = recipient_role;
    using st = recipient_status;
    // Two signers at order 2 act together; order 3 waits; a viewer of lower order does not
    // block; a signer who already signed (order 1) does not block.
    const std::vector<party> signing{
        {r::signer, st::signed_, 1}, {r::signer, st::pending, 2}, {r::signer, st::pending, 2},
        {r::signer, st::pending, 3}, {r::viewer, st::pending, 0}, {r::approver, st::approved, 0},
    };
    CHECK_FALSE(turn(signing, 0, envelope_status::signing, true));
    CHECK(turn(signing, 1, envelope_status::signing, true));
    CHECK(turn(signing, 2, envelope_status::signing, true));
    CHECK_FALSE(turn(signing, 3, envelope_status::signing, true));
    CHECK_FALSE(turn(signing, 4, envelope_status::signing, true));
    CHECK_FALSE(turn(signing, 5, envelope_status::signing, true));

    // While approving, a pending signer of lower order does not block approvers.
    const std::vector<party> approving{
        {r::signer, st::pending, 1},   {r::approver, st::pending, 4}, {r::approver, st::pending, 5},
        {r::approver, st::pending, 4}, {r::viewer, st::pending, 1},
    };
    CHECK_FALSE(turn(approving, 0, envelope_status::approving, true));
    CHECK(turn(approving, 1, envelope_status::approving, true));
    CHECK_FALSE(turn(approving, 2, envelope_status::approving, true));
    CHECK(turn(approving, 3, envelope_status::approving, true));
    CHECK_FALSE(turn(approving, 4, envelope_status::approving, true));

    // Once the lowest order has acted, the next order acts.
    std::vector<party> next = signing;
    next[1].status = st::signed_;
    next[2].status = st::signed_;
    CHECK(turn(next, 3, envelope_status::signing, true));
    // A decline also ends a recipient's turn (the envelope is final then, nobody acts).
    CHECK_FALSE(turn(next, 3, envelope_status::declined, true));
}

// =============================================================================================
// rules/envelope_rules.hpp

TEST_CASE("rules: recipient order, block pages, expiry and reminder instants", "[rules][envelope]") {
    STATIC_REQUIRE(rules::next_recipient_order(std::nullopt) == 1);
    STATIC_REQUIRE(rules::next_recipient_order(4) == 5);
    STATIC_REQUIRE(rules::page_in_document("01", 3) == 1);  // leading zeros allowed
    STATIC_REQUIRE(rules::page_in_document("3", 3) == 3);
    STATIC_REQUIRE_FALSE(rules::page_in_document("4", 3));  // beyond the document
    STATIC_REQUIRE_FALSE(rules::page_in_document("0", 3));
    STATIC_REQUIRE_FALSE(rules::page_in_document("", 3));
    STATIC_REQUIRE_FALSE(rules::page_in_document("1a", 3));
    STATIC_REQUIRE_FALSE(rules::page_in_document("99999999999999999999", 3));  // no overflow
    STATIC_REQUIRE(rules::expiration_instant(1000, 1) == 1000 + rules::milliseconds_per_day);
    STATIC_REQUIRE(rules::reminder_instant(0, 2, 3) == 6 * rules::milliseconds_per_day);
}

// =============================================================================================
// rules/colors.hpp

TEST_CASE("rules: recipient colours cycle in interface.md's order", "[rules][colors]") {
    const std::vector<std::string_view> order{"primary", "info", "auxiliary", "success", "warning",
                                              "danger",  "teal", "pink",      "grape",   "lime"};
    REQUIRE(enum_count<block_color>() == order.size());
    for (std::size_t i = 0; i < 35; ++i) {
        INFO("recipients before: " << i);
        CHECK(enum_to_wire(rules::color_for_recipient(i)) == order[i % 10]);
    }
    CHECK(rules::color_for_recipient(1000000007) == block_color::pink);  // 1000000007 mod 10 == 7
}

// =============================================================================================
// rules/email_domain.hpp

TEST_CASE("rules: the reserved top-level domain invalid", "[rules][email]") {
    CHECK_FALSE(rules::is_deliverable("a@b.invalid"));
    CHECK_FALSE(rules::is_deliverable("a@b.INVALID"));
    CHECK_FALSE(rules::is_deliverable("a@b.Invalid"));
    CHECK_FALSE(rules::is_deliverable("first.last@mail.example.inVALid"));
    CHECK(rules::is_deliverable("a@example.com"));
    CHECK(rules::is_deliverable("a@x.test"));
    CHECK(rules::is_deliverable("a@invalid.com"));  // only the top-level domain counts
    CHECK(rules::is_deliverable("invalid@example.com"));
    CHECK(rules::is_deliverable("a@b.invalidx"));
    CHECK(rules::is_deliverable("a@b.xinvalid"));
    CHECK(rules::is_deliverable("a@b.invali"));
    CHECK(rules::is_deliverable("a@b.\xC9nvalid"));  // no case beyond ASCII
}

TEST_CASE("types: ASCII case, and nothing beyond it", "[rules][ascii]") {
    STATIC_REQUIRE(esign::to_lower_ascii('Q') == 'q');
    STATIC_REQUIRE(esign::to_upper_ascii('q') == 'Q');
    STATIC_REQUIRE(esign::iequals_ascii("Content-Type", "content-TYPE"));
    for (int i = 0; i < 256; ++i) {
        const char c = static_cast<char>(i);
        const bool upper = c >= 'A' && c <= 'Z', lower = c >= 'a' && c <= 'z';
        CHECK(esign::to_lower_ascii(c) == (upper ? static_cast<char>(i + 32) : c));
        CHECK(esign::to_upper_ascii(c) == (lower ? static_cast<char>(i - 32) : c));
    }
    CHECK(esign::lower_ascii("HTTPS://Ex\xC3\x89.COM") == "https://ex\xC3\x89.com");
    CHECK_FALSE(esign::iequals_ascii("abc", "abcd"));
    CHECK_FALSE(esign::iequals_ascii("[", "{"));  // 0x5B and 0x7B differ by 32 but are not letters
    CHECK_FALSE(esign::iequals_ascii("\xC9", "\xE9"));
}

// =============================================================================================
// rules/webhook_url.hpp

TEST_CASE("rules: webhook URLs to the link-local/metadata ranges are refused in every notation",
          "[rules][webhook-url]") {
    const char* urls[] = {
        "http://169.254.169.254/latest/meta-data",
        "http://169.254.0.1/",
        "https://169.254.255.255:8443/x",
        "http://2852039166/",           // decimal
        "http://0251.0376.0251.0376/",  // octal
        "http://0xa9fea9fe/",           // hexadecimal
        "http://0XA9FEA9FE/",
        "http://0xA9.0xFE.0xA9.0xFE/",
        "http://169.0xfe.0251.254/",  // mixed
        "http://169.16689662/",       // a.b-short form
        "http://169.254.43518/",      // a.b.c-short form
        "http://169.254.169.254./",   // trailing dot
        "http://[fe80::1]/",
        "http://[FE80::abcd%25eth0]/",
        "http://[fe80::1]:8080/hook",
        "http://[febf:ffff::1]/",  // still fe80::/10
        "http://[::ffff:169.254.169.254]/",
        "http://[::ffff:a9fe:a9fe]/",
        "http://[0:0:0:0:0:ffff:a9fe:a9fe]/",
        // IPv4 embedded in IPv6 (contract.md §6.7): classified like the IPv4 address
        "http://[::169.254.169.254]/",  // IPv4-compatible
        "http://[::a9fe:a9fe]/",
        "http://[::ffff:0:169.254.169.254]/",  // IPv4-translated
        "http://[64:ff9b::169.254.169.254]/",  // NAT64
        "http://[64:FF9B::A9FE:1]/",
        "http://[2002:a9fe:a9fe::1]/",  // 6to4
        "http://[2002:a9fe:0001:ffff::]:8080/x",
        "http://%31%36%39.254.169.254/",  // a percent-encoded reg-name, decoded
        "http://169.254.169.254:080/",
        "HTTP://169.254.169.254/",
        "http://169.254.169.254#@example.com",
        "http://169.254.169.254?@example.com",
    };
    for (const char* url : urls) {
        INFO(url);
        CHECK(refused(url));
        CHECK(refused_public_only(url));
    }
}

TEST_CASE("rules: webhook URLs with another scheme, user info or no authority are refused", "[rules][webhook-url]") {
    const char* urls[] = {
        "ftp://example.com/hook",
        "file:///etc/passwd",
        "gopher://example.com/",
        "javascript:alert(1)",
        "mailto:a@example.com",
        "httpx://example.com/",
        "http://user:pass@example.com/",
        "https://user@example.com/",
        "http://@example.com/",
        "http://example.com@169.254.169.254/",
        "http://@169.254.169.254/",
        "ftp://[::1]/",
        "HTTP://user@Example.COM/x?y#z",
        "http://%00evil.example.com/",  // a host no resolver takes (is_resolvable_host)
        "http://exa%20mple.com/",
        // not URLs of the grammar (the type refuses them before the rule; the rule too)
        "http://[::1/",
        "http://example.com:99999/",
        "http://example.com:0/",
        "http://:80/",
        "http://[fe80::1%25eth0]/",
        "http://[1:2]/",
        "http:no-authority",
        "http:/example.com",
        "http:///path-only",
        "http://",
        "example.com",
        "",
    };
    for (const char* url : urls) {
        INFO(url);
        CHECK(refused(url));
        CHECK(refused_public_only(url));
    }
}

TEST_CASE("rules: loopback and private webhook targets are refused only when public_only", "[rules][webhook-url]") {
    const char* urls[] = {
        "http://127.0.0.1/", "http://127.1/",
        "http://2130706433/",  // 127.0.0.1 in decimal
        "http://0x7f000001/", "http://10.0.0.1/", "http://172.16.0.1/", "http://172.31.255.255/", "http://192.168.1.1/",
        "http://[::1]/", "http://[::ffff:127.0.0.1]/", "http://[::ffff:10.0.0.1]/", "http://localhost/",
        "http://LOCALHOST:8080/", "http://api.localhost/",
        "http://localhost./",  // the resolver treats the trailing dot as the same name
        "http://0.0.0.0/", "http://[::]/", "http://[fd00::1]/",
        // IPv4 embedded in IPv6, private or loopback
        "http://[::127.0.0.1]/", "http://[::ffff:0:10.0.0.1]/", "http://[64:ff9b::192.168.1.1]/",
        "http://[2002:7f00:1::]/",
        "http://[::2]/",  // IPv4-compatible 0.0.0.2 ("this network")
    };
    for (const char* url : urls) {
        INFO(url);
        CHECK_FALSE(refused(url));
        CHECK(refused_public_only(url));
    }
}

TEST_CASE("rules: public webhook URLs are accepted in both modes", "[rules][webhook-url]") {
    const char* urls[] = {
        "http://example.com",
        "https://example.com/hook?x=1#frag",
        "HTTPS://EXAMPLE.COM/hook",
        "https://example.com:8443/hook",
        "http://93.184.216.34/",
        "http://172.32.0.1/",       // just outside 172.16.0.0/12
        "http://169.253.255.255/",  // just below 169.254.0.0/16
        "http://169.255.0.1/",      // just above
        "http://[2001:db8::1]/",
        "http://example.com#@169.254.169.254",
        "http://169.254.169.254.nip.io/",  // a name, not an address
        "HTTP://Example.COM/x?y#z",
        "http://example.com:65535/",
        "http://[::93.184.216.34]/",
        "http://[::ffff:0:93.184.216.34]/",
        "http://[64:ff9b::93.184.216.34]/",
        "http://[2002:5db8:d822::1]/",
        "http://[64:ff9c::169.254.169.254]/",  // not the NAT64 prefix
        "http://[2003:a9fe:a9fe::1]/",         // not 6to4
        "http://[::1:0:169.254.169.254]/",     // neither translated nor mapped
    };
    for (const char* url : urls) {
        INFO(url);
        CHECK_FALSE(refused(url));
        CHECK_FALSE(refused_public_only(url));
    }
}

TEST_CASE("rules: IPv4 in any notation", "[rules][webhook-url]") {
    CHECK(rules::parse_ipv4_any_notation("169.254.169.254") == 0xA9FEA9FEu);
    CHECK(rules::parse_ipv4_any_notation("2852039166") == 0xA9FEA9FEu);
    CHECK(rules::parse_ipv4_any_notation("0251.0376.0251.0376") == 0xA9FEA9FEu);
    CHECK(rules::parse_ipv4_any_notation("0xa9fea9fe") == 0xA9FEA9FEu);
    CHECK(rules::parse_ipv4_any_notation("169.0xfe.0251.254") == 0xA9FEA9FEu);
    CHECK(rules::parse_ipv4_any_notation("169.16689662") == 0xA9FEA9FEu);
    CHECK(rules::parse_ipv4_any_notation("169.254.43518") == 0xA9FEA9FEu);
    CHECK(rules::parse_ipv4_any_notation("0") == 0u);
    CHECK(rules::parse_ipv4_any_notation("4294967295") == 0xFFFFFFFFu);
    CHECK_FALSE(rules::parse_ipv4_any_notation("4294967296").has_value());
    CHECK_FALSE(rules::parse_ipv4_any_notation("256.1.1.1").has_value());
    CHECK_FALSE(rules::parse_ipv4_any_notation("1.2.3.4.5").has_value());
    CHECK_FALSE(rules::parse_ipv4_any_notation("1..2").has_value());
    CHECK_FALSE(rules::parse_ipv4_any_notation("08.1.1.1").has_value());  // 8 is not octal
    CHECK_FALSE(rules::parse_ipv4_any_notation("example.com").has_value());
    CHECK_FALSE(rules::parse_ipv4_any_notation("").has_value());
    CHECK_FALSE(rules::parse_ipv4_any_notation("1.2.3.256").has_value());
    CHECK_FALSE(rules::parse_ipv4_any_notation("1.2.65536").has_value());
}

// ---------------------------------------------------------------------------------------------
// Address classification: the same rule for a URL's IP host and for the addresses a host name
// resolves to (the server's webhook sender).

namespace {

// The kind of `text` (dotted IPv4 or IPv6), parsed the way the server receives resolved
// addresses: as a boost::asio address.
rules::address_kind kind_of(const std::string& text) {
    const auto address = boost::asio::ip::make_address(text);
    return address.is_v4() ? rules::classify_ipv4(address.to_v4().to_uint())
                           : rules::classify_ipv6(address.to_v6().to_bytes());
}

struct address_case {
    const char* address;
    rules::address_kind kind;
};

const address_case address_cases[] = {
    // IPv4
    {"127.0.0.1", rules::address_kind::loopback},
    {"127.255.255.254", rules::address_kind::loopback},
    {"10.0.0.1", rules::address_kind::private_use},
    {"10.255.255.255", rules::address_kind::private_use},
    {"172.16.0.1", rules::address_kind::private_use},
    {"172.31.255.255", rules::address_kind::private_use},
    {"192.168.0.1", rules::address_kind::private_use},
    {"192.168.255.255", rules::address_kind::private_use},
    {"169.254.0.1", rules::address_kind::link_local},
    {"169.254.169.254", rules::address_kind::link_local},
    {"0.0.0.0", rules::address_kind::unspecified},
    {"100.64.0.1", rules::address_kind::shared},
    {"224.0.0.1", rules::address_kind::multicast},
    {"240.0.0.1", rules::address_kind::reserved},
    {"255.255.255.255", rules::address_kind::reserved},
    {"93.184.216.34", rules::address_kind::global},
    {"8.8.8.8", rules::address_kind::global},
    {"11.0.0.1", rules::address_kind::global},         // just above 10.0.0.0/8
    {"172.15.255.255", rules::address_kind::global},   // just below 172.16.0.0/12
    {"172.32.0.1", rules::address_kind::global},       // just above
    {"192.167.255.255", rules::address_kind::global},  // just below 192.168.0.0/16
    {"169.253.255.255", rules::address_kind::global},  // just below 169.254.0.0/16
    {"169.255.0.1", rules::address_kind::global},      // just above
    {"100.128.0.1", rules::address_kind::global},      // just above 100.64.0.0/10
    // IPv6
    {"::1", rules::address_kind::loopback},
    {"::", rules::address_kind::unspecified},
    {"fe80::1", rules::address_kind::link_local},
    {"febf:ffff::1", rules::address_kind::link_local},  // the top of fe80::/10
    {"fec0::1", rules::address_kind::site_local},
    {"fc00::1", rules::address_kind::unique_local},
    {"fd12:3456::1", rules::address_kind::unique_local},
    {"ff02::1", rules::address_kind::multicast},
    {"2001:db8::1", rules::address_kind::global},
    {"2606:2800:220:1:248:1893:25c8:1946", rules::address_kind::global},
    {"fbff::1", rules::address_kind::global},   // just below fc00::/7
    {"::2", rules::address_kind::unspecified},  // IPv4-compatible 0.0.0.2 (was global before §6.7)
    // IPv4-mapped IPv6: the kind of the IPv4 address
    {"::ffff:127.0.0.1", rules::address_kind::loopback},
    {"::ffff:10.1.2.3", rules::address_kind::private_use},
    {"::ffff:172.16.0.1", rules::address_kind::private_use},
    {"::ffff:192.168.1.1", rules::address_kind::private_use},
    {"::ffff:169.254.169.254", rules::address_kind::link_local},
    {"::ffff:93.184.216.34", rules::address_kind::global},
    {"::fffe:169.254.169.254", rules::address_kind::global},  // not the mapped prefix
    // Other IPv6 forms that carry an IPv4 address (contract.md §6.7): the kind of that address
    {"::169.254.169.254", rules::address_kind::link_local},  // IPv4-compatible
    {"::10.0.0.1", rules::address_kind::private_use},
    {"::93.184.216.34", rules::address_kind::global},
    {"::ffff:0:169.254.169.254", rules::address_kind::link_local},  // IPv4-translated
    {"::ffff:0:127.0.0.1", rules::address_kind::loopback},
    {"::ffff:0:93.184.216.34", rules::address_kind::global},
    {"64:ff9b::169.254.169.254", rules::address_kind::link_local},  // NAT64 well-known prefix
    {"64:ff9b::192.168.0.1", rules::address_kind::private_use},
    {"64:ff9b::93.184.216.34", rules::address_kind::global},
    {"64:ff9b:2::a9fe:a9fe", rules::address_kind::global},  // neither 64:ff9b::/96 nor 64:ff9b:1::/48
    // The local-use NAT64 prefix 64:ff9b:1::/48 (RFC 8215): link-local where any prefix length
    // puts 169.254.x.x; otherwise not public (the prefix is not globally reachable)
    {"64:ff9b:1::a9fe:a9fe", rules::address_kind::link_local},        // as a /96
    {"64:ff9b:1:a9fe:a9:fe00::", rules::address_kind::link_local},    // as a /48 (byte 8 skipped)
    {"64:ff9b:1:0:a9:fea9:fe00:0", rules::address_kind::link_local},  // as a /64
    {"64:ff9b:1::5db8:d822", rules::address_kind::reserved},
    {"64:ff9b:1::10.0.0.1", rules::address_kind::reserved},
    // Teredo 2001::/32 (RFC 4380): the client's address, inverted, in the last 32 bits
    {"2001:0:4136:e378:8000:63bf:5601:5601", rules::address_kind::link_local},   // 169.254.169.254
    {"2001:0:4136:e378:8000:63bf:f5ff:fffe", rules::address_kind::private_use},  // 10.0.0.1
    {"2001:0:4136:e378:8000:63bf:a247:27dd", rules::address_kind::global},       // 93.184.216.34
    {"2001:1::5601:5601", rules::address_kind::global},                          // not 2001::/32
    {"2001:db8::5601:5601", rules::address_kind::global},
    // ISATAP (RFC 5214): ::0:5efe:a.b.c.d or ::200:5efe:a.b.c.d after any 64-bit prefix; the
    // prefix's own kind when stricter
    {"::5efe:169.254.169.254", rules::address_kind::link_local},
    {"::200:5efe:169.254.169.254", rules::address_kind::link_local},
    {"2001:db8:1:2:200:5efe:a9fe:a9fe", rules::address_kind::link_local},
    {"2001:db8:1:2:0:5efe:10.0.0.1", rules::address_kind::private_use},
    {"2001:db8:1:2:0:5efe:93.184.216.34", rules::address_kind::global},
    {"fe80::5efe:93.184.216.34", rules::address_kind::link_local},
    {"fd00::200:5efe:93.184.216.34", rules::address_kind::unique_local},
    {"2001:db8::100:5efe:a9fe:a9fe", rules::address_kind::global},  // 0100: not an ISATAP identifier
    {"2001:db8::5eff:a9fe:a9fe", rules::address_kind::global},
    {"2002:a9fe:a9fe::1", rules::address_kind::link_local},  // 6to4
    {"2002:7f00:0001::", rules::address_kind::loopback},
    {"2002:0a00:0001:1234::1", rules::address_kind::private_use},
    {"2002:5db8:d822::1", rules::address_kind::global},
    {"2003:a9fe:a9fe::1", rules::address_kind::global},
};

}  // namespace

TEST_CASE("rules: IPv4 and IPv6 addresses by kind", "[rules][webhook-url][address]") {
    for (const auto& c : address_cases) {
        INFO(c.address);
        CHECK(kind_of(c.address) == c.kind);
    }
    // The same numbers without a parser.
    CHECK(rules::classify_ipv4(0x7F000001u) == rules::address_kind::loopback);
    CHECK(rules::classify_ipv4(0xA9FEA9FEu) == rules::address_kind::link_local);
    CHECK(rules::classify_ipv4(0xC0A80101u) == rules::address_kind::private_use);
    CHECK(rules::classify_ipv4(0x5DB8D822u) == rules::address_kind::global);
    rules::ipv6_bytes mapped{};
    mapped[10] = mapped[11] = 0xFF;
    mapped[12] = 169;
    mapped[13] = 254;
    CHECK(rules::classify_ipv6(mapped) == rules::address_kind::link_local);
    mapped[12] = 10;
    CHECK(rules::classify_ipv6(mapped) == rules::address_kind::private_use);
    rules::ipv6_bytes loopback{};
    loopback[15] = 1;
    CHECK(rules::classify_ipv6(loopback) == rules::address_kind::loopback);
}

TEST_CASE("rules: which addresses a webhook may reach, in both modes", "[rules][webhook-url][address]") {
    // Link-local (cloud metadata) never; public always; the rest only without public_only.
    CHECK(rules::refuses_address(rules::address_kind::link_local, false));
    CHECK(rules::refuses_address(rules::address_kind::link_local, true));
    CHECK_FALSE(rules::refuses_address(rules::address_kind::global, false));
    CHECK_FALSE(rules::refuses_address(rules::address_kind::global, true));
    for (auto kind : {rules::address_kind::loopback, rules::address_kind::private_use, rules::address_kind::unspecified,
                      rules::address_kind::shared, rules::address_kind::multicast, rules::address_kind::reserved,
                      rules::address_kind::unique_local, rules::address_kind::site_local}) {
        INFO(static_cast<int>(kind));
        CHECK_FALSE(rules::refuses_address(kind, false));
        CHECK(rules::refuses_address(kind, true));
    }
}

TEST_CASE("rules: a URL's IP host is judged by the same classification", "[rules][webhook-url][address]") {
    for (const auto& c : address_cases) {
        const std::string text = c.address;
        const std::string url = "http://" + (text.find(':') != std::string::npos ? "[" + text + "]" : text) + "/hook";
        INFO(url);
        CHECK(refused(url) == rules::refuses_address(c.kind, false));
        CHECK(refused_public_only(url) == rules::refuses_address(c.kind, true));
    }
}

// ---------------------------------------------------------------------------------------------
// types/uri.hpp: the one URL grammar (contract.md §6.7) that absolute_uri, the rule above and
// the server's sender share.

TEST_CASE("uri: the parts of a URL", "[rules][webhook-url][uri]") {
    auto u = esign::parse_uri("HTTP://us%40er:pw@Example.COM:08080/a/b;c?q=1/?#frag/?");
    REQUIRE(u);
    CHECK(u->scheme == "HTTP");
    CHECK(u->has_userinfo);
    CHECK(u->host == "Example.COM");
    CHECK_FALSE(u->ip_literal);
    CHECK(u->port == 8080);
    CHECK(u->target == "/a/b;c?q=1/?");
    CHECK(u->fragment == "frag/?");
    CHECK(esign::host_name(*u) == "example.com");

    auto v6 = esign::parse_uri("https://[2002:A9FE:a9fe::1]");
    REQUIRE(v6);
    CHECK(v6->ip_literal);
    CHECK(v6->host == "2002:A9FE:a9fe::1");
    CHECK(esign::host_name(*v6) == "2002:a9fe:a9fe::1");
    REQUIRE(v6->ipv6);
    CHECK((*v6->ipv6)[2] == 0xA9);
    CHECK((*v6->ipv6)[15] == 1);
    CHECK(v6->port == 0);
    CHECK(v6->target.empty());

    auto q = esign::parse_uri("http://example.com?x#");
    REQUIRE(q);
    CHECK(q->target == "?x");
    CHECK(q->fragment.empty());
    CHECK(esign::host_name(*esign::parse_uri("http://%31%36%39.254.169.254/")) == "169.254.169.254");
    CHECK(esign::parse_uri("http://example.com:/")->port == 0);
    CHECK(esign::parse_uri("http://example.com:65535")->port == 65535);
}

TEST_CASE("uri: what the grammar refuses", "[rules][webhook-url][uri]") {
    for (std::string_view bad : {"",
                                 "example.com",
                                 "/relative",
                                 "1http://example.com",
                                 "http:no-authority",
                                 "mailto:a@example.com",
                                 "http://",
                                 "http://:80/",
                                 "http:///x",
                                 "http://[::1/",
                                 "http://::1/",
                                 "http://[]/",
                                 "http://[::1]x/",
                                 "http://[fe80::1%25eth0]/",
                                 "http://[fe80::1%eth0]/",
                                 "http://[v1.fe80::1]/",
                                 "http://[1:2]/",
                                 "http://[:::]/",
                                 "http://[::01.2.3.4]/",
                                 "http://[::1.2.3]/",
                                 "http://example.com:0/",
                                 "http://example.com:00000/",
                                 "http://example.com:65536/",
                                 "http://example.com:99999/",
                                 "http://example.com:123456/",
                                 "http://example.com:-1/",
                                 "http://example.com:8o/",
                                 "http://a@b@c/",
                                 "http://exa mple.com/",
                                 "http://example.com/a b",
                                 "http://example.com/\r\nX: y",
                                 "http://example.com/%zz",
                                 "http://example.com/{x}",
                                 "http://example.com/é",
                                 "http://example.com#a#b"}) {
        INFO(bad);
        CHECK_FALSE(esign::parse_uri(bad));
        CHECK_FALSE(esign::absolute_uri::matches(bad));
    }
    const std::string base = "https://example.com/";
    CHECK(esign::absolute_uri::matches(base + std::string(2048 - base.size(), 'a')));
    CHECK_FALSE(esign::absolute_uri::matches(base + std::string(2049 - base.size(), 'a')));
    CHECK(esign::parse_uri(base + std::string(100000, 'a')));  // the grammar has no limit, the type has
}

TEST_CASE("uri: IPv6 literals (RFC 3986 IPv6address)", "[rules][webhook-url][uri]") {
    for (std::string_view good :
         {"::", "::1", "1::", "1::2", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7::", "::2:3:4:5:6:7:8", "1:2:3:4:5:6:1.2.3.4",
          "::1.2.3.4", "::ffff:0:255.255.255.255", "64:ff9b::169.254.169.254", "FFFF::abcd", "1:0:0:0:0:0:0:0"}) {
        INFO(good);
        const auto bytes = esign::parse_ipv6(good);
        REQUIRE(bytes);
        // The same 16 bytes as the platform's parser.
        CHECK(boost::asio::ip::make_address_v6(std::string(good)).to_bytes() == *bytes);
    }
    for (std::string_view bad : {"",
                                 ":",
                                 ":::",
                                 "1:::2",
                                 "1::2::3",
                                 "1:2:3:4:5:6:7",
                                 "1:2:3:4:5:6:7:8:9",
                                 "::1:2:3:4:5:6:7:8",
                                 "1:2:3:4:5:6:7:1.2.3.4",
                                 "12345::",
                                 "g::",
                                 "1:",
                                 ":1",
                                 "1.2.3.4",
                                 "::1.2.3.4.5",
                                 "::256.1.1.1",
                                 "::01.1.1.1",
                                 "::1.2.3.4:5",
                                 "fe80::1%eth0",
                                 " ::1",
                                 "[::1]"}) {
        INFO(bad);
        CHECK_FALSE(esign::parse_ipv6(bad));
    }
}

}  // namespace test_rules
