// SPDX-License-Identifier: BSL-1.0
// Decoding request bodies, side by side in one run (bench/README.md):
//   boost_json_parse      boost::json::parse alone: bytes → DOM, no checks at all
//   esign_read            esign::json::read<T>: bytes → typed value, every rule checked while
//                         parsing, no DOM
//   esign_parse_decode    esign's DOM path: parse_body (with duplicate detection) then decode<T>
// on the same bodies: an add-recipients request with its 50 recipients, an add-blocks request
// with 200 blocks, and (the *_size benchmarks) add-recipients bodies of 1 KiB to 1 MiB whose
// recipients array is far beyond its limit of 50 (every item is still read and checked; the
// complexity fit shows the time is linear in the size).
// And a value built in code (the 50-recipient request as a C++ value), judged two ways:
//   esign_check           esign::check(v): every rule, no JSON
//   esign_read_write      json::read<T>(json::write(v)): what check stands for
#include <cstdint>
#include <string>

#include <benchmark/benchmark.h>
#include <boost/json/parse.hpp>
#include <fmt/format.h>

#include <esign/json/check.hpp>
#include <esign/json/decode.hpp>
#include <esign/json/encode.hpp>
#include <esign/model/document.hpp>
#include <esign/model/recipient.hpp>

namespace {

constexpr const char* envelope_uuid = "0b1e6c1e-8f0a-4d36-9a57-2f2c4a3c9d11";
constexpr const char* document_uuid = "5a0c1d2e-3f40-4b5c-8d6e-7f8091a2b3c4";

std::string recipient(std::size_t i) {
    return fmt::format(R"({{"type":"manual","email":"signer.number{}@example.com","firstname":"Firstname{}",)"
                       R"("lastname":"Lastname-{}","language":"fr","verificationType":"{}"{}}})",
                       i, i, i, i % 3 == 0 ? "sms" : "email", i % 3 == 0 ? R"(,"phone":"+33612345678")" : "");
}

// An add-recipients body with `count` recipients (valid when count <= 50).
std::string add_recipients_body(std::size_t count) {
    std::string body = fmt::format(R"({{"envelopeUuid":"{}","recipients":[)", envelope_uuid);
    for (std::size_t i = 0; i < count; ++i) {
        if (i) body += ',';
        body += recipient(i);
    }
    return body + "]}";
}

// An add-recipients body of about `bytes` bytes.
std::string add_recipients_of_size(std::size_t bytes) {
    const std::size_t per_item = recipient(1000).size() + 1;
    return add_recipients_body(std::max<std::size_t>(1, bytes / per_item));
}

std::string add_blocks_body(std::size_t count) {
    std::string body =
        fmt::format(R"({{"envelopeUuid":"{}","documentUuid":"{}","blocks":[)", envelope_uuid, document_uuid);
    for (std::size_t i = 0; i < count; ++i) {
        if (i) body += ',';
        body += fmt::format(
            R"({{"page":"{}","x":{}.25,"y":{}.5,"width":120,"height":24.5,)"
            R"("recipientEmail":"signer.number{}@example.com","required":{},)"
            R"("placeholder":"Your answer","defaultValue":{},"type":"text","text":"Field {}","maxLength":80}})",
            1 + i % 12, 40 + i, 100 + 3 * i, i % 50, i % 2 ? "true" : "false", i % 2 ? "2.50" : R"("none")", i);
    }
    return body + "]}";
}

const std::string& recipients_50() {
    static const std::string body = add_recipients_body(50);
    return body;
}
const std::string& blocks_200() {
    static const std::string body = add_blocks_body(200);
    return body;
}

void boost_json_parse(benchmark::State& state, const std::string& body) {
    for (auto _ : state) {
        boost::json::value v = boost::json::parse(body);
        benchmark::DoNotOptimize(v);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * body.size()));
}

