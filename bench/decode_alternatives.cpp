// SPDX-License-Identifier: BSL-1.0
// Decoding a request body with every rule checked, side by side with the alternatives
// (bench/README.md, "decode_alternatives.cpp"), on the same bytes:
//   esign_read        esign::json::read<T>: bytes → typed value, every rule checked while parsing
//   esign_read_into   esign::json::read_into: the same, into one value kept between calls
//   boost_json_parse  boost::json::parse alone: bytes → DOM, no rule checked
//   boost_json_parse_reused  the same with Boost.JSON's reuse: one parser and one buffer for the DOM
//                     (a monotonic_resource) kept between calls
//   rapidjson_schema  RapidJSON Document::Parse, then a SchemaValidator with esign's own exported
//                     JSON Schema of the request type (esign::schema::json_schema<T>)
//   valijson          boost::json::parse, then valijson (its Boost.JSON adapter) with that schema
//   simdjson_walk     simdjson on-demand touching every value (keys, strings, numbers, booleans):
//                     no rule checked, the speed of light of reading the bytes
//   esign_scan_only   esign's own JSON scanner (json/detail/scanner.hpp) with a sink that drops
//                     every event: reading and checking the bytes alone. (read and read_into
//                     now read a body without a problem by recursive descent, with the same
//                     tokens, and run this scanner's events only for a body with a problem.)
// Bodies: add-recipients with 1 and with 50 recipients (the most a request may carry), and
// add-blocks bodies from about 200 B to 1 MiB (blocks have no upper bound, so every body is
// valid). At setup each contender is shown the valid body and the same body with its last
// e-mail address broken: it must accept the first and refuse the second (the validators), or
// read both (simdjson_walk, boost_json_parse, esign_scan_only), else the benchmark is skipped with an error.
//
// Two adjustments the alternatives need, both in their favour or neutral:
//  - RapidJSON 1.1's own regex engine knows no "\-" escape and ignores a pattern it cannot
//    compile, so its copy of the schema writes the class "[...\-]" as "[...-]" (the same set).
//  - RapidJSON implements draft 4 only: the add-recipients schema's if/then (a phone for sms
//    verification) is not checked by it; it checks everything else (types, lengths, enums,
//    patterns, required, minItems/maxItems). valijson reads the schema as draft 7, like
//    tests/test_schema_independent.cpp.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <benchmark/benchmark.h>
#include <boost/json.hpp>
#include <fmt/format.h>

#include <rapidjson/document.h>
#include <rapidjson/schema.h>
#include <simdjson.h>
#ifndef VALIJSON_USE_EXCEPTIONS
#define VALIJSON_USE_EXCEPTIONS 1
#endif
#include <valijson/adapters/boost_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validator.hpp>

#include <esign/json/decode.hpp>
#include <esign/json/parse.hpp>  // parse_limits, detail::scan (esign_scan_only)
#include <esign/model/document.hpp>
#include <esign/model/recipient.hpp>
#include <esign/schema/json_schema.hpp>

#include "request_bodies.hpp"

