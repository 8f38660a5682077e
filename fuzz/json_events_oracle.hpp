// SPDX-License-Identifier: BSL-1.0
#pragma once
// The oracle for esign's JSON scanner (json/detail/scanner.hpp): the same events, as
// boost::json::basic_parser gives them, recorded side by side with the scanner's, and the
// first difference between the two recordings. Used by fuzz_decode on every input and by
// test_json_engine on a table of edge cases.
//
// Where they may differ on purpose: Boost.JSON 1.81 refuses an exponent past INT_MAX
// (exponent_overflow), which RFC 8259 allows (esign gives ±infinity or 0); Boost's double
// conversion is not always correctly rounded, so doubles are compared loosely (the number's
// text, compared exactly, is what the decoder keeps), and it gives NaN for 0e5555 (esign 0).
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/basic_parser_impl.hpp>
#include <fmt/format.h>

#include <esign/json/parse.hpp>
#include <esign/json/scalar.hpp>

namespace esign_fuzz {

using esign::json::scalar;

// A boost::json::basic_parser handler that turns the parser's callbacks into the events of
// json/parse.hpp for a sink. It joins strings, keys and numbers that arrive in parts, and
// drops a document whose root is not an object (the parse still checks it is valid JSON).
template <class Sink>
class boost_event_handler {
public:
    static constexpr std::size_t max_object_size = std::size_t(-1);
    static constexpr std::size_t max_array_size = std::size_t(-1);
    static constexpr std::size_t max_key_size = std::size_t(-1);
    static constexpr std::size_t max_string_size = std::size_t(-1);

    explicit boost_event_handler(Sink& sink) : sink_(&sink) {}

    bool root_is_object() const noexcept { return root_is_object_; }

    bool on_document_begin(boost::json::error_code&) { return true; }
    bool on_document_end(boost::json::error_code&) { return true; }

    bool on_object_begin(boost::json::error_code&) {
        if (depth_++ == 0) root_is_object_ = true;
        if (root_is_object_) sink_->on_begin(false);
        return true;
    }
    bool on_array_begin(boost::json::error_code&) {
        ++depth_;
        if (root_is_object_) sink_->on_begin(true);
        return true;
    }
    bool on_object_end(std::size_t, boost::json::error_code&) { return end(); }
    bool on_array_end(std::size_t, boost::json::error_code&) { return end(); }

    bool on_key_part(boost::json::string_view s, std::size_t, boost::json::error_code&) {
        text_.append(s.data(), s.size());
        return true;
    }
    bool on_key(boost::json::string_view s, std::size_t, boost::json::error_code&) {
        if (root_is_object_) sink_->on_key(whole(s));
        text_.clear();
        return true;
    }
    bool on_string_part(boost::json::string_view s, std::size_t, boost::json::error_code&) {
        text_.append(s.data(), s.size());
        return true;
    }
    bool on_string(boost::json::string_view s, std::size_t, boost::json::error_code&) {
        return value(scalar::string(whole(s)));
    }
    bool on_number_part(boost::json::string_view s, boost::json::error_code&) {
        text_.append(s.data(), s.size());
        return true;
    }
    bool on_int64(std::int64_t i, boost::json::string_view s, boost::json::error_code&) {
        return value(scalar::number(i, whole(s)));
    }
    bool on_uint64(std::uint64_t u, boost::json::string_view s, boost::json::error_code&) {
        return value(scalar::number(u, whole(s)));
    }
    bool on_double(double d, boost::json::string_view s, boost::json::error_code&) {
        return value(scalar::number(d, whole(s)));
    }
    bool on_bool(bool b, boost::json::error_code&) { return value(scalar::boolean(b)); }
    bool on_null(boost::json::error_code&) { return value(scalar::null()); }
    bool on_comment_part(boost::json::string_view, boost::json::error_code&) { return true; }
    bool on_comment(boost::json::string_view, boost::json::error_code&) { return true; }

private:
    // The whole text whose last part is `last` (most arrive in one part, without a copy).
    std::string_view whole(boost::json::string_view last) {
        if (text_.empty()) return {last.data(), last.size()};
        text_.append(last.data(), last.size());
        return text_;
    }
    bool value(const scalar& s) {
        if (root_is_object_) sink_->on_scalar(s);
        text_.clear();
        return true;
    }
    bool end() {
        --depth_;
        if (root_is_object_) sink_->on_end();
        return true;
    }

