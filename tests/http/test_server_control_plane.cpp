// SPDX-License-Identifier: BSL-1.0
// Black-box tests of the operator's side of the control plane (contract.md §6.2, §6.9): where
// the control token may come from (a file, the environment, the command line: one of them),
// --max-teams, and the operator's teamUuid when restored snapshots put one envelope in two teams.
#include "test_support.hpp"

#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace test_server_control_plane {

using namespace esign::test;

namespace {

// ESIGN_CONTROL_TOKEN set while it lives (servers started meanwhile inherit it).
struct token_in_environment {
    explicit token_in_environment(const char* value) { ::setenv("ESIGN_CONTROL_TOKEN", value, 1); }
    ~token_in_environment() { ::unsetenv("ESIGN_CONTROL_TOKEN"); }
};

// The operator is `token`: team/create needs it, and nothing else makes the operator.
void check_operator_token(test_server& srv, const std::string& token) {
    check_error(srv.post("/_control/team/create", "{}"), 401, "AUTHENTICATION_ERROR", "/_control/team/create",
                details::none);
    check_error(srv.post("/_control/team/create", "{}", bearer(token + "x")), 401, "AUTHENTICATION_ERROR",
                "/_control/team/create", details::none);
    CHECK(srv.post("/_control/team/create", "{}", bearer(token)).status == 200);
    CHECK(srv.post("/_control/reset", "{}", bearer(token)).status == 200);
}

}  // namespace

TEST_CASE("control plane: the control token from a file", "[http][server][control-plane]") {
    temp_file file("tok-from-file\n");  // one trailing newline removed
    test_server srv({"--control-token-file", file.path});
    check_operator_token(srv, "tok-from-file");
}

TEST_CASE("control plane: the control token from ESIGN_CONTROL_TOKEN", "[http][server][control-plane]") {
    token_in_environment env("tok-from-env");
    test_server srv;
    check_operator_token(srv, "tok-from-env");
}

TEST_CASE("control plane: one source of the control token, and a usable one", "[http][server][control-plane]") {
    temp_file file("tok-a\n");
    temp_file empty("\n");
    auto refused = [](const std::vector<std::string>& args, std::string_view says) {
        auto r = run_to_exit(args);
        INFO(r.err);
        CHECK(r.status == 2);
        CHECK(r.err.find(says) != std::string::npos);
        CHECK(r.out.empty());  // never started listening
    };
    refused({"--control-token", "tok-b", "--control-token-file", file.path}, "more than one");
    refused({"--control-token-file", empty.path}, "empty");
    refused({"--control-token-file", file.path + ".absent"}, "cannot open");
    {
        token_in_environment env("tok-c");
        refused({"--control-token", "tok-b"}, "more than one");
        refused({"--control-token-file", file.path}, "more than one");
    }
    temp_file spaced("tok d\n");
    refused({"--control-token-file", spaced.path}, "without spaces");
}

TEST_CASE("control plane: --help shows the token file first, and --max-teams", "[http][server][control-plane]") {
    auto r = run_to_exit({"--help"});
    REQUIRE(r.status == 0);
    const auto file = r.out.find("--control-token-file FILE");
    const auto flag = r.out.find("--control-token TOKEN");
    REQUIRE(file != std::string::npos);
    REQUIRE(flag != std::string::npos);
    CHECK(file < flag);
    CHECK(r.out.find("ESIGN_CONTROL_TOKEN") != std::string::npos);
    CHECK(r.out.find("--max-teams N") != std::string::npos);
}

TEST_CASE("control plane: --max-teams", "[http][server][control-plane]") {
    test_server srv({"--max-teams", "2"});
    for (int i = 0; i < 2; ++i) CHECK(srv.post("/_control/team/create", "{}").status == 200);
    auto full = srv.post("/_control/team/create", "{}");
    check_error(full, 429, "TEAM_LIMIT_REACHED", "/_control/team/create", details::none);
    CHECK(at(full.json(), "/statusCode") == 429);
    CHECK(srv.post("/_control/reset", "{}").status == 200);  // frees the places
    for (int i = 0; i < 2; ++i) CHECK(srv.post("/_control/team/create", "{}").status == 200);
    check_error(srv.post("/_control/team/create", "{}"), 429, "TEAM_LIMIT_REACHED", "/_control/team/create",
                details::none);
}

TEST_CASE("control plane: the operator names the team of an envelope two teams hold", "[http][server][control-plane]") {
    test_server srv;
    api_caller a{srv, srv.new_team().api_key};
    const auto b_team = srv.new_team();
    api_caller b{srv, b_team.api_key};
    const std::string env(a.ok("/_control/envelope/create",
                               boost::json::parse(R"({"title":"C","documents":[{"title":"D","pageCount":1}]})"))
                              .at("envelopeUuid")
                              .as_string());
    a.ok("/public/envelope/add-recipients",
         boost::json::object{{"envelopeUuid", env},
                             {"recipients", boost::json::parse(R"([{"type":"manual","email":"s@example.com",
                                                                    "firstname":"S","lastname":"L"}])")}});
    a.ok("/public/envelope/send", boost::json::object{{"envelopeUuid", env}});
    const auto snapshot = a.ok("/_control/team/snapshot", boost::json::object{});
    b.ok("/_control/team/restore", boost::json::object{{"team", snapshot.at("team")}});

    boost::json::object sign{{"envelopeUuid", env}, {"email", "s@example.com"}, {"action", "sign"}};
    auto ambiguous = srv.post("/_control/recipient/act", boost::json::serialize(sign));
    check_error(ambiguous, 400, "INVALID_REQUEST_FORMAT", "/_control/recipient/act");
    CHECK(has_detail(ambiguous, R"(["teamUuid"])"));
    auto status_in = [&](api_caller& t) {
        return std::string(
            t.ok("/public/envelope/get", boost::json::object{{"envelopeUuid", env}}).at("status").as_string());
    };
    CHECK(status_in(a) == "signing");
    CHECK(status_in(b) == "signing");

    sign["teamUuid"] = b_team.team_uuid;
    CHECK(control_ok(srv, "/_control/recipient/act", sign).at("envelopeStatus") == "complete");
    CHECK(status_in(a) == "signing");
    CHECK(status_in(b) == "complete");
    // A team's key may name its own team only.
    auto other =
        a.call("/_control/envelope/cancel", boost::json::object{{"envelopeUuid", env}, {"teamUuid", b_team.team_uuid}});
    check_error(other, 400, "INVALID_REQUEST_FORMAT", "/_control/envelope/cancel");
    CHECK(has_detail(other, R"(["teamUuid"])"));
    CHECK(status_in(a) == "signing");
}

}  // namespace test_server_control_plane
