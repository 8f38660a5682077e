#pragma once
// Catch2 helpers shared by the black-box tests of esign-reference-server.
#include <catch2/catch.hpp>

#include <optional>
#include <regex>
#include <string>
#include <string_view>

#include <boost/json.hpp>

#include "http_client.hpp"
#include "server_process.hpp"

namespace esign::test {

inline bool is_lowercase_uuid(std::string_view s) {
    static const std::regex uuid("^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$");
    return std::regex_match(s.begin(), s.end(), uuid);
}

inline bool is_iso8601_ms(std::string_view s) {
    static const std::regex iso(R"(^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$)");
    return std::regex_match(s.begin(), s.end(), iso);
}

inline std::string string_member(const boost::json::value& v, std::string_view name) {
    if (!v.is_object()) return {};
    auto* p = v.as_object().if_contains(name);
    return (p && p->is_string()) ? std::string(p->as_string()) : std::string{};
}

// The server, stopped at the end of the test with a check that it exited cleanly.
class test_server : public server_process {
public:
    explicit test_server(std::vector<std::string> extra_args = {}) : server_process(std::move(extra_args)) {}
    ~test_server() {
        if (!exit_status()) CHECK(stop() == 0);
    }

    http_response post(std::string path, std::string body, const header_list& headers = {}) {
        return esign::test::post(host(), port(), std::move(path), std::move(body), headers);
    }
    http_connection connect() { return http_connection(host(), port()); }
    team new_team() { return create_team(host(), port()); }
};

enum class details { none, root_only, any };

// An error response: the status, the error body of contract.md §1, and its headers.
inline void check_error(const http_response& r, unsigned status, std::string_view code, std::string_view path,
                        details expected_details = details::any) {
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

    switch (expected_details) {
    case details::none:
        CHECK((!e.contains("details") || e.at("details").is_null()));
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
    case details::any:
        break;
    }
}

} // namespace esign::test
