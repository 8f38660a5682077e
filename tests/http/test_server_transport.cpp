// SPDX-License-Identifier: BSL-1.0
// Black-box tests of esign-reference-server's transport (contract.md §1, §5): the checks before
// the backend, their order, the error body, keep-alive, robustness, the process itself.
#include "../source_text.hpp"
#include "process_memory.hpp"
#include "test_support.hpp"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/buffer.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>

#include <unistd.h>

namespace test_server_transport {

using namespace esign::test;
using namespace std::chrono_literals;

namespace {

// A body nested `depth` objects deep: {"a":{"a":...{}...}} (the root object is depth 1).
std::string nested_objects(int depth) {
    std::string s;
    for (int i = 1; i < depth; ++i) s += "{\"a\":";
    s += "{}";
    for (int i = 1; i < depth; ++i) s += "}";
    return s;
}

const std::string control_now = "/_control/clock/now";     // no key needed, takes {}
const std::string public_list = "/public/workspace/list";  // key needed, takes {}

// The whole answers in bytes received on a raw connection, parsed in turn (a status is read
// from its status line, not found somewhere in the text); an incomplete or malformed last one
// is left out.
std::vector<http_response> replies_in(std::string_view bytes) {
    std::vector<http_response> out;
    while (!bytes.empty()) {
        http::response_parser<http::string_body> parser;
        parser.eager(true);
        boost::beast::error_code ec;
        std::size_t used = 0;
        while (!parser.is_done() && !ec && used < bytes.size())
            used += parser.put(boost::asio::buffer(bytes.data() + used, bytes.size() - used), ec);
        if (!parser.is_done()) break;
        const auto& m = parser.get();
        http_response r;
        r.status = m.result_int();
        for (const auto& f : m) r.headers.emplace_back(std::string(f.name_string()), std::string(f.value()));
        r.body = m.body();
        r.keep_alive = m.keep_alive();
        out.push_back(std::move(r));
        bytes.remove_prefix(used);
    }
    return out;
}

// One answer with a JSON body, read to its last byte and not beyond: its header, then its
// Content-Length bytes, taken up to a '}' at a time (a JSON object's last byte), so that what
// the connection does next (close, or more bytes) is still to be seen.
std::string receive_json_reply(raw_connection& c, std::chrono::milliseconds wait) {
    const std::string got = c.receive_until("\r\n\r\n", wait);
    http::response_parser<http::string_body> header;  // not eager: it stops after the header
    boost::beast::error_code ec;
    header.put(boost::asio::buffer(got), ec);
    if (!header.is_header_done() || !header.content_length()) return got;
    const auto body_size = *header.content_length();
    std::string body;
    while (body.size() < body_size) {
        const auto part = c.receive_until("}", wait);
        if (part.empty()) break;
        body += part;
    }
    return got + body;
}

// The statuses of the answers in `bytes`, in order.
std::vector<unsigned> statuses_in(std::string_view bytes) {
    std::vector<unsigned> out;
    for (const auto& r : replies_in(bytes)) out.push_back(r.status);
    return out;
}

}  // namespace

TEST_CASE("server: ready line, --help, bad command line", "[http][server]") {
    SECTION("the first stdout line names the real port") {
        test_server srv;
        CHECK(srv.port() != 0);
        CHECK(srv.first_line() == "listening on http://127.0.0.1:" + std::to_string(srv.port()));
        CHECK(srv.post(control_now, "{}").status == 200);
    }
    SECTION("--help: usage on stdout, exit 0") {
        auto r = run_to_exit({"--help"});
        CHECK(r.status == 0);
        CHECK(r.out.find("--listen") != std::string::npos);
    }
    SECTION("bad command lines: usage on stderr, exit 2") {
        for (const std::vector<std::string>& args : {std::vector<std::string>{"--bogus"},
                                                     {"--listen"},
                                                     {"--listen", "nohostport"},
                                                     {"--listen", "1.2.3.4:99999"},
                                                     {"--threads", "0"},
                                                     {"--threads", "x"},
                                                     {"--max-body", "-1"},
                                                     {"--seed", "12a"},
                                                     {"--strict=1"}}) {
            INFO(args.front() << (args.size() > 1 ? " " + args[1] : std::string{}));
            auto r = run_to_exit(args);
            CHECK(r.status == 2);
            CHECK(r.err.find("usage") != std::string::npos);
            CHECK(r.out.empty());
        }
    }
    SECTION("an address that cannot be listened on: exit 2") {
        test_server first;
        auto r = run_to_exit({"--listen", "127.0.0.1:" + std::to_string(first.port())});
        CHECK(r.status == 2);
        CHECK(r.out.empty());
    }
}

TEST_CASE("server: --fixture", "[http][server]") {
    SECTION("a missing file: message on stderr, exit 2") {
        auto r = run_to_exit({"--listen", "127.0.0.1:0", "--fixture", "/nonexistent/esign-fixture.json"});
        CHECK(r.status == 2);
        CHECK(r.err.find("esign-fixture.json") != std::string::npos);
        CHECK(r.out.empty());
    }
    SECTION("a file that is not a fixture: exit 2") {
        char name[] = "/tmp/esign-bad-fixture-XXXXXX";
        const int fd = ::mkstemp(name);
        REQUIRE(fd >= 0);
        const std::string text = "this is not JSON";
        REQUIRE(::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()));
        ::close(fd);
        auto r = run_to_exit({"--listen", "127.0.0.1:0", "--fixture", name});
        ::unlink(name);
        CHECK(r.status == 2);
        CHECK(r.out.empty());
    }
}

