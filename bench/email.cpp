// SPDX-License-Identifier: BSL-1.0
// Matching e-mail addresses, side by side (bench/README.md, "email.cpp"): esign's compile-time
// DFA (esign::regex::is_general_email) vs std::regex, RE2 and Boost.Regex, each with the same
// pattern text (esign::regex::general_email_pattern), matching the whole input.
//   addresses_<engine>     200,000 generated addresses (about 1 in 6 refused), one
//                          pass over all of them per iteration; the counter s_per_address (time per address)
//   adversarial_<engine>   one address-like input of 1 kB to 1 MB that fails only at its end
//                          (a long dotted local part and a long dotted domain, a one-letter
//                          TLD): the complexity fit shows how the time grows with the length
// At setup every engine's verdict on every input is compared with esign's; a disagreement
// skips the benchmark with an error.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <random>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include <benchmark/benchmark.h>
#include <boost/regex.hpp>
#include <re2/re2.h>

#include <esign/regex/email.hpp>

namespace {

// ---------------------------------------------------------------------------------------------
// The inputs

std::vector<std::string> make_addresses(std::size_t count) {
    static const char* const first[] = {"john",   "marie", "o'neil", "jean-luc", "anna", "li",
                                        "xavier", "sam",   "elena",  "noah",     "q",    "zoë"};
    static const char* const last[] = {"smith", "dupont", "garcia", "van-der-berg", "o'brien", "nguyen", "k", "muller"};
    static const char* const domains[] = {"gmail.com",        "example.com",       "mail.example.co.uk",
                                          "company-name.fr",  "sub.domain.org",    "a1.b2.c3.d4.net",
                                          "xn--bcher-kva.de", "university.edu.au", "yahoo.fr",
                                          "outlook.com",      "my-company.io",     "post.office.example.museum"};
    std::mt19937 random(12345);
    auto pick = [&](std::size_t n) { return static_cast<std::size_t>(random() % n); };
    std::vector<std::string> out;
    out.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
        std::string local;
        switch (pick(6)) {
            case 0:
                local = std::string(first[pick(12)]) + "." + last[pick(8)];
                break;
            case 1:
                local = std::string(first[pick(12)]) + "_" + last[pick(8)] + std::to_string(pick(1000));
                break;
            case 2:
                local = std::string(1, first[pick(12)][0]) + last[pick(8)];
                break;
            case 3:
                local = std::string(first[pick(12)]) + "." + last[pick(8)] + "+tag" + std::to_string(pick(100));
                break;
            case 4:
                local = "user" + std::to_string(pick(1000000));
                break;
            default:
                local = std::string(first[pick(12)]) + "." + std::string(1, "abcdefgh"[pick(8)]) + "." + last[pick(8)];
        }
        std::string address = local + "@" + domains[pick(12)];
        // (An iterator insert: g++ 12 -O3 sees a false overlap in insert(position, "x").)
        auto insert_at = [&](std::size_t at, char c) {
            address.insert(address.begin() + static_cast<std::ptrdiff_t>(at), c);
        };
        switch (pick(32)) {  // 1 in 8 broken, in the ways people break them
            case 0:
                insert_at(address.find('.'), '.');  // ".." (every address has a '.')
                break;
            case 1:
                insert_at(address.find('@'), '.');  // "x.@"
                break;
            case 2:
                address.erase(address.rfind('.'));  // no TLD
                break;
            case 3:
                insert_at(address.find('@'), ' ');  // a space
                break;
            default:
                break;
        }
        out.push_back(std::move(address));
    }
    return out;
}

const std::vector<std::string>& addresses() {
    // Fewer in the CTest smoke run (CMakeLists.txt), where std::regex at -O0 takes seconds.
    static const std::vector<std::string> all = make_addresses(std::getenv("ESIGN_BENCH_SMOKE") ? 20'000 : 200'000);
    return all;
}

// About `length` bytes: "a.a.a…a@b.b.b…b.c", refused only at its last byte (a one-letter TLD).
std::string adversarial(std::size_t length) {
    std::string s;
    s.reserve(length + 4);
    while (s.size() + 2 < length / 2) s += "a.";
    s += "a@";
    while (s.size() + 2 < length) s += "b.";
    return s + "c";
}

// ---------------------------------------------------------------------------------------------
// The engines: each is made once (its pattern compiled) and tells whether an input matches.

