// SPDX-License-Identifier: BSL-1.0
// Fuzzing the memory bound of decoding (contract.md §6.7): a body of S bytes takes less than
// 32 × S + 1 MiB at its peak, whatever the body.
//
// Input: as fuzz_decode (byte 0 picks the operation, mod operation_count, in table order;
// bit 0 of byte 1 turns strict mode on; the rest is the request body).
// Checks, with a counting operator new (counting_allocator.hpp, which replaces the global
// operator new and delete of this program):
//  - read<T>(body), the server's path, peaks below the bound;
//  - decode<T> of parse_body's value peaks below the bound (the value itself is the caller's
//    and not counted: boost::json takes 16 bytes and more per value);
//  - both keep at most max_reported_problems problems.
// The seeds of fuzz/corpus/decode_memory/ are the shapes of tests/memory/hostile_bodies.hpp
// (written by `decode_memory_bound --write-seeds DIR`).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <esign/json/decode.hpp>
#include <esign/model/operations.hpp>

#include "check.hpp"
#include "request_input.hpp"
#include "counting_allocator.hpp"

namespace {

template <class T>
void check_request(std::string_view body, bool strict, std::string_view op_path) {
    const esign::json::decode_options options{.strict = strict};
    const std::size_t bound = esign_memory::bound_for(body.size());
    {
        std::size_t problems = 0;
        esign_memory::measure m;
        {
            auto r = esign::json::read<T>(body, options);
            if (!r) problems = r.problems().size();
        }
        ESIGN_FUZZ_CHECK(m.peak() < bound, "%.*s: read<T> of %zu bytes peaked at %zu bytes (bound %zu)",
                         int(op_path.size()), op_path.data(), body.size(), m.peak(), bound);
        ESIGN_FUZZ_CHECK(problems <= esign::max_reported_problems, "%.*s: read<T> kept %zu problems",
                         int(op_path.size()), op_path.data(), problems);
    }
    auto dom = esign::json::parse_body(body);
    if (!dom) return;
    ESIGN_FUZZ_CHECK(dom->duplicates.size() <= esign::max_reported_problems, "%.*s: parse_body kept %zu duplicates",
                     int(op_path.size()), op_path.data(), dom->duplicates.size());
    std::size_t problems = 0;
    esign_memory::measure m;
    {
        auto r = esign::json::decode<T>(dom->value, options);
        if (!r) problems = r.problems().size();
    }
    ESIGN_FUZZ_CHECK(m.peak() < bound, "%.*s: decode<T> of a %zu-byte body peaked at %zu bytes (bound %zu)",
                     int(op_path.size()), op_path.data(), body.size(), m.peak(), bound);
    ESIGN_FUZZ_CHECK(problems <= esign::max_reported_problems, "%.*s: decode<T> kept %zu problems", int(op_path.size()),
                     op_path.data(), problems);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return esign::fuzz::with_request_input(data, size, [](const auto& op, std::string_view body, bool strict) {
        using request = typename std::remove_cvref_t<decltype(op)>::request_type;
        check_request<request>(body, strict, op.path);
    });
}

#include "replay_main.hpp"
