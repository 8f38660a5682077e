// SPDX-License-Identifier: BSL-1.0
#pragma once
// The JSON text as it is written: the buffer it is appended to (text_buffer, with a text_spill
// where it goes a part at a time), and the writers of strings and numbers that give the bytes
// boost::json::serialize gives. Codecs' `write` use them (json/codec.hpp).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include <boost/json/serializer.hpp>
#include <boost/json/string_view.hpp>
#include <boost/json/value.hpp>

namespace esign::json {

// Where a long text goes a part at a time as it is written (text_buffer's spill), so that the
// text need not be held whole: a file, a connection. `write` takes the parts in order.
class text_spill {
public:
    explicit text_spill(std::size_t at) noexcept : at_(at) {}
    text_spill(const text_spill&) = delete;
    text_spill& operator=(const text_spill&) = delete;
    virtual void write(std::string_view part) = 0;
    // The text buffered before it is handed on.
    std::size_t at() const noexcept { return at_; }

protected:
    ~text_spill() = default;

private:
    std::size_t at_;
};

// The JSON text being written: appended to a std::string used as a buffer (its spare room
// exposed once, then written through a cursor: no bounds check or call into std::string per
// piece of punctuation). The string holds the text when the text_buffer is gone; with a spill,
// it holds what was not handed on yet: once it holds spill.at() bytes and needs room, they go
// to the spill and the string is written from its start again.
class text_buffer {
public:
    explicit text_buffer(std::string& out) noexcept : out_(out) {}
    text_buffer(std::string& out, text_spill& spill) noexcept : out_(out), spill_(&spill) {}
    text_buffer(const text_buffer&) = delete;
    text_buffer& operator=(const text_buffer&) = delete;
    ~text_buffer() { out_.resize(size()); }

    // Room for `n` more bytes at the end; write them through the pointer, then `advance`.
    char* room(std::size_t n) {
        if (static_cast<std::size_t>(end_ - pos_) < n) [[unlikely]]
            grow(n);
        return pos_;
    }
    std::size_t room_size() const noexcept { return static_cast<std::size_t>(end_ - pos_); }
    void advance(std::size_t n) noexcept { pos_ += n; }
    void append(std::string_view text) {
        if (text.empty()) return;  // its data() may be null, which memcpy may not be given
        std::memcpy(room(text.size()), text.data(), text.size());
        pos_ += text.size();
    }
    void put(char c) {
        *room(1) = c;
        ++pos_;
    }

private:
    std::size_t size() const noexcept { return pos_ ? static_cast<std::size_t>(pos_ - out_.data()) : out_.size(); }
    // Exposes as much again as is written, at least 4 KiB, within the capacity while it has room
    // (the string reallocates geometrically past it): the bytes that resize zeroes and nothing
    // writes stay few, however much was reserved.
    void grow(std::size_t n) {
        if (spill_ && pos_ && size() >= spill_->at()) {
            spill_->write(std::string_view(out_.data(), size()));
            pos_ = out_.data();
            if (static_cast<std::size_t>(end_ - pos_) >= n) return;
        }
        const std::size_t used = size();
        std::size_t exposed = std::max(2 * used, used + 4096);
        if (used + n <= out_.capacity()) exposed = std::min(exposed, out_.capacity());
        out_.resize(std::max(exposed, used + n));
        pos_ = out_.data() + used;
        end_ = out_.data() + out_.size();
    }

