// SPDX-License-Identifier: BSL-1.0
#pragma once
// The request examples of the toolkit's tests, as a table shared by tests/test_requests.cpp (the
// decoder reports exactly the expected problems) and tests/test_schema_independent.cpp (an
// independent JSON Schema validator, given the schema esign::schema exports, reaches the
// decoder's verdict).
//
// Each row names an operation path, a valid base body, one mutation of it (set or erase a member
// at a JSON path), and the problems expected: none for a valid example, else exactly the listed
// problems (path, kind, and limit where there is one). The row is decoded with the request type
// of its operation, found through esign::for_each_operation, so the rows are data.
//
// A row that JSON Schema cannot judge like the decoder is marked `.beyond_schema(reason)`, right
// after it: the reasons are the enum schema_gap below.
#include <catch2/catch.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/json.hpp>
#include <fmt/format.h>

#include <esign/esign.hpp>

namespace request_examples {

using namespace esign;
namespace bj = boost::json;
using json_path = std::vector<std::string>;
using k = problem_kind;

// ---------------------------------------------------------------------------------------------
// Values

inline const std::string U = "0b5c2a1e-9a7e-4c5b-8a3d-2f6e1d4c3b2a";   // 36 characters
inline const std::string U2 = "9f8e7d6c-5b4a-4321-8fed-cba987654321";  // another one
inline const std::string U35 = U.substr(0, 35);
inline const std::string U37 = U + "0";

inline constexpr std::int64_t i32max = 2147483647;
inline constexpr std::int64_t i32min = -2147483647 - 1;

// `n` copies of `unit` (a character, possibly multi-byte: "é" is 2 bytes, "😀" 4).
inline std::string rep(std::size_t n, std::string_view unit = "x") {
    std::string s;
    for (std::size_t i = 0; i < n; ++i) s += unit;
    return s;
}

// A valid webhook url of exactly `n` characters (n >= 20).
inline std::string url_of_length(std::size_t n) {
    const std::string base = "https://example.com/";  // 20 characters
    return base + rep(n - base.size(), "a");
}

// A valid general-form e-mail address of exactly `n` characters.
inline std::string email_of_length(std::size_t n) {
    const std::string domain = "@example.com";  // 12 characters
    return rep(n - domain.size(), "a") + domain;
}

inline bj::value j(std::string_view text) { return bj::parse(text); }
inline bj::value s(const std::string& text) { return bj::value(bj::string_view(text.data(), text.size())); }

// An array of `n` items made by `item(i)`.
inline bj::value items(std::size_t n, const std::function<bj::value(std::size_t)>& item) {
    bj::array a;
    for (std::size_t i = 0; i < n; ++i) a.push_back(item(i));
    return a;
}
inline bj::value recipient_item(std::size_t i) {
    return j(fmt::format(R"({{"type":"manual","email":"r{}@example.com","firstname":"F","lastname":"L"}})", i));
}
inline bj::value delete_item(std::size_t i) { return j(fmt::format(R"({{"email":"r{}@example.com"}})", i)); }
inline bj::value contact_item(std::size_t i) {
    return j(fmt::format(R"({{"email":"c{}@example.com","firstname":"F","lastname":"L"}})", i));
}
inline bj::value email_item(std::size_t i) { return s(fmt::format("c{}@example.com", i)); }

// ---------------------------------------------------------------------------------------------
// Mutations of a JSON document

struct mutation {
    std::string description;
    std::function<void(bj::value&)> apply;
};

inline std::string path_string(const json_path& p) {
    std::string out;
    for (const auto& part : p) out += (out.empty() ? "" : ".") + part;
    return out.empty() ? "(root)" : out;
}

// The container holding the last component of `p` (arrays indexed by decimal strings).
inline bj::value& parent_of(bj::value& root, const json_path& p) {
    bj::value* v = &root;
    for (std::size_t i = 0; i + 1 < p.size(); ++i) {
        if (v->is_array())
            v = &v->as_array().at(std::stoul(p[i]));
        else
            v = &v->as_object().at(p[i]);
    }
    return *v;
}

inline mutation none() {
    return {"unchanged", [](bj::value&) {}};
}

// Sets the member (or array item) at `p`, creating the member if needed.
inline mutation set(json_path p, bj::value v) {
    std::string text = bj::serialize(v);
    if (text.size() > 60) text = text.substr(0, 57) + "...";
    return {"set " + path_string(p) + " = " + text, [p, v](bj::value& root) {
                if (p.empty()) {
                    root = v;
                    return;
                }
                bj::value& parent = parent_of(root, p);
                if (parent.is_array()) {
                    auto& a = parent.as_array();
                    const auto index = std::stoul(p.back());
                    if (index == a.size())
                        a.push_back(v);
                    else
                        a.at(index) = v;
                } else {
                    parent.as_object()[p.back()] = v;
                }
            }};
}

inline mutation erase(json_path p) {
    return {"erase " + path_string(p), [p](bj::value& root) {
                bj::value& parent = parent_of(root, p);
                if (parent.is_array()) {
                    auto& a = parent.as_array();
                    a.erase(a.begin() + static_cast<std::ptrdiff_t>(std::stoul(p.back())));
                } else {
                    REQUIRE(parent.as_object().erase(p.back()) == 1);
                }
            }};
}

// Several mutations applied in order.
inline mutation all(std::vector<mutation> ms) {
    std::string d;
    for (const auto& m : ms) d += (d.empty() ? "" : "; ") + m.description;
    return {d, [ms](bj::value& root) {
                for (const auto& m : ms) m.apply(root);
            }};
}

// ---------------------------------------------------------------------------------------------
// The table

struct expected_problem {
    json_path path;
    problem_kind kind;
    std::optional<std::int64_t> limit;
};

inline expected_problem at(json_path p, problem_kind kind, std::optional<std::int64_t> limit = std::nullopt) {
    return {std::move(p), kind, limit};
}

// Why a JSON Schema validator, given the exported schema of the request, must NOT reach the
// decoder's verdict on a row (tests/test_schema_independent.cpp checks that it does not, exactly so).
enum class schema_gap {
    none,  // the validator's verdict is the decoder's
    // The decoder refuses, the schema accepts:
    duplicate_member,  // a member name twice: a schema sees the parsed value, one member per name
    unique_key,        // two items with the same e-mail: uniqueItems compares whole items only
    ipv6_literal,      // a URL's IPv6 literal: the pattern reads "[" hex ':' '.' "]", parse_ipv6 the rest
    // Where valijson 1.0 departs from JSON Schema:
    valijson_integer_fraction,  // 3.0 is an integer since draft 6; valijson refuses it as "integer"
    valijson_big_integer,       // an integer above INT64_MAX: valijson throws (Boost.JSON adapter)
};

inline std::string_view reason(schema_gap gap) {
    switch (gap) {
        case schema_gap::none:
            return "none";
        case schema_gap::duplicate_member:
            return "a member name twice, which a parsed JSON value cannot show";
        case schema_gap::unique_key:
            return "items unique by one member, which JSON Schema cannot say";
        case schema_gap::ipv6_literal:
            return "the exact IPv6 syntax of a URL's IP literal, which the pattern reads loosely";
        case schema_gap::valijson_integer_fraction:
            return "valijson: 3.0 is not an integer";
        case schema_gap::valijson_big_integer:
            return "valijson: throws on an integer above INT64_MAX";
    }
    return "?";
}

struct row {
    std::string op;
    std::string base;  // a valid body (or, for raw rows, the exact bytes)
    mutation change;
    std::vector<expected_problem> expected;  // empty: a valid example
    bool strict = false;
    bool raw = false;
    schema_gap gap = schema_gap::none;

    std::string body() const {
        if (raw) return base;
        bj::value doc = bj::parse(base);
        change.apply(doc);
        return bj::serialize(doc);
    }
};

inline std::vector<row>& table();

// Rows of one operation, sharing its base body.
struct section {
    std::string op;
    std::string base;

    section& ok(mutation m = none()) { return add(std::move(m), {}, false); }
    section& ok_strict(mutation m = none()) { return add(std::move(m), {}, true); }
    section& fails(mutation m, json_path p, problem_kind kind, std::optional<std::int64_t> limit = std::nullopt) {
        return add(std::move(m), {at(std::move(p), kind, limit)}, false);
    }
    section& fails_strict(mutation m, json_path p, problem_kind kind) {
        return add(std::move(m), {at(std::move(p), kind)}, true);
    }
    section& fails_all(mutation m, std::vector<expected_problem> e, bool strict = false) {
        return add(std::move(m), std::move(e), strict);
    }
    // Exact bytes, for what a JSON value cannot hold (duplicate member names).
    section& raw(std::string bytes, std::vector<expected_problem> e = {}, bool strict = false) {
        table().push_back(
            row{op, std::move(bytes), {"raw body", [](bj::value&) {}}, std::move(e), strict, true, schema_gap::none});
        return *this;
    }