template <class Request>
void esign_read(benchmark::State& state, const std::string& body, bool expect_valid) {
    if (esign::json::read<Request>(body).has_value() != expect_valid) {
        state.SkipWithError("the body is not judged as expected");
        return;
    }
    for (auto _ : state) {
        auto r = esign::json::read<Request>(body);
        benchmark::DoNotOptimize(r);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * body.size()));
}

template <class Request>
void esign_parse_decode(benchmark::State& state, const std::string& body) {
    for (auto _ : state) {
        auto parsed = esign::json::parse_body(body);
        auto r = esign::json::decode<Request>(parsed->value);
        benchmark::DoNotOptimize(r);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * body.size()));
}

void add_recipients_50_boost_json_parse(benchmark::State& s) { boost_json_parse(s, recipients_50()); }
void add_recipients_50_esign_read(benchmark::State& s) {
    esign_read<esign::envelope_add_recipients_request>(s, recipients_50(), true);
}
void add_recipients_50_esign_parse_decode(benchmark::State& s) {
    esign_parse_decode<esign::envelope_add_recipients_request>(s, recipients_50());
}
BENCHMARK(add_recipients_50_boost_json_parse);
BENCHMARK(add_recipients_50_esign_read);
BENCHMARK(add_recipients_50_esign_parse_decode);

// The 50-recipient request as a value built in code.
const esign::envelope_add_recipients_request& recipients_50_value() {
    static const auto value = *esign::json::read<esign::envelope_add_recipients_request>(recipients_50());
    return value;
}
void add_recipients_50_value_esign_check(benchmark::State& state) {
    const auto& value = recipients_50_value();
    if (!esign::check(value)) return state.SkipWithError("check finds problems in a valid value");
    for (auto _ : state) {
        auto r = esign::check(value);
        benchmark::DoNotOptimize(r);
    }
}
void add_recipients_50_value_esign_read_write(benchmark::State& state) {
    const auto& value = recipients_50_value();
    for (auto _ : state) {
        auto r = esign::json::read<esign::envelope_add_recipients_request>(esign::json::write(value));
        benchmark::DoNotOptimize(r);
    }
}
BENCHMARK(add_recipients_50_value_esign_check);
BENCHMARK(add_recipients_50_value_esign_read_write);

void add_blocks_200_boost_json_parse(benchmark::State& s) { boost_json_parse(s, blocks_200()); }
void add_blocks_200_esign_read(benchmark::State& s) {
    esign_read<esign::envelope_add_blocks_request>(s, blocks_200(), true);
}
void add_blocks_200_esign_parse_decode(benchmark::State& s) {
    esign_parse_decode<esign::envelope_add_blocks_request>(s, blocks_200());
}
BENCHMARK(add_blocks_200_boost_json_parse);
BENCHMARK(add_blocks_200_esign_read);
BENCHMARK(add_blocks_200_esign_parse_decode);

// 1 KiB to 1 MiB of recipients: state.range(0) is the body's size in bytes.
void recipients_by_size_boost_json_parse(benchmark::State& s) {
    const std::string body = add_recipients_of_size(static_cast<std::size_t>(s.range(0)));
    boost_json_parse(s, body);
    s.SetComplexityN(static_cast<std::int64_t>(body.size()));
}
void recipients_by_size_esign_read(benchmark::State& s) {
    const std::string body = add_recipients_of_size(static_cast<std::size_t>(s.range(0)));
    esign_read<esign::envelope_add_recipients_request>(s, body, body.size() < 5000);
    s.SetComplexityN(static_cast<std::int64_t>(body.size()));
}
BENCHMARK(recipients_by_size_boost_json_parse)->RangeMultiplier(4)->Range(1 << 10, 1 << 20)->Complexity(benchmark::oN);
BENCHMARK(recipients_by_size_esign_read)->RangeMultiplier(4)->Range(1 << 10, 1 << 20)->Complexity(benchmark::oN);

}  // namespace
