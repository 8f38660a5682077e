// SPDX-License-Identifier: BSL-1.0
#pragma once
// The JSON scanner: bytes → the events of json/parse.hpp, for one whole document in memory.
// It accepts exactly RFC 8259 JSON (no comments, no trailing commas), strict UTF-8 (no
// overlong forms, no encoded surrogates, nothing past U+10FFFF), no lone surrogate escapes,
// nested at most max_depth containers deep. Why not boost::json::basic_parser, which the
// decoder used before: a parser for streams pays for being resumable at every byte (a state
// saved and tested per value) and checks UTF-8 byte by byte; a body is whole in memory, so
// this one scans strings 16 bytes at a time and looks at a byte only where something happens.
//
// A string without escapes is given as a view of the input (no copy); one with escapes is
// decoded into a buffer the scanner reuses. Numbers are classified as Boost.JSON does: an
// integer that fits in int64 is int64, a non-negative one that fits in uint64 is uint64,
// anything else (a fraction, an exponent, or too many digits) is the nearest double, correctly
// rounded (exact arithmetic when it can be, else std::from_chars; ±infinity or ±0 beyond the
// double range).
//
// Bounded: no recursion (an explicit stack of at most max_depth container kinds), time linear
// in the input, memory at most the input's size (the escape buffer) plus the stack.
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <system_error>

#include <boost/container/small_vector.hpp>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <esign/json/scalar.hpp>
#include <esign/types/bounded_string.hpp>

namespace esign::json::detail {

// Why a body is not JSON (nullptr: it is), and where.
struct scan_result {
    const char* error = nullptr;  // static text
    std::size_t at = 0;           // byte offset where it was found
    bool too_deep = false;        // the error is that containers nest deeper than max_depth
    bool root_is_object = false;  // (when no error) the root value is an object
};

inline bool is_json_whitespace(char c) noexcept { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// A sink that drops every event: the scanner checks a body whose root is not an object with it.
struct ignore_events {
    void on_begin(bool) noexcept {}
    void on_key(std::string_view) noexcept {}
    void on_scalar(const scalar&) noexcept {}
    void on_end() noexcept {}
};

// The first byte at or after `p` that ends a plain run of string bytes: '"', '\\', a control
// character (below 0x20) or a byte of a multi-byte UTF-8 sequence (0x80 and above); `end` if none.
[[gnu::always_inline]] inline const char* find_string_special(const char* p, const char* end) noexcept {
#if defined(__SSE2__)
    // One signed compare finds both the control characters and the bytes from 0x80 (negative).
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i space = _mm_set1_epi8(0x20);
    while (end - p >= 16) {
        const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        const __m128i hits = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(bytes, quote), _mm_cmpeq_epi8(bytes, backslash)),
                                          _mm_cmplt_epi8(bytes, space));
        if (const int mask = _mm_movemask_epi8(hits)) return p + __builtin_ctz(static_cast<unsigned>(mask));
        p += 16;
    }
#endif
    for (; p != end; ++p) {
        const auto c = static_cast<unsigned char>(*p);
        if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) return p;
    }
    return end;
}

// The bytes and the tokens of one JSON document: strings, numbers, literals, the bytes between
// them. The scanner (below) reads whole documents with it; json::read's direct reader
// (json/detail/direct_reader.hpp) reads a typed value with it by recursive descent.
class cursor {
public:
    explicit cursor(std::string_view bytes) noexcept
        : begin_(bytes.data()), p_(bytes.data()), end_(bytes.data() + bytes.size()) {}

protected:
    [[gnu::always_inline]] void skip_whitespace() noexcept {
        // Most bodies have none between tokens: one compare says so (every whitespace byte is <= ' ').
        while (p_ != end_ && static_cast<unsigned char>(*p_) <= ' ' && is_json_whitespace(*p_)) ++p_;
    }

