// SPDX-License-Identifier: BSL-1.0
#pragma once
// ESIGN_DETAIL_BACKEND_INLINE begins the definition of each non-template member of
// esign::reference::backend (the headers under reference/backend/ and
// detail/backend_definitions.hpp): `inline` in a header-only program, where every source file
// that includes backend.hpp compiles them, and nothing in a program that defines
// ESIGN_SEPARATE_COMPILATION, where only the source file that includes <esign/reference/src.hpp>
// does (and the others include a backend.hpp that declares them: see src.hpp).
#ifdef ESIGN_SEPARATE_COMPILATION
#define ESIGN_DETAIL_BACKEND_INLINE
#else
#define ESIGN_DETAIL_BACKEND_INLINE inline
#endif
