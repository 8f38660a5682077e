// SPDX-License-Identifier: BSL-1.0
// The reference backend's operations, compiled once for every program of the project that uses
// the backend (the server, the unit tests, the benchmarks): the static library
// esign_backend_definitions of CMakeLists.txt and meson.build, built and linked with
// ESIGN_SEPARATE_COMPILATION. It is also the test that separate compilation links.
#include <esign/reference/src.hpp>
