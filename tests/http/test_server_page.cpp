// SPDX-License-Identifier: BSL-1.0
// Black-box tests of how esign-reference-server serves the signing page (contract.md §7.1;
// static_assets.hpp): the page and its script and style as compiled in, their headers (CSP,
// strong ETag, no-cache, nosniff), 304 on If-None-Match, HEAD, the other methods and paths.
// What the page does in a browser is tests/browser/run.mjs.
#include "../source_text.hpp"
#include "test_support.hpp"

#include <cctype>
#include <string>
#include <string_view>
#include <vector>

namespace test_server_page {

using namespace esign::test;

namespace {

// The policy of contract.md §7.1, written here rather than taken from the server: scripts, styles,
// fetches and images from the server's own origin only, framed by any page.
constexpr std::string_view csp =
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors *";

struct asset {
    std::string path;
    std::string file;  // its source, under examples/reference_server/embeds/
    std::string content_type;
};

const std::vector<asset> assets = {
    {"/embeds/sign", "sign.html", "text/html; charset=utf-8"},
    {"/embeds/sign.js", "sign.js", "text/javascript; charset=utf-8"},
    {"/embeds/sign.css", "sign.css", "text/css; charset=utf-8"},
};

std::string embeds_source(const std::string& file) { return source_text("examples/reference_server/embeds/" + file); }

// A strong entity tag: a quoted string, not W/"...".
bool is_strong_etag(std::string_view tag) {
    if (tag.size() < 3 || tag.front() != '"' || tag.back() != '"') return false;
    for (char c : tag.substr(1, tag.size() - 2))
        if (c == '"' || std::isspace(static_cast<unsigned char>(c))) return false;
    return true;
}

void check_asset_headers(const http_response& r, const asset& a) {
    INFO(a.path << " -> " << r.status);
    CHECK(r.header("Content-Type").value_or("") == a.content_type);
    CHECK(r.header_count("Content-Type") == 1);
    CHECK(r.header("Content-Security-Policy").value_or("") == csp);
    CHECK(r.header("X-Content-Type-Options").value_or("") == "nosniff");
    CHECK(r.header("Cache-Control").value_or("") == "no-cache");
    CHECK(is_strong_etag(r.header("ETag").value_or("")));
    CHECK(is_lowercase_uuid(r.header("X-Request-Id").value_or("")));
    CHECK_FALSE(r.header("X-Frame-Options"));  // it is meant to be framed
}

}  // namespace

TEST_CASE("page: GET serves the signing page, its script and its style as in the source tree", "[http][page]") {
    test_server srv;
    auto c = srv.connect();
    std::size_t weight = 0;
    for (const auto& a : assets) {
        INFO(a.path);
        const auto r = c.get(a.path);  // no key: the page and /embeds/ never need one
        REQUIRE(r.status == 200);
        check_asset_headers(r, a);
        CHECK(r.body == embeds_source(a.file));  // compiled in, byte for byte
        weight += r.body.size();
        // A query or a key changes nothing.
        CHECK(c.get(a.path + "?t=x").body == r.body);
        CHECK(c.get(a.path, bearer("not-a-key")).status == 200);
    }
    CHECK(weight <= 50 * 1024);  // issue 36: the page weighs at most 50 KB
    // Each file has its own tag.
    CHECK(c.get("/embeds/sign").header("ETag") != c.get("/embeds/sign.js").header("ETag"));
}

TEST_CASE("page: the page loads only its own script and style, and never parses data as HTML", "[http][page]") {
    const auto html = embeds_source("sign.html");
    CHECK(html.find(R"(<script src="sign.js" defer></script>)") != std::string::npos);
    CHECK(html.find(R"(<link rel="stylesheet" href="sign.css">)") != std::string::npos);
    for (const auto& a : assets) {
        const auto text = embeds_source(a.file);
        INFO(a.file);
        CHECK(text.find("http://") == std::string::npos);  // nothing from another host
        CHECK(text.find("https://") == std::string::npos);
        CHECK(text.find("style=") == std::string::npos);  // no inline style (CSP style-src 'self')
    }
    CHECK(html.find("<script>") == std::string::npos);  // no inline script (CSP script-src 'self')
    const auto js = embeds_source("sign.js");
    for (std::string_view sink : {"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("}) {
        INFO(sink);
        CHECK(js.find(sink) == std::string_view::npos);
    }
}

TEST_CASE("page: If-None-Match with the current tag answers 304 without a body", "[http][page]") {
    test_server srv;
    auto c = srv.connect();
    for (const auto& a : assets) {
        INFO(a.path);
        const auto first = c.get(a.path);
        const auto tag = first.header("ETag").value_or("");
        REQUIRE(!tag.empty());
        for (const std::string& if_none_match :
             {tag, "W/" + tag, "\"other\", " + tag, "\"other\" ,W/" + tag + " ", std::string("*")}) {
            INFO("If-None-Match: " << if_none_match);
            const auto again = c.get(a.path, {{"If-None-Match", if_none_match}});
            CHECK(again.status == 304);
            CHECK(again.body.empty());
            CHECK_FALSE(again.header("Content-Length"));  // RFC 9110 §8.6: not the 200's length
            CHECK(again.header("ETag") == first.header("ETag"));
            CHECK(again.header("Cache-Control").value_or("") == "no-cache");
            CHECK(again.keep_alive);
        }
        for (const std::string& stale :
             {std::string("\"other\""), tag.substr(0, tag.size() - 2) + "\"", std::string()}) {
            INFO("If-None-Match: " << stale);
            const auto changed = c.get(a.path, {{"If-None-Match", stale}});
            CHECK(changed.status == 200);
            CHECK(changed.body == first.body);
        }
    }
    // The connection is still in step after the answers without a body.
    CHECK(c.post("/_control/clock/now", "{}").status == 200);
}

TEST_CASE("page: HEAD answers the header of GET without the body", "[http][page]") {
    test_server srv;
    auto c = srv.connect();
    for (const auto& a : assets) {
        INFO(a.path);
        const auto get = c.get(a.path);
        const auto head = c.request(http::verb::head, a.path);
        REQUIRE(head.status == 200);
        check_asset_headers(head, a);
        CHECK(head.body.empty());
        CHECK(head.header("Content-Length").value_or("") == std::to_string(get.body.size()));
        CHECK(head.header("ETag") == get.header("ETag"));
        CHECK(c.request(http::verb::head, a.path, {}, {{"If-None-Match", get.header("ETag").value_or("")}}).status ==
              304);
    }
    CHECK(c.post("/_control/clock/now", "{}").status == 200);
}

TEST_CASE("page: other methods are 405 with Allow GET and HEAD, other paths under /embeds/ are 404", "[http][page]") {
    test_server srv;
    auto c = srv.connect();
    for (const auto& a : assets) {
        for (auto verb : {http::verb::post, http::verb::put, http::verb::delete_, http::verb::patch}) {
            INFO(a.path << " " << http::to_string(verb));
            const auto r = c.request(verb, a.path, "{}");
            check_error(r, 405, "INVALID_REQUEST_FORMAT", a.path, details::none);
            CHECK(r.header("Allow").value_or("") == "GET, HEAD");
            CHECK_FALSE(r.header("Content-Security-Policy"));  // a JSON error, not the page
        }
    }
    for (std::string path : {"/embeds/", "/embeds", "/embeds/sign/", "/embeds/sign.html", "/embeds/sign.js.map",
                             "/embeds/SIGN", "/embeds/other"}) {
        INFO(path);
        const auto r = c.get(path);
        check_error(r, 404, "INVALID_REQUEST_FORMAT", path, details::none);
        CHECK_FALSE(r.header("ETag"));
    }
}

}  // namespace test_server_page
