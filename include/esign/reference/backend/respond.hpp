// SPDX-License-Identifier: BSL-1.0
#pragma once
// A success of the backend: the response as JSON, unless the self-check (when on) finds that it
// breaks its type. Templates only, apart from replies.hpp's non-template members: the parts that
// compile the rows' runners (runners.hpp) instantiate them without defining those members again.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <esign/reference/backend.hpp>

namespace esign::reference {

template <class Response>
reply backend::respond(id_source& ids, std::string_view path, const Response& response, std::int64_t now) {
    std::string request_id = ids.uuid();
    if (auto instead = failed_self_check(response, error_context_of(path, request_id, now))) return *instead;
    return reply{200, json::write(response), std::move(request_id)};
}

template <class Response>
std::optional<reply> backend::failed_self_check(const Response& response, const rules::error_context& ctx) const {
    if (!options_.self_check) return std::nullopt;
    auto instead = self_check(response, ctx, options_.self_check_log);
    if (!instead) return std::nullopt;
    return error_reply(*instead);
}

}  // namespace esign::reference