    Sink* sink_;
    std::string text_;
    std::size_t depth_ = 0;
    bool root_is_object_ = false;
};

// One event, owned: a scalar's value (its text view cleared) and a key's or scalar's text.
struct recorded_event {
    enum class type { begin_object, begin_array, key, scalar, end } what = type::end;
    scalar value;
    std::string text;
};

struct event_recorder {
    std::vector<recorded_event> events;
    recorded_event& add(recorded_event::type what) {
        recorded_event& e = events.emplace_back();
        e.what = what;
        return e;
    }
    void on_begin(bool is_array) {
        add(is_array ? recorded_event::type::begin_array : recorded_event::type::begin_object);
    }
    void on_key(std::string_view key) { add(recorded_event::type::key).text = key; }
    void on_scalar(const scalar& s) {
        recorded_event& e = add(recorded_event::type::scalar);
        e.value = s;
        e.value.text = {};  // the sink's view: not kept past the call
        e.text = s.text;
    }
    void on_end() { add(recorded_event::type::end); }
};

struct recording {
    bool accepted = false;  // valid JSON within the depth
    bool root_is_object = false;
    bool exponent_overflow = false;  // Boost refused it for an exponent past INT_MAX
    std::string error;
    std::vector<recorded_event> events;  // when accepted
};

inline recording record_with_boost(std::string_view bytes, std::size_t max_depth) {
    recording r;
    event_recorder sink;
    boost::json::parse_options options;
    options.max_depth = max_depth;
    boost::json::basic_parser<boost_event_handler<event_recorder>> parser(options, sink);
    boost::json::error_code ec;
    const std::size_t used = parser.write_some(false, bytes.data(), bytes.size(), ec);
    if (!ec && used != bytes.size()) ec = boost::json::error::extra_data;
    r.accepted = !ec && !bytes.empty();
    r.exponent_overflow = ec == boost::json::error::exponent_overflow;
    r.error = ec ? ec.message() : "";
    r.root_is_object = r.accepted && parser.handler().root_is_object();
    if (r.accepted) r.events = std::move(sink.events);
    return r;
}

inline recording record_with_esign(std::string_view bytes, std::size_t max_depth) {
    recording r;
    event_recorder sink;
    const auto scanned = esign::json::detail::scan(bytes, sink, max_depth);
    r.accepted = scanned.error == nullptr && !bytes.empty();
    r.error = scanned.error ? fmt::format("{} (at byte {})", scanned.error, scanned.at) : "";
    r.root_is_object = scanned.root_is_object;
    if (r.accepted) r.events = std::move(sink.events);
    return r;
}

// Doubles agree when they are close: Boost.JSON 1.81's conversion is not always correctly
// rounded (std::from_chars, esign's, is).
inline bool close_doubles(double boost, double esign) {
    // Boost.JSON 1.81 gives NaN for a zero with a huge exponent (0e5555: 0 times infinity).
    if (std::isnan(boost) && esign == 0) return true;
    const double a = boost, b = esign;
    if (a == b) return true;
    const double big = std::max(std::fabs(a), std::fabs(b));
    if (std::isinf(a) || std::isinf(b)) return std::signbit(a) == std::signbit(b) && big >= 1.7e308;
    if (big < 1e-300) return true;  // subnormal: rounding error is relatively large there
    return std::fabs(a - b) <= 1e-14 * big;
}

// The first difference between Boost's verdict and events and esign's on `bytes`; empty when
// they agree.
inline std::string first_difference(std::string_view bytes, std::size_t max_depth = 64) {
    const recording b = record_with_boost(bytes, max_depth);
    const recording e = record_with_esign(bytes, max_depth);
    if (b.accepted != e.accepted) {
        if (b.exponent_overflow && e.accepted) return {};
        return fmt::format("Boost {} it ({}), esign {} it ({})", b.accepted ? "accepts" : "refuses", b.error,
                           e.accepted ? "accepts" : "refuses", e.error);
    }
    if (!b.accepted) return {};
    if (b.root_is_object != e.root_is_object) return "they disagree on whether the root is an object";
    if (b.events.size() != e.events.size())
        return fmt::format("Boost gives {} events, esign {}", b.events.size(), e.events.size());
    for (std::size_t i = 0; i < b.events.size(); ++i) {
        const recorded_event& x = b.events[i];
        const recorded_event& y = e.events[i];
        const scalar &u = x.value, &v = y.value;
        const bool same = x.what == y.what && x.text == y.text && u.kind == v.kind && u.int64 == v.int64 &&
                          u.uint64 == v.uint64 && u.bool_ == v.bool_ && close_doubles(u.double_, v.double_);
        if (!same)
            return fmt::format("event {} differs: Boost {}/{} '{}' {} {} {}, esign {}/{} '{}' {} {} {}", i, int(x.what),
                               int(u.kind), x.text, u.int64, u.uint64, u.double_, int(y.what), int(v.kind), y.text,
                               v.int64, v.uint64, v.double_);
    }
    return {};
}

}  // namespace esign_fuzz
