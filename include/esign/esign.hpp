// SPDX-License-Identifier: BSL-1.0
#pragma once
// esign: the Electronic Signature Service interface as C++ types, with validation, rules and a
// reference in-memory backend. This header includes the public headers of every layer:
//
//   types/       vocabulary with its constraints in the type (bounded strings, uuid36, e-mails, ...)
//   regex/       compile-time regular expressions → DFA, and the two e-mail patterns
//   model/       the described resources, requests, responses and enums; the operation table
//   validation/  problems and results (errors are values)
//   json/        read/decode bytes or JSON into typed values with every problem; encode/write back;
//                check a value built in code (esign::check, esign::checked, the types' `make`)
//   rules/       error codes and the error body, status rules, lifecycle, pagination, colours,
//                webhook URLs
//   reference/   the in-memory backend (include <esign/reference/backend.hpp>; not included here,
//                since most users only parse and validate)
#include <esign/version.hpp>

#include <esign/types/absolute_uri.hpp>
#include <esign/types/ascii.hpp>
#include <esign/types/bounded_string.hpp>
#include <esign/types/bounded_vector.hpp>
#include <esign/validation/described_members.hpp>
#include <esign/types/email.hpp>
#include <esign/validation/enum_names.hpp>
#include <esign/types/nullable.hpp>
#include <esign/types/pattern_string.hpp>
#include <esign/types/ranged.hpp>
#include <esign/types/scalar_text.hpp>
#include <esign/types/uri.hpp>

#include <esign/regex/email.hpp>
#include <esign/regex/regex.hpp>

#include <esign/model/model.hpp>

#include <esign/validation/format.hpp>
#include <esign/validation/problem.hpp>
#include <esign/validation/result.hpp>
#include <esign/validation/value_or_error.hpp>

#include <esign/json/check.hpp>
#include <esign/json/decode.hpp>
#include <esign/json/encode.hpp>
#include <esign/json/error_body_text.hpp>

#include <esign/rules/colors.hpp>
#include <esign/rules/email_domain.hpp>
#include <esign/rules/envelope_rules.hpp>
#include <esign/rules/make_error_body.hpp>
#include <esign/rules/error_codes.hpp>
#include <esign/rules/lifecycle.hpp>
#include <esign/rules/pagination.hpp>
#include <esign/rules/status_rules.hpp>
#include <esign/rules/webhook_url.hpp>
