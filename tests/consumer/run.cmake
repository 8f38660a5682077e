# SPDX-License-Identifier: BSL-1.0
# cmake -P driver of the CTest tests consumer_<MODE>: esign used by another project, one way each.
#   find_package  installs the esign build tree ESIGN_BINARY_DIR to PREFIX, configures SOURCE_DIR
#                 (tests/consumer) with CMAKE_PREFIX_PATH=PREFIX and find_package(esign)
#   subdirectory  configures SOURCE_DIR/embedded: add_subdirectory(<esign sources>)
#   fetchcontent  the same with FetchContent from the local source tree (no download)
#   pkg-config    installs to PREFIX, compiles SOURCE_DIR/main.cpp with `pkg-config --cflags --libs esign`
#                 and SOURCE_DIR/client.cpp with `... esign-client`
# then builds and runs the programs: main.cpp checks the version it was built against, client.cpp
# esign::client's headers and what they link (OpenSSL; not in the fetchcontent mode, whose
# esign::client is add_subdirectory's).
# Inputs (-D): MODE ESIGN_BINARY_DIR ESIGN_ROOT PREFIX SOURCE_DIR BINARY_DIR GENERATOR CXX_COMPILER
#              CXX_COMPILER_LAUNCHER (may be empty) VERSION
# The consumers are built without a build type (no -g, no -O: they check the packaging, and
# debug information is a fifth of the client consumer's minute of g++).
cmake_minimum_required(VERSION 3.25)

foreach(var MODE ESIGN_BINARY_DIR ESIGN_ROOT PREFIX SOURCE_DIR BINARY_DIR GENERATOR CXX_COMPILER VERSION)
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

if(MODE STREQUAL "find_package" OR MODE STREQUAL "pkg-config")
    step("install to ${PREFIX}"
        "${CMAKE_COMMAND}" --install "${ESIGN_BINARY_DIR}" --prefix "${PREFIX}")
endif()

# Builds SOURCE_DIR/SOURCE with `pkg-config --cflags --libs PACKAGE` (and ARGN, more compile
# arguments) into BINARY_DIR/PROGRAM, and runs it. The flags must name PREFIX's headers (the .pc
# file finds its prefix from its own place) and match each of the regexes in MUST_MATCH.
function(pkg_config_consumer package source program must_match)
    execute_process(COMMAND "${PKG_CONFIG}" --cflags --libs ${package}
        OUTPUT_VARIABLE flags OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
    set(wanted TRUE)
    foreach(pattern IN ITEMS "-I${PREFIX}/" ${must_match})
        if(NOT flags MATCHES "${pattern}")
            set(wanted FALSE)
        endif()
    endforeach()
    if(NOT rc EQUAL 0 OR NOT wanted)
        message(FATAL_ERROR "consumer test: pkg-config ${package} gave '${flags}' (${rc})")
    endif()
    separate_arguments(flags UNIX_COMMAND "${flags}")
    file(MAKE_DIRECTORY "${BINARY_DIR}")
    step("compile ${source} with pkg-config ${package}'s flags" "${CXX_COMPILER}" -std=c++20 -Wall -Wextra
        -Wpedantic -Werror ${ARGN} "${SOURCE_DIR}/${source}" ${flags} -o "${BINARY_DIR}/${program}")
    step("run ${program}" "${BINARY_DIR}/${program}")
endfunction()

if(MODE STREQUAL "pkg-config")
    find_program(PKG_CONFIG pkg-config REQUIRED)
    set(ENV{PKG_CONFIG_PATH} "${PREFIX}/share/pkgconfig")
    execute_process(COMMAND "${PKG_CONFIG}" --modversion esign OUTPUT_VARIABLE found OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT found STREQUAL VERSION)
        message(FATAL_ERROR "consumer test: pkg-config esign is version '${found}', not ${VERSION}")
    endif()
    pkg_config_consumer(esign main.cpp esign_consumer "" "-DESIGN_EXPECTED_VERSION=\"${VERSION}\"")
    # The caller's side: esign-client.pc (esign's flags, OpenSSL's and threads').
    pkg_config_consumer(esign-client client.cpp esign_consumer_client "-lssl")
    return()
endif()

set(configure_args -B "${BINARY_DIR}" -G "${GENERATOR}" "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}")
if(MODE STREQUAL "find_package")
    list(APPEND configure_args
        -S "${SOURCE_DIR}"
        "-DCMAKE_PREFIX_PATH=${PREFIX}"
        "-DESIGN_EXPECTED_PREFIX=${PREFIX}"
        # Only what is installed under PREFIX (and the system's packages) may be found.
        -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
elseif(MODE STREQUAL "subdirectory" OR MODE STREQUAL "fetchcontent")
    list(APPEND configure_args -S "${SOURCE_DIR}/embedded" "-DESIGN_ROOT=${ESIGN_ROOT}" "-DESIGN_CONSUMER_MODE=${MODE}")
else()
    message(FATAL_ERROR "consumer test: unknown MODE '${MODE}'")
endif()
if(CXX_COMPILER_LAUNCHER)
    list(APPEND configure_args "-DCMAKE_CXX_COMPILER_LAUNCHER=${CXX_COMPILER_LAUNCHER}")
endif()
# esign::client's consumer in every mode but fetchcontent, which runs add_subdirectory's
# CMakeLists.txt of esign: the same target (CI time: its headers are a minute of g++ per build).
if(MODE STREQUAL "fetchcontent")
    set(client_consumer OFF)
else()
    set(client_consumer ON)
endif()
list(APPEND configure_args "-DESIGN_CONSUMER_CLIENT=${client_consumer}")
step("configure (${MODE})" "${CMAKE_COMMAND}" ${configure_args})
step("build" "${CMAKE_COMMAND}" --build "${BINARY_DIR}")
step("run" "${BINARY_DIR}/esign_consumer")
if(client_consumer)
    step("run esign::client's consumer" "${BINARY_DIR}/esign_consumer_client")
endif()
