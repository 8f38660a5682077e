// SPDX-License-Identifier: BSL-1.0
#pragma once
// What backend::call answers: the reply, and its body read back as the operation's response
// type or as an error body.
#include <optional>

#include <esign/model/error_body.hpp>
#include <esign/reference/reply.hpp>

namespace esign::reference {

template <class Response>
struct typed_reply {
    reply raw;                         // status, JSON text, request id, fault, dropped
    std::optional<Response> response;  // a success (status 200)
    std::optional<error_body> error;   // a failure (not when dropped)

    explicit operator bool() const noexcept { return response.has_value(); }
};

}  // namespace esign::reference