namespace {

// A valid body and the same body with its last e-mail address made invalid ("a..b@").
struct body_pair {
    std::string valid;
    std::string invalid;
};

body_pair with_broken_last_email(std::string valid) {
    std::string invalid = valid;
    const auto at = invalid.rfind("signer.");
    invalid.replace(at, 7, "signer..");
    return {std::move(valid), std::move(invalid)};
}

body_pair add_recipients_body(std::size_t count) {
    return with_broken_last_email(esign_bench::add_recipients_body(count));
}

body_pair add_blocks_of_size(std::size_t bytes) {
    return with_broken_last_email(esign_bench::add_blocks_of_size(bytes));
}

// ---------------------------------------------------------------------------------------------
// The contenders: each is a function object made once at setup (schemas compiled, parsers made)
// whose operator()(body) tells whether the body is accepted.

template <class Request>
struct esign_read {
    bool operator()(std::string_view body) const { return esign::json::read<Request>(body).has_value(); }
};

// The same, read into one value kept between calls (its strings, vectors and optionals reused).
template <class Request>
struct esign_read_into {
    bool operator()(std::string_view body) const { return bool(esign::json::read_into(body, value_)); }
    mutable Request value_;
};

// The scanner alone, every event dropped (the decoder's input, without the decoder).
struct esign_scan_only {
    bool operator()(std::string_view body) const {
        esign::json::detail::ignore_events none;
        return esign::json::detail::scan(body, none, esign::json::parse_limits{}.max_depth).error == nullptr;
    }
};

struct boost_json_parse {
    bool operator()(std::string_view body) const {
        boost::json::value v = boost::json::parse(body);
        benchmark::DoNotOptimize(v);
        return true;
    }
};

// Boost.JSON's own way to parse again and again: one parser kept between calls, the DOM in a
// monotonic_resource over a buffer kept between calls (large enough for the body's DOM: nothing
// comes from the heap but what overflows it).
struct boost_json_parse_reused {
    bool operator()(std::string_view body) const {
        if (buffer_.size() < 8 * body.size() + 4096) buffer_.resize(8 * body.size() + 4096);
        boost::json::monotonic_resource memory(buffer_.data(), buffer_.size());
        parser_.reset(&memory);
        parser_.write(body.data(), body.size());
        boost::json::value v = parser_.release();
        benchmark::DoNotOptimize(v);
        return true;
    }
    mutable boost::json::parser parser_;
    mutable std::vector<unsigned char> buffer_;
};

// The exported schema of Request, as text.
template <class Request>
std::string schema_text() {
    return boost::json::serialize(esign::schema::json_schema<Request>());
}

template <class Request>
class rapidjson_schema {
public:
    rapidjson_schema() {
        std::string text = schema_text<Request>();
        for (std::size_t at; (at = text.find(R"(\\-])")) != std::string::npos;) text.replace(at, 4, "-]");
        schema_json_.Parse(text.data(), text.size());
        schema_ = std::make_unique<rapidjson::SchemaDocument>(schema_json_);
    }
    bool operator()(std::string_view body) const {
        rapidjson::Document d;
        d.Parse(body.data(), body.size());
        if (d.HasParseError()) return false;
        rapidjson::SchemaValidator validator(*schema_);
        return d.Accept(validator);
    }

private:
    rapidjson::Document schema_json_;
    std::unique_ptr<rapidjson::SchemaDocument> schema_;
};

template <class Request>
class valijson_schema {
public:
    valijson_schema() {
        const boost::json::value document = esign::schema::json_schema<Request>();
        valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
        valijson::adapters::BoostJsonAdapter adapter(document);
        parser.populateSchema(adapter, schema_);
    }
    bool operator()(std::string_view body) const {
        const boost::json::value instance = boost::json::parse(body);
        valijson::adapters::BoostJsonAdapter target(instance);
        return validator_.validate(schema_, target, nullptr);
    }

private:
    valijson::Schema schema_;
    mutable valijson::Validator validator_;  // keeps its compiled patterns from call to call
};

// simdjson picks its kernel for the processor at run time (the widest vectors it has: AVX-512 on
// some hosts, AVX2 or SSE4.2 on others), and the ratios against it move with that choice: the
// run's context names it.
const bool simdjson_kernel_in_context = [] {
    benchmark::AddCustomContext("simdjson_implementation", simdjson::get_active_implementation()->name());
    return true;
}();

class simdjson_walk {
public:
    bool operator()(std::string_view body) const {
        // simdjson reads SIMDJSON_PADDING bytes past the end: the body is copied once, at setup.
        const simdjson::padded_string& padded = padded_of(body);
        simdjson::ondemand::document doc;
        if (parser_.iterate(padded).get(doc)) return false;
        simdjson::ondemand::value root;
        if (doc.get_value().get(root)) return false;
        std::size_t touched = 0;
        const bool ok = walk(root, touched);
        benchmark::DoNotOptimize(touched);
        return ok;
    }

private:
    static bool walk(simdjson::ondemand::value v, std::size_t& touched) {
        simdjson::ondemand::json_type type;
        if (v.type().get(type)) return false;
        switch (type) {
            case simdjson::ondemand::json_type::object: {
                simdjson::ondemand::object object;
                if (v.get_object().get(object)) return false;
                for (auto field : object) {
                    std::string_view key;
                    if (field.unescaped_key().get(key)) return false;
                    touched += key.size();
                    simdjson::ondemand::value member;
                    if (field.value().get(member) || !walk(member, touched)) return false;
                }
                return true;
            }
            case simdjson::ondemand::json_type::array: {
                simdjson::ondemand::array array;
                if (v.get_array().get(array)) return false;
                for (auto item : array) {
                    simdjson::ondemand::value element;
                    if (item.get(element) || !walk(element, touched)) return false;
                }
                return true;
            }
            case simdjson::ondemand::json_type::string: {
                std::string_view s;
                if (v.get_string().get(s)) return false;
                touched += s.size();
                return true;
            }
            case simdjson::ondemand::json_type::number: {
                double d;
                if (v.get_double().get(d)) return false;
                touched += d > 0;
                return true;
            }
            case simdjson::ondemand::json_type::boolean: {
                bool b;
                if (v.get_bool().get(b)) return false;
                touched += b;
                return true;
            }
            case simdjson::ondemand::json_type::null:
                return v.is_null();
        }
        return false;
    }
    // The padded copy of the body last seen (a benchmark reads one body over and over: it is
    // known by its address, so the copy is made once).
    const simdjson::padded_string& padded_of(std::string_view body) const {
        if (body.data() != seen_.data() || body.size() != seen_.size()) {
            padded_ = simdjson::padded_string(body);
            seen_ = body;
        }
        return padded_;
    }
    mutable simdjson::ondemand::parser parser_;
    mutable simdjson::padded_string padded_;
    mutable std::string_view seen_;
};

// ---------------------------------------------------------------------------------------------

// What a contender must say of the valid and of the invalid body.
enum class judges { rules, syntax_only };

template <class Contender>
void run(benchmark::State& state, const body_pair& bodies, judges kind) {
    Contender contender;
    if (!contender(bodies.valid)) return state.SkipWithError("the valid body is refused");
    if (kind == judges::rules && contender(bodies.invalid)) return state.SkipWithError("the invalid body is accepted");
    if (kind == judges::syntax_only && !contender(bodies.invalid)) return state.SkipWithError("a body is not read");
    for (auto _ : state) {
        bool accepted = contender(bodies.valid);
        benchmark::DoNotOptimize(accepted);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bodies.valid.size()));
    state.counters["body_bytes"] = static_cast<double>(bodies.valid.size());
}