    // Marks the row just added: a JSON Schema validator must disagree with the decoder on it.
    section& beyond_schema(schema_gap why) {
        REQUIRE(!table().empty());
        REQUIRE(table().back().op == op);
        REQUIRE(table().back().gap == schema_gap::none);
        table().back().gap = why;
        return *this;
    }

private:
    section& add(mutation m, std::vector<expected_problem> e, bool strict) {
        (void)bj::parse(base);  // the base must be JSON
        table().push_back(row{op, base, std::move(m), std::move(e), strict, false, schema_gap::none});
        return *this;
    }
};

// ---------------------------------------------------------------------------------------------
// Dispatch by operation path

// The problems of `bytes` read as the request of operation `op`; nullopt if there is no such operation.
inline std::optional<problem_list> read_request(std::string_view op, std::string_view bytes, bool strict) {
    std::optional<problem_list> out;
    for_each_operation([&](const auto& operation) {
        if (operation.path != op) return;
        using request = typename std::remove_cvref_t<decltype(operation)>::request_type;
        auto r = esign::json::read<request>(bytes, esign::json::decode_options{.strict = strict});
        if (r.has_value())
            REQUIRE(r.problems().empty());
        else
            REQUIRE_FALSE(r.problems().empty());
        out = r.problems();
    });
    return out;
}

inline std::string describe(const problem_list& problems) {
    std::string out;
    for (const auto& p : problems)
        out += fmt::format("\n    {} [{}] limit {}", p, path_string(p.path), p.limit ? std::to_string(*p.limit) : "-");
    return out.empty() ? "\n    (none)" : out;
}

// ---------------------------------------------------------------------------------------------
// The rows, operation by operation (interface.md "Endpoints", contract.md §4 and §5)

inline void webhook_rows() {
    section up{
        "/public/webhook/update",
        R"({"uuid":")" + U +
            R"(","url":"https://example.com/hook","contentType":"application/json","sslVerify":true,"active":true,"secret":"s3cret","events":["ENVELOPE_SENT","ENVELOPE_COMPLETED"],"workspaceUuids":[")" +
            U2 + R"("],"title":"My hook"})"};
    up.ok()
        .ok(set({}, j(R"({"uuid":")" + U + R"("})")))  // only uuid: everything else unchanged
        .ok(set({"secret"}, nullptr))                  // null removes the secret
        .ok(set({"contentType"}, "application/x-www-form-urlencoded"))
        .ok(set({"events"}, bj::array{}))
        .ok(set({"workspaceUuids"}, bj::array{}))
        .ok(set({"title"}, s(rep(255))))
        .ok(set({"title"}, s(rep(256))))  // interface.md "Webhook title": at most 256
        .ok(set({"title"}, s(rep(256, "é"))))
        .ok(set({"title"}, ""))
        .ok(set({"url"}, "ftp://hooks.example.com/"))  // a well-formed URL: refused later by the rule
        .ok(set({"url"}, s(url_of_length(2048))))
        .ok(set({"secret"}, s(rep(256))))
        .ok(set({"secret"}, s(rep(256, "é"))))
        .ok(set({"uuid"}, s(rep(36, "é"))))
        .ok(set(
            {"events"},
            j(R"(["ENVELOPE_CREATED","ENVELOPE_SENT","ENVELOPE_OPENED","ENVELOPE_SIGNED","ENVELOPE_COMPLETED","ENVELOPE_DECLINED","ENVELOPE_CANCELED"])")))
        .fails(erase({"uuid"}), {"uuid"}, k::missing)
        .fails(set({"uuid"}, s(U35)), {"uuid"}, k::too_short, 36)
        .fails(set({"uuid"}, s(U37)), {"uuid"}, k::too_long, 36)
        .fails(set({"uuid"}, 36), {"uuid"}, k::type)
        .fails(set({"uuid"}, nullptr), {"uuid"}, k::type)
        .fails(set({"url"}, "example.com/hook"), {"url"}, k::pattern)
        .fails(set({"url"}, "http:no-authority"), {"url"}, k::pattern)  // contract.md §6.7: an authority
        .fails(set({"url"}, s(url_of_length(2049))), {"url"}, k::too_long, 2048)
        .fails(set({"url"}, "http://example.com:99999/"), {"url"}, k::pattern)
        .fails(set({"url"}, "http://[::1/"), {"url"}, k::pattern)
        .fails(set({"url"}, "http://[1:2]/"), {"url"}, k::pattern)
        .beyond_schema(schema_gap::ipv6_literal)
        .fails(set({"secret"}, s(rep(257))), {"secret"}, k::too_long, 256)
        .fails(set({"secret"}, s(rep(257, "é"))), {"secret"}, k::too_long, 256)
        .fails(set({"url"}, "/relative/hook"), {"url"}, k::pattern)
        .fails(set({"url"}, "https://exa mple.com"), {"url"}, k::pattern)
        .fails(set({"url"}, ""), {"url"}, k::pattern)
        .fails(set({"url"}, 1), {"url"}, k::type)
        .fails(set({"url"}, nullptr), {"url"}, k::type)
        .fails(set({"contentType"}, "text/plain"), {"contentType"}, k::enum_value)
        .fails(set({"contentType"}, "application_json"), {"contentType"}, k::enum_value)
        .fails(set({"contentType"}, true), {"contentType"}, k::type)
        .fails(set({"sslVerify"}, "true"), {"sslVerify"}, k::type)
        .fails(set({"active"}, 1), {"active"}, k::type)
        .fails(set({"secret"}, 5), {"secret"}, k::type)
        .fails(set({"events"}, "ENVELOPE_SENT"), {"events"}, k::type)
        .fails(set({"events"}, nullptr), {"events"}, k::type)
        .fails(set({"events", "1"}, "ENVELOPE_EXPIRED"), {"events", "1"},
               k::enum_value)  // a log event, not a webhook one
        .fails(set({"events", "0"}, 1), {"events", "0"}, k::type)
        .fails(set({"workspaceUuids", "0"}, s(U35)), {"workspaceUuids", "0"}, k::too_short, 36)
        .fails(set({"workspaceUuids", "1"}, s(U37)), {"workspaceUuids", "1"}, k::too_long, 36)
        .fails(set({"workspaceUuids"}, j("{}")), {"workspaceUuids"}, k::type)
        .fails(set({"title"}, s(rep(257))), {"title"}, k::too_long, 256)
        .fails(set({"title"}, s(rep(257, "é"))), {"title"}, k::too_long, 256)
        .fails(set({"title"}, nullptr), {"title"}, k::type)
        .fails(set({"title"}, 1), {"title"}, k::type)
        .fails_strict(set({"target"}, "x"), {"target"}, k::unknown_member)
        .ok(set({"target"}, "x"));

    section list{"/public/webhook/list", R"({"active":true,"page":1,"limit":50})"};
    list.ok()
        .ok(set({}, bj::object{}))
        .ok(set({"limit"}, 1))
        .ok(set({"page"}, 3.0))
        .beyond_schema(schema_gap::valijson_integer_fraction)
        .ok(set({"page"}, i32max))
        .ok(set({"active"}, false))
        .fails(set({"page"}, 0), {"page"}, k::range, 1)
        .fails(set({"page"}, -1), {"page"}, k::range, 1)
        .fails(set({"page"}, 3.5), {"page"}, k::range)
        .fails(set({"page"}, 2147483648LL), {"page"}, k::range, i32max)
        .fails(set({"page"}, 1e30), {"page"}, k::range, i32max)  // an integer, out of range
        .fails(set({"page"}, -1e30), {"page"}, k::range, 1)
        .fails(set({"page"}, "1"), {"page"}, k::type)
        .fails(set({"page"}, true), {"page"}, k::type)
        .fails(set({"page"}, nullptr), {"page"}, k::type)
        .fails(set({"limit"}, 0), {"limit"}, k::range, 1)
        .fails(set({"limit"}, 51), {"limit"}, k::range, 50)
        .fails(set({"limit"}, 50.5), {"limit"}, k::range)
        .fails(set({"limit"}, bj::value(18446744073709551615ULL)), {"limit"}, k::range, 50)
        .beyond_schema(schema_gap::valijson_big_integer)
        .fails(set({"active"}, "yes"), {"active"}, k::type)
        .fails(set({"active"}, nullptr), {"active"}, k::type)
        .fails_all(all({set({"page"}, 0), set({"limit"}, 51), set({"active"}, 1)}),
                   {at({"page"}, k::range, 1), at({"limit"}, k::range, 50), at({"active"}, k::type)});

    section del{"/public/webhook/delete", R"({"uuid":")" + U + R"("})"};
    del.ok()
        .ok(set({"uuid"}, s(rep(36, "é"))))
        .ok(set({"uuid"}, s(rep(36, "😀"))))
        .fails(erase({"uuid"}), {"uuid"}, k::missing)
        .fails(set({"uuid"}, s(U35)), {"uuid"}, k::too_short, 36)
        .fails(set({"uuid"}, s(U37)), {"uuid"}, k::too_long, 36)
        .fails(set({"uuid"}, s(rep(35, "é"))), {"uuid"}, k::too_short, 36)
        .fails(set({"uuid"}, s(rep(37, "é"))), {"uuid"}, k::too_long, 36)
        .fails(set({"uuid"}, s(rep(18, "é"))), {"uuid"}, k::too_short, 36)  // 36 bytes, 18 code points
        .fails(set({"uuid"}, j("[]")), {"uuid"}, k::type)
        .fails_strict(set({"id"}, s(U)), {"id"}, k::unknown_member);

    section create{
        "/public/webhook/create",
        R"({"url":"https://example.com/h","contentType":"application/json","sslVerify":false,"active":true})"};
    create.ok()
        .ok(set({"secret"}, "s"))
        .ok(set({"secret"}, nullptr))
        .ok(set({"events"}, j(R"(["ENVELOPE_SIGNED"])")))
        .ok(set({"workspaceUuids"}, j("[\"" + U + "\"]")))
        .ok(set({"title"}, s(rep(255, "€"))))
        .ok(set({"title"}, s(rep(256, "€"))))
        .ok(set({"contentType"}, "application/x-www-form-urlencoded"))
        // contract.md §6.7: the one URL grammar (types/uri.hpp). Well-formed URLs pass the type;
        // which of them are refused (another scheme, user info, metadata addresses, in IPv6
        // clothing too) is WEBHOOK_URL_REFUSED, later (tests/test_rules.cpp).
        .ok(set({"url"}, "HTTP://Example.COM/x?y#z"))
        .ok(set({"url"}, "https://example.com:65535/a/b;c=d/%7Ee?q=1&r=/?#f/?"))
        .ok(set({"url"}, "http://example.com:080/"))  // port 80, leading zeros
        .ok(set({"url"}, "http://example.com:/"))     // an empty port is the default (RFC 3986 §3.2.3)
        .ok(set({"url"}, "http://user:pw@example.com/"))
        .ok(set({"url"}, "ftp://example.com/"))
        .ok(set({"url"}, "http://[::169.254.169.254]/"))
        .ok(set({"url"}, "http://[64:ff9b::169.254.169.254]/"))
        .ok(set({"url"}, "http://[2002:a9fe:a9fe::1]/"))
        .ok(set({"url"}, "http://[::ffff:0:169.254.169.254]/"))
        .ok(set({"url"}, "http://[::FFFF:A9FE:A9FE]:8080/x"))
        .ok(set({"url"}, "http://[1:2:3:4:5:6:7::]/"))
        .ok(set({"url"}, "http://%65xample.com/"))
        .ok(set({"url"}, s(url_of_length(2048))))
        .ok(set({"secret"}, s(rep(256))))
        .ok(set({"secret"}, s(rep(256, "😀"))))
        .fails(set({"url"}, "http://[::1/"), {"url"}, k::pattern)
        .fails(set({"url"}, "http://example.com:99999/"), {"url"}, k::pattern)
        .fails(set({"url"}, "http://example.com:65536/"), {"url"}, k::pattern)
        .fails(set({"url"}, "http://example.com:0/"), {"url"}, k::pattern)
        .fails(set({"url"}, "http://example.com:00/"), {"url"}, k::pattern)
        .fails(set({"url"}, "http://example.com:8o/"), {"url"}, k::pattern)
        .fails(set({"url"}, "http://:80/"), {"url"}, k::pattern)
        .fails(set({"url"}, "http:///path-only"), {"url"}, k::pattern)
        .fails(set({"url"}, "http://"), {"url"}, k::pattern)
        .fails(set({"url"}, "http:no-authority"), {"url"}, k::pattern)
        .fails(set({"url"}, "mailto:a@example.com"), {"url"}, k::pattern)
        .fails(set({"url"}, "http://[fe80::1%25eth0]/"), {"url"}, k::pattern)  // no zone identifiers
        .fails(set({"url"}, "http://[v1.fe80::1]/"), {"url"}, k::pattern)      // no IPvFuture
        .fails(set({"url"}, "http://[]/"), {"url"}, k::pattern)
        .fails(set({"url"}, "http://exa%zzmple.com/"), {"url"}, k::pattern)
        .fails(set({"url"}, "http://example.com/a b"), {"url"}, k::pattern)
        .fails(set({"url"}, "http://example.com/\r\nX: y"), {"url"}, k::pattern)
        .fails(set({"url"}, "http://example.com/<script>"), {"url"}, k::pattern)
        .fails(set({"url"}, "http://ex@mple@example.com/"), {"url"}, k::pattern)
        .fails(set({"url"}, "http://example.com/é"), {"url"}, k::pattern)
        .fails(set({"url"}, s(url_of_length(2049))), {"url"}, k::too_long, 2048)
        .fails(set({"url"}, "http://[1:2]/"), {"url"}, k::pattern)
        .beyond_schema(schema_gap::ipv6_literal)
        .fails(set({"url"}, "http://[:::]/"), {"url"}, k::pattern)
        .beyond_schema(schema_gap::ipv6_literal)
        .fails(set({"url"}, "http://[::01.2.3.4]/"), {"url"}, k::pattern)
        .beyond_schema(schema_gap::ipv6_literal)
        .fails(set({"url"}, "http://[1:2:3:4:5:6:7:8:9]/"), {"url"}, k::pattern)
        .beyond_schema(schema_gap::ipv6_literal)
        .fails(set({"url"}, "http://[::1.2.3]/"), {"url"}, k::pattern)
        .beyond_schema(schema_gap::ipv6_literal)
        .fails(set({"secret"}, s(rep(257))), {"secret"}, k::too_long, 256)
        .fails(set({"title"}, s(rep(257))), {"title"}, k::too_long, 256)
        .fails(erase({"url"}), {"url"}, k::missing)
        .fails(erase({"contentType"}), {"contentType"}, k::missing)
        .fails(erase({"sslVerify"}), {"sslVerify"}, k::missing)
        .fails(erase({"active"}), {"active"}, k::missing)
        .fails(set({"url"}, "relative/path"), {"url"}, k::pattern)
        .fails(set({"url"}, "1http://example.com"), {"url"}, k::pattern)
        .fails(set({"contentType"}, "application/xml"), {"contentType"}, k::enum_value)
        .fails(set({"sslVerify"}, "false"), {"sslVerify"}, k::type)
        .fails(set({"active"}, nullptr), {"active"}, k::type)
        .fails(set({"events"}, j(R"(["ENVELOPE_SENT","envelope_sent"])")), {"events", "1"}, k::enum_value)
        .fails(set({"workspaceUuids"}, j("[\"" + U35 + "\"]")), {"workspaceUuids", "0"}, k::too_short, 36)
        .fails(set({"title"}, s(rep(257, "€"))), {"title"}, k::too_long, 256)
        .fails(set({"title"}, nullptr), {"title"}, k::type)
        .fails(set({"secret"}, true), {"secret"}, k::type)
        .fails_all(set({}, bj::object{}), {at({"url"}, k::missing), at({"contentType"}, k::missing),
                                           at({"sslVerify"}, k::missing), at({"active"}, k::missing)});
}

