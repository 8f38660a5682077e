// SPDX-License-Identifier: BSL-1.0
#pragma once
// What the in-process backend tests (tests/test_backend_*.cpp) share: calling the reference
// backend as a client would, reading its answers, and the bodies they keep writing.
#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/json.hpp>

#include <esign/reference/backend.hpp>
// The unit tests call handlers and read fixtures themselves (backend.hpp declares the backend only
// when the program compiles it once: ESIGN_SEPARATE_COMPILATION).
#include <esign/reference/fixture/fixture.hpp>
#include <esign/reference/handlers/all.hpp>
#include <esign/reference/handlers/embeds.hpp>
#include <esign/reference/handlers/harness.hpp>

namespace backend_support {

namespace bj = boost::json;
using esign::reference::backend;
using esign::reference::backend_options;

// The backend's clock in the tests, unless a test moves it.
inline constexpr std::int64_t start_ms = 1'800'000'000'000;

// A clock standing at start_ms, reproducible ids, and the self-check on (as in every backend of
// the tests): a response that breaks its own type fails the test with a 500.
inline backend_options fixed_clock(std::uint64_t seed) {
    backend_options o;
    o.wall_clock = [] { return start_ms; };
    o.seed = seed;
    o.self_check = true;
    return o;
}

// A reply of the backend, its body parsed.
struct answer {
    unsigned status = 0;
    bj::value body;

    const bj::object& obj() const { return body.as_object(); }

    // The error code; empty for a success.
    std::string code() const {
        const auto* error = body.is_object() ? body.as_object().if_contains("error") : nullptr;
        return error ? std::string(error->at("code").as_string()) : std::string();
    }

    // The paths of the error's details, each as its parts.
    std::vector<std::vector<std::string>> detail_paths() const {
        std::vector<std::vector<std::string>> paths;
        const auto* details = body.as_object().at("error").as_object().if_contains("details");
        if (!details) return paths;
        for (const auto& d : details->as_array()) {
            std::vector<std::string> path;
            for (const auto& part : d.at("path").as_array()) path.emplace_back(part.as_string());
            paths.push_back(std::move(path));
        }
        return paths;
    }
    bj::value detail_path(std::size_t i = 0) const { return body.at("error").at("details").at(i).at("path"); }
    std::size_t detail_count() const { return body.at("error").at("details").as_array().size(); }
};

inline void require_ok(const answer& a) {
    INFO(bj::serialize(a.body));
    REQUIRE(a.status == 200);
}

inline void require_error(const answer& a, unsigned status, std::string_view code) {
    INFO(bj::serialize(a.body));
    REQUIRE(a.status == status);
    REQUIRE(a.code() == code);
}

// One request to `path`, with the API key `key` (none for the control operations).
// Every failure of an operation must carry a code that the operation's row of the table lists
// (model/operations.hpp), so every test checks the table against what the backend answers.
inline answer request(backend& b, std::string_view path, std::optional<std::string_view> key, const bj::value& body) {
    auto r = b.handle(path, key, bj::serialize(body));
    if (r.dropped) return answer{0, bj::value()};  // a fault rule dropped it: no answer
    answer a{r.status, bj::parse(r.body)};
    // (an answer of a fault rule may carry any code: it is what the test asked for)
    if (a.status != 200 && r.fault_uuid.empty() && esign::find_operation(path)) {
        auto code = esign::enum_from_wire<esign::error_code>(a.code());
        INFO(path << " answered " << r.body);
        REQUIRE(code);
        CHECK(esign::operation_may_answer(path, *code));
    }
    return a;
}

// The same, an empty `key` meaning none.
inline answer post(backend& b, std::string_view path, const std::string& key, const bj::object& body = {}) {
    return request(b, path, key.empty() ? std::nullopt : std::optional<std::string_view>(key), body);
}

// A team as /_control/team/create returns it.
struct team {
    std::string key;
    std::string uuid;
    std::string default_ws;
    std::string owner_uuid;
    std::string owner_email;
};

inline team make_team(backend& b, const bj::object& body = {}) {
    auto a = request(b, "/_control/team/create", std::nullopt, body);
    require_ok(a);
    const auto& o = a.obj();
    return team{std::string(o.at("apiKey").as_string()), std::string(o.at("teamUuid").as_string()),
                std::string(o.at("defaultWorkspaceUuid").as_string()), std::string(o.at("ownerUuid").as_string()),
                std::string(o.at("ownerEmail").as_string())};
}

// An item of /public/envelope/add-recipients.
inline bj::object recipient(std::string email, std::string first = "Ada", std::string last = "Lovelace") {
    return {{"type", "manual"},
            {"email", std::move(email)},
            {"firstname", std::move(first)},
            {"lastname", std::move(last)}};
}

// A body of /public/webhook/create (and what `extra` adds or replaces).
inline bj::object webhook_body(bj::object extra = {}) {
    bj::object body{{"url", "https://hooks.example.com/esign"},
                    {"contentType", "application/json"},
                    {"sslVerify", true},
                    {"active", true}};
    for (auto& m : extra) body[m.key()] = m.value();
    return body;
}

// A JSON string, to compare with a member.
inline bj::value str(std::string_view s) { return bj::string(s); }

// An array of strings.
inline std::vector<std::string> strings(const bj::value& v) {
    std::vector<std::string> out;
    for (const auto& s : v.as_array()) out.emplace_back(s.as_string());
    return out;
}

// The string `member` of each item of an array.
inline std::vector<std::string> strings_at(const bj::value& array, std::string_view member) {
    std::vector<std::string> out;
    for (const auto& item : array.as_array()) out.emplace_back(item.at(member).as_string());
    return out;
}

// The recipient `email` of an envelope as envelope/get returns it.
inline const bj::object& recipient_of(const bj::object& envelope, std::string_view email) {
    for (const auto& r : envelope.at("recipients").as_array())
        if (r.at("email").as_string() == email) return r.as_object();
    FAIL("no recipient " << email);
    return envelope;  // not reached
}

// One backend and its first team, `main`; calls as that team's client, or as the tests' control.
struct client {
    backend b;
    team main;

