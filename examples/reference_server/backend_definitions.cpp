// SPDX-License-Identifier: BSL-1.0
// The reference backend's operations, compiled in a source file of their own, beside main.cpp
// (the server is built with ESIGN_SEPARATE_COMPILATION).
#include <esign/reference/src.hpp>
