// SPDX-License-Identifier: BSL-1.0
#pragma once
// What the client makes of the bytes a call got: the response as the row's type, the server's
// error body, or the problems of an answer that breaks the model (json::read judges both).
#include <string>
#include <utility>

#include <esign/client/detail/exchange.hpp>
#include <esign/client/error.hpp>
#include <esign/json/decode.hpp>
#include <esign/model/error_body.hpp>

namespace esign::client::detail {

template <class Response>
call_result<Response> judge(raw_outcome raw) {
    if (raw.failure) return {call_error(*raw.failure), std::move(raw.attempts)};
    if (raw.status == 200) {
        auto response = json::read<Response>(raw.body);
        if (response) return {std::move(*response), std::move(raw.attempts)};
        return {call_error(response_error{raw.status, std::move(response).take_problems(), std::move(raw.body)}),
                std::move(raw.attempts)};
    }
    auto body = json::read<error_body>(raw.body);
    if (body) return {call_error(server_error{raw.status, std::move(*body)}), std::move(raw.attempts)};
    return {call_error(response_error{raw.status, std::move(body).take_problems(), std::move(raw.body)}),
            std::move(raw.attempts)};
}

}  // namespace esign::client::detail
