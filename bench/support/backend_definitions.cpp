// SPDX-License-Identifier: BSL-1.0
// The reference backend's routes and constructor, compiled once for every benchmark program
// (ESIGN_SEPARATE_COMPILATION): a static library that the programs using the backend link.
#include <esign/reference/src.hpp>
