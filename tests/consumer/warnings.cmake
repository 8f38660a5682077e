# SPDX-License-Identifier: BSL-1.0
# cmake -P driver of the CTest tests consumer_warnings_<compiler>_<level>: tests/consumer/all_headers.cpp
# (every public header and the reference backend) compiled as a consumer would, at an optimizing
# level where the compilers' flow-based warnings appear, with warnings as errors; then run.
# LEVEL -fsyntax-only runs the front end only (clang, whose warnings are its front end's): no
# program is made or run.
# Inputs (-D): CXX_COMPILER LEVEL (-O3, or any -O level; -fsyntax-only) SOURCE_DIR (the repository) BINARY_DIR
cmake_minimum_required(VERSION 3.25)

foreach(var CXX_COMPILER LEVEL SOURCE_DIR BINARY_DIR)
    if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
        message(FATAL_ERROR "warnings test: -D${var}=... is required")
    endif()
endforeach()

file(MAKE_DIRECTORY "${BINARY_DIR}")
set(flags -std=c++20 ${LEVEL} -Wall -Wextra -Wpedantic -Werror "-I${SOURCE_DIR}/include")
set(source "${SOURCE_DIR}/tests/consumer/all_headers.cpp")
if(LEVEL STREQUAL "-fsyntax-only")
    execute_process(COMMAND "${CXX_COMPILER}" ${flags} "${source}" RESULT_VARIABLE rc)
else()
    execute_process(COMMAND "${CXX_COMPILER}" ${flags} "${source}" -lboost_json -lfmt -pthread
        -o "${BINARY_DIR}/all_headers" RESULT_VARIABLE rc)
endif()
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "warnings test: ${CXX_COMPILER} ${LEVEL} failed (${rc})")
endif()
if(NOT LEVEL STREQUAL "-fsyntax-only")
    execute_process(COMMAND "${BINARY_DIR}/all_headers" RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "warnings test: the program failed (${rc})")
    endif()
endif()
