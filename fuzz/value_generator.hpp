// SPDX-License-Identifier: BSL-1.0
#pragma once
// A generator of typed values from bytes, for every type of the model (fuzz/fuzz_encode.cpp, and
// tests/test_check.cpp with bytes of its own), and the invariant of esign::check against
// json::read of json::write.
//
// The bytes drive gen<T>: each member's value is taken from the next bytes, optionals and
// nullables are present or absent per bit, vectors have 0..3 items (within their bounds),
// strings are valid UTF-8 of bounded length, e-mails and patterned strings come from small
// pools that satisfy their types. When the bytes run out, every further read gives 0.
//
// With `invalid` set, about one value in four (a byte decides) breaks its type instead: a
// string one to three characters too long or too short, an e-mail, pattern or URI from pools of
// bad ones, an integer just out of its range, an enumerator outside the enum, a vector with too
// many or too few items; and about one in 32 is what JSON cannot say: a string with bytes that
// are not UTF-8 (taken from the input), NaN or an infinity, a boost::json value nested beyond
// read's limit.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>
#include <boost/mp11/algorithm.hpp>
#include <fmt/format.h>

#include <esign/json/check.hpp>
#include <esign/json/decode.hpp>
#include <esign/json/encode.hpp>
#include <esign/validation/format.hpp>

#include "check.hpp"

namespace esign_fuzz {

struct bytes {
    const std::uint8_t* p;
    std::size_t n;
    bool invalid = false;  // make some values break their type (see the top of this file)