struct esign_dfa {
    bool operator()(std::string_view s) const { return esign::regex::is_general_email(s); }
};

struct std_regex {
    std::regex re{std::string(esign::regex::general_email_pattern), std::regex::ECMAScript};
    bool operator()(std::string_view s) const { return std::regex_match(s.begin(), s.end(), re); }
};

struct re2_engine {
    static RE2::Options options() {
        RE2::Options o;
        o.set_encoding(RE2::Options::EncodingLatin1);  // bytes, like the others
        o.set_log_errors(false);
        return o;
    }
    RE2 re{esign::regex::general_email_pattern, options()};
    bool operator()(std::string_view s) const { return RE2::FullMatch(s, re); }
};

struct boost_regex {
    boost::regex re{std::string(esign::regex::general_email_pattern), boost::regex::ECMAScript};
    bool operator()(std::string_view s) const { return boost::regex_match(s.begin(), s.end(), re); }
};

// ---------------------------------------------------------------------------------------------

// Every input judged by `engine` as esign judges it; else the benchmark is skipped.
template <class Engine>
bool agrees(benchmark::State& state, const Engine& engine, const std::vector<std::string>& inputs) {
    std::size_t matched = 0;
    for (const auto& s : inputs) {
        const bool expected = esign::regex::is_general_email(s);
        matched += expected;
        bool found = false;
        try {
            found = engine(s);
        } catch (const std::exception& e) {
            state.SkipWithError(e.what());
            return false;
        }
        if (found != expected) {
            state.SkipWithError(("the engines disagree on " + s.substr(0, 80)).c_str());
            return false;
        }
    }
    state.counters["matched"] = static_cast<double>(matched);
    return true;
}

template <class Engine>
void addresses_of(benchmark::State& state) {
    const Engine engine;
    const auto& inputs = addresses();
    if (!agrees(state, engine, inputs)) return;
    for (auto _ : state) {
        std::size_t matched = 0;
        for (const auto& s : inputs) matched += engine(s);
        benchmark::DoNotOptimize(matched);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * inputs.size()));
    // Seconds per address (printed with an SI prefix: 50n is 50 ns).
    state.counters["s_per_address"] =
        benchmark::Counter(static_cast<double>(inputs.size()),
                           benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

template <class Engine>
void adversarial_of(benchmark::State& state) {
    const Engine engine;
    const std::string input = adversarial(static_cast<std::size_t>(state.range(0)));
    if (!agrees(state, engine, {input})) return;
    for (auto _ : state) {
        bool matched = engine(input);
        benchmark::DoNotOptimize(matched);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * input.size()));
    state.SetComplexityN(static_cast<std::int64_t>(input.size()));
}

#define ESIGN_BENCH_ENGINE(name, engine)                                        \
    void addresses_##name(benchmark::State& s) { addresses_of<engine>(s); }     \
    void adversarial_##name(benchmark::State& s) { adversarial_of<engine>(s); } \
    BENCHMARK(addresses_##name)->Unit(benchmark::kMillisecond);                 \
    BENCHMARK(adversarial_##name)                                               \
        ->RangeMultiplier(4)                                                    \
        ->Range(1 << 10, ESIGN_BENCH_ADVERSARIAL_MAX_##name)                    \
        ->Complexity(benchmark::oN);

// The longest adversarial input each engine is given: libstdc++'s std::regex recurses once per
// byte or so and overflows the default 8 MiB stack (SIGSEGV) at 64 KiB; Boost.Regex throws
// regex_error ("Ran out of stack space") at 256 KiB. Neither can be skipped more gently in
// Google Benchmark 1.7 (a skip is reported as ERROR OCCURRED, which fails the CTest smoke run).
#define ESIGN_BENCH_ADVERSARIAL_MAX_esign_dfa (1 << 20)
#define ESIGN_BENCH_ADVERSARIAL_MAX_re2 (1 << 20)
#define ESIGN_BENCH_ADVERSARIAL_MAX_boost_regex (64 << 10)
#define ESIGN_BENCH_ADVERSARIAL_MAX_std_regex (16 << 10)

ESIGN_BENCH_ENGINE(esign_dfa, esign_dfa)
ESIGN_BENCH_ENGINE(std_regex, std_regex)
ESIGN_BENCH_ENGINE(re2, re2_engine)
ESIGN_BENCH_ENGINE(boost_regex, boost_regex)

}  // namespace
