# SPDX-License-Identifier: BSL-1.0
# cmake -P driver of the CTest test spdx_headers: every source, build and documentation file of
# the repository names its licence (SPDX-License-Identifier: BSL-1.0, the LICENSE file) in its
# first three lines. Data files (JSON, fuzz corpora) cannot carry a comment and are not checked.
# Input (-D): SOURCE_DIR
cmake_minimum_required(VERSION 3.25)

file(GLOB_RECURSE files RELATIVE "${SOURCE_DIR}"
    "${SOURCE_DIR}/include/*" "${SOURCE_DIR}/tests/*" "${SOURCE_DIR}/examples/*"
    "${SOURCE_DIR}/fuzz/*" "${SOURCE_DIR}/bench/*" "${SOURCE_DIR}/cmake/*" "${SOURCE_DIR}/.ci/*")
list(APPEND files CMakeLists.txt meson.build meson_options.txt README.md CHANGELOG.md)
set(missing "")
set(checked 0)
foreach(file IN LISTS files)
    if(file MATCHES "(^|/)(node_modules|corpus|__pycache__)/" OR file MATCHES "\\.(json|bin)$"
       OR NOT file MATCHES "(\\.(hpp|cpp|h|cmake|in|sh|py|mjs|js|md|dict|build)|CMakeLists\\.txt|meson_options\\.txt|/run)$")
        continue()
    endif()
    file(STRINGS "${SOURCE_DIR}/${file}" head LIMIT_COUNT 3)
    if(NOT head MATCHES "SPDX-License-Identifier: BSL-1\\.0")
        list(APPEND missing "${file}")
    endif()
    math(EXPR checked "${checked} + 1")
endforeach()
if(checked LESS 100)
    message(FATAL_ERROR "spdx: only ${checked} files found under ${SOURCE_DIR}")
endif()
if(missing)
    list(JOIN missing "\n  " missing)
    message(FATAL_ERROR "spdx: no SPDX-License-Identifier in the first lines of:\n  ${missing}")
endif()
message(STATUS "spdx: ${checked} files name their licence")
