// SPDX-License-Identifier: BSL-1.0
#include "openapi_document.hpp"

#include <esign/schema/openapi.hpp>

namespace esign::server {

std::string openapi_document() { return schema::openapi_json(); }

}  // namespace esign::server
