// SPDX-License-Identifier: BSL-1.0
// The out-of-line helpers of test_support.hpp, compiled once for the whole test program: the
// <regex> matching and the server's start and stop (server_process's constructor, with its own
// regex, is instantiated here only), and check_error. No test cases here.
#include "test_support.hpp"

#include <chrono>
#include <csignal>
#include <regex>

#include "process_memory.hpp"

namespace esign::test {

bool is_lowercase_uuid(std::string_view s) {
    static const std::regex uuid("^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$");
    return std::regex_match(s.begin(), s.end(), uuid);
}

bool is_iso8601_ms(std::string_view s) {
    static const std::regex iso(R"(^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$)");
    return std::regex_match(s.begin(), s.end(), iso);
}

test_server::test_server(std::vector<std::string> extra_args) : server_process(std::move(extra_args)) {}

test_server::~test_server() {
    // It must stop cleanly on SIGTERM (within stop()'s time, longer for a sanitized server).
    if (!exit_status()) CHECK(stop() == 0);
}

// An error response: the status, the error body of contract.md §1, and its headers.
void check_error(const http_response& r, unsigned status, std::string_view code, std::string_view path,
                 details expected_details) {
    INFO("response " << r.status << " " << r.body);
    CHECK(r.status == status);
    CHECK(r.header("Content-Type").value_or("") == "application/json");
    const auto request_id = r.header("X-Request-Id").value_or("");
    CHECK(is_lowercase_uuid(request_id));
    CHECK(r.header_count("X-Request-Id") == 1);

    boost::json::value v;
    REQUIRE_NOTHROW(v = r.json());
    REQUIRE(v.is_object());
    const auto& o = v.as_object();
    REQUIRE(o.contains("statusCode"));
    CHECK(o.at("statusCode").is_int64());
    CHECK(o.at("statusCode") == boost::json::value(status));
    REQUIRE(o.contains("error"));
    REQUIRE(o.at("error").is_object());
    const auto& e = o.at("error").as_object();
    CHECK(string_member(e, "code") == code);
    for (auto name : {"message", "suggestion", "documentationUrl"}) {
        INFO("error." << name);
        CHECK((e.contains(name) && e.at(name).is_string()));
    }
    CHECK(string_member(o, "requestId") == request_id);
    CHECK(is_iso8601_ms(string_member(o, "timestamp")));
    CHECK(string_member(o, "path") == path);

    if (expected_details == details::by_code)
        expected_details = code == "INVALID_REQUEST_FORMAT" && status == 400 ? details::by_code : details::none;
    switch (expected_details) {
        case details::none:
            CHECK_FALSE(e.contains("details"));  // absent, not null
            break;
        case details::root_only: {
            REQUIRE(e.contains("details"));
            REQUIRE(e.at("details").is_array());
            const auto& d = e.at("details").as_array();
            REQUIRE(d.size() == 1);
            REQUIRE(d[0].is_object());
            REQUIRE(d[0].as_object().contains("path"));
            CHECK(d[0].as_object().at("path") == boost::json::array{});
            break;
        }
        case details::by_code: {
            REQUIRE(e.contains("details"));
            REQUIRE(e.at("details").is_array());
            const auto& d = e.at("details").as_array();
            CHECK_FALSE(d.empty());
            CHECK(d.size() <= 100);
            for (const auto& entry : d) {
                REQUIRE(entry.is_object());
                REQUIRE(entry.as_object().contains("path"));
                REQUIRE(entry.as_object().at("path").is_array());
                for (const auto& key : entry.as_object().at("path").as_array()) CHECK(key.is_string());
                CHECK((entry.as_object().contains("message") && entry.as_object().at("message").is_string()));
            }
            break;
        }
    }
}

}  // namespace esign::test
