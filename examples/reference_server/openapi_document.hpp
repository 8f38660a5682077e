// SPDX-License-Identifier: BSL-1.0
#pragma once
// The OpenAPI document the server answers at GET /openapi.json, built in a source file of its own
// (openapi_document.cpp: generating it instantiates the schema of every type).
#include <string>

namespace esign::server {

std::string openapi_document();

}  // namespace esign::server
