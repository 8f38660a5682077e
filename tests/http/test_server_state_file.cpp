// SPDX-License-Identifier: BSL-1.0
// Black-box tests of --state-file and --save-interval (contract.md §7.3): a team survives a
// restart whole (keys, snapshot bytes, queued deliveries, which are attempted afterwards); a kill
// at any moment leaves a file the next start loads whole; a file or folder that cannot serve
// stops the start and is left as it was.
#include "cli.hpp"
#include "hook_receiver.hpp"
#include "test_support.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace test_server_state_file {

using namespace esign::test;
using namespace std::chrono_literals;
using boost::json::array;
using boost::json::object;

namespace {

constexpr std::int64_t day = 86'400'000;

// A folder of its own, removed with what it holds at the end of the test.
struct temp_dir {
    std::string path;
    temp_dir() {
        std::string name = "/tmp/esign-state-XXXXXX";
        REQUIRE(::mkdtemp(name.data()) != nullptr);
        path = name;
    }
    temp_dir(const temp_dir&) = delete;
    temp_dir& operator=(const temp_dir&) = delete;
    ~temp_dir() {
        std::error_code ec;
        std::filesystem::permissions(path, std::filesystem::perms::owner_all, ec);
        std::filesystem::remove_all(path, ec);
    }
};

std::string bytes_of(const std::string& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return std::move(text).str();
}

void write_file(const std::string& file, const std::string& bytes) { std::ofstream(file, std::ios::binary) << bytes; }

bool exists(const std::string& path) { return std::filesystem::exists(path); }

std::string envelope(api_caller& api, bool with_signer) {
    std::string env = string_member(
        api.ok("/_control/envelope/create",
               object{{"title", "Contract"}, {"documents", array{object{{"title", "Main"}, {"pageCount", 1}}}}}),
        "envelopeUuid");
    if (with_signer)
        api.ok("/public/envelope/add-recipients",
               object{{"envelopeUuid", env},
                      {"recipients",
                       array{object{
                           {"type", "manual"}, {"email", "s@example.com"}, {"firstname", "S"}, {"lastname", "T"}}}}});
    return env;
}

std::string sent(api_caller& api) {
    const auto env = envelope(api, true);
    api.ok("/public/envelope/send", object{{"envelopeUuid", env}});
    return env;
}

void act(api_caller& api, const std::string& env, const char* action) {
    api.ok("/_control/recipient/act", object{{"envelopeUuid", env}, {"email", "s@example.com"}, {"action", action}});
}

// Envelopes in every status, a template, a contact.
void populate(api_caller& api) {
    sent(api);  // expires below
    api.ok("/_control/clock/advance", object{{"milliseconds", 31 * day}});
    envelope(api, false);  // draft
    sent(api);             // signing
    const auto complete = sent(api);
    act(api, complete, "open");
    act(api, complete, "sign");
    act(api, sent(api), "decline");
    api.ok("/_control/envelope/cancel", object{{"envelopeUuid", sent(api)}});
    api.ok("/_control/template/create", object{{"title", "T"},
                                               {"recipientLabels", array{"client"}},
                                               {"documents", array{object{{"title", "D"}, {"pageCount", 2}}}}});
    api.ok("/public/contact/create",
           object{{"contacts", array{object{{"email", "c@example.com"}, {"firstname", "C"}, {"lastname", "D"}}}}});
}

// A new team of the server (/_control/team/create).
boost::json::object control_ok_of(server_process& srv) {
    auto r = post(srv.host(), srv.port(), "/_control/team/create", "{}");
    INFO(r.body);
    REQUIRE(r.status == 200);
    return r.json().as_object();
}

// The link token of each e-mail of the team's outbox, by envelope, recipient and kind.
std::map<std::string, std::string> link_tokens(api_caller& api) {
    std::map<std::string, std::string> out;
    const auto emails = at(api.ok("/_control/outbox/list", object{}), "/emails");
    for (const auto& mail : emails.as_array()) {
        const std::string url = string_member(mail, "signingUrl");
        if (url.find("#t=") == std::string::npos) continue;  // (only e-mails to sign or act have one)
        out[string_member(mail, "envelopeUuid") + " " + string_member(mail, "to") + " " + string_member(mail, "kind")] =
            url.substr(url.find("#t=") + 3);
    }
    return out;
}

// The team's snapshot, as the server wrote it.
std::string snapshot(api_caller& api) {
    auto r = api.call("/_control/team/snapshot", object{});
    INFO(r.body);
    REQUIRE(r.status == 200);
    return r.body;
}

}  // namespace