    std::string& out_;
    text_spill* spill_ = nullptr;
    char* pos_ = nullptr;
    char* end_ = nullptr;
};

namespace detail {
// Appends what Boost.JSON's serializer writes for `source` (a `const boost::json::value*` or a
// boost::json::string_view, as serializer::reset takes them): the bytes serialize gives.
template <class Source>
void write_serialized(Source source, text_buffer& out) {
    boost::json::serializer serializer;
    serializer.reset(source);
    while (!serializer.done()) {
        char* p = out.room(64);
        out.advance(serializer.read(p, out.room_size()).size());
    }
}

// Whether a byte is written as it is in a JSON string: Boost.JSON escapes the control
// characters, '"' and '\\' only (its serializer's table).
constexpr bool verbatim_byte(unsigned char c) noexcept { return c >= 0x20 && c != '"' && c != '\\'; }

// Whether every byte of `in` is, 8 at a time: a byte below 0x20, or equal to '"' or '\\', sets
// the high bit of its lane (exact, as the classic zero-byte test).
inline bool all_verbatim(std::string_view in) noexcept {
    constexpr std::uint64_t ones = 0x0101010101010101, highs = 0x8080808080808080;
    std::size_t i = 0;
    for (; i + 8 <= in.size(); i += 8) {
        std::uint64_t x;
        std::memcpy(&x, in.data() + i, 8);
        const std::uint64_t quote = x ^ (ones * '"'), backslash = x ^ (ones * '\\');
        const std::uint64_t found = ((x - ones * 0x20) | (quote - ones) | (backslash - ones)) & ~x & highs;
        if (found) return false;
    }
    for (; i < in.size(); ++i)
        if (!verbatim_byte(static_cast<unsigned char>(in[i]))) return false;
    return true;
}
}  // namespace detail

// A string as JSON: the bytes serialize gives. A string without a byte to escape is copied as
// it is; one with them goes through Boost.JSON's serializer.
inline void write_string(std::string_view in, text_buffer& out) {
    if (!detail::all_verbatim(in)) [[unlikely]]
        return detail::write_serialized(boost::json::string_view(in.data(), in.size()), out);
    char* p = out.room(in.size() + 2);
    p[0] = '"';
    if (!in.empty()) std::memcpy(p + 1, in.data(), in.size());  // "" may have a null data()
    p[in.size() + 1] = '"';
    out.advance(in.size() + 2);
}

// An integer in decimal, as serialize writes it.
template <std::integral I>
void write_integer(I in, text_buffer& out) {
    constexpr std::size_t most = 21;  // a sign and 20 digits
    char* p = out.room(most);
    out.advance(static_cast<std::size_t>(std::to_chars(p, p + most, in).ptr - p));
}

namespace detail {
// A double with few decimals (40.25, 0.5: coordinates, sizes) as the integer m and the k of
// m / 10^k, found without std::to_chars (its general case costs ~100 ns). When m < 10^15 and
// m / 10^k is `in` again, m·10^-k is the only decimal with at most 15 digits within half a unit
// in the last place of `in` (the ulp is below 10^-k there), so it is the shortest one: Ryu's.
struct short_decimal {
    std::uint64_t m;
    int k;
};
inline std::optional<short_decimal> as_short_decimal(double in) noexcept {
    constexpr double powers[] = {1e1, 1e2, 1e3, 1e4, 1e5, 1e6};
    const double magnitude = std::fabs(in);
    if (magnitude == 0) return std::nullopt;  // no digit to find (and m would be 0)
    for (int k = 1; k <= 6; ++k) {
        const double scaled = magnitude * powers[k - 1];
        if (!(scaled < 1e15)) return std::nullopt;
        if (std::trunc(scaled) == scaled && scaled / powers[k - 1] == magnitude)
            return short_decimal{static_cast<std::uint64_t>(scaled), k};
    }
    return std::nullopt;
}

// Rewrites the exponent of the std::to_chars scientific text that ends at `end` (-4.025e+01) as
// serialize spells it (-4.025E1); returns its new end.
inline char* boost_exponent(char* end) noexcept {
    char* e = end - 1;
    while (*e != 'e') --e;
    const bool negative = e[1] == '-';
    const char* digits = e + 2;
    while (digits + 1 < end && *digits == '0') ++digits;  // "e+05" → "E5"
    *e++ = 'E';
    if (negative) *e++ = '-';
    const auto n = static_cast<std::size_t>(end - digits);
    std::memmove(e, digits, n);
    return e + n;
}
}  // namespace detail

// A double as serialize writes it: Ryu's shortest digits, always with an exponent (4.025E1,
// 5E-324). std::to_chars gives the same shortest digits (libstdc++ uses Ryu too), spelt
// 4.025e+01; a double with few decimals is written from its integer digits, faster. NaN and
// the infinities go through the serializer.
inline void write_double(double in, text_buffer& out) {
    if (!std::isfinite(in)) [[unlikely]] {
        const boost::json::value number(in);
        return detail::write_serialized(&number, out);
    }
    constexpr std::size_t most = 32;  // -d.dddddddddddddddde-ddd
    char* p = out.room(most);
    char* end = p;
    if (const auto decimal = detail::as_short_decimal(in)) {
        std::uint64_t m = decimal->m;
        int exponent = -decimal->k;
        for (; m % 10 == 0; m /= 10) ++exponent;  // m > 0
        if (std::signbit(in)) *end++ = '-';
        // The digits one place on, then the first before the point: 4025 → 4.025.
        const auto n = static_cast<std::size_t>(std::to_chars(end + 1, p + most, m).ptr - (end + 1));
        end[0] = end[1];
        if (n > 1) end[1] = '.';
        end += n > 1 ? n + 1 : 1;
        exponent += static_cast<int>(n) - 1;
        *end++ = 'E';
        end = std::to_chars(end, p + most, exponent).ptr;
    } else {
        end = detail::boost_exponent(std::to_chars(p, p + most, in, std::chars_format::scientific).ptr);
    }
    out.advance(static_cast<std::size_t>(end - p));
}

}  // namespace esign::json