inline void envelope_rows() {
    section get{"/public/envelope/get", R"({"workspaceUuid":")" + U2 + R"(","envelopeUuid":")" + U + R"("})"};
    get.ok()
        .ok(erase({"workspaceUuid"}))
        .ok(set({"envelopeUuid"}, s(rep(36, "é"))))
        .fails(erase({"envelopeUuid"}), {"envelopeUuid"}, k::missing)
        .fails(set({"envelopeUuid"}, s(U35)), {"envelopeUuid"}, k::too_short, 36)
        .fails(set({"envelopeUuid"}, s(U37)), {"envelopeUuid"}, k::too_long, 36)
        .fails(set({"envelopeUuid"}, ""), {"envelopeUuid"}, k::too_short, 36)
        .fails(set({"envelopeUuid"}, 1), {"envelopeUuid"}, k::type)
        .fails(set({"workspaceUuid"}, s(U35)), {"workspaceUuid"}, k::too_short, 36)
        .fails(set({"workspaceUuid"}, s(U37)), {"workspaceUuid"}, k::too_long, 36)
        .fails(set({"workspaceUuid"}, nullptr), {"workspaceUuid"}, k::type)
        .fails_strict(set({"envelopeUUID"}, s(U)), {"envelopeUUID"}, k::unknown_member)
        .ok(set({"envelopeUUID"}, s(U)))
        .raw(R"({"envelopeUuid":")" + U + R"(","envelopeUuid":")" + U + R"("})",
             {at({"envelopeUuid"}, k::duplicate_member)})
        .beyond_schema(schema_gap::duplicate_member)
        .raw(R"({"envelopeUuid":")" + U + R"(","envelope\u0055uid":")" + U + R"("})",
             {at({"envelopeUuid"}, k::duplicate_member)})  // the same name once unescaped
        .beyond_schema(schema_gap::duplicate_member)
        .raw(R"({"envelopeUuid":")" + U + R"(","workspaceUuid":")" + U + R"(","workspaceUuid":")" + U + R"("})",
             {at({"workspaceUuid"}, k::duplicate_member)})
        .beyond_schema(schema_gap::duplicate_member);

    section list{"/public/envelope/list",
                 R"({"workspaceUuid":")" + U + R"(","tags":["a","b"],"status":["draft","signing"],"page":1})"};
    list.ok()
        .ok(set({}, bj::object{}))
        .ok(set({"tags"}, bj::array{}))
        .ok(set({"status"}, bj::array{}))
        .ok(set({"status"},
                j(R"(["uploading","draft","approving","signing","complete","declined","canceled","expired"])")))
        .ok(set({"page"}, 2.0))
        .beyond_schema(schema_gap::valijson_integer_fraction)
        .ok(set({"limit"}, 10))  // no limit member: an unknown member, ignored
        .fails_strict(set({"limit"}, 10), {"limit"}, k::unknown_member)
        .fails(set({"status", "1"}, "sent"), {"status", "1"}, k::enum_value)
        .fails(set({"status", "0"}, "Draft"), {"status", "0"}, k::enum_value)
        .fails(set({"status"}, "draft"), {"status"}, k::type)
        .fails(set({"status", "0"}, 1), {"status", "0"}, k::type)
        .fails(set({"tags", "0"}, 1), {"tags", "0"}, k::type)
        .fails(set({"tags"}, "a"), {"tags"}, k::type)
        .fails(set({"tags"}, nullptr), {"tags"}, k::type)
        .fails(set({"page"}, 0), {"page"}, k::range, 1)
        .fails(set({"page"}, 1.5), {"page"}, k::range)
        .fails(set({"workspaceUuid"}, s(U37)), {"workspaceUuid"}, k::too_long, 36);

    section update{
        "/public/envelope/update",
        R"({"workspaceUuid":")" + U2 + R"(","envelopeUuid":")" + U +
            R"(","update":{"title":"T","documents":[{"uuid":")" + U +
            R"(","title":"D","initialsOnAllPages":true,"initialsVerticalMargin":10,"mustReadAllPages":false},{"uuid":")" +
            U2 +
            R"("}],"tags":["x"],"signatureOrder":true,"expirationPeriod":30,"reminderFrequencyPeriod":2,"customInvitationMessage":"hi","useUserAsSenderName":false}})"};
    update.ok()
        .ok(set({"update"}, bj::object{}))
        .ok(erase({"workspaceUuid"}))
        .ok(set({"update", "title"}, s(rep(255))))
        .ok(set({"update", "title"}, s(rep(255, "é"))))
        .ok(set({"update", "title"}, s(rep(255, "😀"))))
        .ok(set({"update", "title"}, ""))
        .ok(set({"update", "customInvitationMessage"}, nullptr))
        .ok(erase({"update", "customInvitationMessage"}))
        .ok(set({"update", "expirationPeriod"}, 1))
        .ok(set({"update", "expirationPeriod"}, 90))
        .ok(set({"update", "expirationPeriod"}, 3.0))
        .beyond_schema(schema_gap::valijson_integer_fraction)
        .ok(set({"update", "reminderFrequencyPeriod"}, 1))
        .ok(set({"update", "reminderFrequencyPeriod"}, i32max))
        .ok(set({"update", "documents", "0", "initialsVerticalMargin"}, 0))
        .ok(set({"update", "documents", "0", "initialsVerticalMargin"}, 120))
        .ok(set({"update", "documents", "0", "title"}, s(rep(255, "é"))))
        .ok(set({"update", "documents"}, bj::array{}))
        .fails(erase({"envelopeUuid"}), {"envelopeUuid"}, k::missing)
        .fails(erase({"update"}), {"update"}, k::missing)
        .fails(set({"update"}, "title"), {"update"}, k::type)
        .fails(set({"update"}, bj::array{}), {"update"}, k::type)
        .fails(set({"update"}, nullptr), {"update"}, k::type)
        .fails(set({"update", "title"}, s(rep(256))), {"update", "title"}, k::too_long, 255)
        .fails(set({"update", "title"}, s(rep(256, "é"))), {"update", "title"}, k::too_long, 255)
        .fails(set({"update", "title"}, s(rep(256, "😀"))), {"update", "title"}, k::too_long, 255)
        .fails(set({"update", "title"}, nullptr), {"update", "title"}, k::type)
        .fails(set({"update", "title"}, 7), {"update", "title"}, k::type)
        .fails(erase({"update", "documents", "0", "uuid"}), {"update", "documents", "0", "uuid"}, k::missing)
        .fails(set({"update", "documents", "1", "uuid"}, s(U35)), {"update", "documents", "1", "uuid"}, k::too_short,
               36)
        .fails(set({"update", "documents", "0", "uuid"}, s(U37)), {"update", "documents", "0", "uuid"}, k::too_long, 36)
        .fails(set({"update", "documents", "0", "title"}, s(rep(256, "é"))), {"update", "documents", "0", "title"},
               k::too_long, 255)
        .fails(set({"update", "documents", "0", "initialsVerticalMargin"}, -1),
               {"update", "documents", "0", "initialsVerticalMargin"}, k::range, 0)
        .fails(set({"update", "documents", "0", "initialsVerticalMargin"}, 121),
               {"update", "documents", "0", "initialsVerticalMargin"}, k::range, 120)
        .fails(set({"update", "documents", "0", "initialsVerticalMargin"}, 3.5),
               {"update", "documents", "0", "initialsVerticalMargin"}, k::range)
        .fails(set({"update", "documents", "0", "initialsVerticalMargin"}, "10"),
               {"update", "documents", "0", "initialsVerticalMargin"}, k::type)
        .fails(set({"update", "documents", "0", "initialsOnAllPages"}, "yes"),
               {"update", "documents", "0", "initialsOnAllPages"}, k::type)
        .fails(set({"update", "documents", "0", "mustReadAllPages"}, 0),
               {"update", "documents", "0", "mustReadAllPages"}, k::type)
        .fails(set({"update", "documents"}, bj::object{}), {"update", "documents"}, k::type)
        .fails(set({"update", "documents", "0"}, s(U)), {"update", "documents", "0"}, k::type)
        .fails(set({"update", "expirationPeriod"}, 0), {"update", "expirationPeriod"}, k::range, 1)
        .fails(set({"update", "expirationPeriod"}, 91), {"update", "expirationPeriod"}, k::range, 90)
        .fails(set({"update", "expirationPeriod"}, 3.5), {"update", "expirationPeriod"}, k::range)
        .fails(set({"update", "expirationPeriod"}, 2147483648LL), {"update", "expirationPeriod"}, k::range, 90)
        .fails(set({"update", "expirationPeriod"}, "30"), {"update", "expirationPeriod"}, k::type)
        .fails(set({"update", "reminderFrequencyPeriod"}, 0), {"update", "reminderFrequencyPeriod"}, k::range, 1)
        .fails(set({"update", "reminderFrequencyPeriod"}, 2147483648LL), {"update", "reminderFrequencyPeriod"},
               k::range, i32max)
        .fails(set({"update", "reminderFrequencyPeriod"}, nullptr), {"update", "reminderFrequencyPeriod"}, k::type)
        .fails(set({"update", "signatureOrder"}, "true"), {"update", "signatureOrder"}, k::type)
        .fails(set({"update", "useUserAsSenderName"}, 0), {"update", "useUserAsSenderName"}, k::type)
        .fails(set({"update", "customInvitationMessage"}, 5), {"update", "customInvitationMessage"}, k::type)
        .fails(set({"update", "customInvitationMessage"}, bj::object{}), {"update", "customInvitationMessage"}, k::type)
        .fails(set({"update", "tags"}, "x"), {"update", "tags"}, k::type)
        .fails(set({"update", "tags", "0"}, false), {"update", "tags", "0"}, k::type)
        // Unknown members: ignored by default, reported in strict mode at their path, nested too.
        .ok(set({"update", "colour"}, "red"))
        .ok(set({"update", "documents", "1", "pageCount"}, 3))
        .fails_strict(set({"update", "colour"}, "red"), {"update", "colour"}, k::unknown_member)
        .fails_strict(set({"update", "documents", "1", "pageCount"}, 3), {"update", "documents", "1", "pageCount"},
                      k::unknown_member)
        .fails_all(all({set({"a"}, 1), set({"update", "b"}, 2), set({"update", "documents", "0", "c"}, 3)}),
                   {at({"a"}, k::unknown_member), at({"update", "b"}, k::unknown_member),
                    at({"update", "documents", "0", "c"}, k::unknown_member)},
                   true)
        // Every problem is reported, not only the first.
        .fails_all(all({set({"update", "title"}, s(rep(256))), set({"update", "expirationPeriod"}, 0),
                        set({"update", "documents", "1", "initialsVerticalMargin"}, 121)}),
                   {at({"update", "title"}, k::too_long, 255), at({"update", "expirationPeriod"}, k::range, 1),
                    at({"update", "documents", "1", "initialsVerticalMargin"}, k::range, 120)})
        .raw(R"({"envelopeUuid":")" + U + R"(","update":{"title":"a","title":"b"}})",
             {at({"update", "title"}, k::duplicate_member)})
        .beyond_schema(schema_gap::duplicate_member)
        .raw(R"({"envelopeUuid":")" + U + R"(","update":{"documents":[{"uuid":")" + U + R"("},{"uuid":")" + U2 +
                 R"(","uuid":")" + U2 + R"("}]}})",
             {at({"update", "documents", "1", "uuid"}, k::duplicate_member)})
        .beyond_schema(schema_gap::duplicate_member);

    section send{"/public/envelope/send",
                 R"({"workspaceUuid":")" + U2 + R"(","envelopeUuid":")" + U + R"(","distributionMethod":"email"})"};
    send.ok()
        .ok(erase({"distributionMethod"}))
        .ok(set({"distributionMethod"}, "none"))
        .ok(set({"useUserAsSenderName"}, true))  // deprecated, accepted and ignored
        .ok(set({"customInvitationMessage"}, nullptr))
        .ok(set({"customInvitationMessage"}, "hello"))
        .fails(erase({"envelopeUuid"}), {"envelopeUuid"}, k::missing)
        .fails(set({"envelopeUuid"}, s(U37)), {"envelopeUuid"}, k::too_long, 36)
        .fails(set({"distributionMethod"}, "sms"), {"distributionMethod"}, k::enum_value)
        .fails(set({"distributionMethod"}, "EMAIL"), {"distributionMethod"}, k::enum_value)
        .fails(set({"distributionMethod"}, 1), {"distributionMethod"}, k::type)
        .fails(set({"distributionMethod"}, nullptr), {"distributionMethod"}, k::type)
        .fails(set({"useUserAsSenderName"}, "x"), {"useUserAsSenderName"}, k::type)
        .fails(set({"customInvitationMessage"}, 1), {"customInvitationMessage"}, k::type)
        .fails_strict(set({"sendAt"}, 1), {"sendAt"}, k::unknown_member);

    const std::string cft_item1 =
        R"({"type":"manual","label":"Signer 1","email":"a@example.com","firstname":"A","lastname":"B"})";
    const std::string cft_item2 =
        R"({"type":"manual","label":"Signer 2","email":"b@example.com","firstname":"C","lastname":"D"})";
    section cft{"/public/envelope/create-from-template", R"({"workspaceUuid":")" + U2 + R"(","templateUuid":")" + U +
                                                             R"(","recipients":[)" + cft_item1 + "," + cft_item2 +
                                                             "]}"};
    cft.ok()
        .ok(erase({"recipients", "1"}))
        .ok(erase({"workspaceUuid"}))
        .ok(set({"recipients", "0", "email"}, s(email_of_length(128))))
        .ok(set({"recipients", "0", "label"}, "L"))
        .ok(set({"recipients", "0", "label"}, s(rep(255))))
        .ok(set({"recipients", "0", "label"}, s(rep(255, "é"))))
        .ok(set({"recipients", "1", "email"}, "A@example.com"))  // e-mails compare case-sensitively
        .ok(set({"recipients", "0", "firstname"}, ""))
        .fails(erase({"templateUuid"}), {"templateUuid"}, k::missing)
        .fails(set({"templateUuid"}, s(U35)), {"templateUuid"}, k::too_short, 36)
        .fails(set({"templateUuid"}, s(U37)), {"templateUuid"}, k::too_long, 36)
        .fails(erase({"recipients"}), {"recipients"}, k::missing)
        .fails(set({"recipients"}, bj::array{}), {"recipients"}, k::size, 1)
        .fails(set({"recipients"}, bj::object{}), {"recipients"}, k::type)
        .fails(set({"recipients", "0"}, "a@example.com"), {"recipients", "0"}, k::type)
        .fails(erase({"recipients", "0", "type"}), {"recipients", "0", "type"}, k::missing)
        .fails(set({"recipients", "0", "type"}, "contact"), {"recipients", "0", "type"}, k::enum_value)
        .fails(set({"recipients", "0", "type"}, true), {"recipients", "0", "type"}, k::type)
        .fails(erase({"recipients", "1", "label"}), {"recipients", "1", "label"}, k::missing)
        .fails(set({"recipients", "0", "label"}, ""), {"recipients", "0", "label"}, k::too_short, 1)
        .fails(set({"recipients", "0", "label"}, s(rep(256))), {"recipients", "0", "label"}, k::too_long, 255)
        .fails(set({"recipients", "0", "label"}, s(rep(256, "é"))), {"recipients", "0", "label"}, k::too_long, 255)
        .fails(set({"recipients", "0", "label"}, 1), {"recipients", "0", "label"}, k::type)
        .fails(erase({"recipients", "0", "email"}), {"recipients", "0", "email"}, k::missing)
        .fails(set({"recipients", "0", "email"}, s(email_of_length(129))), {"recipients", "0", "email"}, k::too_long,
               128)
        .fails(set({"recipients", "1", "email"}, "not-an-email"), {"recipients", "1", "email"}, k::pattern)
        .fails(set({"recipients", "1", "email"}, "a@b"), {"recipients", "1", "email"}, k::pattern)
        .fails(set({"recipients", "1", "email"}, "a.@example.com"), {"recipients", "1", "email"}, k::pattern)
        .fails(set({"recipients", "1", "email"}, nullptr), {"recipients", "1", "email"}, k::type)
        .fails(erase({"recipients", "0", "firstname"}), {"recipients", "0", "firstname"}, k::missing)
        .fails(erase({"recipients", "0", "lastname"}), {"recipients", "0", "lastname"}, k::missing)
        .fails(set({"recipients", "0", "lastname"}, 5), {"recipients", "0", "lastname"}, k::type)
        // The same e-mail under two labels: at the second one's email path.
        .fails(set({"recipients", "1", "email"}, "a@example.com"), {"recipients", "1", "email"}, k::rule)
        .beyond_schema(schema_gap::unique_key)
        .fails_all(
            all({set({"recipients", "1", "email"}, "a@example.com"),
                 set({"recipients", "2"},
                     j(R"({"type":"manual","label":"Signer 3","email":"a@example.com","firstname":"E","lastname":"F"})"))}),
            {at({"recipients", "1", "email"}, k::rule), at({"recipients", "2", "email"}, k::rule)})
        .beyond_schema(schema_gap::unique_key)
        .fails_all(
            all({set({"recipients", "0", "email"}, "b@example.com"),
                 set({"recipients", "2"},
                     j(R"({"type":"manual","label":"Signer 3","email":"c@example.com","firstname":"E","lastname":"F"})"))}),
            {at({"recipients", "1", "email"}, k::rule)})
        .beyond_schema(schema_gap::unique_key)
        .fails_strict(set({"recipients", "0", "phone"}, "+1"), {"recipients", "0", "phone"}, k::unknown_member)
        // The cross-member rule is judged even when an unrelated member has a problem (all problems are reported).
        .fails_all(all({set({"templateUuid"}, s(U35)), set({"recipients", "1", "email"}, "a@example.com")}),
                   {at({"templateUuid"}, k::too_short, 36), at({"recipients", "1", "email"}, k::rule)});

    section att{"/public/envelope/delete-attachment",
                R"({"workspaceUuid":")" + U2 + R"(","envelopeUuid":")" + U + R"(","documentUuid":")" + U2 + R"("})"};
    att.ok()
        .ok(erase({"workspaceUuid"}))
        .fails(erase({"envelopeUuid"}), {"envelopeUuid"}, k::missing)
        .fails(erase({"documentUuid"}), {"documentUuid"}, k::missing)
        .fails(set({"documentUuid"}, s(U35)), {"documentUuid"}, k::too_short, 36)
        .fails(set({"documentUuid"}, s(U37)), {"documentUuid"}, k::too_long, 36)
        .fails(set({"documentUuid"}, false), {"documentUuid"}, k::type)
        .fails(set({"workspaceUuid"}, ""), {"workspaceUuid"}, k::too_short, 36)
        .fails_all(set({}, bj::object{}), {at({"envelopeUuid"}, k::missing), at({"documentUuid"}, k::missing)});
}

