// SPDX-License-Identifier: BSL-1.0
#pragma once
// Matching a DFA of at most 16 states with byte shuffles (x86-64 SSSE3, PSHUFB).
//
// A table walk waits, at every byte, for the load of the next state, whose address depends on
// the current one: a load's latency (4 to 5 cycles) per byte. Here the state sits in every byte
// lane of an SSE register, and each byte has a row of 16 bytes, row[s] = the state after
// reading that byte in state s. Loading a byte's row depends on the byte only, so loads run
// ahead; one shuffle (1 cycle) then picks row[state] in every lane, and that shuffle is
// the only step from one byte to the next. There is no branch per byte either: a run of bytes
// that change the state costs what a run that keeps it costs.
//
// x86-64 guarantees SSE2 only: with g++ or clang, match_by_shuffles is compiled for SSSE3 on its
// own (a target attribute) and dfa::match calls it only when the processor has SSSE3
// (shuffles_available()); elsewhere the same rows are walked one load per byte.
//
// A row per byte (4 KiB) rather than per byte class: one load less per byte (21 -> 17 ns an
// e-mail address); the rows are copied from per-class ones, which keeps their constant
// evaluation cheap (tests/test_regex.cpp, 25 patterns: +0.5 s of g++'s front end).
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <esign/regex/detail/subset_construction.hpp>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define ESIGN_REGEX_SHUFFLES 1
#include <tmmintrin.h>  // SSSE3 (and SSE2 under it)
#endif

namespace esign::regex::detail {

inline constexpr std::size_t shuffle_max_states = 16;  // one state per byte lane

inline constexpr std::size_t identity_row = 256;

// The rows of a DFA of at most 16 states: row b for byte b, and a last row that keeps every state.
struct shuffle_rows {
    alignas(16) std::array<std::array<std::uint8_t, shuffle_max_states>, 257> next{};  // [byte][state]
};

// Built from a (states x classes) table, as the subset construction leaves it, and the classes.
template <std::size_t States, std::size_t Classes, class Table>
constexpr shuffle_rows make_shuffle_rows(const Table& next, const std::array<std::uint8_t, 256>& class_of) noexcept {
    static_assert(States <= shuffle_max_states);
    std::array<std::array<std::uint8_t, shuffle_max_states>, Classes> by_class{};
    for (std::size_t c = 0; c < Classes; ++c)
        for (std::size_t s = 0; s < States; ++s) by_class[c][s] = static_cast<std::uint8_t>(next[s * Classes + c]);
    shuffle_rows rows{};
    for (std::size_t b = 0; b < 256; ++b) rows.next[b] = by_class[class_of[b]];
    for (std::size_t s = 0; s < shuffle_max_states; ++s) rows.next[identity_row][s] = static_cast<std::uint8_t>(s);
    return rows;
}

#if defined(ESIGN_REGEX_SHUFFLES)

inline bool shuffles_available() noexcept {
#if defined(__SSSE3__)
    return true;
#else
    // Reads a word that libgcc (or compiler-rt) fills in before main; read earlier, it says
    // "no", and matching takes the portable path.
    return __builtin_cpu_supports("ssse3");
#endif
}

// The state after `input` from `start` (a dead state stays dead), 16 bytes at a time. An input
// of 16 bytes or more begins with a window of its first 16 bytes where only the first n % 16
// read their rows and the others the identity row (no branch: a loop of n % 16 steps would end
// at a jump the processor mispredicts), then whole blocks. A long input is checked for the dead
// state once a block, so a refused one stops soon.
__attribute__((target("ssse3"))) inline std::uint8_t run_by_shuffles(const shuffle_rows& rows, std::uint8_t start,
                                                                     std::string_view input) noexcept {
    const auto* p = reinterpret_cast<const unsigned char*>(input.data());
    const auto* const end = p + input.size();
    // (A lambda does not inherit the target attribute: SSE2's load only.)
    auto row = [&rows](std::size_t b) { return _mm_load_si128(reinterpret_cast<const __m128i*>(rows.next[b].data())); };
    __m128i state = _mm_set1_epi8(static_cast<char>(start));
    if (input.size() >= 16) {
        const std::uint64_t head = input.size() % 16;
        for (std::uint64_t k = 0; k < 16; ++k) {
            const std::uint64_t beyond = (head - 1 - k) >> 63;  // 1 if k >= head (wraps around)
            state = _mm_shuffle_epi8(row((p[k] & (beyond - 1)) | (beyond * identity_row)), state);
        }
        p += head;
        for (; p != end; p += 16) {
            for (std::size_t k = 0; k < 16; ++k) state = _mm_shuffle_epi8(row(p[k]), state);
            if (end - p > 64 && (_mm_cvtsi128_si32(state) & 0xff) == dead_state) return dead_state;  // no way back
        }
    }
    for (; p != end; ++p) state = _mm_shuffle_epi8(row(*p), state);  // an input shorter than 16 bytes
    return static_cast<std::uint8_t>(_mm_cvtsi128_si32(state));
}

#else

inline bool shuffles_available() noexcept { return false; }

// Elsewhere dfa::match never calls this (shuffles_available() is false); the tests do: the same
// rows walked one load per byte.
inline std::uint8_t run_by_shuffles(const shuffle_rows& rows, std::uint8_t start, std::string_view input) noexcept {
    std::uint8_t state = start;
    for (const char c : input) state = rows.next[static_cast<unsigned char>(c)][state];
    return state;
}

#endif

}  // namespace esign::regex::detail
