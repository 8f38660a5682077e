// SPDX-License-Identifier: BSL-1.0
#pragma once
// Bytes → the events of one JSON document, with the limits of the contract: the body must
// be one JSON object, valid UTF-8 (no lone surrogate escapes), nested at most max_depth deep
// (the root object is depth 1). A body that breaks one of these is one problem at path []
// (kind syntax).
//
// The events, as a sink receives them (esign::json::decoder is one, and reads them straight
// into a typed value; parse_body's builder is another, and makes a boost::json::value):
//   on_begin(bool is_array)  a container begins
//   on_key(string_view)      the next member's name
//   on_scalar(const scalar&) a string, number, boolean or null
//   on_end()                 the innermost container ends
// Events are only given for a body that is an object; a sink must not keep a view past
// the call that gave it.
#include <optional>
#include <string>
#include <string_view>

#include <esign/json/detail/dom_builder.hpp>
#include <esign/json/detail/scanner.hpp>
#include <esign/validation/result.hpp>

namespace esign::json {

struct parse_limits {
    std::size_t max_depth = 64;
};

// Parses `bytes`, giving every event to `sink`. Returns the problem that makes the body
// unreadable, if any: then the events given so far are of a body that is refused.
template <class Sink>
std::optional<problem> parse_events(std::string_view bytes, Sink& sink, parse_limits limits = {}) {
    auto body_problem = [](std::string message) {
        return problem{{}, problem_kind::syntax, std::nullopt, std::move(message)};
    };
    if (bytes.empty()) return body_problem("the request body is empty; expected a JSON object");

    const detail::scan_result scanned = detail::scan(bytes, sink, limits.max_depth);
    if (scanned.too_deep)
        return body_problem("the request body is nested deeper than " + std::to_string(limits.max_depth) + " levels");
    if (scanned.error)
        return body_problem("the request body is not valid JSON: " + std::string(scanned.error) + " (at byte " +
                            std::to_string(scanned.at) + ")");
    if (!scanned.root_is_object) return body_problem("the request body must be a JSON object");
    return std::nullopt;
}

struct parsed_body {
    boost::json::value value;  // always an object
    problem_list duplicates;   // duplicate member names, each at its path (the first copy is kept)
};

// Bytes → boost::json::value, for a body you want as a DOM (esign::json::read reads a typed
// value without one).
inline result<parsed_body> parse_body(std::string_view bytes, parse_limits limits = {}) {
    detail::dom_builder builder;
    if (auto bad = parse_events(bytes, builder, limits)) return problem_list{std::move(*bad)};
    return parsed_body{std::move(builder.root), std::move(builder.duplicates)};
}

}  // namespace esign::json