inline void recipient_rows() {
    section add{
        "/public/envelope/add-recipients",
        R"({"workspaceUuid":")" + U2 + R"(","envelopeUuid":")" + U +
            R"(","recipients":[{"type":"manual","email":"a@example.com","firstname":"A","lastname":"B","phone":"+33600000000","language":"fr","verificationType":"sms"}]})"};
    add.ok()
        .ok(set({"recipients", "0"}, recipient_item(0)))
        .ok(set({"recipients"}, items(50, recipient_item)))
        .ok(set({"recipients", "0", "email"}, s(email_of_length(128))))
        .ok(set({"recipients", "0", "email"}, "first.last+tag@mail.example.com"))
        .ok(set({"recipients", "0", "email"}, "o'neil_1@example.co"))
        .ok(all({set({"recipients", "0", "verificationType"}, "email"), erase({"recipients", "0", "phone"})}))
        .ok(set({"recipients", "0", "verificationType"}, "none"))
        .ok(set({"recipients", "0", "language"}, "fi"))
        .fails(erase({"envelopeUuid"}), {"envelopeUuid"}, k::missing)
        .fails(set({"envelopeUuid"}, s(U35)), {"envelopeUuid"}, k::too_short, 36)
        .fails(erase({"recipients"}), {"recipients"}, k::missing)
        .fails(set({"recipients"}, bj::array{}), {"recipients"}, k::size, 1)
        .fails(set({"recipients"}, items(51, recipient_item)), {"recipients"}, k::size, 50)
        .fails(set({"recipients"}, bj::object{}), {"recipients"}, k::type)
        .fails(set({"recipients"}, nullptr), {"recipients"}, k::type)
        .fails(set({"recipients", "0"}, "a@example.com"), {"recipients", "0"}, k::type)
        .fails(erase({"recipients", "0", "type"}), {"recipients", "0", "type"}, k::missing)
        .fails(set({"recipients", "0", "type"}, "Manual"), {"recipients", "0", "type"}, k::enum_value)
        .fails(erase({"recipients", "0", "email"}), {"recipients", "0", "email"}, k::missing)
        .fails(set({"recipients", "0", "email"}, s(email_of_length(129))), {"recipients", "0", "email"}, k::too_long,
               128)
        .fails(set({"recipients", "0", "email"}, "plainaddress"), {"recipients", "0", "email"}, k::pattern)
        .fails(set({"recipients", "0", "email"}, "a@example.c"), {"recipients", "0", "email"}, k::pattern)
        .fails(set({"recipients", "0", "email"}, "a..b@example.com"), {"recipients", "0", "email"}, k::pattern)
        .fails(set({"recipients", "0", "email"}, ".a@example.com"), {"recipients", "0", "email"}, k::pattern)
        .fails(set({"recipients", "0", "email"}, "a'@example.com"), {"recipients", "0", "email"}, k::pattern)
        .fails(set({"recipients", "0", "email"}, "a@-example.com"), {"recipients", "0", "email"}, k::pattern)
        .fails(set({"recipients", "0", "email"}, "a@example.com\n"), {"recipients", "0", "email"}, k::pattern)
        .fails(set({"recipients", "0", "email"}, " a@example.com"), {"recipients", "0", "email"}, k::pattern)
        .fails(set({"recipients", "0", "email"}, "a@example.123"), {"recipients", "0", "email"}, k::pattern)
        .fails(set({"recipients", "0", "email"}, "é@example.com"), {"recipients", "0", "email"}, k::pattern)
        .fails(set({"recipients", "0", "email"}, ""), {"recipients", "0", "email"}, k::pattern)
        .fails(set({"recipients", "0", "email"}, 1), {"recipients", "0", "email"}, k::type)
        .fails(erase({"recipients", "0", "firstname"}), {"recipients", "0", "firstname"}, k::missing)
        .fails(set({"recipients", "0", "firstname"}, nullptr), {"recipients", "0", "firstname"}, k::type)
        .fails(erase({"recipients", "0", "lastname"}), {"recipients", "0", "lastname"}, k::missing)
        .fails(set({"recipients", "0", "phone"}, 33600000000LL), {"recipients", "0", "phone"}, k::type)
        .fails(set({"recipients", "0", "language"}, "de"), {"recipients", "0", "language"}, k::enum_value)
        .fails(set({"recipients", "0", "language"}, 1), {"recipients", "0", "language"}, k::type)
        .fails(set({"recipients", "0", "verificationType"}, "phone"), {"recipients", "0", "verificationType"},
               k::enum_value)
        // sms needs a non-empty phone, at the phone path.
        .fails(erase({"recipients", "0", "phone"}), {"recipients", "0", "phone"}, k::rule)
        .fails(set({"recipients", "0", "phone"}, ""), {"recipients", "0", "phone"}, k::rule)
        .fails(set({"recipients", "0", "phone"}, nullptr), {"recipients", "0", "phone"}, k::type)
        .fails(
            all({set({"recipients", "1"}, recipient_item(1)),
                 set({"recipients", "2"},
                     j(R"({"type":"manual","email":"s@example.com","firstname":"S","lastname":"T","verificationType":"sms"})"))}),
            {"recipients", "2", "phone"}, k::rule)
        // The sms rule is judged even when another member of the item has a problem.
        .fails_all(all({erase({"recipients", "0", "phone"}), set({"recipients", "0", "language"}, "de")}),
                   {at({"recipients", "0", "phone"}, k::rule), at({"recipients", "0", "language"}, k::enum_value)})
        // Unknown members, nested in arrays.
        .ok(set({"recipients", "0", "role"}, "approver"))
        .fails_strict(set({"recipients", "0", "role"}, "approver"), {"recipients", "0", "role"}, k::unknown_member)
        // Three independent problems: three problems.
        .fails_all(all({set({"envelopeUuid"}, s(U35)), set({"recipients", "0", "email"}, "bad"),
                        set({"recipients", "0", "language"}, "de")}),
                   {at({"envelopeUuid"}, k::too_short, 36), at({"recipients", "0", "email"}, k::pattern),
                    at({"recipients", "0", "language"}, k::enum_value)})
        .raw(
            R"({"envelopeUuid":")" + U +
                R"(","recipients":[{"type":"manual","email":"a@b.co","email":"c@d.co","firstname":"A","lastname":"B"}]})",
            {at({"recipients", "0", "email"}, k::duplicate_member)})
        .beyond_schema(schema_gap::duplicate_member)
        .raw(
            R"({"envelopeUuid":")" + U +
                R"(","recipients":[{"type":"manual","email":"a@b.co","firstname":"A","lastname":"B"},{"type":"manual","email":"c@d.co","firstname":"A","firstname":"B","lastname":"B"}]})",
            {at({"recipients", "1", "firstname"}, k::duplicate_member)})
        .beyond_schema(schema_gap::duplicate_member);

    section upd{
        "/public/envelope/update-recipient",
        R"({"workspaceUuid":")" + U2 + R"(","envelopeUuid":")" + U +
            R"(","email":"a.b@example.com","role":"signer","updates":{"firstname":"A","lastname":"B","phone":"+1","jobTitle":"J","company":"C","addressLine1":"1","addressLine2":"2","zipCode":"Z","city":"Ci","country":"FR","role":"approver","order":2,"language":"en","verificationType":"email"}})"};
    upd.ok()
        .ok(set({"updates"}, bj::object{}))
        .ok(set({"email"}, s(email_of_length(255))))
        .ok(set({"role"}, "viewer"))
        .ok(set({"updates", "order"}, 3.0))
        .beyond_schema(schema_gap::valijson_integer_fraction)
        .ok(set({"updates", "order"}, i32min))
        .ok(set({"updates", "order"}, -1))
        .ok(set({"updates", "verificationType"}, "sms"))  // judged after the update, by the backend
        .ok(set({"updates", "phone"}, ""))
        .fails(erase({"envelopeUuid"}), {"envelopeUuid"}, k::missing)
        .fails(erase({"email"}), {"email"}, k::missing)
        .fails(set({"email"}, s(email_of_length(256))), {"email"}, k::too_long, 255)
        .fails(set({"email"}, ".a@example.com"), {"email"}, k::pattern)
        .fails(set({"email"}, "a..b@example.com"), {"email"}, k::pattern)
        .fails(set({"email"}, "a.@example.com"), {"email"}, k::pattern)
        .fails(set({"email"}, "a@example"), {"email"}, k::pattern)
        .fails(set({"email"}, 1), {"email"}, k::type)
        .fails(erase({"role"}), {"role"}, k::missing)
        .fails(set({"role"}, "owner"), {"role"}, k::enum_value)
        .fails(set({"role"}, 1), {"role"}, k::type)
        .fails(erase({"updates"}), {"updates"}, k::missing)
        .fails(set({"updates"}, bj::array{}), {"updates"}, k::type)
        .fails(set({"updates", "role"}, "signers"), {"updates", "role"}, k::enum_value)
        .fails(set({"updates", "order"}, 3.5), {"updates", "order"}, k::range)
        .fails(set({"updates", "order"}, 2147483648LL), {"updates", "order"}, k::range, i32max)
        .fails(set({"updates", "order"}, -2147483649LL), {"updates", "order"}, k::range, i32min)
        .fails(set({"updates", "order"}, "2"), {"updates", "order"}, k::type)
        .fails(set({"updates", "firstname"}, nullptr), {"updates", "firstname"}, k::type)
        .fails(set({"updates", "phone"}, nullptr), {"updates", "phone"}, k::type)
        .fails(set({"updates", "country"}, 33), {"updates", "country"}, k::type)
        .fails(set({"updates", "language"}, "EN"), {"updates", "language"}, k::enum_value)
        .fails(set({"updates", "verificationType"}, true), {"updates", "verificationType"}, k::type)
        .fails_strict(set({"updates", "email"}, "x@example.com"), {"updates", "email"}, k::unknown_member);

    section del{"/public/envelope/delete-recipients", R"({"workspaceUuid":")" + U2 + R"(","envelopeUuid":")" + U +
                                                          R"(","recipients":[{"email":"a@example.com"}]})"};
    del.ok()
        .ok(set({"recipients"}, items(50, delete_item)))
        .ok(set({"recipients", "0", "email"}, s(email_of_length(255))))
        .fails(erase({"envelopeUuid"}), {"envelopeUuid"}, k::missing)
        .fails(erase({"recipients"}), {"recipients"}, k::missing)
        .fails(set({"recipients"}, bj::array{}), {"recipients"}, k::size, 1)
        .fails(set({"recipients"}, items(51, delete_item)), {"recipients"}, k::size, 50)
        .fails(set({"recipients"}, "a@example.com"), {"recipients"}, k::type)
        .fails(set({"recipients", "0"}, "a@example.com"), {"recipients", "0"}, k::type)
        .fails(erase({"recipients", "0", "email"}), {"recipients", "0", "email"}, k::missing)
        .fails(set({"recipients", "0", "email"}, s(email_of_length(256))), {"recipients", "0", "email"}, k::too_long,
               255)
        .fails(set({"recipients", "0", "email"}, "a@@example.com"), {"recipients", "0", "email"}, k::pattern)
        .fails(set({"recipients", "0", "email"}, 1), {"recipients", "0", "email"}, k::type)
        .fails(set({"recipients", "1"}, j(R"({"email":"bad"})")), {"recipients", "1", "email"}, k::pattern);
}

