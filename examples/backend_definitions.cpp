// SPDX-License-Identifier: BSL-1.0
// The reference backend's definitions in one file, as a program that includes
// <esign/reference/src.hpp> compiles them: the static library esign_backend_definitions of
// CMakeLists.txt when ESIGN_BACKEND_IN_PARTS is OFF (CI's sanitizer trees), built and linked
// with ESIGN_SEPARATE_COMPILATION. It is also the test that this form links. (By default the
// project compiles the same definitions in parts: examples/backend_definitions/.)
#include <esign/reference/src.hpp>
