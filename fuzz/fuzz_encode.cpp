// SPDX-License-Identifier: BSL-1.0
// Fuzzing the encoder: build a valid RESPONSE value from the input bytes, encode it, decode
// it back (decode<T> from the boost::json::value, and read<T> from the written text, strict
// mode both ways), and compare the re-encoded JSON.
//
// Input: byte 0 picks the operation (mod operation_count) whose response type is built;
// the remaining bytes drive a small generator (gen<T> below): each member's value is taken
// from the next bytes, optionals and nullables are present or absent per bit, vectors have
// 0..3 items (within their bounds), strings are valid UTF-8 of bounded length, e-mails and
// patterned strings come from small pools that satisfy their types. When the bytes run out,
// every further read gives 0.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <boost/json/serialize.hpp>

#include <esign/json/decode.hpp>
#include <esign/json/encode.hpp>
#include <esign/model/operations.hpp>

#include "check.hpp"

namespace {

struct bytes {
    const std::uint8_t* p;
    std::size_t n;
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
};

// Code points of every UTF-8 length, JSON specials, and controls.
constexpr const char* pieces[] = {"a",
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
constexpr std::size_t piece_count = sizeof(pieces) / sizeof(pieces[0]);

std::string text(bytes& b, std::size_t min_cp, std::size_t max_cp) {
    std::size_t span = max_cp - min_cp;
    if (span > 24) span = 24;
    std::size_t count = min_cp + b.below(span + 1);
    std::string s;
    for (std::size_t i = 0; i < count; ++i) s += pieces[b.below(piece_count)];
    return s;
}

constexpr const char* emails[] = {"a@example.com", "first.last+tag@mail.example.com", "o'neil_1@example.co",
                                  "x-y_z@a-b.c.museum", "A@B.CD"};
constexpr const char* uris[] = {"https://hooks.example.com/esign", "http://a.b:8080/x?y=1#z", "urn:isbn:0451450523",
                                "mailto:a@example.com"};
constexpr const char* patterned[] = {"#228be6",
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
                                     "123e4567-e89b-42d3-a456-426614174000"};

template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};

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
        if (b.bit()) {
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
    static void make(bytes& b, std::string& out) { out = text(b, 0, 24); }
};
template <>
struct gen<esign::scalar_text> {
    static void make(bytes& b, esign::scalar_text& out) { out = esign::scalar_text(text(b, 0, 12)); }
};
template <std::size_t Min, std::size_t Max>
struct gen<esign::bounded_string<Min, Max>> {
    static void make(bytes& b, esign::bounded_string<Min, Max>& out) { out.assign(text(b, Min, Max)); }
};
template <esign::email_form Form, std::size_t Max>
struct gen<esign::email<Form, Max>> {
    static void make(bytes& b, esign::email<Form, Max>& out) { out.assign(emails[b.below(std::size(emails))]); }
};
template <esign::regex::fixed_string P>
struct gen<esign::pattern_string<P>> {
    static void make(bytes& b, esign::pattern_string<P>& out) {
        std::vector<const char*> fits;
        for (const char* c : patterned)
            if (esign::pattern_string<P>::matches(c)) fits.push_back(c);
        ESIGN_FUZZ_CHECK(!fits.empty(), "the generator has no value for the pattern %s", P.view().data());
        out.assign(fits[b.below(fits.size())]);
    }
};
template <>
struct gen<esign::absolute_uri> {
    static void make(bytes& b, esign::absolute_uri& out) { out.assign(uris[b.below(std::size(uris))]); }
};
template <std::int64_t Min, std::int64_t Max>
struct gen<esign::ranged<Min, Max>> {
    static void make(bytes& b, esign::ranged<Min, Max>& out) {
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
template <class T, std::size_t Min, std::size_t Max>
struct gen<esign::bounded_vector<T, Min, Max>> {
    static void make(bytes& b, esign::bounded_vector<T, Min, Max>& out) {
        std::size_t extra = Max - Min < 3 ? Max - Min : 3;
        out.resize(Min + b.below(extra + 1));
        for (auto& item : out) fill(b, item);
    }
};
template <class T>
struct gen<std::map<std::string, T>> {
    static void make(bytes& b, std::map<std::string, T>& out) {
        out.clear();
        for (std::size_t i = b.below(3); i > 0; --i) fill(b, out[std::to_string(1 + b.below(12))]);
    }
};
template <>
struct gen<boost::json::value> {
    static void make(bytes& b, boost::json::value& out, int depth = 0) {
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
        for (std::size_t i = b.below(3); i > 0; --i) gen<boost::json::value>::make(b, out[text(b, 0, 4)], 1);
    }
};
template <esign::described_enum E>
struct gen<E> {
    static void make(bytes& b, E& out) {
        constexpr auto values = esign::enum_values<E>();
        out = values[b.below(values.size())];
    }
};
template <esign::json::described_struct T>
struct gen<T> {
    static void make(bytes& b, T& out) {
        boost::mp11::mp_for_each<esign::json::detail::public_members<T>>([&](auto m) { fill(b, out.*m.pointer); });
    }
};

template <class T>
void check_response(bytes& b, std::string_view op_path) {
    T value{};
    fill(b, value);
    const boost::json::value encoded = esign::json::encode(value);
    const std::string written = esign::json::write(value);

    esign::json::decode_options strict;
    strict.strict = true;
    for (int route = 0; route < 2; ++route) {
        auto back = route == 0 ? esign::json::decode<T>(encoded, strict) : esign::json::read<T>(written, strict);
        if (!back) {
            const auto& p = back.problems().front();
            std::string path;
            for (const auto& s : p.path) path += "/" + s;
            ESIGN_FUZZ_CHECK(back.has_value(), "%.*s response: %s refuses its own encoding: %s at '%s': %s; JSON: %s",
                             int(op_path.size()), op_path.data(), route == 0 ? "decode" : "read",
                             esign::enum_to_wire(p.kind).data(), path.c_str(), p.message.c_str(), written.c_str());
        }
        const boost::json::value again = esign::json::encode(*back);
        // decode<T> from the value must give it back exactly; through text, doubles may move
        // by an ulp (Boost 1.81's parser is not correctly rounded, see check.hpp).
        const bool same = route == 0 ? again == encoded : esign_fuzz::near_equal(again, encoded);
        ESIGN_FUZZ_CHECK(same, "%.*s response: %s round trip changed %s into %s", int(op_path.size()), op_path.data(),
                         route == 0 ? "decode" : "read", written.c_str(), boost::json::serialize(again).c_str());
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return -1;
    const std::size_t index = data[0] % esign::operation_count;
    bytes b{data + 1, size - 1};
    std::size_t i = 0;
    esign::for_each_operation([&](const auto& op) {
        if (i++ != index) return;
        using response = typename std::remove_cvref_t<decltype(op)>::response_type;
        check_response<response>(b, op.path);
    });
    return 0;
}

#include "replay_main.hpp"