inline void block_rows() {
    section add{
        "/public/envelope/add-blocks",
        R"({"workspaceUuid":")" + U2 + R"(","envelopeUuid":")" + U + R"(","documentUuid":")" + U2 +
            R"(","blocks":[{"page":"1","x":10,"y":20.5,"height":30,"width":100,"recipientEmail":"a@example.com","required":true,"placeholder":"p","defaultValue":"x","type":"text","text":"Name","maxLength":20,"templatedText":"fullname"}]})"};
    add.ok()
        .ok(set({"blocks", "0"}, j(R"({"page":"2","x":0,"y":0,"type":"text","text":""})")))
        .ok(set({"blocks", "0", "page"}, "01"))
        .ok(set({"blocks", "0", "page"}, "0"))  // the range is checked once the document is found
        .ok(set({"blocks", "0", "defaultValue"}, 3))
        .ok(set({"blocks", "0", "defaultValue"}, 2.5))
        .ok(set({"blocks", "0", "defaultValue"}, true))
        .ok(set({"blocks", "0", "defaultValue"}, ""))
        .ok(set({"blocks", "0", "maxLength"}, 1))
        .ok(set({"blocks", "0", "maxLength"}, 3.0))
        .beyond_schema(schema_gap::valijson_integer_fraction)
        .ok(set({"blocks", "0", "maxLength"}, i32max))
        .ok(set({"blocks", "0", "x"}, -1.5))
        .ok(set({"blocks", "1"},
                j(R"({"page":"3","x":1,"y":2,"type":"text","text":"t","templatedText":"addressLine2"})")))
        .fails(erase({"envelopeUuid"}), {"envelopeUuid"}, k::missing)
        .fails(erase({"documentUuid"}), {"documentUuid"}, k::missing)
        .fails(set({"documentUuid"}, s(U35)), {"documentUuid"}, k::too_short, 36)
        .fails(erase({"blocks"}), {"blocks"}, k::missing)
        .fails(set({"blocks"}, bj::array{}), {"blocks"}, k::size, 1)
        .fails(set({"blocks"}, bj::object{}), {"blocks"}, k::type)
        .fails(erase({"blocks", "0", "page"}), {"blocks", "0", "page"}, k::missing)
        .fails(set({"blocks", "0", "page"}, "1a"), {"blocks", "0", "page"}, k::pattern)
        .fails(set({"blocks", "0", "page"}, ""), {"blocks", "0", "page"}, k::pattern)
        .fails(set({"blocks", "0", "page"}, "-1"), {"blocks", "0", "page"}, k::pattern)
        .fails(set({"blocks", "0", "page"}, " 1"), {"blocks", "0", "page"}, k::pattern)
        .fails(set({"blocks", "0", "page"}, "1\n"), {"blocks", "0", "page"}, k::pattern)
        .fails(set({"blocks", "0", "page"}, "١"), {"blocks", "0", "page"}, k::pattern)  // a non-ASCII digit
        .fails(set({"blocks", "0", "page"}, 1), {"blocks", "0", "page"}, k::type)
        .fails(erase({"blocks", "0", "x"}), {"blocks", "0", "x"}, k::missing)
        .fails(erase({"blocks", "0", "y"}), {"blocks", "0", "y"}, k::missing)
        .fails(set({"blocks", "0", "x"}, "10"), {"blocks", "0", "x"}, k::type)
        .fails(set({"blocks", "0", "y"}, nullptr), {"blocks", "0", "y"}, k::type)
        .fails(set({"blocks", "0", "height"}, "30"), {"blocks", "0", "height"}, k::type)
        .fails(set({"blocks", "0", "width"}, true), {"blocks", "0", "width"}, k::type)
        .fails(set({"blocks", "0", "recipientEmail"}, "nobody"), {"blocks", "0", "recipientEmail"}, k::pattern)
        .fails(set({"blocks", "0", "required"}, "yes"), {"blocks", "0", "required"}, k::type)
        .fails(set({"blocks", "0", "placeholder"}, 1), {"blocks", "0", "placeholder"}, k::type)
        .fails(set({"blocks", "0", "defaultValue"}, bj::object{}), {"blocks", "0", "defaultValue"}, k::type)
        .fails(set({"blocks", "0", "defaultValue"}, bj::array{}), {"blocks", "0", "defaultValue"}, k::type)
        .fails(set({"blocks", "0", "defaultValue"}, nullptr), {"blocks", "0", "defaultValue"}, k::type)
        .fails(erase({"blocks", "0", "type"}), {"blocks", "0", "type"}, k::missing)
        .fails(set({"blocks", "0", "type"}, "signature"), {"blocks", "0", "type"}, k::enum_value)
        .fails(erase({"blocks", "0", "text"}), {"blocks", "0", "text"}, k::missing)
        .fails(set({"blocks", "0", "text"}, 1), {"blocks", "0", "text"}, k::type)
        .fails(set({"blocks", "0", "maxLength"}, 0), {"blocks", "0", "maxLength"}, k::range, 1)
        .fails(set({"blocks", "0", "maxLength"}, -5), {"blocks", "0", "maxLength"}, k::range, 1)
        .fails(set({"blocks", "0", "maxLength"}, 3.5), {"blocks", "0", "maxLength"}, k::range)
        .fails(set({"blocks", "0", "maxLength"}, 2147483648LL), {"blocks", "0", "maxLength"}, k::range, i32max)
        .fails(set({"blocks", "0", "maxLength"}, "20"), {"blocks", "0", "maxLength"}, k::type)
        .fails(set({"blocks", "0", "templatedText"}, "name"), {"blocks", "0", "templatedText"}, k::enum_value)
        .fails(set({"blocks", "0", "templatedText"}, "jobtitle"), {"blocks", "0", "templatedText"}, k::enum_value)
        .fails_strict(set({"blocks", "0", "label"}, "L"), {"blocks", "0", "label"}, k::unknown_member)
        .fails_all(all({set({"blocks", "0", "page"}, "x"),
                        set({"blocks", "1"}, j(R"({"page":"1","x":1,"y":2,"type":"text"})"))}),
                   {at({"blocks", "0", "page"}, k::pattern), at({"blocks", "1", "text"}, k::missing)});

    section del{"/public/envelope/delete-blocks", R"({"workspaceUuid":")" + U2 + R"(","envelopeUuid":")" + U +
                                                      R"(","documentUuid":")" + U2 + R"(","blockUuids":[")" + U +
                                                      R"(",")" + U2 + R"("]})"};
    del.ok()
        .ok(erase({"blockUuids", "1"}))
        .ok(set({"blockUuids", "0"}, s(rep(36, "é"))))
        .fails(erase({"envelopeUuid"}), {"envelopeUuid"}, k::missing)
        .fails(erase({"documentUuid"}), {"documentUuid"}, k::missing)
        .fails(erase({"blockUuids"}), {"blockUuids"}, k::missing)
        .fails(set({"blockUuids"}, bj::array{}), {"blockUuids"}, k::size, 1)
        .fails(set({"blockUuids"}, s(U)), {"blockUuids"}, k::type)
        .fails(set({"blockUuids", "1"}, s(U35)), {"blockUuids", "1"}, k::too_short, 36)
        .fails(set({"blockUuids", "0"}, s(U37)), {"blockUuids", "0"}, k::too_long, 36)
        .fails(set({"blockUuids", "0"}, 1), {"blockUuids", "0"}, k::type)
        .fails(set({"blockUuids", "0"}, nullptr), {"blockUuids", "0"}, k::type);
}

