// SPDX-License-Identifier: BSL-1.0
#pragma once
// Whether a handler takes a request: detail::has_handler<Context, Request>::value is true when
// handlers::handle(Context&, const Request&) exists (Context: context, the team's store, or
// harness_context, its journal and fault rules). The backend's declarations name it
// (backend.hpp, which declares it only); it is defined here, after every handler's header,
// because a qualified call in a template sees only the overloads declared before the template.
#include <type_traits>

#include <esign/reference/context.hpp>
#include <esign/reference/handlers/all.hpp>
#include <esign/reference/handlers/embeds.hpp>  // hook for signer rows
#include <esign/reference/handlers/harness.hpp>

namespace esign::reference::detail {

template <class Context, class Request>
    struct has_handler : std::bool_constant < requires(Context& c, const Request& r) {
    handlers::handle(c, r);
} > {};

}  // namespace esign::reference::detail