    explicit client(backend_options options, const bj::object& team_body = {})
        : b(std::move(options)), main(backend_support::make_team(b, team_body)) {}

    answer raw(std::string_view path, std::optional<std::string_view> key, const bj::value& body) {
        return request(b, path, key, body);
    }
    answer call(std::string_view path, const bj::value& body) { return raw(path, main.key, body); }
    answer call_as(const team& t, std::string_view path, const bj::value& body) { return raw(path, t.key, body); }
    answer control(std::string_view path, const bj::value& body = bj::object{}) {
        return raw(path, std::nullopt, body);
    }

    team make_team(const bj::object& body = {}) { return backend_support::make_team(b, body); }

    bj::object get(const std::string& env) {
        auto a = call("/public/envelope/get", bj::object{{"envelopeUuid", env}});
        require_ok(a);
        return a.obj();
    }

    // The envelope logs (of `env`, else of every envelope of the team), in insertion order.
    bj::array logs(const std::optional<std::string>& env = std::nullopt) {
        bj::object body{{"category", "envelope"}, {"sortBy", "id"}, {"sortOrder", "asc"}};
        if (env) body["envelopeUuid"] = *env;
        auto a = call("/public/logs/list", body);
        require_ok(a);
        return a.obj().at("logs").as_array();
    }
    std::vector<std::string> log_types(const std::string& env) { return strings_at(logs(env), "eventType"); }

    // Moves the clock by `ms`; the new time.
    std::int64_t advance(std::int64_t ms) {
        auto a = control("/_control/clock/advance", bj::object{{"milliseconds", ms}});
        require_ok(a);
        return a.obj().at("now").as_int64();
    }
};

// A store built by hand, for what no public operation makes: the team "team" with its default
// workspace "ws", and a handler context on it at start_ms.
struct hand_built {
    esign::reference::state st;
    esign::reference::id_source ids{1};
    backend_options options;
    std::vector<esign::reference::webhook_job> jobs;
    esign::reference::team_record& team;
    esign::reference::context c;

    hand_built() : team(st.teams["team"]), c{st, &team, start_ms, ids, options, jobs} {
        team.uuid = "team";
        team.default_workspace_uuid = "ws";
        st.workspaces["ws"] =
            esign::reference::workspace_record{"ws", "team", "Default", "#228be6", true, false, 0, 0, 1};
    }

    // A draft of the workspace with `recipients`, its uuid "eee...e".
    esign::reference::envelope_record& envelope(std::vector<esign::reference::recipient_record> recipients) {
        esign::reference::envelope_record env;
        env.uuid = std::string(36, 'e');
        env.team_uuid = "team";
        env.workspace_uuid = "ws";
        env.recipients = std::move(recipients);
        return st.envelopes[env.uuid] = std::move(env);
    }
};

}  // namespace backend_support
