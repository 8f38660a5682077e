// SPDX-License-Identifier: BSL-1.0
// Decoding as two trees of esign build it, in one program (run.sh): `old` and `new` read the
// same bodies, beside boost::json::parse, and Google Benchmark alternates them at random between
// repetitions, so that the noise of a shared machine falls on both alike (two programs run one
// after the other here differ by up to a third on the same code). Benchmarks:
//   <body>/old_read, <body>/new_read           json::read<T> of each tree
//   <body>/old_read_into, <body>/new_read_into json::read_into into a value kept between calls
//                                              (read, for a tree that has no read_into)
//   <body>/boost_json_parse                    boost::json::parse, for scale
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <benchmark/benchmark.h>
#include <boost/json/parse.hpp>

#include "../request_bodies.hpp"
#include "variant.hpp"

namespace {

using reader = bool (*)(std::string_view);

void run(benchmark::State& state, const std::string& body, reader read) {
    if (!read(body)) return state.SkipWithError("the body is refused");
    for (auto _ : state) {
        bool accepted = read(body);
        benchmark::DoNotOptimize(accepted);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * body.size()));
}

bool boost_json_parse(std::string_view body) {
    boost::json::error_code ec;
    boost::json::value v = boost::json::parse(body, ec);
    benchmark::DoNotOptimize(v);
    return !ec;
}

void register_body(const std::string& name, const std::string& body, bool recipients) {
    const auto add = [&](const char* contender, reader read) {
        benchmark::RegisterBenchmark((name + "/" + contender).c_str(),
                                     [body, read](benchmark::State& s) { run(s, body, read); });
    };
    add("old_read", recipients ? esign_ab_old::read_recipients : esign_ab_old::read_blocks);
    add("new_read", recipients ? esign_ab_new::read_recipients : esign_ab_new::read_blocks);
    add("old_read_into", recipients ? esign_ab_old::read_into_recipients : esign_ab_old::read_into_blocks);
    add("new_read_into", recipients ? esign_ab_new::read_into_recipients : esign_ab_new::read_into_blocks);
    add("boost_json_parse", boost_json_parse);
}

}  // namespace

int main(int argc, char** argv) {
    register_body("add_recipients_1", esign_bench::add_recipients_body(1), true);
    register_body("add_recipients_50", esign_bench::add_recipients_body(50), true);
    for (std::size_t bytes : {200u, 1u << 10, 16u << 10, 256u << 10})
        register_body("add_blocks_" + std::to_string(bytes), esign_bench::add_blocks_of_size(bytes), false);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
}
