// SPDX-License-Identifier: BSL-1.0
#pragma once
// Moved to <esign/validation/enum_names.hpp> (the enum rule is judged below the types); this
// name stays for the headers that include it until they are updated (issue 41).
#include <esign/validation/enum_names.hpp>
