// SPDX-License-Identifier: BSL-1.0
#pragma once
// Every handler: one overload `outcome<Response> handle(context&, const Request&)` per
// operation, in namespace esign::reference::handlers. The backend's routing table (built from
// model/operations.hpp) finds them by overload resolution.
#include <esign/reference/handlers/envelopes.hpp>
#include <esign/reference/handlers/recipients.hpp>
#include <esign/reference/handlers/blocks.hpp>
#include <esign/reference/handlers/signing.hpp>
#include <esign/reference/handlers/control_envelopes.hpp>
#include <esign/reference/handlers/clock.hpp>
#include <esign/reference/handlers/workspaces.hpp>
#include <esign/reference/handlers/contacts.hpp>
#include <esign/reference/handlers/webhooks.hpp>
#include <esign/reference/handlers/templates.hpp>
#include <esign/reference/handlers/logs.hpp>
#include <esign/reference/handlers/team.hpp>
#include <esign/reference/handlers/outbox.hpp>
namespace esign::reference::handlers {}
