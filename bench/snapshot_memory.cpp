// SPDX-License-Identifier: BSL-1.0
// The memory a team's snapshot takes (contract.md §6.6, §6.7; issue 40): the most bytes live at
// once while /_control/team/snapshot runs, above those live before, against the answer's size,
// for teams of 1,000 and 4,000 sent envelopes: the team's first snapshot, and a later one. Counted by fuzz/counting_allocator.hpp, which
// replaces operator new in this program alone (so its timings are not the snapshot's: see
// snapshot.cpp for those).
//
//   ./build/bench/esign_bench_snapshot_memory
#include <benchmark/benchmark.h>

#include <cstddef>
#include <map>
#include <memory>

#include "../fuzz/counting_allocator.hpp"
#include "in_process.hpp"

namespace {

esign_bench::team_of_sent_envelopes& team_of(int count) {
    static std::map<int, std::unique_ptr<esign_bench::team_of_sent_envelopes>> teams;
    auto& team = teams[count];
    if (!team) team = std::make_unique<esign_bench::team_of_sent_envelopes>(count);
    return *team;
}

void snapshot_peak_memory(benchmark::State& state) {
    auto& t = team_of(static_cast<int>(state.range(0)));
    if (!t.built) state.SkipWithError("the team was not made");
    std::size_t first = 0, last = 0, answer = 0;  // peaks of the team's first snapshot and of the last one
    for (auto _ : state) {
        esign_memory::measure m;
        auto r = t.backend.handle("/_control/team/snapshot", t.key, "{}");
        if (r.status != 200) state.SkipWithError("snapshot failed");
        last = m.peak();
        if (first == 0) first = last;
        answer = r.body.size();
        benchmark::DoNotOptimize(r.body.data());
    }
    const auto per_answer = [&](std::size_t peak) {
        return answer ? static_cast<double>(peak) / static_cast<double>(answer) : 0.0;
    };
    state.counters["answer_bytes"] = static_cast<double>(answer);
    state.counters["first_peak_per_answer"] = per_answer(first);
    state.counters["later_peak_per_answer"] = per_answer(last);
}

}  // namespace

BENCHMARK(snapshot_peak_memory)->Arg(1000)->Arg(4000)->Unit(benchmark::kMillisecond)->Iterations(3);
