// SPDX-License-Identifier: BSL-1.0
// Black-box tests of how esign-reference-server serves the inspector (contract.md §7.2;
// static_assets.hpp): GET /_inspector and its script and style as compiled in, their headers
// (CSP that no page may frame, strong ETag, no-cache, nosniff), 304 on If-None-Match, HEAD, the
// other methods, and 404 with --no-control. What the page does in a browser is
// tests/browser/inspector.mjs.
#include "../source_text.hpp"
#include "test_support.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace test_server_inspector {

using namespace esign::test;

namespace {

// The signing page's policy (§7.1) but framed by no page: the inspector holds a key, and a page
// of another site must not frame it under the user's clicks.
constexpr std::string_view csp =
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

struct asset {
    std::string path;
    std::string file;  // its source, under examples/reference_server/inspector/
    std::string content_type;
};

const std::vector<asset> assets = {
    {"/_inspector", "inspector.html", "text/html; charset=utf-8"},
    {"/_inspector.js", "inspector.js", "text/javascript; charset=utf-8"},
    {"/_inspector.css", "inspector.css", "text/css; charset=utf-8"},
};

std::string inspector_source(const std::string& file) {
    return source_text("examples/reference_server/inspector/" + file);
}

void check_asset_headers(const http_response& r, const asset& a) {
    INFO(a.path << " -> " << r.status);
    CHECK(r.header("Content-Type").value_or("") == a.content_type);
    CHECK(r.header("Content-Security-Policy").value_or("") == csp);
    CHECK(r.header("X-Content-Type-Options").value_or("") == "nosniff");
    CHECK(r.header("Referrer-Policy").value_or("") == "no-referrer");
    CHECK(r.header("Cache-Control").value_or("") == "no-cache");
    const auto tag = r.header("ETag").value_or("");
    CHECK((tag.size() == 34 && tag.front() == '"' && tag.back() == '"'));
    CHECK(is_lowercase_uuid(r.header("X-Request-Id").value_or("")));
}

}  // namespace

TEST_CASE("inspector: GET serves the page, its script and its style as in the source tree", "[http][inspector]") {
    test_server srv;
    auto c = srv.connect();
    std::size_t weight = 0;
    for (const auto& a : assets) {
        INFO(a.path);
        const auto r = c.get(a.path);  // no key: the page itself holds no data
        REQUIRE(r.status == 200);
        check_asset_headers(r, a);
        CHECK(r.body == inspector_source(a.file));  // compiled in, byte for byte
        weight += r.body.size();
        CHECK(c.get(a.path + "?x=1").body == r.body);
    }
    CHECK(weight <= 60 * 1024);  // issue 37: the signing page's rules, about 60 KB at most
    // The signing page keeps its own policy: it is meant to be framed.
    CHECK(c.get("/embeds/sign").header("Content-Security-Policy").value_or("").ends_with("frame-ancestors *"));
}

TEST_CASE("inspector: the page loads only its own files and never parses data as HTML", "[http][inspector]") {
    const auto html = inspector_source("inspector.html");
    CHECK(html.find(R"(<script src="_inspector.js" defer></script>)") != std::string::npos);
    CHECK(html.find(R"(<link rel="stylesheet" href="_inspector.css">)") != std::string::npos);
    CHECK(html.find("<script>") == std::string::npos);  // no inline script (CSP script-src 'self')
    for (const auto& a : assets) {
        const auto text = inspector_source(a.file);
        INFO(a.file);
        REQUIRE(!text.empty());
        CHECK(text.find("https://") == std::string::npos);  // nothing from another host
        CHECK(text.find("style=") == std::string::npos);    // no inline style (CSP style-src 'self')
    }
    const auto js = inspector_source("inspector.js");
    for (std::string_view sink : {"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(",
                                  "localStorage", "history.pushState", "history.replaceState", "location.hash ="}) {
        INFO(sink);
        CHECK(js.find(sink) == std::string::npos);
    }
}

TEST_CASE("inspector: If-None-Match answers 304, HEAD the header without the body, other methods 405",
          "[http][inspector]") {
    test_server srv;
    auto c = srv.connect();
    for (const auto& a : assets) {
        INFO(a.path);
        const auto first = c.get(a.path);
        const auto tag = first.header("ETag").value_or("");
        REQUIRE(!tag.empty());
        const auto again = c.get(a.path, {{"If-None-Match", tag}});
        CHECK(again.status == 304);
        CHECK(again.body.empty());
        CHECK(again.header("Content-Security-Policy").value_or("") == csp);
        CHECK(c.get(a.path, {{"If-None-Match", "\"other\""}}).status == 200);
        const auto head = c.request(http::verb::head, a.path);
        CHECK(head.status == 200);
        check_asset_headers(head, a);
        CHECK(head.body.empty());
        CHECK(head.header("Content-Length").value_or("") == std::to_string(first.body.size()));
        for (auto verb : {http::verb::post, http::verb::put, http::verb::delete_}) {
            const auto r = c.request(verb, a.path, "{}");
            check_error(r, 405, "INVALID_REQUEST_FORMAT", a.path, details::none);
            CHECK(r.header("Allow").value_or("") == "GET, HEAD");
        }
    }
    for (std::string path : {"/_inspector/", "/_inspector.html", "/_inspector.js.map", "/_INSPECTOR", "/_inspectors"}) {
        INFO(path);
        check_error(c.get(path), 404, "INVALID_REQUEST_FORMAT", path, details::none);
    }
    CHECK(c.post("/_control/clock/now", "{}").status == 200);  // still in step
}

TEST_CASE("inspector: with --no-control the page and its files do not exist, the signing page does",
          "[http][inspector]") {
    test_server srv({"--no-control"});
    auto c = srv.connect();
    for (const auto& a : assets) {
        INFO(a.path);
        const auto r = c.get(a.path);
        check_error(r, 404, "INVALID_REQUEST_FORMAT", a.path, details::none);
        CHECK_FALSE(r.header("Content-Security-Policy"));
        CHECK_FALSE(r.header("ETag"));
        CHECK(c.request(http::verb::head, a.path).status == 404);
    }
    CHECK(c.get("/embeds/sign").status == 200);
}

}  // namespace test_server_inspector
