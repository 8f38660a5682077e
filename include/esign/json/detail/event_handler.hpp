// SPDX-License-Identifier: BSL-1.0
#pragma once
// A boost::json::basic_parser handler that turns the parser's callbacks into the events of
// json/parse.hpp (on_begin, on_key, on_scalar, on_end) for a sink: the decoder, or the DOM
// builder. It joins strings, keys and numbers that arrive in parts, and drops a document
// whose root is not an object (the parse still checks it is valid JSON).
#include <cstdint>
#include <string>

#include <boost/json/basic_parser.hpp>

#include <esign/json/scalar.hpp>

namespace esign::json::detail {

template <class Sink>
class event_handler {
public:
    static constexpr std::size_t max_object_size = std::size_t(-1);
    static constexpr std::size_t max_array_size = std::size_t(-1);
    static constexpr std::size_t max_key_size = std::size_t(-1);
    static constexpr std::size_t max_string_size = std::size_t(-1);

    explicit event_handler(Sink& sink) : sink_(&sink) {}

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

}  // namespace esign::json::detail
