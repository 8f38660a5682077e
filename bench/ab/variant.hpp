// SPDX-License-Identifier: BSL-1.0
#pragma once
// What each tree's variant.cpp gives ab_decode.cpp: ESIGN_AB_NAMESPACE is esign_ab_old or
// esign_ab_new (run.sh compiles variant.cpp once as each).
#include <string_view>

#define ESIGN_AB_DECLARE(ns)                          \
    namespace ns {                                    \
    bool read_recipients(std::string_view body);      \
    bool read_blocks(std::string_view body);          \
    bool read_into_recipients(std::string_view body); \
    bool read_into_blocks(std::string_view body);     \
    }

ESIGN_AB_DECLARE(esign_ab_old)
ESIGN_AB_DECLARE(esign_ab_new)
