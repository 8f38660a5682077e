// SPDX-License-Identifier: BSL-1.0
#pragma once
// The whole model: every resource, request, response and enum, and the operation table.
#include <esign/model/auth.hpp>
#include <esign/model/common.hpp>
#include <esign/model/contact.hpp>
#include <esign/model/control.hpp>
#include <esign/model/document.hpp>
#include <esign/model/embeds.hpp>
#include <esign/model/enums.hpp>
#include <esign/model/envelope.hpp>
#include <esign/model/error_body.hpp>
#include <esign/model/error_code_set.hpp>
#include <esign/model/harness.hpp>
#include <esign/model/log.hpp>
#include <esign/model/operations.hpp>
#include <esign/model/pagination.hpp>
#include <esign/model/recipient.hpp>
#include <esign/model/template.hpp>
#include <esign/model/webhook.hpp>
#include <esign/model/workspace.hpp>
