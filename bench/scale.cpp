// SPDX-License-Identifier: BSL-1.0
// What a request costs as a team's data grows: one team holding 1,000, 10,000 or 100,000
// envelopes (1,000,000 with ESIGN_BENCH_MILLION=1), in-process (backend::handle). For each size:
// envelope/get, envelope/list (first and last page, and filtered by a status that every envelope
// has, or none has), logs/list (newest first, oldest first, of one envelope) and control
// envelope/create. The team is built once per size, before its first benchmark; its resident
// memory per envelope is reported as a counter.
//
//   ./build/bench/esign_bench_scale --benchmark_repetitions=5 --benchmark_enable_random_interleaving=true
//       --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <boost/json.hpp>

#include <esign/reference/backend.hpp>

#include "in_process.hpp"

namespace {

constexpr const char* create_body = R"({"title":"Contract","documents":[{"title":"d","pageCount":2}]})";

// Resident memory of this process, in bytes (Linux).
double resident_bytes() {
    long pages = 0, resident = 0;
    if (FILE* f = std::fopen("/proc/self/statm", "r")) {
        if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
        std::fclose(f);
    }
    return static_cast<double>(resident) * 4096.0;
}

struct loaded_team {
    esign::reference::backend backend;
    std::string key;
    std::vector<std::string> get_bodies;  // envelope/get of envelopes spread over the whole team
    std::vector<std::string> log_bodies;  // logs/list of one of those envelopes
    std::string last_page_body;           // envelope/list of its last page
    double bytes_per_envelope = 0;

    explicit loaded_team(std::int64_t count)
        : backend(esign_bench::still_backend_options()), key(esign_bench::new_team_key(backend)) {
        const double before = resident_bytes();
        std::vector<std::string> uuids;
        uuids.reserve(static_cast<std::size_t>(count));
        for (std::int64_t i = 0; i < count; ++i) {
            auto made = backend.handle("/_control/envelope/create", key, create_body);
            if (made.status != 200) return;
            uuids.emplace_back(boost::json::parse(made.body).at("envelopeUuid").as_string());
        }
        bytes_per_envelope = (resident_bytes() - before) / static_cast<double>(count);
        for (std::size_t i = 0; i < 1024; ++i) {
            const std::string& uuid = uuids[(i * 7919) % uuids.size()];
            get_bodies.push_back(R"({"envelopeUuid":")" + uuid + "\"}");
            log_bodies.push_back(R"({"category":"envelope","envelopeUuid":")" + uuid + "\"}");
        }
        const auto first = boost::json::parse(backend.handle("/public/envelope/list", key, "{}").body);
        last_page_body = "{\"page\":" + std::to_string(first.at("pagination").at("totalPages").as_int64()) + "}";
    }
};

loaded_team& team_of(std::int64_t count) {
    static std::map<std::int64_t, std::unique_ptr<loaded_team>> teams;
    auto& slot = teams[count];
    if (!slot) slot = std::make_unique<loaded_team>(count);
    return *slot;
}

template <class Body>
void run(benchmark::State& state, Body body_of) {
    auto& t = team_of(state.range(0));
    if (t.get_bodies.empty()) {
        state.SkipWithError("building the team failed");
        return;
    }
    std::size_t i = 0;
    for (auto _ : state) {
        auto r = t.backend.handle(body_of.path, t.key, body_of(t, i++));
        if (r.status != 200) state.SkipWithError("request failed");
        benchmark::DoNotOptimize(r.body.data());
    }
    state.counters["bytes_per_envelope"] = t.bytes_per_envelope;
}

struct get_envelope {
    const char* path = "/public/envelope/get";
    const std::string& operator()(const loaded_team& t, std::size_t i) const {
        return t.get_bodies[i % t.get_bodies.size()];
    }
};
struct envelope_logs {
    const char* path = "/public/logs/list";
    const std::string& operator()(const loaded_team& t, std::size_t i) const {
        return t.log_bodies[i % t.log_bodies.size()];
    }
};
struct fixed_body {
    const char* path;
    std::string body;
    const std::string& operator()(const loaded_team&, std::size_t) const { return body; }
};
struct last_page {
    const char* path = "/public/envelope/list";
    const std::string& operator()(const loaded_team& t, std::size_t) const { return t.last_page_body; }
};

void envelope_get(benchmark::State& state) { run(state, get_envelope{}); }
void envelope_list_first(benchmark::State& state) { run(state, fixed_body{"/public/envelope/list", "{}"}); }
void envelope_list_last(benchmark::State& state) { run(state, last_page{}); }
void envelope_list_by_status(benchmark::State& state) {
    run(state, fixed_body{"/public/envelope/list", R"({"status":["draft"]})"});
}
void envelope_list_by_status_none(benchmark::State& state) {  // every envelope is a draft
    run(state, fixed_body{"/public/envelope/list", R"({"status":["signing"]})"});
}
void logs_list_first(benchmark::State& state) {
    run(state, fixed_body{"/public/logs/list", R"({"category":"envelope"})"});
}
void logs_list_last(benchmark::State& state) {
    run(state, fixed_body{"/public/logs/list", R"({"category":"envelope","sortOrder":"asc"})"});
}
void logs_list_of_envelope(benchmark::State& state) { run(state, envelope_logs{}); }
void envelope_create(benchmark::State& state) { run(state, fixed_body{"/_control/envelope/create", create_body}); }

void sizes(benchmark::internal::Benchmark* b) {
    b->Arg(1'000)->Arg(10'000)->Arg(100'000);
    if (const char* million = std::getenv("ESIGN_BENCH_MILLION"); million && std::string(million) == "1")
        b->Arg(1'000'000);
    b->Unit(benchmark::kMicrosecond);
}

}  // namespace

BENCHMARK(envelope_get)->Apply(sizes);
BENCHMARK(envelope_list_first)->Apply(sizes);
BENCHMARK(envelope_list_last)->Apply(sizes);
BENCHMARK(envelope_list_by_status)->Apply(sizes);
BENCHMARK(envelope_list_by_status_none)->Apply(sizes);
BENCHMARK(logs_list_first)->Apply(sizes);
BENCHMARK(logs_list_last)->Apply(sizes);
BENCHMARK(logs_list_of_envelope)->Apply(sizes);
BENCHMARK(envelope_create)->Apply(sizes);