TEST_CASE("server: SIGTERM and SIGINT stop it with exit status 0", "[http][server]") {
    SECTION("SIGTERM, idle") {
        server_process srv;
        CHECK(srv.stop(SIGTERM) == 0);
    }
    SECTION("SIGINT, with an idle keep-alive connection open") {
        server_process srv;
        http_connection c(srv.host(), srv.port());
        CHECK(c.post(control_now, "{}").status == 200);
        CHECK(c.is_open());
        CHECK(srv.stop(SIGINT) == 0);  // a connection left open does not keep it running
    }
    SECTION("SIGTERM with a half-sent request") {
        server_process srv;
        raw_connection c(srv.host(), srv.port());
        c.send("POST /_control/clock/now HTTP/1.1\r\nHost: x\r\n");
        // A later connection is answered: the server has accepted the half-sent one before it.
        http_connection later(srv.host(), srv.port());
        CHECK(later.post(control_now, "{}").status == 200);
        CHECK(srv.stop(SIGTERM) == 0);
    }
    SECTION("no thread of the server is interrupted by them: all block both but the one that takes them") {
        server_process srv({"--threads", "3", "--webhook-threads", "2"});
        http_connection c(srv.host(), srv.port());
        CHECK(c.post(control_now, "{}").status == 200);
        const std::string tasks = "/proc/" + std::to_string(srv.pid()) + "/task/";
        // The webhook threads may start after the server says it listens: wait (bounded) for all 7,
        // main, the signals' thread, 3 HTTP threads and 2 webhook threads.
        std::vector<std::filesystem::path> threads;
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        do {
            threads.assign(std::filesystem::directory_iterator(tasks), std::filesystem::directory_iterator());
            if (threads.size() >= 7) break;
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        } while (std::chrono::steady_clock::now() < deadline);
        CHECK(threads.size() >= 7);
        const unsigned long both = (1UL << (SIGINT - 1)) | (1UL << (SIGTERM - 1));
        int taking = 0;  // in sigwait, whose wait unblocks them (once it has begun)
        for (const auto& task : threads) {
            const auto mask = proc_status_field(task / "status", "SigBlk");
            INFO(task.string() << " SigBlk:" << mask.value_or("(none)"));
            REQUIRE(mask);
            const unsigned long blocked = std::stoul(*mask, nullptr, 16) & both;
            CHECK((blocked == both || blocked == 0));
            taking += blocked == 0;
        }
        CHECK(taking <= 1);
        CHECK(srv.stop(SIGTERM) == 0);
    }
}