inline void workspace_rows() {
    section list{"/public/workspace/list", R"({"page":1,"limit":50})"};
    list.ok()
        .ok(set({}, bj::object{}))
        .ok(set({"limit"}, 1))
        .ok(set({"page"}, 100))
        .fails(set({"page"}, 0), {"page"}, k::range, 1)
        .fails(set({"limit"}, 0), {"limit"}, k::range, 1)
        .fails(set({"limit"}, 51), {"limit"}, k::range, 50)
        .fails(set({"limit"}, 3.5), {"limit"}, k::range)
        .fails(set({"limit"}, "50"), {"limit"}, k::type)
        .fails_strict(set({"sandbox"}, true), {"sandbox"}, k::unknown_member);

    section get{"/public/workspace/get", R"({"workspaceUuid":")" + U + R"("})"};
    get.ok()
        .fails(erase({"workspaceUuid"}), {"workspaceUuid"}, k::missing)
        .fails(set({"workspaceUuid"}, s(U35)), {"workspaceUuid"}, k::too_short, 36)
        .fails(set({"workspaceUuid"}, s(U37)), {"workspaceUuid"}, k::too_long, 36)
        .fails(set({"workspaceUuid"}, nullptr), {"workspaceUuid"}, k::type);

    section create{"/public/workspace/create", R"({"name":"Team","colorHex":"#a1b2c3"})"};
    create.ok()
        .ok(erase({"colorHex"}))
        .ok(set({"colorHex"}, "#abc"))
        .ok(set({"colorHex"}, "#ABC"))
        .ok(set({"colorHex"}, "#A1b2C3"))
        .ok(set({"name"}, "x"))
        .ok(set({"name"}, s(rep(100))))
        .ok(set({"name"}, s(rep(100, "é"))))
        .ok(set({"name"}, s(rep(100, "😀"))))
        .fails(erase({"name"}), {"name"}, k::missing)
        .fails(set({"name"}, ""), {"name"}, k::too_short, 1)
        .fails(set({"name"}, s(rep(101))), {"name"}, k::too_long, 100)
        .fails(set({"name"}, s(rep(101, "é"))), {"name"}, k::too_long, 100)
        .fails(set({"name"}, nullptr), {"name"}, k::type)
        .fails(set({"name"}, 1), {"name"}, k::type)
        .fails(set({"colorHex"}, "#12"), {"colorHex"}, k::pattern)
        .fails(set({"colorHex"}, "abc"), {"colorHex"}, k::pattern)
        .fails(set({"colorHex"}, "#abcd"), {"colorHex"}, k::pattern)
        .fails(set({"colorHex"}, "#abcdeg"), {"colorHex"}, k::pattern)
        .fails(set({"colorHex"}, "#a1b2c3d"), {"colorHex"}, k::pattern)
        .fails(set({"colorHex"}, "#abc\n"), {"colorHex"}, k::pattern)
        .fails(set({"colorHex"}, ""), {"colorHex"}, k::pattern)
        .fails(set({"colorHex"}, nullptr), {"colorHex"}, k::type)
        .fails(set({"colorHex"}, 0xabc), {"colorHex"}, k::type)
        .fails_strict(set({"sandbox"}, true), {"sandbox"}, k::unknown_member)
        .fails_all(all({set({"name"}, ""), set({"colorHex"}, "abc")}),
                   {at({"name"}, k::too_short, 1), at({"colorHex"}, k::pattern)});

    section update{"/public/workspace/update", R"({"workspaceUuid":")" + U + R"(","sandbox":true})"};
    update.ok()
        .ok(set({"sandbox"}, false))
        .fails(erase({"workspaceUuid"}), {"workspaceUuid"}, k::missing)
        .fails(set({"workspaceUuid"}, s(U37)), {"workspaceUuid"}, k::too_long, 36)
        .fails(erase({"sandbox"}), {"sandbox"}, k::missing)
        .fails(set({"sandbox"}, "true"), {"sandbox"}, k::type)
        .fails(set({"sandbox"}, 1), {"sandbox"}, k::type)
        .fails(set({"sandbox"}, nullptr), {"sandbox"}, k::type)
        .fails_strict(set({"name"}, "x"), {"name"}, k::unknown_member);
}

inline void contact_rows() {
    section upd{
        "/public/contact/update",
        R"({"workspaceUuid":")" + U +
            R"(","contact":{"email":"a@example.com","firstname":"A","lastname":"B","phone":null,"language":"es","jobTitle":"J","company":"C","addressLine1":"1","addressLine2":"2","zipCode":"Z","city":"Ci","country":"Co"}})"};
    upd.ok()
        .ok(set({"contact", "phone"}, "+33 6"))
        .ok(set({"contact"}, j(R"({"email":"a@example.com","firstname":"A","lastname":"B","phone":null})")))
        .ok(set({"contact", "email"}, s(email_of_length(255))))
        .ok(erase({"workspaceUuid"}))
        .fails(erase({"contact"}), {"contact"}, k::missing)
        .fails(set({"contact"}, "a@example.com"), {"contact"}, k::type)
        .fails(erase({"contact", "email"}), {"contact", "email"}, k::missing)
        .fails(set({"contact", "email"}, s(email_of_length(256))), {"contact", "email"}, k::too_long, 255)
        .fails(set({"contact", "email"}, "a@example"), {"contact", "email"}, k::pattern)
        .fails(set({"contact", "email"}, nullptr), {"contact", "email"}, k::type)
        .fails(erase({"contact", "firstname"}), {"contact", "firstname"}, k::missing)
        .fails(erase({"contact", "lastname"}), {"contact", "lastname"}, k::missing)
        .fails(set({"contact", "firstname"}, nullptr), {"contact", "firstname"}, k::type)
        .fails(erase({"contact", "phone"}), {"contact", "phone"}, k::missing)  // required, may be null
        .fails(set({"contact", "phone"}, 6), {"contact", "phone"}, k::type)
        .fails(set({"contact", "language"}, "de"), {"contact", "language"}, k::enum_value)
        .fails(set({"contact", "language"}, nullptr), {"contact", "language"}, k::type)
        .fails(set({"contact", "jobTitle"}, 1), {"contact", "jobTitle"}, k::type)
        .fails(set({"contact", "city"}, nullptr), {"contact", "city"}, k::type)
        .fails(set({"workspaceUuid"}, s(U35)), {"workspaceUuid"}, k::too_short, 36)
        .fails_strict(set({"contact", "uuid"}, s(U)), {"contact", "uuid"}, k::unknown_member);

    section create{"/public/contact/create",
                   R"({"contacts":[{"email":"a@example.com","firstname":"A","lastname":"B"}]})"};
    create.ok()
        .ok(set({"contacts", "0", "phone"}, nullptr))
        .ok(set({"contacts", "0", "phone"}, "+1"))
        .ok(set({"contacts"}, items(50, contact_item)))
        .ok(set({"contacts", "0", "email"}, s(email_of_length(255))))
        .ok(set({"contacts", "0", "language"}, "it"))
        .fails(erase({"contacts"}), {"contacts"}, k::missing)
        .fails(set({"contacts"}, bj::array{}), {"contacts"}, k::size, 1)
        .fails(set({"contacts"}, items(51, contact_item)), {"contacts"}, k::size, 50)
        .fails(set({"contacts"}, bj::object{}), {"contacts"}, k::type)
        .fails(set({"contacts", "0", "email"}, s(email_of_length(256))), {"contacts", "0", "email"}, k::too_long, 255)
        .fails(set({"contacts", "0", "email"}, "a@.example.com"), {"contacts", "0", "email"}, k::pattern)
        .fails(erase({"contacts", "0", "firstname"}), {"contacts", "0", "firstname"}, k::missing)
        .fails(erase({"contacts", "0", "email"}), {"contacts", "0", "email"}, k::missing)
        .fails(set({"contacts", "0", "phone"}, 5), {"contacts", "0", "phone"}, k::type)
        .fails(set({"contacts", "0", "language"}, "xx"), {"contacts", "0", "language"}, k::enum_value)
        .fails(set({"contacts", "1"}, j(R"({"email":"b@example.com","firstname":"A"})")), {"contacts", "1", "lastname"},
               k::missing);

    section list{"/public/contact/list", R"({"workspaceUuid":")" + U + R"(","page":1,"limit":10})"};
    list.ok()
        .ok(set({}, bj::object{}))
        .ok(set({"limit"}, 50))
        .fails(set({"page"}, 0), {"page"}, k::range, 1)
        .fails(set({"limit"}, 51), {"limit"}, k::range, 50)
        .fails(set({"limit"}, 0), {"limit"}, k::range, 1)
        .fails(set({"page"}, "2"), {"page"}, k::type)
        .fails(set({"workspaceUuid"}, s(U37)), {"workspaceUuid"}, k::too_long, 36);

    section del{"/public/contact/delete", R"({"workspaceUuid":")" + U + R"(","emails":["a@example.com"]})"};
    del.ok()
        .ok(set({"emails"}, items(50, email_item)))
        .ok(set({"emails", "0"}, s(email_of_length(255))))
        .fails(erase({"emails"}), {"emails"}, k::missing)
        .fails(set({"emails"}, bj::array{}), {"emails"}, k::size, 1)
        .fails(set({"emails"}, items(51, email_item)), {"emails"}, k::size, 50)
        .fails(set({"emails"}, "a@example.com"), {"emails"}, k::type)
        .fails(set({"emails", "0"}, s(email_of_length(256))), {"emails", "0"}, k::too_long, 255)
        .fails(set({"emails", "1"}, "bad"), {"emails", "1"}, k::pattern)
        .fails(set({"emails", "0"}, j(R"({"email":"a@example.com"})")), {"emails", "0"}, k::type);
}