    scan_result fail(const char* why) noexcept { return fail_at(why, p_); }
    scan_result fail_at(const char* why, const char* where) noexcept {
        result_.error = why;
        result_.at = static_cast<std::size_t>(where - begin_);
        return result_;
    }
    bool failed(const char* why) noexcept { return failed_at(why, p_); }
    bool failed_at(const char* why, const char* where) noexcept {
        fail_at(why, where);
        return false;
    }

    // Steps over `byte` at p_, or after whitespace; else fails with `at_end` (no byte left) or
    // `otherwise`.
    [[gnu::always_inline]] bool expect(char byte, const char* at_end, const char* otherwise) {
        if (p_ == end_ || *p_ != byte) [[unlikely]] {
            skip_whitespace();
            if (p_ == end_) return failed(at_end);
            if (*p_ != byte) return failed(otherwise);
        }
        ++p_;
        return true;
    }

    // A number, true, false or null at p_, into `out` (a new scalar).
    [[gnu::always_inline]] bool scalar_token(scalar& out) {
        switch (*p_) {
            case 't':
                return literal("true", boost::json::kind::bool_, out);
            case 'f':
                return literal("false", boost::json::kind::bool_, out);
            case 'n':
                return literal("null", boost::json::kind::null, out);
            default:
                if (*p_ == '-' || (*p_ >= '0' && *p_ <= '9')) return number(out);
                return failed("expected a value (an object, array, string, number, true, false or null)");
        }
    }

    bool literal(std::string_view word, boost::json::kind kind, scalar& out) {
        if (static_cast<std::size_t>(end_ - p_) < word.size() || std::string_view(p_, word.size()) != word)
            return failed("expected a value (an object, array, string, number, true, false or null)");
        p_ += word.size();
        out.kind = kind;
        out.bool_ = word[0] == 't';
        return true;
    }

    // The kind and text of `out`, a new scalar whose value was set. (Each member is stored once,
    // in place: a scalar built apart and copied in costs a stall per member read back.)
    static void set(scalar& out, boost::json::kind kind, std::string_view text) noexcept {
        out.kind = kind;
        out.text = text;
    }

    // A string's contents and closing quote (p_ just after the opening quote). `out` views the
    // input, or the escape buffer when the string has escapes. Inline: most strings are plain
    // ASCII, found whole by one or two 16-byte compares.
    [[gnu::always_inline]] bool string(std::string_view& out) {
        const char* const start = p_;
        p_ = find_string_special(p_, end_);
        if (p_ != end_ && *p_ == '"') [[likely]] {
            out = std::string_view(start, static_cast<std::size_t>(p_ - start));
            ++p_;
            return true;
        }
        return string_with_specials(start, out);
    }

    // The rest of a string that holds an escape, a control character or a non-ASCII byte at p_.
    [[gnu::noinline]] bool string_with_specials(const char* start, std::string_view& out) {
        const char* run = start;  // the bytes not yet copied (only copied once an escape is seen)
        bool copied = false;
        for (;;) {
            if (p_ == end_) return failed("a string is not closed");
            const auto c = static_cast<unsigned char>(*p_);
            if (c == '"') {
                if (copied) {
                    text_.append(run, p_);
                    out = text_;
                } else {
                    out = std::string_view(run, static_cast<std::size_t>(p_ - run));
                }
                ++p_;
                return true;
            }
            if (c == '\\') {
                if (!copied) text_.clear();
                copied = true;
                text_.append(run, p_);
                if (!escape()) return false;
                run = p_;
            } else if (c < 0x20) {
                return failed("a string holds a control character (U+0000 to U+001F) that is not escaped");
            } else {
                const std::size_t n = utf8_sequence_length(std::string_view(p_, static_cast<std::size_t>(end_ - p_)));
                if (n == 0) return failed("a string is not valid UTF-8");
                p_ += n;
            }
            p_ = find_string_special(p_, end_);
        }
    }

