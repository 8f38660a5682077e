// SPDX-License-Identifier: BSL-1.0
#pragma once
// What every resource group shares: the empty response `{}`.
#include <boost/describe/class.hpp>

namespace esign {

// The response `{}` of every operation that answers an empty object
// (each such operation names it with an alias, e.g. `envelope_send_response`).
struct empty_response {};
BOOST_DESCRIBE_STRUCT(empty_response, (), ())

}  // namespace esign
