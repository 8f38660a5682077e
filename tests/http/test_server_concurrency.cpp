// SPDX-License-Identifier: BSL-1.0
// Many clients at once, mixed operations, against one server process: every answer is the one
// a lone client would get, and no team ever sees another's envelopes. Run under ThreadSanitizer
// by the clang-tsan preset (label server).
#include "test_support.hpp"

#include <atomic>
#include <string>
#include <thread>
#include <vector>

namespace test_server_concurrency {

using namespace esign::test;

namespace {

std::string str(const boost::json::value& v, const char* member) {
    const auto* p = v.as_object().if_contains(member);
    return p && p->is_string() ? std::string(p->as_string()) : std::string();
}

// One client's whole story: its own team, envelopes, recipients, send, signatures, lists.
// Returns the number of answers that differed from what was expected.
int client_story(const std::string& host, unsigned short port, int id, std::vector<std::string>& envelopes_out) {
    int wrong = 0;
    auto expect = [&](bool ok) { wrong += ok ? 0 : 1; };
    const team t = create_team(host, port);
    http_connection c(host, port);  // keep-alive: every request of this client on one connection
    const auto auth = bearer(t.api_key);

    for (int e = 0; e < 3; ++e) {
        auto created = c.post("/_control/envelope/create",
                              R"({"title":"c)" + std::to_string(id) + "-" + std::to_string(e) +
                                  R"(","documents":[{"title":"d","pageCount":2}]})",
                              auth);
        expect(created.status == 200);
        if (created.status != 200) continue;
        const std::string uuid = str(created.json(), "envelopeUuid");
        envelopes_out.push_back(uuid);
        const std::string a = "a" + std::to_string(id) + "@x.io", b = "b" + std::to_string(id) + "@x.io";
        auto added = c.post("/public/envelope/add-recipients",
                            R"({"envelopeUuid":")" + uuid + R"(","recipients":[{"type":"manual","email":")" + a +
                                R"(","firstname":"A","lastname":"B"},{"type":"manual","email":")" + b +
                                R"(","firstname":"C","lastname":"D"}]})",
                            auth);
        expect(added.status == 200);
        // The same recipient again is refused and changes nothing.
        auto dup = c.post("/public/envelope/add-recipients",
                          R"({"envelopeUuid":")" + uuid + R"(","recipients":[{"type":"manual","email":")" + a +
                              R"(","firstname":"A","lastname":"B"}]})",
                          auth);
        expect(dup.status == 400 && dup.json().as_object().at("error").as_object().at("code") == "DUPLICATE_RECIPIENT");
        expect(c.post("/public/envelope/send", R"({"envelopeUuid":")" + uuid + R"("})", auth).status == 200);
        for (const auto& who : {a, b}) {
            auto act = post(host, port, "/_control/recipient/act",
                            R"({"envelopeUuid":")" + uuid + R"(","email":")" + who + R"(","action":"sign"})");
            expect(act.status == 200);
        }
        auto got = c.post("/public/envelope/get", R"({"envelopeUuid":")" + uuid + R"("})", auth);
        expect(got.status == 200 && got.json().as_object().at("status") == "complete" &&
               got.json().as_object().at("metrics").as_object().at("signatureCount") == 2);
    }
    auto listed = c.post("/public/envelope/list", "{}", auth);
    expect(listed.status == 200 && listed.json().as_object().at("pagination").as_object().at("totalRecords") == 3);
    auto logs = c.post("/public/logs/list", R"({"category":"envelope","eventTypes":["ENVELOPE_COMPLETED"]})", auth);
    expect(logs.status == 200 && logs.json().as_object().at("pagination").as_object().at("totalRecords") == 3);
    return wrong;
}

}  // namespace

TEST_CASE("concurrency: many clients with mixed operations get exact answers", "[http][server][concurrency]") {
    server_process server({"--threads", "4"});
    constexpr int clients = 8;
    std::atomic<int> wrong{0};
    std::vector<std::vector<std::string>> envelopes(clients);
    std::vector<std::thread> threads;
    for (int i = 0; i < clients; ++i)
        threads.emplace_back([&, i] {
            try {
                wrong += client_story(server.host(), server.port(), i, envelopes[i]);
            } catch (const std::exception&) {
                wrong += 100;
            }
        });
    for (auto& t : threads) t.join();
    CHECK(wrong.load() == 0);

    // Isolation: a new team sees none of those envelopes.
    const team outsider = create_team(server.host(), server.port());
    for (const auto& list : envelopes)
        for (const auto& uuid : list) {
            auto r = post(server.host(), server.port(), "/public/envelope/get", R"({"envelopeUuid":")" + uuid + R"("})",
                          bearer(outsider.api_key));
            CHECK(r.status == 400);
            CHECK(r.json().as_object().at("error").as_object().at("code") == "ENVELOPE_NOT_FOUND");
        }
    CHECK(server.stop() == 0);
}

}  // namespace test_server_concurrency
