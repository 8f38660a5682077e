// SPDX-License-Identifier: BSL-1.0
#pragma once
// Moved to <esign/validation/described_members.hpp> (esign::check walks them below the types);
// this name stays for the headers that include it until they are updated (issue 41).
#include <esign/validation/described_members.hpp>
