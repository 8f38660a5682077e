// SPDX-License-Identifier: BSL-1.0
// The reference backend's routes and constructor, compiled once for the whole unit test program
// (which defines ESIGN_SEPARATE_COMPILATION): every other test file includes the backend without
// instantiating every operation again. It is also the test that separate compilation links.
#include <esign/reference/src.hpp>