TEST_CASE("transport: 404 for an unknown path", "[http][transport]") {
    test_server srv;
    auto r = srv.post("/public/nope", "{}");
    check_error(r, 404, "INVALID_REQUEST_FORMAT", "/public/nope", details::none);
    SECTION("whatever the method, key or content type") {
        auto c = srv.connect();
        check_error(c.get("/"), 404, "INVALID_REQUEST_FORMAT", "/", details::none);
        check_error(c.request(http::verb::put, "/x/y", "<xml/>", {{"Content-Type", "text/xml"}}), 404,
                    "INVALID_REQUEST_FORMAT", "/x/y", details::none);
    }
    SECTION("the query string is not part of the path") {
        check_error(srv.post("/nope?a=b", "{}"), 404, "INVALID_REQUEST_FORMAT", "/nope", details::none);
        CHECK(srv.post(control_now + "?x=1", "{}").status == 200);
    }
    SECTION("paths are not decoded or normalized") {
        CHECK(srv.post("/_control/clock/%6eow", "{}").status == 404);
        CHECK(srv.post("/_control/clock/now/", "{}").status == 404);
        CHECK(srv.post("/_control//clock/now", "{}").status == 404);
    }
}

TEST_CASE("transport: 405 for a method other than POST", "[http][transport]") {
    test_server srv;
    auto key = srv.new_team().api_key;
    auto c = srv.connect();
    for (auto verb : {http::verb::get, http::verb::put, http::verb::delete_, http::verb::patch, http::verb::options}) {
        INFO(http::to_string(verb));
        auto r = c.request(verb, public_list, "{}", bearer(key));
        check_error(r, 405, "INVALID_REQUEST_FORMAT", public_list, details::none);
        CHECK(r.header("Allow").value_or("") == "POST");
    }
    SECTION("405 comes before 401: GET without a key") {
        auto r = c.get(public_list);
        check_error(r, 405, "INVALID_REQUEST_FORMAT", public_list, details::none);
    }
    SECTION("HEAD: the header only, the connection stays usable") {
        auto r = c.request(http::verb::head, public_list);
        CHECK(r.status == 405);
        CHECK(r.body.empty());
        CHECK(c.post(control_now, "{}").status == 200);
    }
}

TEST_CASE("transport: GET /openapi.json", "[http][transport]") {
    test_server srv;
    auto c = srv.connect();
    auto r = c.get("/openapi.json");
    REQUIRE(r.status == 200);  // contract.md §1: the server serves the document
    CHECK(r.header("Content-Type").value_or("") == "application/json");
    CHECK(is_lowercase_uuid(r.header("X-Request-Id").value_or("")));
    boost::json::value v;
    REQUIRE_NOTHROW(v = r.json());
    REQUIRE(v.is_object());
    CHECK(v.as_object().at("openapi").as_string().starts_with("3."));
    const auto& paths = v.as_object().at("paths").as_object();
    // Every operation interface.md names, as a POST with a request body and a 200 answer.
    const auto named = public_paths_in(spec_text("interface.md"));
    CHECK(named.size() >= 20);
    for (const auto& path : named) {
        INFO(path);
        REQUIRE(paths.contains(path));
        const auto& post = paths.at(path).as_object().at("post").as_object();
        CHECK(post.contains("requestBody"));
        CHECK(post.at("responses").as_object().contains("200"));
    }
    for (auto verb : {http::verb::post, http::verb::put, http::verb::delete_}) {
        auto other = c.request(verb, "/openapi.json", "{}");
        check_error(other, 405, "INVALID_REQUEST_FORMAT", "/openapi.json", details::none);
        CHECK(other.header("Allow").value_or("") == "GET");
    }
    CHECK(c.get("/openapi.json?x=1").body == r.body);
}

