#pragma once
// Bytes → boost::json::value, with the limits of the contract: the body must be one JSON
// object, valid UTF-8 (no lone surrogate escapes), nested at most max_depth deep (the root
// object is depth 1). A body that breaks one of these is one problem at path [] (kind
// syntax). Member names that appear twice are reported at their paths.
#include <string>
#include <string_view>

#include <boost/json/basic_parser_impl.hpp>
#include <fmt/format.h>

#include <esign/json/detail/dom_builder.hpp>
#include <esign/validation/result.hpp>

namespace esign::json {

struct parse_limits {
    std::size_t max_depth = 64;
};

struct parsed_body {
    boost::json::value value;    // always an object
    problem_list duplicates;     // duplicate member names, each at its path
    std::map<problem_path, std::string> number_texts;  // every number as written, by path
};

inline result<parsed_body> parse_body(std::string_view bytes, parse_limits limits = {}) {
    auto body_problem = [](std::string message) {
        return problem_list{problem{{}, problem_kind::syntax, std::nullopt, std::move(message)}};
    };
    if (bytes.empty()) return body_problem("the request body is empty; expected a JSON object");

    boost::json::parse_options options;
    options.max_depth = limits.max_depth;
    boost::json::basic_parser<detail::dom_builder> parser(options);
    boost::json::error_code ec;
    std::size_t used = parser.write_some(false, bytes.data(), bytes.size(), ec);
    if (!ec && used != bytes.size()) ec = boost::json::error::extra_data;
    if (ec) {
        if (ec == boost::json::error::too_deep)
            return body_problem(fmt::format("the request body is nested deeper than {} levels", limits.max_depth));
        return body_problem(fmt::format("the request body is not valid JSON: {} (at byte {})", ec.message(), used));
    }
    auto& handler = parser.handler();
    if (!handler.root.is_object()) return body_problem("the request body must be a JSON object");
    return parsed_body{std::move(handler.root), std::move(handler.duplicates), std::move(handler.number_texts)};
}

} // namespace esign::json
