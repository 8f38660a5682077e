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

// The team and its snapshot, as /_control/team/snapshot gave it.
struct team_with_envelopes {
    esign_bench::team_of_sent_envelopes team{envelope_count};
    esign::reference::backend& backend = team.backend;
    const std::string& key = team.key;
    std::string snapshot = backend.handle("/_control/team/snapshot", key, "{}").body;
};

team_with_envelopes& shared_team() {
    static team_with_envelopes team;
    return team;
}

void snapshot_1000(benchmark::State& state) {
    auto& t = shared_team();
    if (!t.team.built) state.SkipWithError("the team was not made");
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
        if (!esign_bench::team_of_sent_envelopes::build(t.backend, key, envelope_count))
            state.SkipWithError("rebuild failed");
    }
}

}  // namespace

BENCHMARK(snapshot_1000)->Unit(benchmark::kMillisecond);
BENCHMARK(restore_1000)->Unit(benchmark::kMillisecond);
// A fixed number of iterations: reset's untimed restore before each, and rebuild's new team each
// time, would otherwise run for minutes to fill the minimum time.
BENCHMARK(reset_1000)->Unit(benchmark::kMillisecond)->Iterations(30);
BENCHMARK(rebuild_1000)->Unit(benchmark::kMillisecond)->Iterations(10);
