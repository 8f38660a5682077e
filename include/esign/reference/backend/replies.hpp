// SPDX-License-Identifier: BSL-1.0
#pragma once
// The backend's error replies: the error body of contract.md §1 (on the clock and identifier
// stream of whoever the request is for), checked against its type when the self-check is on.
// (Successes: respond.hpp.)
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <esign/reference/backend.hpp>
#include <esign/reference/backend/respond.hpp>
#include <esign/reference/detail/backend_inline.hpp>

namespace esign::reference {

ESIGN_DETAIL_BACKEND_INLINE reply backend::transport_error(std::string_view path, unsigned status,
                                                           std::string_view message) {
    return make_error(server_ids_, path, error_code::INVALID_REQUEST_FORMAT, {}, message, status, now_ms());
}

ESIGN_DETAIL_BACKEND_INLINE reply backend::internal_error(std::string_view path, std::string_view message) {
    return make_error(server_ids_, path, error_code::INTERNAL_SERVER_ERROR, {}, message, 0, now_ms());
}

ESIGN_DETAIL_BACKEND_INLINE reply backend::unauthenticated(std::string_view path, bool had_credentials) {
    return make_error(server_ids_, path, error_code::AUTHENTICATION_ERROR, {},
                      had_credentials ? "These credentials may not call this operation."
                                      : "Authorization: Bearer <API key> is required.",
                      0, now_ms());
}

ESIGN_DETAIL_BACKEND_INLINE reply backend::make_error(id_source& ids, std::string_view path, error_code code,
                                                      problem_list problems, std::string_view message, unsigned status,
                                                      std::int64_t now) {
    const rules::error_context ctx = error_context_of(path, ids.uuid(), now);
    auto body = rules::make_error_body(code, ctx, std::move(problems), message, status);
    if (auto instead = failed_self_check(body, ctx)) return *instead;
    return error_reply(body);
}

ESIGN_DETAIL_BACKEND_INLINE reply backend::error_reply(const error_body& body) {
    return reply{static_cast<unsigned>(body.statusCode), json::write_error_body(body), body.requestId};
}

}  // namespace esign::reference
