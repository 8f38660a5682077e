# SPDX-License-Identifier: BSL-1.0
# cmake -P driver of the CTest tests consumer_warnings_<compiler>_<level>: tests/consumer/all_headers.cpp
# (every public header and the reference backend) compiled as a consumer would, at an optimizing
# level where the compilers' flow-based warnings appear, with warnings as errors; then run.
# Inputs (-D): CXX_COMPILER LEVEL (-O2, -O3) SOURCE_DIR (the repository) BINARY_DIR
cmake_minimum_required(VERSION 3.25)

foreach(var CXX_COMPILER LEVEL SOURCE_DIR BINARY_DIR)
    if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
        message(FATAL_ERROR "warnings test: -D${var}=... is required")
    endif()
endforeach()

file(MAKE_DIRECTORY "${BINARY_DIR}")
execute_process(
    COMMAND "${CXX_COMPILER}" -std=c++20 ${LEVEL} -Wall -Wextra -Wpedantic -Werror
        "-I${SOURCE_DIR}/include" "${SOURCE_DIR}/tests/consumer/all_headers.cpp"
        -lboost_json -lfmt -pthread -o "${BINARY_DIR}/all_headers"
    RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "warnings test: ${CXX_COMPILER} ${LEVEL} failed (${rc})")
endif()
execute_process(COMMAND "${BINARY_DIR}/all_headers" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "warnings test: the program failed (${rc})")
endif()
