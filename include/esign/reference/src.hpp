// SPDX-License-Identifier: BSL-1.0
#pragma once
// The reference backend compiled once for a whole program: include this header in exactly one
// source file, and define ESIGN_SEPARATE_COMPILATION for every source file of the program
// (CMake: target_compile_definitions(... ESIGN_SEPARATE_COMPILATION)). The other files then
// include <esign/reference/backend.hpp> as usual, which declares the backend only: they read
// neither the handlers, the fixture nor the members' definitions (backend/, detail/), and
// instantiate no operation. Like Boost.JSON's src.hpp.
#ifndef ESIGN_SEPARATE_COMPILATION
#error "<esign/reference/src.hpp> is for programs that define ESIGN_SEPARATE_COMPILATION in every source file"
#endif

#include <esign/reference/backend.hpp>
#include <esign/reference/detail/backend_definitions.hpp>
#include <esign/reference/detail/state_file_definitions.hpp>