    std::uint8_t u8() {
        if (n == 0) return 0;
        --n;
        return *p++;
    }
    bool bit() { return u8() & 1; }
    std::uint64_t u64(int count = 8) {
        std::uint64_t v = 0;
        for (int i = 0; i < count; ++i) v = (v << 8) | u8();
        return v;
    }
    std::size_t below(std::size_t bound) { return bound == 0 ? 0 : u8() % bound; }
    // Whether the value being made breaks its type (one in four, in invalid mode only).
    bool corrupt() { return invalid && u8() % 4 == 0; }
    // Whether it is one JSON cannot say (one in 32, in invalid mode only): most invalid values
    // are then still written as JSON, where check must match read exactly.
    bool unwritable() { return invalid && u8() % 32 == 0; }
};

// Code points of every UTF-8 length, JSON specials, and controls.
inline constexpr const char* pieces[] = {"a",
                                         "Z",
                                         "0",
                                         " ",
                                         "-",
                                         ".",
                                         "\"",
                                         "\\",
                                         "/",
                                         "\n",
                                         "\t",
                                         "\x01",
                                         "\x7f",
                                         "\xc3\xa9",
                                         "\xe2\x82\xac",
                                         "\xf0\x9f\x98\x80",
                                         "\xef\xbf\xbf",
                                         "\xc2\x80"};
inline constexpr std::size_t piece_count = sizeof(pieces) / sizeof(pieces[0]);

// `count` code points.
inline std::string code_points(bytes& b, std::size_t count) {
    std::string s;
    for (std::size_t i = 0; i < count; ++i) s += pieces[b.below(piece_count)];
    return s;
}

inline std::string text(bytes& b, std::size_t min_cp, std::size_t max_cp) {
    std::size_t span = max_cp - min_cp;
    if (span > 24) span = 24;
    return code_points(b, min_cp + b.below(span + 1));
}

// A string with 1 to 8 bytes from the input spliced into valid text: often not UTF-8 (and then
// write gives no JSON), sometimes by chance it is.
inline std::string raw_bytes(bytes& b) {
    std::string s = text(b, 0, 3);
    for (std::size_t i = 1 + b.below(8); i > 0; --i) s += static_cast<char>(0x80 | b.u8());
    return s + text(b, 0, 2);
}

// A string that breaks the length rule [min_cp, max_cp] (when one can: else nullopt).
inline std::optional<std::string> bad_length(bytes& b, std::size_t min_cp, std::size_t max_cp) {
    const bool can_be_long = max_cp<4096, can_be_short = min_cp> 0;
    if (!can_be_long && !can_be_short) return std::nullopt;
    if (can_be_long && (!can_be_short || b.bit())) return code_points(b, max_cp + 1 + b.below(3));
    return code_points(b, min_cp - 1 - b.below(std::min<std::size_t>(min_cp, 3)));
}

inline constexpr const char* emails[] = {"a@example.com", "first.last+tag@mail.example.com", "o'neil_1@example.co",
                                         "x-y_z@a-b.c.museum", "A@B.CD"};
inline constexpr const char* bad_emails[] = {"",
                                             "a",
                                             "a@",
                                             "@example.com",
                                             "a b@example.com",
                                             "a@b",
                                             "a@@b.com",
                                             "a@b..com",
                                             "\xc3\xa9@example.fr",
                                             "a@b.c",
                                             ".a@example.com",
                                             "a@-b.com",
                                             "a@example.com "};
inline constexpr const char* uris[] = {"https://hooks.example.com/esign", "http://a.b:8080/x?y=1#z",
                                       "https://[2001:db8::1]:443/p", "ftp://files.example.com/"};
inline constexpr const char* bad_uris[] = {"",
                                           "http:x",
                                           "mailto:a@example.com",
                                           "urn:isbn:0451450523",
                                           "http://",
                                           "https://[::1/",
                                           "http://a:99999/",
                                           "http://a b/",
                                           "//a.b/path",
                                           "http://[fe80::1%25eth0]/"};
inline constexpr const char* patterned[] = {"#228be6",
                                            "#abc",
                                            "#FFF",
                                            "1",
                                            "01",
                                            "12",
                                            "0",
                                            "a",
                                            "",
                                            "2026-11-22T03:49:38.123Z",
                                            "sit.abcdefghijklmnopqrstuvwxyz012345",
                                            "123e4567-e89b-42d3-a456-426614174000",
                                            "#12",
                                            "#abcd",
                                            "x1",
                                            " 1"};

template <class T, class = void>
struct gen;

template <class T>
void fill(bytes& b, T& out) {
    gen<T>::make(b, out);
}

template <>
struct gen<bool> {
    static void make(bytes& b, bool& out) { out = b.bit(); }
};
template <>
struct gen<std::int64_t> {
    static void make(bytes& b, std::int64_t& out) {
        switch (b.below(4)) {
            case 0:
                out = static_cast<std::int64_t>(b.u8());
                break;
            case 1:
                out = -static_cast<std::int64_t>(b.u64(2));
                break;
            case 2:
                out = 1700000000000 + static_cast<std::int64_t>(b.u64(4));
                break;
            default:
                out = static_cast<std::int64_t>(b.u64());
                break;
        }
    }
};
template <>
struct gen<double> {
    static void make(bytes& b, double& out) {
        if (b.unwritable()) {
            constexpr double odd[] = {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                                      -std::numeric_limits<double>::infinity()};
            out = odd[b.below(3)];
        } else if (b.bit()) {
            out = static_cast<double>(static_cast<std::int16_t>(b.u64(2))) / 4.0;
        } else {
            std::uint64_t bits = b.u64();
            std::memcpy(&out, &bits, sizeof out);
            if (!std::isfinite(out)) out = 0.5;
        }
    }
};
template <>
struct gen<std::string> {
    static void make(bytes& b, std::string& out) { out = b.unwritable() ? raw_bytes(b) : text(b, 0, 24); }
};
template <>
struct gen<esign::scalar_text> {
    static void make(bytes& b, esign::scalar_text& out) {
        out = esign::scalar_text(b.unwritable() ? raw_bytes(b) : text(b, 0, 12));
    }
};
template <std::size_t Min, std::size_t Max>
struct gen<esign::bounded_string<Min, Max>> {
    using type = esign::bounded_string<Min, Max>;
    static void make(bytes& b, type& out) {
        if (b.unwritable()) return out.assign(raw_bytes(b)), void();
        if (b.corrupt()) {
            if (auto bad = bad_length(b, type::min_length, type::max_length)) return out.assign(*bad), void();
        }
        out.assign(text(b, type::min_length, type::max_length));
    }
};
template <esign::email_form Form, std::size_t Max>
struct gen<esign::email<Form, Max>> {
    using type = esign::email<Form, Max>;
    static void make(bytes& b, type& out) {
        if (b.unwritable()) return out.assign(raw_bytes(b)), void();
        if (b.corrupt()) {
            if (type::max_length < 4096 && b.bit())  // too long, and maybe still of the pattern
                return out.assign(std::string(type::max_length - 11 + b.below(4), 'x') + "@example.com"), void();
            return out.assign(bad_emails[b.below(std::size(bad_emails))]), void();
        }
        out.assign(emails[b.below(std::size(emails))]);
    }
};
template <esign::regex::fixed_string P>
struct gen<esign::pattern_string<P>> {
    static void make(bytes& b, esign::pattern_string<P>& out) {
        const bool bad = b.corrupt();
        std::vector<const char*> fits;
        for (const char* c : patterned)
            if (esign::pattern_string<P>::matches(c) != bad) fits.push_back(c);
        ESIGN_FUZZ_CHECK(!fits.empty(), "the generator has no value for the pattern %s",
                         std::string(esign::pattern_string<P>::pattern()).c_str());
        out.assign(fits[b.below(fits.size())]);
    }
};
template <>
struct gen<esign::absolute_uri> {
    static void make(bytes& b, esign::absolute_uri& out) {
        if (b.unwritable()) return out.assign(std::string(uris[0]) + raw_bytes(b)), void();
        if (b.corrupt()) {
            if (b.bit())  // from one short of the maximum to two beyond ("https://example.com/" is 20)
                return out.assign("https://example.com/" +
                                  std::string(esign::absolute_uri::max_length - 21 + b.below(4), 'a')),
                       void();
            return out.assign(bad_uris[b.below(std::size(bad_uris))]), void();
        }
        out.assign(uris[b.below(std::size(uris))]);
    }
};
template <std::int64_t Lowest, std::int64_t Highest>
struct gen<esign::ranged<Lowest, Highest>> {
    static constexpr std::int64_t Min = esign::ranged<Lowest, Highest>::min_value;
    static constexpr std::int64_t Max = esign::ranged<Lowest, Highest>::max_value;
    static void make(bytes& b, esign::ranged<Lowest, Highest>& out) {
        if (b.corrupt()) {
            const bool low = b.bit();
            if (low && Min > esign::int32_min)
                return out.value = static_cast<std::int32_t>(Min - 1 - b.below(2)), void();
            if (Max < esign::int32_max) return out.value = static_cast<std::int32_t>(Max + 1 + b.below(2)), void();
        }
        const std::uint64_t span = static_cast<std::uint64_t>(Max - Min) + 1;
        std::uint64_t pick = b.bit() ? b.u8() : b.u64(4);
        if (b.bit()) pick = span - 1 - (pick % span);  // near Max as often as near Min
        out.value = static_cast<std::int32_t>(Min + static_cast<std::int64_t>(pick % span));
    }
};
template <class T>
struct gen<esign::nullable<T>> {
    static void make(bytes& b, esign::nullable<T>& out) {
        if (b.bit())
            fill(b, out.emplace());
        else
            out.reset();
    }
};
template <class T>
struct gen<std::optional<T>> {
    static void make(bytes& b, std::optional<T>& out) {
        if (b.bit())
            fill(b, out.emplace());
        else
            out.reset();
    }
};
template <class T>
struct gen<std::vector<T>> {
    static void make(bytes& b, std::vector<T>& out) {
        out.resize(b.below(4));
        for (auto& item : out) fill(b, item);
    }
};
template <class T, std::size_t Fewest, std::size_t Most>
struct gen<esign::bounded_vector<T, Fewest, Most>> {
    static constexpr std::size_t Min = esign::bounded_vector<T, Fewest, Most>::min_size;
    static constexpr std::size_t Max = esign::bounded_vector<T, Fewest, Most>::max_size;
    static void make(bytes& b, esign::bounded_vector<T, Fewest, Most>& out) {
        std::size_t size = 0;
        if (b.corrupt() && (Max <= 64 || Min > 0)) {  // items beyond the maximum, or too few
            size = Max <= 64 && (Min == 0 || b.bit()) ? Max + 1 + b.below(2) : Min - 1;
        } else {
            const std::size_t extra = Max - Min < 3 ? Max - Min : 3;
            size = Min + b.below(extra + 1);
        }
        out.resize(size);
        for (auto& item : out) fill(b, item);
    }
};
template <class T>
struct gen<std::map<std::string, T>> {
    static void make(bytes& b, std::map<std::string, T>& out) {
        out.clear();
        for (std::size_t i = b.below(3); i > 0; --i) {
            std::string key = b.unwritable() ? raw_bytes(b) : std::to_string(1 + b.below(12));
            fill(b, out[key]);
        }
    }
};
template <>
struct gen<boost::json::value> {
    static void make(bytes& b, boost::json::value& out, int depth = 0) {
        if (b.unwritable()) {
            switch (b.below(3)) {
                case 0:
                    out = boost::json::string_view(raw_bytes(b));
                    return;
                case 1:
                    out = std::numeric_limits<double>::quiet_NaN();
                    return;
                default: {  // nested 60 to 67 levels below here
                    boost::json::value* at = &out;
                    for (std::size_t i = 60 + b.below(8); i > 0; --i)
                        at = i % 2 ? &at->emplace_array().emplace_back(nullptr) : &at->emplace_object()["a"];
                    return;
                }
            }
        }
        switch (b.below(depth < 2 ? 8 : 6)) {
            case 0:
                out = nullptr;
                break;
            case 1:
                out = b.bit();
                break;
            case 2:
                out = static_cast<std::int64_t>(b.u64(2)) - 30000;
                break;
            case 3:
                out = static_cast<double>(b.u8()) + 0.25;
                break;
            case 4:
            case 5:
                out = boost::json::string_view(text(b, 0, 8));
                break;
            case 6: {
                auto& a = out.emplace_array();
                for (std::size_t i = b.below(3); i > 0; --i) make(b, a.emplace_back(nullptr), depth + 1);
                break;
            }
            default: {
                auto& o = out.emplace_object();
                for (std::size_t i = b.below(3); i > 0; --i) make(b, o[text(b, 0, 4)], depth + 1);
                break;
            }
        }
    }
};
template <>
struct gen<boost::json::object> {
    static void make(bytes& b, boost::json::object& out) {
        out.clear();
        for (std::size_t i = b.below(3); i > 0; --i) {
            std::string key = b.unwritable() ? raw_bytes(b) : text(b, 0, 4);
            gen<boost::json::value>::make(b, out[key], 1);
        }
    }
};
template <esign::described_enum E>
struct gen<E> {
    static void make(bytes& b, E& out) {
        constexpr auto values = esign::enum_values<E>();
        if (b.corrupt())
            out = static_cast<E>(values.size() + b.below(3));  // past the last (the model numbers them from 0)
        else
            out = values[b.below(values.size())];
    }
};
template <esign::json::described_struct T>
struct gen<T> {
    static void make(bytes& b, T& out) {
        boost::mp11::mp_for_each<esign::described_members<T>>([&](auto m) { fill(b, decltype(m)::get(out)); });
    }
};

// ---- The invariant of esign::check.

inline std::string describe(const esign::problem_list& problems) {
    std::string out;
    for (const auto& p : problems)
        out += fmt::format("\n    [{}] {} ({}, limit {})", fmt::join(p.path, ","), p.message, p.kind,
                           p.limit ? std::to_string(*p.limit) : "none");
    return out.empty() ? "\n    (none)" : out;
}

// Where esign::check(value) and json::read<T>(json::write(value)) disagree, in words; empty when
// they agree. They must give the same problems, in the same order, unless write(value) is not
// JSON (a string not UTF-8, NaN, too deep): then check gives a problem of kind syntax at the
// value's path, and read one problem, syntax, at [], the body's.
// (Whether write gave JSON is the parser's verdict, with read's depth limit. Check may not say it
// when it holds max_reported_problems problems already.)
template <class T>
std::string check_against_read(const T& value) {
    const esign::problem_list checked = esign::check(value).problems();
    const std::string written = esign::json::write(value);
    const esign::problem_list read = esign::json::read<T>(written).problems();
    boost::json::parse_options limits;
    limits.max_depth = esign::json::parse_limits{}.max_depth;
    boost::json::error_code ec;
    boost::json::parse(written, ec, {}, limits);
    const bool not_json = static_cast<bool>(ec);
    bool agree = false;
    if (not_json) {
        bool says_so = checked.size() >= esign::max_reported_problems;
        for (const auto& p : checked) says_so = says_so || p.kind == esign::problem_kind::syntax;
        agree = says_so && read.size() == 1 && read[0].kind == esign::problem_kind::syntax && read[0].path.empty();
    } else {
        agree = checked == read;
    }
    if (agree) return {};
    return fmt::format("check and read(write) disagree{}\n  check:{}\n  read:{}\n  JSON: {}",
                       not_json ? " (write gives no JSON)" : "", describe(checked), describe(read),
                       written.size() > 2000 ? written.substr(0, 2000) + "..." : written);
}

}  // namespace esign_fuzz
