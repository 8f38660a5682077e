#pragma once
// Decoding a request: from bytes, or from a boost::json::value you already have, into a
// typed value, or the list of every problem found, each at its path.
#include <string_view>

#include <esign/json/codecs.hpp>
#include <esign/json/described.hpp>
#include <esign/json/parse.hpp>

namespace esign::json {

template <codable T>
result<T> decode(const boost::json::value& v, decode_options options = {}) {
    decoder d(options);
    T out{};
    decode_value(v, out, d);
    if (d.problem_count() != 0) return std::move(d.problems());
    return out;
}

// `read` is to `decode` what boost::json::parse is to value_to: it starts from bytes.
template <codable T>
result<T> read(std::string_view bytes, decode_options options = {}, parse_limits limits = {}) {
    auto body = parse_body(bytes, limits);
    if (!body) return std::move(body).take_problems();
    decoder d(options);
    d.set_number_texts(&body->number_texts);
    T out{};
    decode_value(body->value, out, d);
    if (!body->duplicates.empty() || d.problem_count() != 0) {
        problem_list all = std::move(body->duplicates);
        for (auto& p : d.problems()) all.push_back(std::move(p));
        return all;
    }
    return out;
}

} // namespace esign::json
