// SPDX-License-Identifier: BSL-1.0
#pragma once
// Matching a DFA of at most 16 states with byte shuffles (x86-64 SSSE3, PSHUFB).
//
// A table walk waits, at every byte, for the load of the next state, whose address depends on
// the current one: a load's latency (4 to 5 cycles) per byte. Here the state sits in every byte
// lane of an SSE register, and each byte has a row of 16 bytes, row[s] = the state after
// reading that byte in state s. Loading a byte's row depends on the byte only, so loads run
// ahead; one shuffle (1 cycle) then picks row[state] in every lane, and that shuffle is
// the only step from one byte to the next; rows also compose by shuffles, so 16 bytes' rows are
// combined side by side and the state waits for one shuffle per 16 bytes (run_by_shuffles).
// There is no branch per byte either: a run of bytes that change the state costs what a run
// that keeps it costs.
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

// Steps compose: the row of "`first`, then `second`" is second[first[s]] for every s, one
// shuffle. 16 bytes are read as a tree of 15 such shuffles, 4 deep, that build their row while
// the state waits (the shuffles of one level run side by side), then one shuffle of the state: a
// chain of 5 shuffles per 16 bytes, not 16. (Free functions, not lambdas: a lambda does not
// inherit the target attribute, and a call to an SSSE3 function from it would not be inlined.)
__attribute__((target("ssse3"))) inline __m128i then(__m128i first, __m128i second) noexcept {
    return _mm_shuffle_epi8(second, first);
}

// The row at byte offset `offset` in the rows.
inline __m128i row_at(const shuffle_rows& rows, std::size_t offset) noexcept {
    return _mm_load_si128(reinterpret_cast<const __m128i*>(reinterpret_cast<const char*>(rows.next.data()) + offset));
}

// The row of two rows, those at byte offsets offset(k) and offset(k + 1) (`Offset`: the bytes
// themselves times 16, or offsets computed before).
template <class Offset>
__attribute__((target("ssse3"))) inline __m128i row_of_2(const shuffle_rows& rows, const Offset& offset,
                                                         int k) noexcept {
    return then(row_at(rows, offset(k)), row_at(rows, offset(k + 1)));
}
// The row of the 16 rows at offset(0) to offset(15), in that order.
template <class Offset>
__attribute__((target("ssse3"))) inline __m128i row_of_16(const shuffle_rows& rows, const Offset& offset) noexcept {
    const __m128i quad0 = then(row_of_2(rows, offset, 0), row_of_2(rows, offset, 2));
    const __m128i quad1 = then(row_of_2(rows, offset, 4), row_of_2(rows, offset, 6));
    const __m128i quad2 = then(row_of_2(rows, offset, 8), row_of_2(rows, offset, 10));
    const __m128i quad3 = then(row_of_2(rows, offset, 12), row_of_2(rows, offset, 14));
    return then(then(quad0, quad1), then(quad2, quad3));
}

// The byte offsets of the rows of the 16 bytes at p, with the identity row for the bytes from
// `kept` on: computed for the 16 at once (SSE2), where one at a time took 6 instructions a byte.
inline void row_offsets(const unsigned char* p, std::uint64_t kept, std::uint16_t* out) noexcept {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i zero = _mm_setzero_si128();
    const __m128i last_kept = _mm_set1_epi16(static_cast<short>(static_cast<short>(kept) - 1));
    const __m128i identity = _mm_set1_epi16(static_cast<short>(identity_row));
    auto half = [&](__m128i bytes16, __m128i lanes) {
        const __m128i dropped = _mm_cmpgt_epi16(lanes, last_kept);
        const __m128i index = _mm_or_si128(_mm_andnot_si128(dropped, bytes16), _mm_and_si128(dropped, identity));
        return _mm_slli_epi16(index, 4);  // 16 bytes a row
    };
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out),
                     half(_mm_unpacklo_epi8(bytes, zero), _mm_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7)));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 8),
                     half(_mm_unpackhi_epi8(bytes, zero), _mm_setr_epi16(8, 9, 10, 11, 12, 13, 14, 15)));
}

// The state after `input` from `start` (a dead state stays dead). An input of 16 bytes or more
// begins with a window of its first 16 bytes where only the first n % 16 read their rows and the
// others the identity row (no branch: a loop of n % 16 steps would end at a jump the processor
// mispredicts when lengths vary), then whole blocks. A long input is checked for the dead state
// once a block, so a refused one stops soon.
__attribute__((target("ssse3"))) inline std::uint8_t run_by_shuffles(const shuffle_rows& rows, std::uint8_t start,
                                                                     std::string_view input) noexcept {
    const auto* p = reinterpret_cast<const unsigned char*>(input.data());
    const auto* const end = p + input.size();
    __m128i state = _mm_set1_epi8(static_cast<char>(start));
    if (input.size() >= 16) {
        const std::uint64_t head = input.size() % 16;
        alignas(16) std::array<std::uint16_t, 16> offsets;
        row_offsets(p, head, offsets.data());
        state = then(state, row_of_16(rows, [&](int k) { return offsets[static_cast<std::size_t>(k)]; }));
        for (p += head; p != end; p += 16) {
            state = then(state, row_of_16(rows, [p](int k) { return std::size_t{p[k]} * 16; }));
            if (end - p > 64 && (_mm_cvtsi128_si32(state) & 0xff) == dead_state) return dead_state;  // no way back
        }
    } else {
        for (; p != end; ++p) state = then(state, row_at(rows, std::size_t{*p} * 16));
    }
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
