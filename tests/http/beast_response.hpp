// SPDX-License-Identifier: BSL-1.0
#pragma once
// A Beast response as the tests' http_response: the one conversion of http_client.cpp (plain)
// and https_client.cpp (TLS).
#include <string>
#include <utility>

#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include "http_client.hpp"

namespace esign::test {

inline http_response response_of(boost::beast::http::response<boost::beast::http::string_body>&& res) {
    http_response out;
    out.status = res.result_int();
    for (const auto& f : res) out.headers.emplace_back(std::string(f.name_string()), std::string(f.value()));
    out.body = std::move(res.body());
    out.keep_alive = res.keep_alive();
    return out;
}

}  // namespace esign::test
