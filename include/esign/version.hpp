// SPDX-License-Identifier: BSL-1.0
#pragma once
// The library's version, as the CMake and Meson projects declare it (both check at configure
// time that they agree with this file). ESIGN_VERSION orders versions: major * 10000 + minor * 100
// + patch, like BOOST_VERSION.
#define ESIGN_VERSION_MAJOR 0
#define ESIGN_VERSION_MINOR 1
#define ESIGN_VERSION_PATCH 0
#define ESIGN_VERSION (ESIGN_VERSION_MAJOR * 10000 + ESIGN_VERSION_MINOR * 100 + ESIGN_VERSION_PATCH)
#define ESIGN_VERSION_STRING "0.1.0"