    // One escape (p_ at its backslash), appended to text_ decoded.
    bool escape() {
        const char* at = p_++;
        if (p_ == end_) return failed("a string is not closed");
        switch (*p_++) {
            case '"':
                text_ += '"';
                return true;
            case '\\':
                text_ += '\\';
                return true;
            case '/':
                text_ += '/';
                return true;
            case 'b':
                text_ += '\b';
                return true;
            case 'f':
                text_ += '\f';
                return true;
            case 'n':
                text_ += '\n';
                return true;
            case 'r':
                text_ += '\r';
                return true;
            case 't':
                text_ += '\t';
                return true;
            case 'u':
                break;
            default:
                return failed_at("a string holds an unknown escape", at);
        }
        std::uint32_t code = 0;
        if (!hex4(code)) return false;
        if (code >= 0xDC00 && code <= 0xDFFF) return failed_at("a \\u escape is a lone surrogate", at);
        if (code >= 0xD800 && code <= 0xDBFF) {
            std::uint32_t low = 0;
            if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u')
                return failed_at("a \\u escape is a lone surrogate", at);
            p_ += 2;
            if (!hex4(low)) return false;
            if (low < 0xDC00 || low > 0xDFFF) return failed_at("a \\u escape is a lone surrogate", at);
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
        }
        append_utf8(code);
        return true;
    }

    bool hex4(std::uint32_t& code) {
        if (end_ - p_ < 4) return failed("a \\u escape needs four hex digits");
        for (int i = 0; i < 4; ++i, ++p_) {
            const char c = *p_;
            std::uint32_t digit;
            if (c >= '0' && c <= '9')
                digit = static_cast<std::uint32_t>(c - '0');
            else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
                digit = static_cast<std::uint32_t>((c | 0x20) - 'a' + 10);
            else
                return failed("a \\u escape needs four hex digits");
            code = code * 16 + digit;
        }
        return true;
    }

    void append_utf8(std::uint32_t code) {
        auto byte = [](std::uint32_t b) { return static_cast<char>(static_cast<unsigned char>(b)); };
        if (code < 0x80) {
            text_ += byte(code);
        } else if (code < 0x800) {
            text_ += byte(0xC0 | (code >> 6));
            text_ += byte(0x80 | (code & 0x3F));
        } else if (code < 0x10000) {
            text_ += byte(0xE0 | (code >> 12));
            text_ += byte(0x80 | ((code >> 6) & 0x3F));
            text_ += byte(0x80 | (code & 0x3F));
        } else {
            text_ += byte(0xF0 | (code >> 18));
            text_ += byte(0x80 | ((code >> 12) & 0x3F));
            text_ += byte(0x80 | ((code >> 6) & 0x3F));
            text_ += byte(0x80 | (code & 0x3F));
        }
    }

