# cmake -P driver of the CTest test consumer_find_package:
#   1. installs the esign build tree ESIGN_BINARY_DIR to PREFIX,
#   2. configures SOURCE_DIR (tests/consumer) in BINARY_DIR with CMAKE_PREFIX_PATH=PREFIX,
#   3. builds it and runs the program.
# Inputs (-D): ESIGN_BINARY_DIR PREFIX SOURCE_DIR BINARY_DIR GENERATOR CXX_COMPILER
#              CXX_COMPILER_LAUNCHER (may be empty) BUILD_TYPE (may be empty)
cmake_minimum_required(VERSION 3.25)

foreach(var ESIGN_BINARY_DIR PREFIX SOURCE_DIR BINARY_DIR GENERATOR CXX_COMPILER)
    if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
        message(FATAL_ERROR "consumer test: -D${var}=... is required")
    endif()
endforeach()

function(step what)
    message(STATUS "consumer test: ${what}")
    execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "consumer test: ${what} failed (${rc})")
    endif()
endfunction()

file(REMOVE_RECURSE "${PREFIX}" "${BINARY_DIR}")

step("install to ${PREFIX}"
    "${CMAKE_COMMAND}" --install "${ESIGN_BINARY_DIR}" --prefix "${PREFIX}")

set(configure_args
    -S "${SOURCE_DIR}" -B "${BINARY_DIR}" -G "${GENERATOR}"
    "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}"
    "-DCMAKE_PREFIX_PATH=${PREFIX}"
    "-DESIGN_EXPECTED_PREFIX=${PREFIX}"
    # Only what is installed under PREFIX (and the system's packages) may be found.
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
if(CXX_COMPILER_LAUNCHER)
    list(APPEND configure_args "-DCMAKE_CXX_COMPILER_LAUNCHER=${CXX_COMPILER_LAUNCHER}")
endif()
if(BUILD_TYPE)
    list(APPEND configure_args "-DCMAKE_BUILD_TYPE=${BUILD_TYPE}")
endif()
step("configure ${SOURCE_DIR}" "${CMAKE_COMMAND}" ${configure_args})
step("build" "${CMAKE_COMMAND}" --build "${BINARY_DIR}")
step("run" "${BINARY_DIR}/esign_consumer")