TEST_CASE("transport: 401 AUTHENTICATION_ERROR", "[http][transport]") {
    test_server srv;
    const auto key = srv.new_team().api_key;
    REQUIRE(!key.empty());
    CHECK(srv.post(public_list, "{}", bearer(key)).status == 200);

    SECTION("missing") {
        check_error(srv.post(public_list, "{}"), 401, "AUTHENTICATION_ERROR", public_list, details::none);
    }
    SECTION("malformed") {
        for (const std::string& value : {std::string("Basic ") + key, key, std::string("Bearer"),
                                         std::string("Bearer "), "Bearer " + key + " extra", "Token " + key}) {
            INFO("Authorization: " << value);
            check_error(srv.post(public_list, "{}", {{"Authorization", value}}), 401, "AUTHENTICATION_ERROR",
                        public_list, details::none);
        }
    }
    SECTION("two Authorization headers") {
        check_error(
            srv.post(public_list, "{}", {{"Authorization", "Bearer " + key}, {"Authorization", "Bearer " + key}}), 401,
            "AUTHENTICATION_ERROR", public_list, details::none);
    }
    SECTION("unknown key") {
        check_error(srv.post(public_list, "{}", bearer("not-a-key")), 401, "AUTHENTICATION_ERROR", public_list,
                    details::none);
        check_error(srv.post(public_list, "{}", bearer(key + "x")), 401, "AUTHENTICATION_ERROR", public_list,
                    details::none);
    }
    SECTION("the scheme is case-insensitive") {
        CHECK(srv.post(public_list, "{}", {{"Authorization", "bearer " + key}}).status == 200);
        CHECK(srv.post(public_list, "{}", {{"Authorization", "BEARER   " + key}}).status == 200);
    }
    SECTION("/_control/envelope/create needs a key, /_control/team/create does not") {
        const std::string body = R"({"title":"t","documents":[{"title":"d","pageCount":1}]})";
        check_error(srv.post("/_control/envelope/create", body), 401, "AUTHENTICATION_ERROR",
                    "/_control/envelope/create", details::none);
        CHECK(srv.post("/_control/envelope/create", body, bearer(key)).status == 200);
        CHECK(srv.post("/_control/team/create", "{}", bearer("whatever")).status == 200);
    }
}

TEST_CASE("transport: 415 unless the body is application/json", "[http][transport]") {
    test_server srv;
    const auto key = srv.new_team().api_key;
    for (const std::string_view type : {"text/plain", "application/x-www-form-urlencoded", "application/jsonx",
                                        "application/json-patch+json", "json", ""}) {
        INFO("Content-Type: " << type);
        auto headers = bearer(key);
        headers.emplace_back("Content-Type", std::string(type));
        check_error(srv.post(public_list, "{}", headers), 415, "INVALID_REQUEST_FORMAT", public_list, details::none);
    }
    SECTION("parameters and case are accepted") {
        for (const std::string_view type : {"application/json; charset=utf-8", "application/json;charset=UTF-8",
                                            "Application/JSON", "application/json ; charset=\"utf-8\""}) {
            INFO("Content-Type: " << type);
            auto headers = bearer(key);
            headers.emplace_back("Content-Type", std::string(type));
            CHECK(srv.post(public_list, "{}", headers).status == 200);
        }
    }
    SECTION("on control operations too") {
        check_error(srv.post(control_now, "{}", {{"Content-Type", "text/plain"}}), 415, "INVALID_REQUEST_FORMAT",
                    control_now, details::none);
    }
}

