// SPDX-License-Identifier: BSL-1.0
#pragma once
// Catch2 helpers shared by the black-box tests of esign-reference-server.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/json.hpp>

#include "http_client.hpp"
#include "server_process.hpp"

namespace esign::test {

// A few helpers are defined in test_support.cpp, compiled once (the <regex> matching, the
// server's start and stop, check_error), rather than in every test file.

// Whether `s` is a UUID in lowercase hex (8-4-4-4-12).
bool is_lowercase_uuid(std::string_view s);

// Whether `s` is a UTC timestamp with milliseconds: 2024-01-02T03:04:05.678Z.
bool is_iso8601_ms(std::string_view s);

// The value at a JSON pointer ("/webhook/uuid"), or null when there is none.
inline boost::json::value at(const boost::json::value& v, std::string_view pointer) {
    boost::system::error_code ec;
    const auto* p = v.find_pointer(pointer, ec);
    return p ? *p : boost::json::value();
}

inline std::string string_member(const boost::json::value& v, std::string_view name) {
    if (!v.is_object()) return {};
    auto* p = v.as_object().if_contains(name);
    return (p && p->is_string()) ? std::string(p->as_string()) : std::string{};
}

// The server, stopped at the end of the test with a check that it exited cleanly.
class test_server : public server_process {
public:
    explicit test_server(std::vector<std::string> extra_args = {});
    ~test_server();

    http_response post(std::string path, std::string body, const header_list& headers = {}) {
        return esign::test::post(host(), port(), std::move(path), std::move(body), headers);
    }
    http_connection connect() { return http_connection(host(), port()); }
    team new_team() { return create_team(host(), port()); }
};

// The body of a response that must be a success (200 and a JSON object).
inline boost::json::object success_body(const http_response& r, const std::string& what) {
    INFO(what << " -> " << r.status << " " << r.body);
    REQUIRE(r.status == 200);
    auto v = r.json();
    REQUIRE(v.is_object());
    return v.as_object();
}

// A team's calls: JSON in, JSON out, with its API key.
struct api_caller {
    test_server& srv;
    std::string key;

    http_response call(const std::string& path, const boost::json::value& body) {
        return srv.post(path, boost::json::serialize(body), bearer(key));
    }
    // A call that must succeed: its answer.
    boost::json::object ok(const std::string& path, const boost::json::value& body) {
        return success_body(call(path, body), path + " " + boost::json::serialize(body));
    }
};

// A control operation called without a key, that must succeed: its answer.
inline boost::json::object control_ok(test_server& srv, const std::string& path,
                                      const boost::json::value& body = boost::json::object{}) {
    return success_body(srv.post(path, boost::json::serialize(body)), path + " " + boost::json::serialize(body));
}

// The member names of an object, sorted (to compare a response's shape with the spec's).
inline std::set<std::string> member_names(const boost::json::value& v) {
    std::set<std::string> names;
    if (v.is_object())
        for (const auto& m : v.as_object()) names.insert(std::string(m.key()));
    return names;
}

// Whether an error body has a detail at `path` (given as JSON text, e.g. ["recipients","0","email"]).
inline bool has_detail(const http_response& r, std::string_view path) {
    const auto expected = boost::json::parse(path);
    const auto details = at(r.json(), "/error/details");
    if (!details.is_array()) return false;
    for (const auto& d : details.as_array())
        if (d.is_object() && d.as_object().contains("path") && d.as_object().at("path") == expected) return true;
    return false;
}

// The HTTP status of an error code, written from contract.md §1 (not taken from the code under
// test): 401, 403, 500 for the codes it names (429 for §6.9's TEAM_LIMIT_REACHED), 400 for every
// other (transport failures aside).
inline unsigned contract_status(std::string_view code) {
    for (std::string_view c :
         {"AUTHENTICATION_ERROR", "DBSC_COOKIE_INVALID", "TUNNEL_ERROR", "TUNNEL_SESSION_NOT_FOUND"})
        if (code == c) return 401;
    if (code == "AUTHORIZATION_ERROR" || code == "FEATURE_NOT_IN_CURRENT_PLAN") return 403;
    if (code == "INTERNAL_SERVER_ERROR") return 500;
    if (code == "TEAM_LIMIT_REACHED") return 429;  // §6.9
    // §7.1: the signing page's token and session states
    if (code == "SIGNING_TOKEN_UNKNOWN") return 404;
    if (code == "SIGNING_TOKEN_USED") return 409;
    if (code == "SIGNING_TOKEN_EXPIRED") return 410;
    if (code == "SIGNING_SESSION_INVALID") return 401;
    return 400;
}

// What error.details must be (contract.md §1). by_code: a non-empty list of {path, message} for
// INVALID_REQUEST_FORMAT at 400, absent for every other answer.
enum class details { none, root_only, by_code };

// An error response: the status, the error body of contract.md §1, and its headers.
void check_error(const http_response& r, unsigned status, std::string_view code, std::string_view path,
                 details expected_details = details::by_code);

// A file holding `content` (a token file, a fixture), removed at the end of the test.
struct temp_file {
    std::string path;
    explicit temp_file(const std::string& content) {
        std::string name = "/tmp/esign-test-XXXXXX";
        const int fd = ::mkstemp(name.data());
        REQUIRE(fd >= 0);
        ::close(fd);
        path = name;
        std::ofstream(path, std::ios::binary) << content;
    }
    temp_file(const temp_file&) = delete;
    temp_file& operator=(const temp_file&) = delete;
    ~temp_file() { std::remove(path.c_str()); }
};

// The body of a restore of `t`'s own snapshot with `count` contacts (a large state made in one
// request; at most reference/team/limits.hpp's 100,000 for a valid one), each of that last name.
inline std::string restore_body_with_contacts(test_server& srv, const team& t, std::size_t count,
                                              std::string_view lastname = "D") {
    const auto made =
        srv.post("/public/contact/create", R"({"contacts":[{"email":"c@example.com","firstname":"C","lastname":"D"}]})",
                 bearer(t.api_key));
    REQUIRE(made.status == 200);
    const auto snap = srv.post("/_control/team/snapshot", "{}", bearer(t.api_key));
    REQUIRE(snap.status == 200);
    boost::json::value body = snap.json();
    auto& state = body.at("team").at("state").as_object();
    auto& contacts = state.at("contacts").as_array();
    REQUIRE(contacts.size() == 1);
    const boost::json::object model = contacts.at(0).as_object();
    std::uint64_t seq = state.at("next_seq").to_number<std::uint64_t>();
    contacts.clear();
    contacts.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
        boost::json::object c = model;
        char uuid[48];  // (count is below 10^12: 36 characters)
        std::snprintf(uuid, sizeof uuid, "c0000000-0000-4000-8000-%012zu", i);
        auto& data = c.at("data").as_object();
        data["uuid"] = uuid;
        data["email"] = "c" + std::to_string(i) + "@example.com";
        data["lastname"] = lastname;
        c["seq"] = seq++;
        contacts.push_back(std::move(c));
    }
    state["next_seq"] = seq;
    return boost::json::serialize(body);
}

}  // namespace esign::test
