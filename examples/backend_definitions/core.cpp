// SPDX-License-Identifier: BSL-1.0
// A part of the reference backend's definitions (the static library esign_backend_definitions of
// CMakeLists.txt and meson.build, built and linked with ESIGN_SEPARATE_COMPILATION; the parts:
// <esign/reference/src.hpp>): the routes, credentials and replies, the operator's operations,
// a team's and a signer's entries that are no templates, the webhook deliveries.
#include <esign/reference/backend/operator_operations.hpp>
#include <esign/reference/backend/replies.hpp>
#include <esign/reference/backend/routing.hpp>
#include <esign/reference/backend/signer_operations.hpp>
#include <esign/reference/backend/team_operations.hpp>
#include <esign/reference/backend/webhook_deliveries.hpp>