TEST_CASE("transport: 413 over --max-body", "[http][transport]") {
    test_server srv({"--max-body", "100"});
    const auto key = srv.new_team().api_key;
    // A JSON object of exactly `size` bytes: {"x":"aaa...."}
    auto body_of = [](std::size_t size) { return "{\"x\":\"" + std::string(size - 8, 'a') + "\"}"; };
    REQUIRE(body_of(100).size() == 100);

    SECTION("at the limit: handled") { CHECK(srv.post(public_list, body_of(100), bearer(key)).status == 200); }
    SECTION("Content-Length over the limit") {
        check_error(srv.post(public_list, body_of(101), bearer(key)), 413, "INVALID_REQUEST_FORMAT", public_list,
                    details::none);
        check_error(srv.post(control_now, body_of(5000), {}), 413, "INVALID_REQUEST_FORMAT", control_now,
                    details::none);
    }
    SECTION("chunked, without Content-Length") {
        auto headers = bearer(key);
        headers.emplace_back("Transfer-Encoding", "chunked");
        CHECK(srv.post(public_list, body_of(100), headers).status == 200);
        check_error(srv.post(public_list, body_of(101), headers), 413, "INVALID_REQUEST_FORMAT", public_list,
                    details::none);
        check_error(srv.post(public_list, body_of(10000), headers), 413, "INVALID_REQUEST_FORMAT", public_list,
                    details::none);
    }
    SECTION("chunked, in many small chunks (raw)") {
        raw_connection c(srv.host(), srv.port());
        c.send(
            "POST /_control/clock/now HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            "Transfer-Encoding: chunked\r\n\r\n");
        for (int i = 0; i < 30; ++i) c.send("8\r\n        \r\n");  // 240 bytes in all
        c.send("0\r\n\r\n");
        const auto got = c.receive_all(3s);
        CHECK(got.starts_with("HTTP/1.1 413 "));
    }
    SECTION("chunked, with the header in one write (raw)") {
        raw_connection c(srv.host(), srv.port());
        std::string request =
            "POST /_control/clock/now HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            "Transfer-Encoding: chunked\r\n\r\n";
        for (int i = 0; i < 30; ++i) request += "8\r\n        \r\n";
        c.send(request + "0\r\n\r\n");
        CHECK(c.receive_all(3s).starts_with("HTTP/1.1 413 "));
    }
    SECTION("the connection is closed after a 413 whose body was not read") {
        raw_connection c(srv.host(), srv.port());
        // The start of the body looks like a request: a server that kept the connection would
        // read it as the next one and wait for the rest of its header, the connection open.
        c.send(
            "POST /_control/clock/now HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            "Content-Length: 1000000\r\n\r\nPOST /_control/clock/now HTTP/1.1\r\n");
        // The answer, read to its last byte and no further, then the close itself: a connection
        // left open would make closed_by_peer_within wait out its 30 s and say false.
        const auto replies = replies_in(receive_json_reply(c, 10s));
        REQUIRE(replies.size() == 1);
        CHECK(c.closed_by_peer_within(30s));
        check_error(replies[0], 413, "INVALID_REQUEST_FORMAT", control_now, details::none);
        CHECK(replies[0].header("Connection").value_or("") == "close");
        CHECK_FALSE(replies[0].keep_alive);
    }
    SECTION("Expect: 100-continue, over the limit: 413 without reading the body") {
        raw_connection c(srv.host(), srv.port());
        c.send(
            "POST /_control/clock/now HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            "Expect: 100-continue\r\nContent-Length: 5000\r\n\r\n");
        const auto replies = replies_in(receive_json_reply(c, 10s));
        REQUIRE(replies.size() == 1);
        check_error(replies[0], 413, "INVALID_REQUEST_FORMAT", control_now, details::none);
        CHECK(c.closed_by_peer_within(30s));  // the body it did not ask for is not awaited
    }
    SECTION("Expect: 100-continue, within the limit: 100 then the answer") {
        raw_connection c(srv.host(), srv.port());
        c.send(
            "POST /_control/clock/now HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            "Expect: 100-continue\r\nContent-Length: 2\r\nConnection: close\r\n\r\n");
        // The body is sent only once 100 Continue has arrived: the answer proves the server
        // asked for it and waited.
        REQUIRE(c.receive_until("\r\n\r\n", 10s) == "HTTP/1.1 100 Continue\r\n\r\n");
        c.send("{}");
        CHECK(statuses_in(receive_json_reply(c, 10s)) == std::vector<unsigned>{200});
        CHECK(c.closed_by_peer_within(30s));  // Connection: close
    }
}

TEST_CASE("transport: a body with its header, after it, or both, then the next request", "[http][transport]") {
    test_server srv;
    const std::string header = "POST /_control/clock/now HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n";
    const std::string next = "POST /nope HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
    auto answers = [](const std::string& got) { return statuses_in(got) == std::vector<unsigned>{200, 404}; };
    raw_connection c(srv.host(), srv.port());
    SECTION("all in one write, the body chunked") {
        c.send(header + "Transfer-Encoding: chunked\r\n\r\n1\r\n{\r\n1\r\n}\r\n0\r\n\r\n" + next);
        CHECK(answers(c.receive_all(5s)));
    }
    SECTION("part of the body with the header, the rest later") {
        c.send(header + "Content-Length: 8\r\n\r\n{ ");
        std::this_thread::sleep_for(100ms);
        c.send("     }" + next);
        CHECK(answers(c.receive_all(5s)));
    }
    SECTION("the chunked body after the header, in pieces") {
        c.send(header + "Transfer-Encoding: chunked\r\n\r\n2\r");
        std::this_thread::sleep_for(100ms);
        c.send("\n{}\r\n");
        std::this_thread::sleep_for(100ms);
        c.send("0\r\n\r\n" + next);
        CHECK(answers(c.receive_all(5s)));
    }
}

TEST_CASE("transport: the order of the checks", "[http][transport]") {
    test_server srv({"--max-body", "100"});
    const auto key = srv.new_team().api_key;
    const std::string big(1000, ' ');
    const header_list text_plain = {{"Content-Type", "text/plain"}};
    auto with_key = [&](header_list h) {
        h.emplace_back("Authorization", "Bearer " + key);
        return h;
    };
    auto bad_key = [&](header_list h) {
        h.emplace_back("Authorization", "Bearer nope");
        return h;
    };
    auto c = srv.connect();
    // path before method, key, content type, size
    CHECK(c.request(http::verb::get, "/nope", big, bad_key(text_plain)).status == 404);
    // method before key, content type, size
    CHECK(c.request(http::verb::put, public_list, big, bad_key(text_plain)).status == 405);
    // key before content type and size
    check_error(srv.post(public_list, "{}", bad_key(text_plain)), 401, "AUTHENTICATION_ERROR", public_list,
                details::none);
    check_error(srv.post(public_list, big, bad_key({})), 401, "AUTHENTICATION_ERROR", public_list, details::none);
    check_error(srv.post(public_list, big, {}), 401, "AUTHENTICATION_ERROR", public_list, details::none);
    // content type before size
    check_error(srv.post(public_list, big, with_key(text_plain)), 415, "INVALID_REQUEST_FORMAT", public_list,
                details::none);
    // size before the body
    check_error(srv.post(public_list, "[" + big + "]", with_key({})), 413, "INVALID_REQUEST_FORMAT", public_list,
                details::none);
    // and the body last
    check_error(srv.post(public_list, "[]", with_key({})), 400, "INVALID_REQUEST_FORMAT", public_list,
                details::root_only);
}

TEST_CASE("transport: 400 for a body that is not a JSON object", "[http][transport]") {
    test_server srv;
    const auto key = srv.new_team().api_key;
    for (const std::string& body :
         {std::string(), std::string("   "), std::string("{"), std::string("{\"a\":}"), std::string("[]"),
          std::string("null"), std::string("42"), std::string("\"{}\""), std::string("{} {}"),
          std::string("{\"a\":\"\xff\"}"), std::string("{\"a\":\"\\ud800\"}"), nested_objects(65)}) {
        INFO("body: " << body.substr(0, 80));
        check_error(srv.post(public_list, body, bearer(key)), 400, "INVALID_REQUEST_FORMAT", public_list,
                    details::root_only);
        check_error(srv.post(control_now, body), 400, "INVALID_REQUEST_FORMAT", control_now, details::root_only);
    }
    SECTION("64 levels are not too deep") {
        auto r = srv.post(public_list, nested_objects(64), bearer(key));
        CHECK(r.status == 200);  // unknown members are ignored (not --strict)
    }
}

TEST_CASE("transport: request ids", "[http][transport]") {
    test_server srv;
    auto c = srv.connect();
    std::set<std::string> ids;
    for (int i = 0; i < 20; ++i) {
        auto r = i % 2 ? c.post(control_now, "{}") : c.post("/nope", "{}");
        const auto id = r.header("X-Request-Id").value_or("");
        CHECK(is_lowercase_uuid(id));
        ids.insert(id);
        if (r.status != 200) CHECK(string_member(r.json(), "requestId") == id);
    }
    CHECK(ids.size() == 20);
}

TEST_CASE("transport: keep-alive", "[http][transport]") {
    test_server srv;
    const auto key = srv.new_team().api_key;
    auto c = srv.connect();
    CHECK(c.post(control_now, "{}").status == 200);
    const auto port = c.local_port();
    REQUIRE(port);
    // Errors answered before the body was read keep the connection too (the body is dropped).
    CHECK(c.post("/nope", "{\"a\":1}").status == 404);
    CHECK(c.request(http::verb::get, public_list, "{\"a\":1}").status == 405);
    CHECK(c.post(public_list, "{\"a\":1}").status == 401);
    CHECK(
        c.post(public_list, "{\"a\":1}", {{"Authorization", "Bearer " + key}, {"Content-Type", "text/plain"}}).status ==
        415);
    CHECK(c.post(public_list, "[]", bearer(key)).status == 400);
    auto last = c.post(public_list, "{}", bearer(key));
    CHECK(last.status == 200);
    CHECK(last.keep_alive);
    CHECK(c.local_port() == port);

    SECTION("Connection: close is honoured") {
        auto r = c.post(control_now, "{}", {{"Connection", "close"}});
        CHECK(r.status == 200);
        CHECK_FALSE(r.keep_alive);
        CHECK_FALSE(c.is_open());
    }
    SECTION("pipelined requests are answered in order") {
        raw_connection raw(srv.host(), srv.port());
        const std::string one =
            "POST /_control/clock/now HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            "Content-Length: 2\r\n\r\n{}";
        const std::string two = "POST /nope HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
        raw.send(one + two);
        CHECK(statuses_in(raw.receive_all(5s)) == std::vector<unsigned>{200, 404});
    }
    SECTION("HTTP/1.0") {
        http_connection old(srv.host(), srv.port());
        auto r = old.request(http::verb::post, control_now, "{}", {}, 10);
        CHECK(r.status == 200);
        CHECK_FALSE(r.keep_alive);
    }
}

TEST_CASE("transport: malformed input never crashes the server", "[http][transport][robustness]") {
    test_server srv;
    auto still_answers = [&] { CHECK(srv.post(control_now, "{}").status == 200); };

    SECTION("garbage bytes") {
        std::string garbage;
        for (int i = 0; i < 4096; ++i) garbage += static_cast<char>((i * 7919 + 13) % 256);
        raw_exchange(srv.host(), srv.port(), garbage);
        raw_exchange(srv.host(), srv.port(), "\r\n\r\n\r\n");
        raw_exchange(srv.host(), srv.port(), "GET\r\n\r\n");
        raw_exchange(srv.host(), srv.port(), "POST / HTTP/9.9\r\n\r\n");
        raw_exchange(srv.host(), srv.port(), "POST /_control/clock/now HTTP/1.1\r\nContent-Length: -5\r\n\r\n");
        raw_exchange(srv.host(), srv.port(),
                     "POST /_control/clock/now HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n");
        raw_exchange(srv.host(), srv.port(),
                     "POST /_control/clock/now HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}");
        raw_exchange(srv.host(), srv.port(),
                     "POST /_control/clock/now HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n");
        raw_exchange(srv.host(), srv.port(), std::string("POST /\0 HTTP/1.1\r\n\r\n", 20));
        still_answers();
    }
    SECTION("a malformed request closes the connection") {
        raw_connection c(srv.host(), srv.port());
        c.send("THIS IS NOT HTTP\r\n\r\n");
        CHECK(c.closed_by_peer_within(5s));
        still_answers();
    }
    SECTION("truncated requests") {
        raw_exchange(srv.host(), srv.port(), "POST /_control/clock/now HTTP/1.1\r\nHost: x\r\nContent-Le");
        raw_exchange(srv.host(), srv.port(),
                     "POST /_control/clock/now HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     "Content-Length: 100\r\n\r\n{\"a\":");
        {
            raw_connection c(srv.host(), srv.port());
            c.send("POST /_control/clock/now HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{");
            c.close();  // abruptly
        }
        still_answers();
    }
    SECTION("a header over 16 KiB: 431") {
        const std::string big(20000, 'a');
        auto got = raw_exchange(srv.host(), srv.port(),
                                "POST /_control/clock/now HTTP/1.1\r\nHost: x\r\nX-Big: " + big + "\r\n\r\n{}", false);
        CHECK(got.starts_with("HTTP/1.1 431 "));
        CHECK(got.find("INVALID_REQUEST_FORMAT") != std::string::npos);
        CHECK(got.find("The request header is larger than 16384 bytes.") != std::string::npos);  // the limit in force
        const std::string long_target = "POST /" + big + " HTTP/1.1\r\nHost: x\r\n\r\n";
        got = raw_exchange(srv.host(), srv.port(), long_target, false);
        CHECK(got.starts_with("HTTP/1.1 431 "));
        still_answers();
    }
    SECTION("many connections at once") {
        std::vector<std::unique_ptr<raw_connection>> idle;
        for (int i = 0; i < 200; ++i) idle.push_back(std::make_unique<raw_connection>(srv.host(), srv.port()));
        std::atomic<int> ok{0};
        std::vector<std::thread> clients;
        for (int t = 0; t < 8; ++t)
            clients.emplace_back([&] {
                try {
                    http_connection c(srv.host(), srv.port());
                    for (int i = 0; i < 25; ++i)
                        if (c.post(control_now, "{}").status == 200) ++ok;
                } catch (const std::exception&) {}
            });
        for (auto& t : clients) t.join();
        CHECK(ok == 200);
        idle.clear();
        still_answers();
    }
}

TEST_CASE("transport: --strict reaches the backend", "[http][transport]") {
    test_server strict({"--strict"});
    auto r = strict.post(control_now, R"({"unexpected":1})");
    CHECK(r.status == 400);
    test_server lax;
    CHECK(lax.post(control_now, R"({"unexpected":1})").status == 200);
}

TEST_CASE("transport: Content-Length over the limit is 413 however many digits, not a number is 400",
          "[http][transport][robustness]") {
    test_server srv;
    auto status_of = [&](const std::string& length_fields) {
        const std::string reply = raw_exchange(srv.host(), srv.port(),
                                               "POST /_control/clock/now HTTP/1.1\r\nHost: x\r\n"
                                               "Content-Type: application/json\r\n" +
                                                   length_fields + "\r\n{}");
        INFO(reply);
        const auto space = reply.find(' ');
        return space == std::string::npos ? std::string() : reply.substr(space + 1, 3);
    };
    CHECK(status_of("Content-Length: 2000000\r\n") == "413");                  // fits 64 bits
    CHECK(status_of("Content-Length: 99999999999999999999999\r\n") == "413");  // does not
    CHECK(status_of("Content-Length: 18446744073709551616\r\n") == "413");     // 2^64
    CHECK(status_of("Content-Length: -5\r\n") == "400");
    CHECK(status_of("Content-Length: 12abc\r\n") == "400");
    CHECK(status_of("Content-Length: 2\r\nContent-Length: 3\r\n") == "400");
    // The answer is the error body of the contract, for the request's path.
    const auto reply = replies_in(raw_exchange(srv.host(), srv.port(),
                                               "POST /_control/clock/now HTTP/1.1\r\nHost: x\r\n"
                                               "Content-Length: 99999999999999999999999\r\n\r\n"));
    REQUIRE(reply.size() == 1);
    check_error(reply[0], 413, "INVALID_REQUEST_FORMAT", control_now, details::none);
    // An unknown path is still 404 first (its status line and error body, not a "404" anywhere:
    // a request id can hold one).
    const auto unknown =
        replies_in(raw_exchange(srv.host(), srv.port(), "POST /nope HTTP/1.1\r\nContent-Length: -1\r\n\r\n"));
    REQUIRE(unknown.size() == 1);
    check_error(unknown[0], 404, "INVALID_REQUEST_FORMAT", "/nope", details::none);
}

}  // namespace test_server_transport
