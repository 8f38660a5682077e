// SPDX-License-Identifier: BSL-1.0
#pragma once
// The JSON text of an error body (interface.md "Errors", contract.md §1), written straight
// from the body that rules/make_error_body.hpp builds.
#include <cstddef>
#include <string>
#include <string_view>

#include <boost/json/serialize.hpp>

#include <esign/model/error_body.hpp>
#include <esign/validation/enum_names.hpp>

namespace esign::json {

namespace detail {
// Hands the JSON text of an error body to put(std::string_view), piece by piece.
template <class Put>
void write_error_body(const error_body& body, Put&& put) {
    auto text = [&](std::string_view s) { put(boost::json::serialize(boost::json::string_view(s.data(), s.size()))); };
    put(R"({"statusCode":)");
    put(std::to_string(body.statusCode));
    put(R"(,"error":{"code":)");
    text(enum_to_wire(body.error.code));
    put(R"(,"message":)");
    text(body.error.message);
    put(R"(,"suggestion":)");
    text(body.error.suggestion);
    put(R"(,"documentationUrl":)");
    text(body.error.documentationUrl);
    if (body.error.details) {
        put(R"(,"details":[)");
        bool first = true;
        for (const auto& d : *body.error.details) {
            put(first ? R"({"path":[)" : R"(,{"path":[)");
            first = false;
            for (std::size_t i = 0; i < d.path.size(); ++i) {
                if (i) put(",");
                text(d.path[i]);
            }
            put(R"(],"message":)");
            text(d.message);
            put("}");
        }
        put("]");
    }
    put(R"(},"requestId":)");
    text(body.requestId);
    put(R"(,"timestamp":)");
    text(body.timestamp);
    put(R"(,"path":)");
    text(body.path);
    put("}");
}
}  // namespace detail

// The JSON text of an error body: the bytes json::write(body) gives, written straight from the
// body. An answer to a hostile request can hold 100 long paths: going through a
// boost::json::value would hold them once more, and a string that grows as it is written
// would hold them up to three times while it moves; so the text is measured first, then
// written into a string of that size (contract.md §6.7).
inline std::string write_error_body(const error_body& body) {
    std::size_t size = 0;
    detail::write_error_body(body, [&](std::string_view piece) { size += piece.size(); });
    std::string out;
    out.reserve(size);
    detail::write_error_body(body, [&](std::string_view piece) { out += piece; });
    return out;
}

}  // namespace esign::json
