// SPDX-License-Identifier: BSL-1.0
// Teams in parallel (contract.md §6.1): the same mix of reads and writes from 8 threads, all in
// one team or each in its own, in-process and (with ESIGN_SERVER set to the server's path) over
// HTTP. Requests of different teams do not wait for each other, so 8 teams are at least as
// fast as 1; in one team, writes exclude each other and the reads around them.
//
//   ./build/bench/esign_bench_tenancy --benchmark_repetitions=5 --benchmark_enable_random_interleaving=true
//   ESIGN_SERVER=build/gcc/examples/esign-reference-server ./build/bench/esign_bench_tenancy ...
//
// The mix per iteration: envelope/get, envelope/list (page 1), utils/whoami (reads) and
// envelope/update (a write), each team holding 50 envelopes.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <boost/json.hpp>

#include <esign/reference/backend.hpp>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "../tests/http/server_process.hpp"

namespace {

constexpr int team_count = 8;
constexpr int envelopes_per_team = 50;

struct team_data {
    std::string key;
    std::vector<std::string> envelopes;
};

// Something that answers (path, key, body) with a status: the backend in-process, or the server.
template <class Call>
std::vector<team_data> make_teams(Call&& call) {
    std::vector<team_data> teams;
    for (int t = 0; t < team_count; ++t) {
        team_data team;
        team.key = std::string(boost::json::parse(call("/_control/team/create", "", "{}")).at("apiKey").as_string());
        for (int e = 0; e < envelopes_per_team; ++e) {
            auto body = call("/_control/envelope/create", team.key,
                             R"({"title":"e","documents":[{"title":"d","pageCount":1}]})");
            team.envelopes.emplace_back(boost::json::parse(body).at("envelopeUuid").as_string());
        }
        teams.push_back(std::move(team));
    }
    return teams;
}

// One iteration of the mix for `team`; the number of answers that were not 200.
template <class Call>
int mix(Call&& call, const team_data& team, std::size_t i) {
    const std::string& env = team.envelopes[i % team.envelopes.size()];
    int bad = 0;
    bad += call("/public/envelope/get", team.key, R"({"envelopeUuid":")" + env + R"("})") != 200;
    bad += call("/public/envelope/list", team.key, R"({"limit":10})") != 200;
    bad += call("/public/utils/whoami", team.key, "{}") != 200;
    bad += call("/public/envelope/update", team.key,
                R"({"envelopeUuid":")" + env + R"(","update":{"title":"t)" + std::to_string(i % 7) + R"("}})") != 200;
    return bad;
}

// The benchmark loop: thread i in team i (range(0) = 8) or every thread in team 0 (range(0) = 1).
template <class Call>
void run_mix(benchmark::State& state, const std::vector<team_data>& teams, Call&& call) {
    const bool own_team = state.range(0) > 1;
    const team_data& team = teams[own_team ? static_cast<std::size_t>(state.thread_index()) % team_count : 0];
    std::size_t i = 0;
    int bad = 0;
    for (auto _ : state) bad += mix(call, team, i++);
    if (bad) state.SkipWithError("an answer was not 200");
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * 4);
}

// ---- in-process ---------------------------------------------------------------------------

struct in_process {
    esign::reference::backend backend;
    std::vector<team_data> teams;

    in_process() {
        teams = make_teams([&](std::string_view path, const std::string& key, std::string_view body) {
            auto r = backend.handle(path, key.empty() ? std::nullopt : std::optional<std::string_view>(key), body);
            return r.body;
        });
    }
    static in_process& get() {
        static in_process instance;
        return instance;
    }
};

void BM_in_process(benchmark::State& state) {
    auto& world = in_process::get();
    run_mix(state, world.teams, [&](std::string_view path, const std::string& key, std::string_view body) {
        return world.backend.handle(path, std::string_view(key), body).status;
    });
}
BENCHMARK(BM_in_process)->ArgName("teams")->Arg(1)->Arg(8)->Threads(8)->UseRealTime();

// ---- over HTTP (one keep-alive connection per thread) --------------------------------------

namespace http = boost::beast::http;
using tcp = boost::asio::ip::tcp;

// A plain keep-alive client: nothing but the requests (no logging, no shared state).
class connection {
public:
    connection(const std::string& host, unsigned short port) : socket_(ioc_) {
        tcp::resolver resolver(ioc_);
        boost::asio::connect(socket_, resolver.resolve(host, std::to_string(port)));
    }
    // The status and the body.
    std::pair<unsigned, std::string> post(std::string_view path, const std::string& key, std::string_view body) {
        http::request<http::string_body> req{http::verb::post, std::string(path), 11};
        req.set(http::field::host, "bench");
        req.set(http::field::content_type, "application/json");
        if (!key.empty()) req.set(http::field::authorization, "Bearer " + key);
        req.body() = std::string(body);
        req.prepare_payload();
        http::write(socket_, req);
        http::response<http::string_body> res;
        http::read(socket_, buffer_, res);
        return {res.result_int(), std::move(res.body())};
    }

private:
    boost::asio::io_context ioc_;
    tcp::socket socket_;
    boost::beast::flat_buffer buffer_;
};

struct over_http {
    std::unique_ptr<esign::test::server_process> server;
    std::vector<team_data> teams;

    over_http() {
        server = std::make_unique<esign::test::server_process>(std::vector<std::string>{"--threads", "2"});
        connection c(server->host(), server->port());
        teams = make_teams([&](std::string_view path, const std::string& key, std::string_view body) {
            return c.post(path, key, body).second;
        });
    }
    static over_http& get() {
        static over_http instance;
        return instance;
    }
};

void BM_over_http(benchmark::State& state) {
    auto& world = over_http::get();
    connection client(world.server->host(), world.server->port());
    run_mix(state, world.teams, [&](std::string_view path, const std::string& key, std::string_view body) {
        return client.post(path, key, body).first;
    });
}
// Only with a server to start (the smoke run of CTest has none). The server is started here, on
// the main thread: the child dies with the thread that started it (PR_SET_PDEATHSIG), and the
// benchmark's own threads end after every run.
const bool over_http_registered = std::getenv("ESIGN_SERVER") != nullptr && (over_http::get(), true) &&
                                  benchmark::RegisterBenchmark("BM_over_http", BM_over_http)
                                          ->ArgName("teams")
                                          ->Arg(1)
                                          ->Arg(8)
                                          ->Threads(8)
                                          ->UseRealTime() != nullptr;

}  // namespace