inline void other_public_rows() {
    section templates{"/public/template/list", R"({"workspaceUuid":")" + U + R"(","page":2})"};
    templates.ok()
        .ok(set({}, bj::object{}))
        .ok(set({"limit"}, 10))  // no limit member
        .fails_strict(set({"limit"}, 10), {"limit"}, k::unknown_member)
        .fails(set({"page"}, 0), {"page"}, k::range, 1)
        .fails(set({"page"}, 2.5), {"page"}, k::range)
        .fails(set({"workspaceUuid"}, s(U35)), {"workspaceUuid"}, k::too_short, 36);

    section logs{
        "/public/logs/list",
        R"({"category":"envelope","workspaceUuid":")" + U + R"(","envelopeUuid":")" + U2 +
            R"(","eventTypes":["ENVELOPE_CREATED","DOCUMENT_SIGNED"],"page":1,"limit":50,"sortBy":"id","sortOrder":"asc"})"};
    logs.ok()
        .ok(set({}, j(R"({"category":"team"})")))
        .ok(set({}, j(R"({"category":"team","eventTypes":["WEBHOOK_CREATED","CONTACT_DELETED"]})")))
        .ok(set({}, j(R"({"category":"user","eventTypes":["ANYTHING"]})")))
        .ok(set({"category"}, "dataroom"))
        .ok(set({"eventTypes"}, bj::array{}))
        .ok(set({"sortBy"}, "timestamp"))
        .ok(set({"sortOrder"}, "desc"))
        .ok(set(
            {"eventTypes"},
            j(R"(["ENVELOPE_CREATED","ENVELOPE_SENT","ENVELOPE_OPENED","RECIPIENT_VERIFIED","RECIPIENT_APPROVED","DOCUMENT_SIGNED","ENVELOPE_COMPLETED","ENVELOPE_DECLINED","ENVELOPE_CANCELED","ENVELOPE_EXPIRED"])")))
        // Event types by category (the user category takes any string).
        .ok(set({}, j(R"({"category":"team","eventTypes":["WORKSPACE_CREATED"]})")))
        .ok(set({}, j(R"({"category":"user","eventTypes":["ANY_TEXT"]})")))
        .fails(erase({"category"}), {"category"}, k::missing)
        .fails(set({"category"}, "system"), {"category"}, k::enum_value)
        .fails(set({"category"}, nullptr), {"category"}, k::type)
        .fails(set({"eventTypes", "1"}, "TEAM_CREATED"), {"eventTypes", "1"}, k::enum_value)
        .fails(set({"eventTypes", "0"}, "envelope_created"), {"eventTypes", "0"}, k::enum_value)
        .fails(set({"eventTypes", "2"}, "BOGUS"), {"eventTypes", "2"}, k::enum_value)
        .fails(set({}, j(R"({"category":"team","eventTypes":["WORKSPACE_CREATED","ENVELOPE_CREATED"]})")),
               {"eventTypes", "1"}, k::enum_value)
        .fails_all(set({"eventTypes"}, j(R"(["X","ENVELOPE_SENT","Y"])")),
                   {at({"eventTypes", "0"}, k::enum_value), at({"eventTypes", "2"}, k::enum_value)})
        .fails(set({"eventTypes", "0"}, 1), {"eventTypes", "0"}, k::type)
        .fails(set({"eventTypes"}, "ENVELOPE_SENT"), {"eventTypes"}, k::type)
        .fails(set({"sortBy"}, "date"), {"sortBy"}, k::enum_value)
        .fails(set({"sortOrder"}, "up"), {"sortOrder"}, k::enum_value)
        .fails(set({"sortOrder"}, 1), {"sortOrder"}, k::type)
        .fails(set({"page"}, 0), {"page"}, k::range, 1)
        .fails(set({"limit"}, 51), {"limit"}, k::range, 50)
        .fails(set({"workspaceUuid"}, s(U35)), {"workspaceUuid"}, k::too_short, 36)
        .fails(set({"envelopeUuid"}, s(U37)), {"envelopeUuid"}, k::too_long, 36)
        // The category rule is judged even when an unrelated member has a problem (all problems are reported).
        .fails_all(all({set({"limit"}, 51), set({"eventTypes", "0"}, "BOGUS")}),
                   {at({"limit"}, k::range, 50), at({"eventTypes", "0"}, k::enum_value)});

    section iframe{"/public/authentication/create-iframe-token",
                   R"({"workspaceUuid":")" + U2 + R"(","envelopeUuid":")" + U + R"(","signerEmail":"a@example.com"})"};
    iframe.ok()
        .ok(erase({"workspaceUuid"}))
        .ok(set({"signerEmail"}, s(email_of_length(300))))  // no length limit stated
        .fails(erase({"envelopeUuid"}), {"envelopeUuid"}, k::missing)
        .fails(set({"envelopeUuid"}, s(U35)), {"envelopeUuid"}, k::too_short, 36)
        .fails(erase({"signerEmail"}), {"signerEmail"}, k::missing)
        .fails(set({"signerEmail"}, "signer"), {"signerEmail"}, k::pattern)
        .fails(set({"signerEmail"}, "a@example.com "), {"signerEmail"}, k::pattern)
        .fails(set({"signerEmail"}, bj::array{}), {"signerEmail"}, k::type);

    section whoami{"/public/utils/whoami", "{}"};
    whoami.ok()
        .ok_strict()
        .ok(set({"anything"}, j(R"({"nested":[1,2]})")))
        .fails_strict(set({"anything"}, 1), {"anything"}, k::unknown_member)
        .raw(R"({"a":1,"a":2})", {at({"a"}, k::duplicate_member)})
        .beyond_schema(schema_gap::duplicate_member);
}