    static bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }

    // A number at p_ ('-' or a digit). Its digits are read once: the first 19 into a mantissa
    // (an integer of up to 19 digits is exact there), the exponent saturating. Read with a local
    // cursor, stored in p_ when the number ends: p_ itself would be stored at every digit.
    bool number(scalar& out) {  // `out`: a new scalar
        const char* const start = p_;
        const char* p = p_;
        const bool negative = *p == '-';
        if (negative) ++p;
        if (p == end_ || !is_digit(*p)) return failed_at("a number needs a digit", p);
        std::uint64_t mantissa = 0;
        int digits = 0;  // in the integer part and the fraction, leading zeros included
        auto take_digits = [&] {
            for (; p != end_ && is_digit(*p); ++p, ++digits)
                if (digits < 19) mantissa = mantissa * 10 + static_cast<unsigned>(*p - '0');
        };
        if (*p == '0') {  // no leading zeros: "01" is 0, then an error
            ++p;
            digits = 1;
        } else {
            take_digits();
        }
        const int integer_digits = digits;
        bool integer = true;
        if (p != end_ && *p == '.') {
            ++p;
            if (p == end_ || !is_digit(*p)) return failed_at("a number's fraction needs a digit", p);
            take_digits();
            integer = false;
        }
        int exponent = 0;  // as written, saturating near ±10^9 (beyond any double and any body's digits)
        if (p != end_ && (*p == 'e' || *p == 'E')) {
            ++p;
            const bool minus = p != end_ && *p == '-';
            if (p != end_ && (*p == '+' || *p == '-')) ++p;
            if (p == end_ || !is_digit(*p)) return failed_at("a number's exponent needs a digit", p);
            for (; p != end_ && is_digit(*p); ++p)
                if (exponent < 100'000'000) exponent = exponent * 10 + (*p - '0');
            if (minus) exponent = -exponent;
            integer = false;
        }
        p_ = p;
        const std::string_view text(start, static_cast<std::size_t>(p_ - start));
        if (integer && digits <= 20) {
            if (digits == 20) {  // the mantissa holds 19 of them: the last one, checked
                const unsigned last = static_cast<unsigned>(p_[-1] - '0');
                if (__builtin_mul_overflow(mantissa, 10u, &mantissa) ||
                    __builtin_add_overflow(mantissa, last, &mantissa))
                    return to_double(text, negative, integer_digits, exponent, out);
            }
            constexpr auto int64_max = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
            if (!negative) {
                if (mantissa <= int64_max)
                    out.int64 = static_cast<std::int64_t>(mantissa);
                else
                    out.uint64 = mantissa;
                set(out, mantissa <= int64_max ? boost::json::kind::int64 : boost::json::kind::uint64, text);
                return true;
            }
            if (mantissa <= int64_max + 1) {  // -2^63 is an int64
                out.int64 = static_cast<std::int64_t>(0 - mantissa);
                set(out, boost::json::kind::int64, text);
                return true;
            }
        }
        // Exact operands, one rounding (Clinger's fast path): a mantissa of at most 2^53 times or
        // divided by a power of ten up to 10^22, both exact doubles, is correctly rounded.
        const int scale = exponent - (digits - integer_digits);
        if (!integer && digits <= 19 && mantissa <= (std::uint64_t{1} << 53) && scale >= -22 && scale <= 22) {
            double d = static_cast<double>(mantissa);
            d = scale < 0 ? d / powers_of_ten[-scale] : d * powers_of_ten[scale];
            out.double_ = negative ? -d : d;
            set(out, boost::json::kind::double_, text);
            return true;
        }
        return to_double(text, negative, integer_digits, exponent, out);
    }

    static constexpr double powers_of_ten[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                               1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

    // The nearest double to a number's text (well-formed: checked by number(), which gives the
    // digits before the point and the exponent as written).
    bool to_double(std::string_view text, bool negative, int integer_digits, int exponent, scalar& out) {
        double d = 0;
        if (std::from_chars(text.data(), text.data() + text.size(), d).ec == std::errc::result_out_of_range) {
            // Beyond the double range: infinity when the number's magnitude is large, 0 when small.
            // Which one is told by the decimal exponent of its first significant digit, far from 0
            // either way (the range ends near 1e308 and 1e-324).
            const std::string_view digits = text.substr(negative ? 1 : 0);  // e.g. "0.00123e-400"
            long long first = integer_digits - 1;  // the integer part has no leading zero but "0"
            if (digits.size() > 1 && digits[0] == '0' && digits[1] == '.')  // "0.": the fraction's first nonzero digit
                first = 1 - static_cast<long long>(digits.find_first_not_of('0', 2));
            d = first + exponent > 0 ? std::numeric_limits<double>::infinity() : 0.0;
            if (negative) d = -d;
        }
        out.double_ = d;
        set(out, boost::json::kind::double_, text);
        return true;
    }
    const char* begin_;
    const char* p_;
    const char* end_;
    std::string text_;  // a string with escapes, decoded
    scan_result result_;
};

template <class Sink>
class scanner : cursor {
public:
    scanner(std::string_view bytes, Sink& sink, std::size_t max_depth) noexcept
        : cursor(bytes), sink_(&sink), max_depth_(max_depth) {}

