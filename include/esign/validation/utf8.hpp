// SPDX-License-Identifier: BSL-1.0
#pragma once
// UTF-8 as RFC 3629 defines it: code points counted (the lengths of bounded strings), sequences
// and whole strings judged (every string of a request must be valid UTF-8, as JSON text is).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>

namespace esign {

// Code points of valid UTF-8: every byte that is not a continuation byte (10xxxxxx) starts one.
// At run time 8 bytes at a time: a continuation byte is one whose bit 7 is set and bit 6 clear
// (the shift moves each byte's bit 6 to its bit 7; what crosses into the next byte is masked off),
// and the multiplication adds the eight 0-or-1 bytes into the top one (no popcount instruction
// is assumed: without -mpopcnt, std::popcount is a library call).
constexpr std::size_t code_point_count(std::string_view s) noexcept {
    std::size_t continuation = 0;
    std::size_t i = 0;
    if (!std::is_constant_evaluated()) {
        for (; i + 8 <= s.size(); i += 8) {
            std::uint64_t w;
            std::memcpy(&w, s.data() + i, sizeof w);
            const std::uint64_t ones = (w & ~(w << 1) & 0x8080808080808080u) >> 7;
            continuation += static_cast<std::size_t>((ones * 0x0101010101010101u) >> 56);
        }
    }
    for (; i < s.size(); ++i) continuation += (static_cast<unsigned char>(s[i]) & 0xC0u) == 0x80u;
    return s.size() - continuation;
}

// The length of the UTF-8 sequence that `rest` begins with, whose first byte is 0x80 or above,
// as RFC 3629 defines it (no overlong form, no surrogate, nothing above U+10FFFF); 0 when it is
// not one (a continuation byte, an overlong lead C0 or C1, F5 to FF, a wrong or missing byte).
constexpr std::size_t utf8_sequence_length(std::string_view rest) noexcept {
    const auto c = static_cast<unsigned char>(rest[0]);
    std::size_t length = 0;
    unsigned char low = 0x80, high = 0xBF;  // the range of the second byte
    if (c >= 0xC2 && c <= 0xDF)
        length = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        length = 3;
        if (c == 0xE0) low = 0xA0;   // overlong
        if (c == 0xED) high = 0x9F;  // surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
        length = 4;
        if (c == 0xF0) low = 0x90;   // overlong
        if (c == 0xF4) high = 0x8F;  // above U+10FFFF
    } else {
        return 0;
    }
    if (rest.size() < length) return 0;
    const auto second = static_cast<unsigned char>(rest[1]);
    if (second < low || second > high) return 0;
    for (std::size_t k = 2; k < length; ++k)
        if ((static_cast<unsigned char>(rest[k]) & 0xC0u) != 0x80u) return 0;
    return length;
}

// Whether `s` is valid UTF-8 as RFC 3629 defines it, as the text of a JSON document must be:
// what the parser of json::read accepts.
constexpr bool valid_utf8(std::string_view s) noexcept {
    const std::size_t n = s.size();
    std::size_t i = 0;
    while (i < n) {
        if (!std::is_constant_evaluated()) {  // ASCII, 8 bytes at a time: most text
            std::uint64_t word = 0;
            while (n - i >= 8 && (std::memcpy(&word, s.data() + i, 8), (word & 0x8080808080808080u) == 0)) i += 8;
            if (i == n) break;
        }
        if (static_cast<unsigned char>(s[i]) < 0x80) {
            ++i;
            continue;
        }
        const std::size_t length = utf8_sequence_length(s.substr(i));
        if (length == 0) return false;
        i += length;
    }
    return true;
}

}  // namespace esign
