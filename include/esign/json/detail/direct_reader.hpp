// SPDX-License-Identifier: BSL-1.0
#pragma once
// json::read's first try: the bytes of a body read straight into a typed value by recursive
// descent. The type says what comes next, so each member's reader is called directly, as the
// compiler sees it: no events, no stack of open containers, no call through a pointer per
// value. It only reads bodies that have no problem. At the first thing the decoder would report
// (a problem a codec adds, bytes that are not JSON, a member the type does not have or has
// twice, a missing member, an array's size, a rule across members, a type it has no direct
// reading for) it gives up, and json::read reads the body again through the decoder's events
// (json/decoder.hpp), which find every problem at its path. So the problems are always the
// decoder's, and a body without one gives the value the decoder gives (the direct reader tests
// and fuzz_decode compare the two).
//
// A codec takes part with
//   template <class Reader> static bool read_direct(Reader& in, T& out);
// (false: give up), built from `in.value(x)`, `in.object(f)`, `in.array(f)`, `in.null()` and,
// for a member kept as JSON (boost::json::value or object), `in.dom(v)`; a codec with `read` (a
// scalar) takes part without it. Any other codec gives up.
//
// Bounded: the recursion follows the type's nesting, not the body's (a container where the type
// has none gives up), but for `dom`, and containers deeper than max_depth give up (the decoder
// refuses them), `dom`'s included.
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

#include <boost/json/value.hpp>

#include <esign/json/codec.hpp>
#include <esign/json/decoder.hpp>
#include <esign/json/detail/scanner.hpp>
#include <esign/validation/detail/same_name.hpp>

namespace esign::json::detail {

class direct_reader : cursor {
public:
    // `d` collects what codecs report (the direct reader gives up when it holds any problem).
    direct_reader(std::string_view bytes, decoder& d, std::size_t max_depth) noexcept
        : cursor(bytes), decoder_(d), max_depth_(max_depth) {}

    // The whole body into `out`: one JSON object, then nothing but whitespace. False: give up.
    template <class T>
    bool read_body(T& out) {
        skip_whitespace();
        if (p_ == end_ || *p_ != '{') return false;  // not an object: the decoder says so
        if (!value(out)) return false;
        skip_whitespace();
        return p_ == end_;
    }

    // One value into `out`, read as its codec reads it.
    template <class T>
    bool value(T& out) {
        if constexpr (requires { codec<T>::read_direct(*this, out); }) {
            return codec<T>::read_direct(*this, out);
        } else if constexpr (scalar_codec<T>) {
            scalar s;
            if (!scalar_value(s)) return false;
            codec<T>::read(s, out, decoder_);
            return decoder_.problem_count() == 0;
        } else {
            return false;  // e.g. a codec that reads a DOM (`decode`)
        }
    }

    // An object: `member(name)` reads each member's value (false: give up).
    template <class F>
    bool object(F&& member) {
        return object(std::forward<F>(member), [] { return std::string_view(); });
    }
    // The same, where `expected()` gives the text the next member most likely begins with: its
    // name in quotes as written without escapes, and the colon (`"name":`). A member that begins
    // with exactly those bytes is told by one comparison, its name not scanned; `member` is then
    // given the name inside that text (a view of it, so that it can tell).
    template <class F, class E>
    bool object(F&& member, E&& expected) {
        if (!open('{')) return false;
        if (p_ != end_ && *p_ == '}') return close();
        for (;;) {
            const std::string_view next = expected();
            std::string_view name;
            if (!next.empty() && static_cast<std::size_t>(end_ - p_) >= next.size() &&
                esign::detail::same_name(std::string_view(p_, next.size()), next)) {
                name = next.substr(1, next.size() - 3);
                p_ += next.size();
            } else {
                if (p_ == end_ || *p_ != '"') return false;
                ++p_;
                if (!string(name) || !step_over(':')) return false;
            }
            if (!member(name)) return false;
            skip_whitespace();
            if (p_ == end_) return false;
            if (*p_ == '}') return close();
            if (*p_++ != ',') return false;
            skip_whitespace();
        }
    }

    // An array: `item()` reads each item (false: give up).
    template <class F>
    bool array(F&& item) {
        if (!open('[')) return false;
        if (p_ != end_ && *p_ == ']') return close();
        for (;;) {
            if (!item()) return false;
            skip_whitespace();
            if (p_ == end_) return false;
            if (*p_ == ']') return close();
            if (*p_++ != ',') return false;
        }
    }

    // Steps over a null, if one comes next.
    bool null() noexcept {
        skip_whitespace();
        if (end_ - p_ < 4 || std::string_view(p_, 4) != "null") return false;
        p_ += 4;
        return true;
    }

    // Any JSON value into `out`, as the decoder builds it for a member kept as JSON
    // (json/detail/dom_builder.hpp); gives up on a member name twice in one object, which the
    // decoder reports with its path.
    bool dom(boost::json::value& out) {
        skip_whitespace();
        if (p_ == end_) return false;
        if (*p_ == '{') {
            auto& members = out.emplace_object();
            std::string key;  // a name with escapes is a view of the scanner's buffer: copied first
            return object([&](std::string_view name) {
                key.assign(name);
                auto [at, added] = members.emplace(key, nullptr);
                return added && dom(at->value());
            });
        }
        if (*p_ == '[') {
            auto& items = out.emplace_array();
            return array([&] { return dom(items.emplace_back(nullptr)); });
        }
        scalar s;
        if (!scalar_value(s)) return false;
        out = s.to_value();
        return true;
    }

    decoder& problems() noexcept { return decoder_; }

private:
    // A string, number, true, false or null into `out`, a new scalar (not a container: a scalar
    // codec's type wants none).
    bool scalar_value(scalar& out) {
        skip_whitespace();
        if (p_ == end_) return false;
        if (*p_ == '"') {
            ++p_;
            std::string_view text;
            if (!string(text)) return false;
            out.kind = boost::json::kind::string;
            out.text = text;
            return true;
        }
        if (*p_ == '{' || *p_ == '[') return false;
        return scalar_token(out);
    }

    // Opens a container at the next byte (`{` or `[`) and skips the whitespace inside it.
    bool open(char opening) noexcept {
        skip_whitespace();
        if (p_ == end_ || *p_ != opening || depth_ >= max_depth_) return false;
        ++p_;
        ++depth_;
        skip_whitespace();
        return true;
    }
    bool close() noexcept {
        ++p_;
        --depth_;
        return true;
    }
    bool step_over(char byte) noexcept {
        skip_whitespace();
        if (p_ == end_ || *p_ != byte) return false;
        ++p_;
        return true;
    }

    decoder& decoder_;
    std::size_t max_depth_;
    std::size_t depth_ = 0;
};

}  // namespace esign::json::detail