    // Scans the whole input (the caller has checked that a body whose root is not an object
    // goes to an ignore_events scanner).
    scan_result run() {
        bool want_value = true;  // a value comes next (else: what follows a value)
        skip_whitespace();
        for (;;) {
            if (want_value) {
                const std::size_t depth = open_.size();
                if (!value()) return result_;
                want_value = false;
                if (open_.size() > depth) {  // a container opened: its end, or its first member or item
                    skip_whitespace();
                    if (p_ == end_ || *p_ != closing()) {
                        if (!begin_member_or_item()) return result_;
                        want_value = true;
                        continue;
                    }
                    ++p_;
                    close();
                }
            }
            // After a value.
            skip_whitespace();
            if (open_.empty()) {
                if (p_ != end_) return fail("there is more after the JSON value");
                return result_;
            }
            if (p_ == end_)
                return fail(open_.back() ? "the body ends inside an array" : "the body ends inside an object");
            if (*p_ == ',') {
                ++p_;
                if (!begin_member_or_item()) return result_;
                want_value = true;
            } else if (*p_ == closing()) {
                ++p_;
                close();
            } else {
                return fail(open_.back() ? "expected ',' or ']' after an array item"
                                         : "expected ',' or '}' after a member's value");
            }
        }
    }

private:
    // The byte that closes the innermost open container.
    char closing() const noexcept { return open_.back() ? ']' : '}'; }
    void close() {
        open_.pop_back();
        sink_->on_end();
    }
    // What comes before the next value of the innermost container: an object's member name
    // (and its ':'); nothing for an array item. (Whitespace before the name or the value is
    // skipped where a byte that is not the expected one is looked at: most bodies have none,
    // and then the one test that finds the expected byte is all there is.)
    bool begin_member_or_item() { return open_.back() || member_name(); }

    // A member's name and its ':' (p_ at the name's quote, or whitespace before it).
    bool member_name() {
        if (!expect('"', "the body ends where a member name should be", "expected a member name (a string)"))
            return false;
        std::string_view name;
        if (!string(name)) return false;
        sink_->on_key(name);
        return expect(':', "the body ends where ':' should be", "expected ':' after a member name");
    }

    // One value at p_, or whitespace before it: a scalar is given to the sink whole; a container
    // is opened (pushed on open_).
    [[gnu::always_inline]] bool value() {
        for (;;) {
            if (p_ == end_) return failed("the body ends where a value should be");
            switch (*p_) {
                case ' ':
                case '\n':
                case '\r':
                case '\t':
                    skip_whitespace();
                    continue;
                case '{':
                case '[': {
                    const bool is_array = *p_ == '[';
                    if (open_.size() >= max_depth_) {
                        result_.too_deep = true;
                        return failed("containers nest too deep");
                    }
                    ++p_;
                    open_.push_back(is_array);
                    sink_->on_begin(is_array);
                    return true;
                }
                case '"': {
                    ++p_;
                    std::string_view s;
                    if (!string(s)) return false;
                    sink_->on_scalar(scalar::string(s));
                    return true;
                }
                default: {
                    scalar s;
                    if (!scalar_token(s)) return false;
                    sink_->on_scalar(s);
                    return true;
                }
            }
        }
    }

    Sink* sink_;
    std::size_t max_depth_;
    boost::container::small_vector<bool, 64> open_;  // the open containers: true for an array
};

// Scans `bytes`, giving its events to `sink` when its root is an object (otherwise only
// checking that it is JSON).
template <class Sink>
scan_result scan(std::string_view bytes, Sink& sink, std::size_t max_depth) {
    std::size_t first = 0;
    while (first < bytes.size() && is_json_whitespace(bytes[first])) ++first;
    if (first < bytes.size() && bytes[first] == '{') {
        scan_result r = scanner<Sink>(bytes, sink, max_depth).run();
        r.root_is_object = r.error == nullptr;
        return r;
    }
    ignore_events none;
    return scanner<ignore_events>(bytes, none, max_depth).run();
}

}  // namespace esign::json::detail