inline void control_rows() {
    section reset{"/_control/reset", "{}"};
    reset.ok()
        .ok_strict()
        .ok(set({"x"}, 1))
        .fails_strict(set({"x"}, 1), {"x"}, k::unknown_member)
        .fails_all(all({set({"x"}, 1), set({"y"}, 2)}), {at({"x"}, k::unknown_member), at({"y"}, k::unknown_member)},
                   true)
        .raw(R"({"x":{"y":1,"y":2}})", {at({"x", "y"}, k::duplicate_member)})
        .beyond_schema(schema_gap::duplicate_member)
        .raw(R"({"a":[[{"b":1,"b":2}],[{"b":1},{"c":1,"c":[]}]]})",
             {at({"a", "0", "0", "b"}, k::duplicate_member), at({"a", "1", "1", "c"}, k::duplicate_member)})
        .beyond_schema(schema_gap::duplicate_member);

    section team_create{
        "/_control/team/create",
        R"({"name":"T","ownerEmail":"o@example.com","ownerFirstname":"F","ownerLastname":"L","apiCredits":0,"emailQuota":5,"subscription":false,"features":["sms","webhooks"]})"};
    team_create.ok()
        .ok(set({}, bj::object{}))
        .ok(set({"features"}, bj::array{}))
        .ok(set({"features"}, j(R"(["sms","timestamp","webhooks"])")))
        .ok(set({"apiCredits"}, i32max))
        .ok(set({"seed"}, 42))
        .ok(set({"seed"}, -7))
        .ok(set({"startTime"}, 1700000000000LL))  // unix ms: beyond 32 bits
        .fails(set({"seed"}, "42"), {"seed"}, k::type)
        .fails(set({"seed"}, 1.5), {"seed"}, k::range)
        .fails(set({"startTime"}, nullptr), {"startTime"}, k::type)
        .fails(set({"ownerEmail"}, "owner"), {"ownerEmail"}, k::pattern)
        .fails(set({"ownerEmail"}, nullptr), {"ownerEmail"}, k::type)
        .fails(set({"apiCredits"}, -1), {"apiCredits"}, k::range, 0)
        .fails(set({"apiCredits"}, 1.5), {"apiCredits"}, k::range)
        .fails(set({"emailQuota"}, -1), {"emailQuota"}, k::range, 0)
        .fails(set({"emailQuota"}, "5"), {"emailQuota"}, k::type)
        .fails(set({"subscription"}, "no"), {"subscription"}, k::type)
        .fails(set({"features", "1"}, "fax"), {"features", "1"}, k::enum_value)
        .fails(set({"features"}, "sms"), {"features"}, k::type)
        .fails(set({"name"}, 1), {"name"}, k::type)
        .fails(set({"ownerFirstname"}, nullptr), {"ownerFirstname"}, k::type);

    section team_update{
        "/_control/team/update",
        R"({"teamUuid":")" + U + R"(","apiCredits":1,"emailQuota":0,"subscription":true,"features":[]})"};
    team_update.ok()
        .ok(set({}, j(R"({"teamUuid":")" + U + R"("})")))
        .ok(erase({"teamUuid"}))  // with a team's key: that team (the operator needs it: a rule of the backend)
        .fails(set({"teamUuid"}, s(U35)), {"teamUuid"}, k::too_short, 36)
        .fails(set({"emailQuota"}, -1), {"emailQuota"}, k::range, 0)
        .fails(set({"features"}, j(R"(["timestamp","SMS"])")), {"features", "1"}, k::enum_value)
        .fails(set({"subscription"}, 0), {"subscription"}, k::type);

    section team_reset{"/_control/team/reset", "{}"};
    team_reset.ok().ok_strict().ok(set({"x"}, 1)).fails_strict(set({"x"}, 1), {"x"}, k::unknown_member);

    section env_create{
        "/_control/envelope/create",
        R"({"workspaceUuid":")" + U +
            R"(","title":"E","documents":[{"title":"D","pageCount":3}],"attachments":[{"title":"A"}],"tags":["t"]})"};
    env_create.ok()
        .ok(set({}, j(R"({"title":"","documents":[{"title":"D","pageCount":1}]})")))
        .ok(set({"title"}, s(rep(255, "é"))))
        .ok(set({"attachments"}, bj::array{}))
        .fails(erase({"title"}), {"title"}, k::missing)
        .fails(set({"title"}, s(rep(256, "é"))), {"title"}, k::too_long, 255)
        .fails(set({"title"}, nullptr), {"title"}, k::type)
        .fails(erase({"documents"}), {"documents"}, k::missing)
        .fails(set({"documents"}, bj::array{}), {"documents"}, k::size, 1)
        .fails(erase({"documents", "0", "pageCount"}), {"documents", "0", "pageCount"}, k::missing)
        .fails(set({"documents", "0", "pageCount"}, 0), {"documents", "0", "pageCount"}, k::range, 1)
        .fails(set({"documents", "0", "pageCount"}, 2.5), {"documents", "0", "pageCount"}, k::range)
        .fails(set({"documents", "0", "title"}, s(rep(256))), {"documents", "0", "title"}, k::too_long, 255)
        .fails(erase({"documents", "0", "title"}), {"documents", "0", "title"}, k::missing)
        .fails(erase({"attachments", "0", "title"}), {"attachments", "0", "title"}, k::missing)
        .fails(set({"attachments", "0", "title"}, s(rep(256))), {"attachments", "0", "title"}, k::too_long, 255)
        .fails(set({"tags", "0"}, 1), {"tags", "0"}, k::type)
        .fails(set({"workspaceUuid"}, s(U37)), {"workspaceUuid"}, k::too_long, 36);

    section tpl_create{
        "/_control/template/create",
        R"({"workspaceUuid":")" + U +
            R"(","title":"T","recipientLabels":["Signer 1","Signer 2"],"documents":[{"title":"D","pageCount":1}]})"};
    tpl_create.ok()
        .ok(set({"documents"}, bj::array{}))
        .ok(set({"recipientLabels"}, j(R"(["only"])")))
        .ok(set({"recipientLabels", "0"}, s(rep(255, "é"))))
        .ok(set({"recipientLabels", "1"}, "signer 1"))  // labels compare exactly
        .fails(erase({"title"}), {"title"}, k::missing)
        .fails(set({"title"}, s(rep(256))), {"title"}, k::too_long, 255)
        .fails(erase({"recipientLabels"}), {"recipientLabels"}, k::missing)
        .fails(set({"recipientLabels"}, bj::array{}), {"recipientLabels"}, k::size, 1)
        .fails(set({"recipientLabels", "0"}, ""), {"recipientLabels", "0"}, k::too_short, 1)
        .fails(set({"recipientLabels", "1"}, s(rep(256))), {"recipientLabels", "1"}, k::too_long, 255)
        .fails(set({"recipientLabels", "1"}, 2), {"recipientLabels", "1"}, k::type)
        .fails(set({"recipientLabels", "1"}, "Signer 1"), {"recipientLabels", "1"}, k::rule)
        .fails_all(set({"recipientLabels"}, j(R"(["A","B","A","B","A"])")),
                   {at({"recipientLabels", "2"}, k::rule), at({"recipientLabels", "3"}, k::rule),
                    at({"recipientLabels", "4"}, k::rule)})
        .fails(erase({"documents"}), {"documents"}, k::missing)
        .fails(set({"documents", "0", "pageCount"}, 0), {"documents", "0", "pageCount"}, k::range, 1)
        // The distinct-labels rule is judged even when an unrelated member has a problem.
        .fails_all(all({set({"title"}, s(rep(256))), set({"recipientLabels", "1"}, "Signer 1")}),
                   {at({"title"}, k::too_long, 255), at({"recipientLabels", "1"}, k::rule)})
        .fails_all(all({set({"x"}, 1), set({"recipientLabels", "1"}, "Signer 1")}),
                   {at({"x"}, k::unknown_member), at({"recipientLabels", "1"}, k::rule)}, true);

    section act{"/_control/recipient/act",
                R"({"envelopeUuid":")" + U + R"(","email":"a@example.com","action":"sign","reason":"r"})"};
    act.ok()
        .ok(erase({"reason"}))
        .ok(set({"action"}, "open"))
        .ok(set({"action"}, "approve"))
        .ok(set({"action"}, "decline"))
        .ok(set({"email"}, "anything"))  // compared exactly; unknown: RECIPIENT_NOT_FOUND
        .ok(set({"teamUuid"}, s(U)))     // §6.9: which team, for the operator
        .fails(set({"teamUuid"}, s(U35)), {"teamUuid"}, k::too_short, 36)
        .fails(set({"teamUuid"}, nullptr), {"teamUuid"}, k::type)
        .fails(erase({"envelopeUuid"}), {"envelopeUuid"}, k::missing)
        .fails(set({"envelopeUuid"}, s(U37)), {"envelopeUuid"}, k::too_long, 36)
        .fails(erase({"email"}), {"email"}, k::missing)
        .fails(set({"email"}, 1), {"email"}, k::type)
        .fails(erase({"action"}), {"action"}, k::missing)
        .fails(set({"action"}, "reject"), {"action"}, k::enum_value)
        .fails(set({"action"}, "Sign"), {"action"}, k::enum_value)
        .fails(set({"reason"}, nullptr), {"reason"}, k::type);

    // contract.md §7.1: the signing page's operations
    const std::string secret = "sit." + rep(43, "A");
    section start{"/embeds/session/start", R"({"token":")" + secret + R"("})"};
    start.ok()
        .ok(set({"token"}, "slt.x"))  // any text: one of no team is SIGNING_TOKEN_UNKNOWN
        .fails(erase({"token"}), {"token"}, k::missing)
        .fails(set({"token"}, ""), {"token"}, k::too_short, 1)
        .fails(set({"token"}, s(rep(257))), {"token"}, k::too_long, 256)
        .fails(set({"token"}, 1), {"token"}, k::type)
        .fails_strict(set({"x"}, 1), {"x"}, k::unknown_member);
    section page{"/embeds/envelope/get", R"({"session":")" + secret + R"("})"};
    page.ok()
        .fails(erase({"session"}), {"session"}, k::missing)
        .fails(set({"session"}, ""), {"session"}, k::too_short, 1)
        .fails(set({"session"}, nullptr), {"session"}, k::type);
    section signs{"/embeds/recipient/act",
                  R"({"session":")" + secret + R"(","action":"sign","signatureName":"Ada Lovelace"})"};
    signs.ok()
        .ok(set({"action"}, "open"))
        .ok(set({}, j(R"({"session":"s","action":"decline","reason":"Too dear"})")))
        .ok(set({"signatureName"}, s(rep(256))))
        .fails(erase({"signatureName"}), {"signatureName"}, k::rule)
        .fails(set({"signatureName"}, ""), {"signatureName"}, k::too_short, 1)
        .fails(set({"signatureName"}, s(rep(257))), {"signatureName"}, k::too_long, 256)
        .fails(set({"reason"}, s(rep(4097))), {"reason"}, k::too_long, 4096)
        .fails(set({"action"}, "view"), {"action"}, k::enum_value)
        .fails(erase({"session"}), {"session"}, k::missing);

    section cancel{"/_control/envelope/cancel", R"({"envelopeUuid":")" + U + R"(","reason":"r"})"};
    cancel.ok()
        .ok(erase({"reason"}))
        .ok(set({"teamUuid"}, s(U)))
        .fails(set({"teamUuid"}, s(U37)), {"teamUuid"}, k::too_long, 36)
        .fails(erase({"envelopeUuid"}), {"envelopeUuid"}, k::missing)
        .fails(set({"envelopeUuid"}, s(U35)), {"envelopeUuid"}, k::too_short, 36)
        .fails(set({"reason"}, 1), {"reason"}, k::type);

    section advance{"/_control/clock/advance", R"({"milliseconds":86400000})"};
    advance.ok()
        .ok(set({"milliseconds"}, 0))
        .ok(set({"milliseconds"}, 3.0))
        .beyond_schema(schema_gap::valijson_integer_fraction)
        .ok(set({"milliseconds"}, 7776000000LL))  // 90 days: beyond 32 bits
        .fails(erase({"milliseconds"}), {"milliseconds"}, k::missing)
        .fails(set({"milliseconds"}, 3.5), {"milliseconds"}, k::range)
        .fails(set({"milliseconds"}, "1000"), {"milliseconds"}, k::type)
        .fails(set({"milliseconds"}, nullptr), {"milliseconds"}, k::type)
        .fails_strict(set({"seconds"}, 1), {"seconds"}, k::unknown_member);

    section now{"/_control/clock/now", "{}"};
    now.ok().ok_strict().ok(set({"x"}, true)).fails_strict(set({"x"}, true), {"x"}, k::unknown_member);

    section outbox{"/_control/outbox/list", "{}"};
    outbox.ok()
        .ok_strict()
        .ok(set({"to"}, "a@example.com"))
        .fails_strict(set({"to"}, "a@example.com"), {"to"}, k::unknown_member);

    section deliveries{"/_control/webhook/deliveries", R"({"webhookUuid":")" + U + R"("})"};
    deliveries.ok()
        .ok(set({}, bj::object{}))
        .fails(set({"webhookUuid"}, s(U35)), {"webhookUuid"}, k::too_short, 36)
        .fails(set({"webhookUuid"}, s(U37)), {"webhookUuid"}, k::too_long, 36)
        .fails(set({"webhookUuid"}, nullptr), {"webhookUuid"}, k::type)
        .fails_strict(set({"uuid"}, s(U)), {"uuid"}, k::unknown_member);

    // contract.md §6.4, §6.5
    section journal_list{"/_control/journal/list",
                         R"({"path":"/public/envelope/send","status":400,"since":3,"limit":10})"};
    journal_list.ok()
        .ok(set({}, bj::object{}))
        .ok(set({"status"}, 0))  // what a dropped connection records
        .fails(set({"limit"}, 0), {"limit"}, k::range, 1)
        .fails(set({"limit"}, 1001), {"limit"}, k::range, 1000)
        .fails(set({"status"}, 600), {"status"}, k::range, 599)
        .fails(set({"since"}, -1), {"since"}, k::range, 0)
        .fails(set({"path"}, 1), {"path"}, k::type)
        .fails_strict(set({"x"}, 1), {"x"}, k::unknown_member);

    for (const char* path :
         {"/_control/journal/clear", "/_control/faults/list", "/_control/faults/clear", "/_control/team/snapshot"}) {
        section empty{path, "{}"};
        empty.ok().ok_strict().ok(set({"x"}, 1)).fails_strict(set({"x"}, 1), {"x"}, k::unknown_member);
    }

    section faults_add{
        "/_control/faults/add",
        R"({"operation":"/public/envelope/send","action":"error","error":"SES_LIMIT_EXCEEDED","times":2,"probability":0.5})"};
    faults_add.ok()
        .ok(set({}, j(R"({"webhookUuid":")" + U + R"(","action":"timeout","times":1000})")))
        .ok(set({}, j(R"({"operation":"/public/utils/whoami","action":"delay","delayMs":30000,"probability":0})")))
        .ok(set({}, j(R"({"operation":"/public/utils/whoami","action":"drop"})")))
        .fails(erase({"action"}), {"action"}, k::missing)
        .fails(set({"action"}, "explode"), {"action"}, k::enum_value)
        .fails(set({"action"}, "fail"), {"action"}, k::enum_value)  // a webhook's action, for an operation
        .fails(erase({"operation"}), {"operation"}, k::rule)        // neither operation nor webhookUuid
        .fails(set({"webhookUuid"}, s(U)), {"operation"}, k::rule)  // both
        .fails(set({"webhookUuid"}, s(U35)), {"webhookUuid"}, k::too_short, 36)
        .fails(erase({"error"}), {"error"}, k::missing)
        .fails(set({"error"}, "NOPE"), {"error"}, k::enum_value)
        .fails(set({"delayMs"}, 10), {"delayMs"}, k::rule)
        .fails(set({}, j(R"({"operation":"/public/utils/whoami","action":"delay","delayMs":30001})")), {"delayMs"},
               k::range, 30000)
        .fails(set({}, j(R"({"operation":"/public/utils/whoami","action":"delay"})")), {"delayMs"}, k::missing)
        .fails(set({"times"}, 0), {"times"}, k::range, 1)
        .fails(set({"times"}, 1001), {"times"}, k::range, 1000)
        .fails(set({"probability"}, 1.5), {"probability"}, k::range)
        .fails(set({"probability"}, -0.1), {"probability"}, k::range)
        .fails(set({"probability"}, "half"), {"probability"}, k::type)
        .fails_strict(set({"x"}, 1), {"x"}, k::unknown_member);

    // contract.md §6.6 (the team object itself is read by the backend)
    section restore{"/_control/team/restore", R"({"team":{"apiKey":"esk_x","state":{}}})"};
    restore.ok()
        .fails(erase({"team"}), {"team"}, k::missing)
        .fails(set({"team"}, 1), {"team"}, k::type)
        .fails_strict(set({"x"}, 1), {"x"}, k::unknown_member);
}

inline std::vector<row>& table() {
    static std::vector<row> rows;
    static bool building = false;
    if (rows.empty() && !building) {
        building = true;
        webhook_rows();
        envelope_rows();
        recipient_rows();
        block_rows();
        workspace_rows();
        contact_rows();
        other_public_rows();
        control_rows();
        building = false;
    }
    return rows;
}

}  // namespace request_examples
