// SPDX-License-Identifier: BSL-1.0
// Black-box tests of how esign-reference-server serves its pages
// (static_assets.hpp): the signing page (contract.md §7.1, /embeds/sign) and
// the inspector (§7.2, /_inspector). Each page's files as compiled in, their
// headers (CSP, strong ETag, no-cache, nosniff), 304 on If-None-Match, HEAD,
// the other methods and paths; the inspector's absence with --no-control. The
// same rules for both pages, checked by one set of cases over the table
// `pages`. What the pages do in a browser is tests/browser/run.mjs and
// tests/browser/inspector.mjs.
#include "../source_text.hpp"
#include "test_support.hpp"

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

namespace test_server_pages {

using namespace esign::test;

namespace {

struct asset {
    std::string path;
    std::string file;  // its sources, under the page's folder, joined by '+' when served as one
    std::string content_type;
};

struct page {
    std::string name;
    std::string folder;  // under examples/reference_server/
    std::vector<asset> assets;
    // The policies written here rather than taken from the server: scripts,
    // styles, fetches and images from the server's own origin only; the signing
    // page framed by any page (§7.1), the inspector by none (it holds a key:
    // another site must not frame it under the user's clicks).
    std::string_view csp;
    bool framed;
    bool control_plane;                      // absent with --no-control (§7.2)
    std::size_t weight_limit;                // bytes, every file together
    std::vector<std::string> unknown_paths;  // near misses: 404
    std::string_view script_tag, style_tag;  // how the HTML loads its own files
    std::vector<std::string_view> js_sinks;  // never in its script