TEST_CASE("state file: after SIGTERM and a start with the same file, the same keys, snapshot bytes and deliveries",
          "[server][state-file]") {
    temp_dir dir;
    const std::string file = dir.path + "/state.json";
    hook_receiver rx({204, 1, false});  // fails the first attempt: its retry stays queued
    std::string key, pair, before, live;
    std::map<std::string, std::string> links;  // the e-mails' link tokens
    {
        test_server srv({"--state-file", file});  // a first run: no file yet
        // A frozen clock: the retry (due 500 ms later on it) waits for a clock advance.
        const auto created = control_ok(srv, "/_control/team/create", object{{"startTime", 1'800'000'000'000}});
        key = string_member(created, "apiKey");
        pair = string_member(created, "accessKey") + ":" + string_member(created, "secretKey");
        api_caller api{srv, key};
        populate(api);
        live = sent(api);  // still signing
        api.ok("/public/webhook/create", object{{"url", rx.url()},
                                                {"contentType", "application/json"},
                                                {"sslVerify", false},
                                                {"active", true},
                                                {"events", array{"ENVELOPE_CREATED"}}});
        envelope(api, false);  // one delivery
        REQUIRE(rx.wait_for(1, 10s));
        links = link_tokens(api);
        REQUIRE(eventually(
            [&] {
                const auto state = at(boost::json::parse(snapshot(api)), "/team/state");
                const auto pending = at(state, "/pending_deliveries");
                return pending.is_array() && pending.as_array().size() == 1 &&
                       at(state, "/pending_deliveries/0/attempt") == 2;
            },
            10s));
        before = snapshot(api);
        CHECK(!exists(file));  // saved at the stop, not before (no --save-interval)
        CHECK(srv.stop() == 0);
    }
    REQUIRE(exists(file));
    struct stat st {};
    REQUIRE(::stat(file.c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0600);  // it holds the teams' keys
    CHECK(!exists(file + ".tmp"));

    test_server srv({"--state-file", file});
    api_caller api{srv, key};
    CHECK(snapshot(api) == before);
    success_body(srv.post("/public/utils/whoami", "{}", bearer(pair)), "whoami with the access key");
    // The e-mails' links too: the same tokens, and the one of the envelope still signing opens
    // its recipient's page.
    CHECK(link_tokens(api) == links);
    REQUIRE(links.size() >= 6);
    const std::string link = links.at(live + " s@example.com invitation");
    const auto started =
        success_body(srv.post("/embeds/session/start", boost::json::serialize(object{{"token", link}})), "start");
    const auto page =
        success_body(srv.post("/embeds/envelope/get",
                              boost::json::serialize(object{{"session", string_member(started, "session")}})),
                     "page");
    CHECK(at(page, "/recipient/email") == "s@example.com");
    CHECK(string_member(at(page, "/envelope"), "uuid") == live);
    CHECK(rx.requests().size() == 1);
    // The queued retry, due on the team's clock, is attempted once the clock reaches it.
    api.ok("/_control/clock/advance", object{{"milliseconds", 1000}});
    REQUIRE(rx.wait_for(2, 10s));
    CHECK(rx.requests().at(1).body == rx.requests().at(0).body);
}

// Kills at random moments, while requests change the team and the server saves every second:
// every start must load a whole file (a torn one would stop the start), holding at least what
// the previous start loaded and at most that plus what was written since. Four servers at once
// (each its own file) to have 52 rounds of about a second each in about 15 s, then one more
// start each that outlives three save intervals.
TEST_CASE("state file: killed with SIGKILL at any moment, the server starts again with a whole state",
          "[server][state-file]") {
    constexpr int lanes = 4;
    constexpr int rounds = 13;
    temp_dir dir;
    const unsigned seed = std::random_device{}();
    INFO("seed " << seed);
    struct lane_result {
        int rounds = 0;
        std::size_t loaded = 0;  // envelopes at the last start, after a periodic save
        std::vector<std::string> failures;
    };
    std::vector<lane_result> results(lanes);
    const auto started = std::chrono::steady_clock::now();
    std::vector<std::thread> threads;
    for (int lane = 0; lane < lanes; ++lane)
        threads.emplace_back([&, lane] {
            // (No Catch2 assertions off the test's thread: what fails is collected.)
            lane_result& out = results[lane];
            auto fail = [&](int round, const std::string& what) {
                out.failures.push_back("lane " + std::to_string(lane) + " round " + std::to_string(round) + ": " +
                                       what);
            };
            try {
                const std::string file = dir.path + "/lane" + std::to_string(lane) + ".json";
                std::string key;
                {
                    server_process srv({"--state-file", file, "--threads", "2"});
                    auto r = post(srv.host(), srv.port(), "/_control/team/create", "{}");
                    key = string_member(r.json(), "apiKey");
                    if (const int status = srv.stop(); status != 0 || key.empty())
                        return fail(-1, "first run: exit status " + std::to_string(status) + ", " + r.body);
                }
                // The snapshot's status on a server just started, and the team's envelopes then.
                auto envelopes_on = [&](const server_process& srv) -> std::pair<unsigned, std::size_t> {
                    auto r = post(srv.host(), srv.port(), "/_control/team/snapshot", "{}", bearer(key));
                    if (r.status != 200) return {r.status, 0};
                    const auto envelopes = at(r.json(), "/team/state/envelopes");
                    return {r.status, envelopes.is_object() ? envelopes.as_object().size() : 0};
                };
                auto create_envelope = [&](const server_process& srv) {
                    return post(srv.host(), srv.port(), "/_control/envelope/create",
                                R"({"title":"t","documents":[{"title":"d","pageCount":1}]})", bearer(key))
                        .status;
                };
                std::mt19937 rng(seed + static_cast<unsigned>(lane));
                std::uniform_int_distribution<int> kill_after_ms(300, 1500);
                std::size_t loaded = 0;   // envelopes at the previous start
                std::size_t written = 0;  // acknowledged since
                for (int round = 0; round < rounds; ++round) {
                    server_process srv({"--state-file", file, "--save-interval", "1", "--threads", "2"});
                    const auto [status, now] = envelopes_on(srv);
                    if (status != 200) return fail(round, "the team's key: " + std::to_string(status));
                    // (+1: a request under way when the kill came may have been saved unanswered.)
                    if (now < loaded || now > loaded + written + 1)
                        return fail(round, std::to_string(now) + " envelopes, expected " + std::to_string(loaded) +
                                               " to " + std::to_string(loaded + written + 1));
                    loaded = now;
                    out.loaded = now;
                    written = 0;
                    const auto kill_at =
                        std::chrono::steady_clock::now() + std::chrono::milliseconds(kill_after_ms(rng));
                    while (std::chrono::steady_clock::now() < kill_at) {
                        if (create_envelope(srv) == 200) ++written;
                        std::this_thread::sleep_for(5ms);  // steady, not flooding a shared machine
                    }
                    srv.stop(SIGKILL);
                    ++out.rounds;
                }
                // Last, a server that outlives three save intervals before its kill: the periodic
                // save did write (the random kills above may all have come before one, on a
                // loaded machine), and the next start loads what it wrote.
                {
                    server_process srv({"--state-file", file, "--save-interval", "1", "--threads", "2"});
                    if (const unsigned status = create_envelope(srv); status != 200)
                        return fail(rounds, "envelope/create: " + std::to_string(status));
                    std::this_thread::sleep_for(3s);
                    srv.stop(SIGKILL);
                }
                server_process srv({"--state-file", file, "--threads", "2"});
                const auto [status, now] = envelopes_on(srv);
                if (status != 200) return fail(rounds, "the team's key: " + std::to_string(status));
                if (now < loaded + 1)
                    return fail(rounds, std::to_string(now) + " envelopes after the periodic save, expected at least " +
                                            std::to_string(loaded + 1));
                out.loaded = now;
            } catch (const std::exception& e) {
                fail(out.rounds, e.what());
            }
        });
    for (auto& t : threads) t.join();
    for (const auto& r : results) {
        for (const auto& f : r.failures) FAIL_CHECK(f);
        CHECK(r.rounds == rounds);
        CHECK(r.loaded > 0);
    }
    CHECK(std::chrono::steady_clock::now() - started < 60s);
}

TEST_CASE("state file: a malformed file, a missing or read-only folder stop the start, the file left as it was",
          "[server][state-file]") {
    temp_dir dir;
    const std::string file = dir.path + "/state.json";
    {
        test_server srv({"--state-file", file});
        control_ok(srv, "/_control/team/create");
    }
    const std::string good = bytes_of(file);
    REQUIRE(!good.empty());

    auto refused = [&](const std::string& state_file, const std::string& expected) {
        const std::string bytes = exists(state_file) ? bytes_of(state_file) : std::string();
        auto r = run_to_exit({"--listen", "127.0.0.1:0", "--state-file", state_file});
        INFO(r.err);
        CHECK(r.status == 2);
        CHECK(r.err.find(expected) != std::string::npos);
        CHECK(r.out.find("listening") == std::string::npos);
        if (!bytes.empty()) CHECK(bytes_of(state_file) == bytes);
        CHECK(!exists(state_file + ".tmp"));
    };
    SECTION("a member deep inside a team: its path") {
        auto doc = boost::json::parse(good);
        doc.at("teams").at(0).at("team").at("state").as_object()["clock_offset"] = "soon";
        write_file(file, boost::json::serialize(doc));
        refused(file, "at /teams/0/team/state/clock_offset:");
    }
    SECTION("not JSON") {
        write_file(file, good.substr(0, good.size() / 2));
        refused(file, "--state-file " + file + ": refused");
    }
    SECTION("another format") {
        write_file(file, R"({"format":"esign-state/99","teams":{}})");
        refused(file, "at /format:");
    }
    SECTION("a missing folder") {
        refused(dir.path + "/missing/state.json", "cannot use the folder '" + dir.path + "/missing'");
        CHECK(!exists(dir.path + "/missing"));
    }
    SECTION("a folder where no file can be made") {
        // (/proc refuses new files even to root, who writes in any folder whatever its mode.)
        refused("/proc/esign-state.json", "cannot write in the folder '/proc'");
        if (::geteuid() != 0) {
            std::filesystem::permissions(dir.path,
                                         std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
            refused(file, "cannot write in the folder");
        }
    }
    SECTION("--save-interval without --state-file") {
        auto r = run_to_exit({"--listen", "127.0.0.1:0", "--save-interval", "5"});
        CHECK(r.status == 2);
        CHECK(r.err.find("--save-interval needs --state-file") != std::string::npos);
    }
}

TEST_CASE("state file: SIGINT saves too, and a save that fails at the stop is exit status 1", "[server][state-file]") {
    temp_dir dir;
    const std::string folder = dir.path + "/sub";
    std::filesystem::create_directory(folder);
    const std::string file = folder + "/state.json";
    std::string key;
    {
        server_process srv({"--state-file", file});
        key = string_member(control_ok_of(srv), "apiKey");
        CHECK(srv.stop(SIGINT) == 0);
    }
    REQUIRE(exists(file));
    CHECK(bytes_of(file).find(key) != std::string::npos);

    server_process srv({"--state-file", file});
    std::filesystem::remove_all(folder);  // the save at the stop cannot be written
    CHECK(srv.stop() == 1);
}

TEST_CASE("state file: the command line", "[server][state-file][cli]") {
    using esign::server::command_line;
    auto parse = [](std::vector<std::string_view> args) { return esign::server::parse_command_line(args); };
    auto refused = [&](std::vector<std::string_view> args) {
        return std::holds_alternative<esign::server::command_line_error>(parse(std::move(args)));
    };
    const auto none = std::get<command_line>(parse({}));
    CHECK_FALSE(none.state_file);
    CHECK_FALSE(none.save_interval);
    const auto both =
        std::get<command_line>(parse({"--state-file", "/var/lib/esign/state.json", "--save-interval=30"}));
    CHECK(both.state_file == "/var/lib/esign/state.json");
    CHECK(both.save_interval == 30u);
    CHECK(refused({"--state-file", ""}));
    CHECK(refused({"--state-file"}));
    CHECK(refused({"--state-file", "s.json", "--save-interval", "0"}));
    CHECK(refused({"--state-file", "s.json", "--save-interval", "86401"}));
    CHECK(refused({"--save-interval", "5"}));  // without a file to save to
    const std::string usage(esign::server::usage_text);
    CHECK(usage.find("--state-file FILE") != std::string::npos);
    CHECK(usage.find("--save-interval SECONDS") != std::string::npos);
}

}  // namespace test_server_state_file