const body_pair& recipients(std::size_t count) {
    static const body_pair one = add_recipients_body(1), fifty = add_recipients_body(50);
    return count == 1 ? one : fifty;
}

using recipients_request = esign::envelope_add_recipients_request;
using blocks_request = esign::envelope_add_blocks_request;

// add-recipients: range(0) is the number of recipients (1 or 50).
template <class Contender>
void add_recipients(benchmark::State& state, judges kind) {
    run<Contender>(state, recipients(static_cast<std::size_t>(state.range(0))), kind);
}

// add-blocks: range(0) is the body's size in bytes (about).
template <class Contender>
void add_blocks(benchmark::State& state, judges kind) {
    run<Contender>(state, add_blocks_of_size(static_cast<std::size_t>(state.range(0))), kind);
}

void recipient_counts(benchmark::internal::Benchmark* b) { b->Arg(1)->Arg(50); }
void block_sizes(benchmark::internal::Benchmark* b) {
    for (std::int64_t bytes : {200, 1 << 10, 4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20}) b->Arg(bytes);
}

// Named add_recipients_<contender>/<count> and add_blocks_<contender>/<bytes>.
#define ESIGN_BENCH_CONTENDER(name, recipients_contender, blocks_contender, kind)                      \
    void add_recipients_##name(benchmark::State& s) { add_recipients<recipients_contender>(s, kind); } \
    void add_blocks_##name(benchmark::State& s) { add_blocks<blocks_contender>(s, kind); }             \
    BENCHMARK(add_recipients_##name)->Apply(recipient_counts);                                         \
    BENCHMARK(add_blocks_##name)->Apply(block_sizes);

ESIGN_BENCH_CONTENDER(esign_read, esign_read<recipients_request>, esign_read<blocks_request>, judges::rules)
ESIGN_BENCH_CONTENDER(esign_read_into, esign_read_into<recipients_request>, esign_read_into<blocks_request>,
                      judges::rules)
ESIGN_BENCH_CONTENDER(boost_json_parse, boost_json_parse, boost_json_parse, judges::syntax_only)
ESIGN_BENCH_CONTENDER(boost_json_parse_reused, boost_json_parse_reused, boost_json_parse_reused, judges::syntax_only)
ESIGN_BENCH_CONTENDER(rapidjson_schema, rapidjson_schema<recipients_request>, rapidjson_schema<blocks_request>,
                      judges::rules)
ESIGN_BENCH_CONTENDER(valijson, valijson_schema<recipients_request>, valijson_schema<blocks_request>, judges::rules)
ESIGN_BENCH_CONTENDER(simdjson_walk, simdjson_walk, simdjson_walk, judges::syntax_only)
ESIGN_BENCH_CONTENDER(esign_scan_only, esign_scan_only, esign_scan_only, judges::syntax_only)

}  // namespace
