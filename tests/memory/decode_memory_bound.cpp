// SPDX-License-Identifier: BSL-1.0
// The memory bound of contract.md §6.7: a body of S bytes takes less than 32 × S + 1 MiB at
// its peak, for the hostile shapes of hostile_bodies.hpp at sizes from 4 KiB to 1 MiB, on the
// decoding paths, read<T>(bytes) and decode<T>(value) of parse_body's value (the value itself,
// the caller's, is not counted), and on the whole request in the reference backend:
// backend::handle from the bytes to the reply (with the team's key, and the same bytes sent
// without a key to /_control/team/create, which anyone may call). Counted bytes, not resident
// memory: exact and the same on every run (tests/http/test_server_memory.cpp measures the
// server process, where the allocator's arenas make small sizes too noisy to judge).
// A program of its own (not a Catch2 test): it replaces operator new and delete to count
// bytes (fuzz/counting_allocator.hpp). Exit status 0 when every body is within the bound.
//
//   decode_memory_bound                   the check
//   decode_memory_bound --write-seeds DIR the shapes, small, as seeds of fuzz_decode (bounds_*.bin)
//                                         (byte 0: operation, byte 1: strict, then the body)
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>

#include <boost/json/parse.hpp>

#include <esign/esign.hpp>
#include <esign/reference/backend.hpp>

#include "../../fuzz/counting_allocator.hpp"
#include "hostile_bodies.hpp"

namespace {

struct peaks {
    std::size_t streamed = 0;  // read<T>
    std::size_t dom = 0;       // decode<T> of parse_body's value
    std::size_t problems = 0;  // kept by read<T>
    std::size_t team = 0;      // backend::handle(op_path, team key, bytes), reply included
    std::size_t keyless = 0;   // backend::handle("/_control/team/create", no key, bytes)
};

// A reference backend (strict or not, as the body asks) with one team, made before any
// measure begins: what a request adds to it is what is counted.
struct backend_with_team {
    esign::reference::backend backend;
    std::string key;

    explicit backend_with_team(bool strict)
        : backend([&] {
              esign::reference::backend_options o;
              o.strict = strict;
              o.seed = 7;
              o.wall_clock = [] { return std::int64_t{1'800'000'000'000}; };
              return o;
          }()) {
        auto r = backend.handle("/_control/team/create", std::nullopt, "{}");
        key = boost::json::parse(r.body).at("apiKey").as_string().c_str();
    }
};

backend_with_team& backend_for(bool strict) {
    static backend_with_team lenient(false), strict_one(true);
    return strict ? strict_one : lenient;
}

std::size_t measure_handle(esign::reference::backend& b, std::string_view path, std::optional<std::string_view> key,
                           std::string_view bytes) {
    esign_memory::measure m;
    { auto reply = b.handle(path, key, bytes); }
    return m.peak();
}

template <class T>
peaks measure_decode(std::string_view bytes, bool strict) {
    peaks out;
    const esign::json::decode_options options{.strict = strict};
    {
        esign_memory::measure m;
        {
            auto r = esign::json::read<T>(bytes, options);
            out.problems = r ? 0 : r.problems().size();
        }
        out.streamed = m.peak();
    }
    // The DOM is the caller's (boost::json takes 16 bytes and more per value, 20 times the
    // body and more for some): what is measured is decode<T>'s own.
    if (auto dom = esign::json::parse_body(bytes)) {
        esign_memory::measure m;
        { auto r = esign::json::decode<T>(dom->value, options); }
        out.dom = m.peak();
    }
    return out;
}

peaks measure_body(const esign_hostile::body& b) {
    peaks out;
    esign::for_each_operation([&](const auto& op) {
        if (op.path != b.op_path) return;
        using request = typename std::remove_cvref_t<decltype(op)>::request_type;
        out = measure_decode<request>(b.bytes, b.strict);
    });
    auto& be = backend_for(b.strict);
    out.team = measure_handle(be.backend, b.op_path, be.key, b.bytes);
    out.keyless = measure_handle(be.backend, "/_control/team/create", std::nullopt, b.bytes);
    return out;
}

int write_seeds(const std::string& dir) {
    auto write = [&](const esign_hostile::body& b, const std::string& suffix) {
        const auto op = esign::find_operation(b.op_path);
        if (!op) return false;
        std::ofstream f(dir + "/bounds_" + b.name + suffix + ".bin", std::ios::binary);
        f.put(static_cast<char>(*op));
        f.put(b.strict ? '\1' : '\0');
        f << b.bytes;
        return static_cast<bool>(f);
    };
    for (const auto& b : esign_hostile::hostile_bodies(4000))
        if (!write(b, "")) return 1;
    // Two at the sizes of issue 11: a 32 KiB name in a 56 KiB body, 100,000 recipients.
    for (const auto& b : esign_hostile::hostile_bodies(56 << 10))
        if (b.name == "long_name_duplicates" && !write(b, "_56k")) return 1;
    for (const auto& b : esign_hostile::hostile_bodies(200070))
        if (b.name == "recipients_numbers" && !write(b, "_100000")) return 1;
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc == 3 && std::string_view(argv[1]) == "--write-seeds") return write_seeds(argv[2]);
    int failures = 0;
    for (std::size_t size : {std::size_t(4) << 10, std::size_t(20) << 10, std::size_t(64) << 10, std::size_t(256) << 10,
                             std::size_t(1) << 20}) {
        for (const auto& b : esign_hostile::hostile_bodies(size)) {
            const peaks p = measure_body(b);
            const std::size_t bound = esign_memory::bound_for(b.bytes.size());
            const bool ok = p.streamed < bound && p.dom < bound && p.team < bound && p.keyless < bound &&
                            p.problems <= esign::max_reported_problems;
            failures += ok ? 0 : 1;
            std::printf(
                "%s %-28s %8zu bytes: read<T> %9zu, DOM %9zu, handle %9zu, keyless %9zu, bound %9zu, "
                "%3zu problem(s)\n",
                ok ? "ok  " : "FAIL", b.name.c_str(), b.bytes.size(), p.streamed, p.dom, p.team, p.keyless, bound,
                p.problems);
        }
    }
    std::printf("decode_memory_bound: %s\n", failures == 0 ? "all within the bound" : "some over the bound");
    return failures == 0 ? 0 : 1;
}
