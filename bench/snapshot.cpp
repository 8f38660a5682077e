// SPDX-License-Identifier: BSL-1.0
// Snapshots and resets of a team (contract.md §6.6, §6.3): /_control/team/snapshot,
// /_control/team/restore and /_control/team/reset in-process, for a team holding 1,000
// envelopes (each with a recipient, sent, so with logs and outbox e-mails), side by side with
// the alternative a suite has without them: building the same 1,000 envelopes again.
//
//   ./build/bench/esign_bench_snapshot --benchmark_repetitions=5 --benchmark_enable_random_interleaving=true
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <string>

#include <boost/json.hpp>

#include <esign/reference/backend.hpp>

#include "in_process.hpp"

namespace {

constexpr int envelope_count = 1000;

struct team_with_envelopes {
    esign::reference::backend backend;
    std::string key;
    std::string snapshot;  // the team as /_control/team/snapshot gave it

    team_with_envelopes() : backend(esign_bench::still_backend_options()), key(esign_bench::new_team_key(backend)) {
        build(backend, key);
        backend.handle("/_control/team/reset", key, "{}");  // reset returns to the empty team...
        build(backend, key);                                // ...so the state is built after it
        snapshot = backend.handle("/_control/team/snapshot", key, "{}").body;
    }

    // The team's 1,000 envelopes, sent; false when a request failed.
    static bool build(esign::reference::backend& b, const std::string& key) {
        for (int i = 0; i < envelope_count; ++i) {
            auto made = b.handle("/_control/envelope/create", key,
                                 R"({"title":"Contract","documents":[{"title":"d","pageCount":2}]})");
            if (made.status != 200) return false;
            const std::string env(boost::json::parse(made.body).at("envelopeUuid").as_string());
            const std::string uuid = R"({"envelopeUuid":")" + env + '"';
            if (b.handle(
                     "/public/envelope/add-recipients", key,
                     uuid +
                         R"(,"recipients":[{"type":"manual","email":"s@example.com","firstname":"S","lastname":"T"}]})")
                    .status != 200)
                return false;
            if (b.handle("/public/envelope/send", key, uuid + "}").status != 200) return false;
        }
        return true;
    }
};

team_with_envelopes& shared_team() {
    static team_with_envelopes team;
    return team;
}

void snapshot_1000(benchmark::State& state) {
    auto& t = shared_team();
    for (auto _ : state) {
        auto r = t.backend.handle("/_control/team/snapshot", t.key, "{}");
        if (r.status != 200) state.SkipWithError("snapshot failed");
        benchmark::DoNotOptimize(r.body.data());
    }
    state.counters["bytes"] = static_cast<double>(t.snapshot.size());
}

void restore_1000(benchmark::State& state) {
    auto& t = shared_team();
    for (auto _ : state) {
        auto r = t.backend.handle("/_control/team/restore", t.key, t.snapshot);
        if (r.status != 200) state.SkipWithError("restore failed");
    }
}

void reset_1000(benchmark::State& state) {
    auto& t = shared_team();
    for (auto _ : state) {
        state.PauseTiming();
        t.backend.handle("/_control/team/restore", t.key, t.snapshot);  // 1,000 envelopes again
        state.ResumeTiming();
        auto r = t.backend.handle("/_control/team/reset", t.key, "{}");
        if (r.status != 200) state.SkipWithError("reset failed");
    }
}

// Without snapshots: the same state made again request by request, in a new team.
void rebuild_1000(benchmark::State& state) {
    auto& t = shared_team();
    for (auto _ : state) {
        const std::string key = esign_bench::new_team_key(t.backend);
        if (!team_with_envelopes::build(t.backend, key)) state.SkipWithError("rebuild failed");
    }
}

}  // namespace

BENCHMARK(snapshot_1000)->Unit(benchmark::kMillisecond);
BENCHMARK(restore_1000)->Unit(benchmark::kMillisecond);
// A fixed number of iterations: reset's untimed restore before each, and rebuild's new team each
// time, would otherwise run for minutes to fill the minimum time.
BENCHMARK(reset_1000)->Unit(benchmark::kMillisecond)->Iterations(30);
BENCHMARK(rebuild_1000)->Unit(benchmark::kMillisecond)->Iterations(10);