    std::string source(std::string_view files) const {
        std::string text;
        for (std::size_t from = 0; from <= files.size();) {
            const auto plus = std::min(files.find('+', from), files.size());
            text +=
                source_text("examples/reference_server/" + folder + "/" + std::string(files.substr(from, plus - from)));
            from = plus + 1;
        }
        return text;
    }
};

constexpr std::string_view own_origin_only =
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src "
    "'self'; img-src 'self'; "
    "base-uri 'none'; form-action 'none'; ";
const std::string signing_csp = std::string(own_origin_only) + "frame-ancestors *";
const std::string inspector_csp = std::string(own_origin_only) + "frame-ancestors 'none'";

const std::vector<page> pages = {
    {"signing page",
     "embeds",
     {{"/embeds/sign", "sign.html", "text/html; charset=utf-8"},
      {"/embeds/sign.js", "sign.js", "text/javascript; charset=utf-8"},
      {"/embeds/sign.css", "../pages.css+sign.css", "text/css; charset=utf-8"}},
     signing_csp,
     true,
     false,
     50 * 1024,  // issue 36
     {"/embeds/", "/embeds", "/embeds/sign/", "/embeds/sign.html", "/embeds/sign.js.map", "/embeds/SIGN",
      "/embeds/other"},
     R"(<script src="sign.js" defer></script>)",
     R"(<link rel="stylesheet" href="sign.css">)",
     {"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("}},
    {"inspector",
     "inspector",
     {{"/_inspector", "inspector.html", "text/html; charset=utf-8"},
      {"/_inspector.js", "inspector.js", "text/javascript; charset=utf-8"},
      {"/_inspector.css", "../pages.css+inspector.css", "text/css; charset=utf-8"}},
     inspector_csp,
     false,
     true,
     60 * 1024,  // issue 37: the signing page's rules, about 60 KB at most
     {"/_inspector/", "/_inspector.html", "/_inspector.js.map", "/_INSPECTOR", "/_inspectors"},
     R"(<script src="_inspector.js" defer></script>)",
     R"(<link rel="stylesheet" href="_inspector.css">)",
     // and the key stays in the tab: never in local storage, the address or the
     // history
     {"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "localStorage", "history.pushState",
      "history.replaceState", "location.hash ="}},
};

// A strong entity tag: a quoted string, not W/"...".
bool is_strong_etag(std::string_view tag) {
    if (tag.size() < 3 || tag.front() != '"' || tag.back() != '"') return false;
    for (char c : tag.substr(1, tag.size() - 2))
        if (c == '"' || std::isspace(static_cast<unsigned char>(c))) return false;
    return true;
}

// `text` without any occurrence of `name`.
std::string without(std::string text, std::string_view name) {
    for (auto at = text.find(name); at != std::string::npos; at = text.find(name, at)) text.erase(at, name.size());
    return text;
}

void check_asset_headers(const http_response& r, const page& p, const asset& a) {
    INFO(a.path << " -> " << r.status);
    CHECK(r.header("Content-Type").value_or("") == a.content_type);
    CHECK(r.header_count("Content-Type") == 1);
    CHECK(r.header("Content-Security-Policy").value_or("") == p.csp);
    CHECK(r.header("X-Content-Type-Options").value_or("") == "nosniff");
    CHECK(r.header("Referrer-Policy").value_or("") == "no-referrer");
    CHECK(r.header("Cache-Control").value_or("") == "no-cache");
    CHECK(is_strong_etag(r.header("ETag").value_or("")));
    CHECK(is_lowercase_uuid(r.header("X-Request-Id").value_or("")));
    if (p.framed) CHECK_FALSE(r.header("X-Frame-Options"));  // the CSP says who may frame it
}

}  // namespace

TEST_CASE(
    "pages: GET serves each page, its script and its style as in the "
    "source tree",
    "[http][page]") {
    test_server srv;
    auto c = srv.connect();
    for (const auto& p : pages) {
        INFO(p.name);
        std::size_t weight = 0;
        for (const auto& a : p.assets) {
            INFO(a.path);
            const auto r = c.get(a.path);  // no key: a page itself holds no data
            REQUIRE(r.status == 200);
            check_asset_headers(r, p, a);
            CHECK(r.body == p.source(a.file));  // compiled in, byte for byte
            weight += r.body.size();
            // A query or a key changes nothing.
            CHECK(c.get(a.path + "?t=x").body == r.body);
            CHECK(c.get(a.path, bearer("not-a-key")).status == 200);
        }
        CHECK(weight <= p.weight_limit);
        // Each file has its own tag.
        CHECK(c.get(p.assets[0].path).header("ETag") != c.get(p.assets[1].path).header("ETag"));
    }
}

TEST_CASE(
    "pages: each page loads only its own script and style, and never "
    "parses data as HTML",
    "[http][page]") {
    for (const auto& p : pages) {
        INFO(p.name);
        const auto html = p.source(p.assets[0].file);
        CHECK(html.find(p.script_tag) != std::string::npos);
        CHECK(html.find(p.style_tag) != std::string::npos);
        CHECK(html.find("<script>") == std::string::npos);  // no inline script (CSP script-src 'self')
        for (const auto& a : p.assets) {
            const auto text = p.source(a.file);
            INFO(a.file);
            REQUIRE(!text.empty());
            // Nothing from another host (SVG's namespace name is a name, never fetched).
            CHECK(without(text, "http://www.w3.org/2000/svg").find("http://") == std::string::npos);
            CHECK(text.find("https://") == std::string::npos);
            CHECK(text.find("style=") == std::string::npos);  // no inline style (CSP style-src 'self')
        }
        const auto js = p.source(p.assets[1].file);
        for (std::string_view sink : p.js_sinks) {
            INFO(sink);
            CHECK(js.find(sink) == std::string_view::npos);
        }
    }
}

TEST_CASE("pages: If-None-Match with the current tag answers 304 without a body", "[http][page]") {
    test_server srv;
    auto c = srv.connect();
    for (const auto& p : pages)
        for (const auto& a : p.assets) {
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
                CHECK(again.header("Content-Security-Policy").value_or("") == p.csp);
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

TEST_CASE("pages: HEAD answers the header of GET without the body", "[http][page]") {
    test_server srv;
    auto c = srv.connect();
    for (const auto& p : pages)
        for (const auto& a : p.assets) {
            INFO(a.path);
            const auto get = c.get(a.path);
            const auto head = c.request(http::verb::head, a.path);
            REQUIRE(head.status == 200);
            check_asset_headers(head, p, a);
            CHECK(head.body.empty());
            CHECK(head.header("Content-Length").value_or("") == std::to_string(get.body.size()));
            CHECK(head.header("ETag") == get.header("ETag"));
            CHECK(
                c.request(http::verb::head, a.path, {}, {{"If-None-Match", get.header("ETag").value_or("")}}).status ==
                304);
        }
    CHECK(c.post("/_control/clock/now", "{}").status == 200);
}

TEST_CASE(
    "pages: other methods are 405 with Allow GET and HEAD, near-miss "
    "paths are 404",
    "[http][page]") {
    test_server srv;
    auto c = srv.connect();
    for (const auto& p : pages) {
        for (const auto& a : p.assets)
            for (auto verb : {http::verb::post, http::verb::put, http::verb::delete_, http::verb::patch}) {
                INFO(a.path << " " << http::to_string(verb));
                const auto r = c.request(verb, a.path, "{}");
                check_error(r, 405, "INVALID_REQUEST_FORMAT", a.path, details::none);
                CHECK(r.header("Allow").value_or("") == "GET, HEAD");
                CHECK_FALSE(r.header("Content-Security-Policy"));  // a JSON error, not the page
            }
        for (const auto& path : p.unknown_paths) {
            INFO(path);
            const auto r = c.get(path);
            check_error(r, 404, "INVALID_REQUEST_FORMAT", path, details::none);
            CHECK_FALSE(r.header("ETag"));
        }
    }
}

TEST_CASE(
    "pages: with --no-control the inspector and its files do not exist, "
    "the signing page does",
    "[http][page]") {
    test_server srv({"--no-control"});
    auto c = srv.connect();
    for (const auto& p : pages)
        for (const auto& a : p.assets) {
            INFO(a.path);
            const auto r = c.get(a.path);
            if (!p.control_plane) {
                CHECK(r.status == 200);
                continue;
            }
            check_error(r, 404, "INVALID_REQUEST_FORMAT", a.path, details::none);
            CHECK_FALSE(r.header("Content-Security-Policy"));
            CHECK_FALSE(r.header("ETag"));
            CHECK(c.request(http::verb::head, a.path).status == 404);
        }
}

}  // namespace test_server_pages
