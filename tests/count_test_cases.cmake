# SPDX-License-Identifier: BSL-1.0
# Every Catch2 test case is one CTest test (issue: a name with ';' became two CTest entries that
# matched nothing and passed). Run with -P:
#   EXECUTABLE  the Catch2 program          CTEST   the ctest program
#   BUILD_DIR   the build tree
# Fails when the number of test cases the program lists differs from the number of CTest tests
# that run it, or when such a CTest test names no test case of the program.

cmake_minimum_required(VERSION 3.25)

execute_process(COMMAND "${EXECUTABLE}" --list-test-names-only
    OUTPUT_VARIABLE listed RESULT_VARIABLE listed_status)
if(listed_status LESS 0)
    message(FATAL_ERROR "${EXECUTABLE} --list-test-names-only failed: ${listed_status}")
endif()
string(REPLACE ";" "<semicolon>" listed "${listed}")
string(REPLACE "\n" ";" listed "${listed}")
list(FILTER listed EXCLUDE REGEX "^$")
list(LENGTH listed catch_count)

execute_process(COMMAND "${CTEST}" -N --show-only=json-v1
    WORKING_DIRECTORY "${BUILD_DIR}" OUTPUT_VARIABLE json RESULT_VARIABLE ctest_status)
if(NOT ctest_status EQUAL 0)
    message(FATAL_ERROR "ctest -N failed: ${ctest_status}")
endif()
string(JSON all_count LENGTH "${json}" tests)

set(ctest_count 0)
set(unmatched "")
if(all_count GREATER 0)
    math(EXPR last "${all_count} - 1")
    foreach(i RANGE ${last})
        string(JSON program ERROR_VARIABLE no_command GET "${json}" tests ${i} command 0)
        if(no_command OR NOT program STREQUAL EXECUTABLE)
            continue()
        endif()
        math(EXPR ctest_count "${ctest_count} + 1")
        # The argument after the program is the test case's name as Catch2 reads it (',', '[' and
        # ']' escaped by catch_discover_tests); undo the escapes to compare with the list.
        string(JSON name GET "${json}" tests ${i} command 1)
        string(REGEX REPLACE "\\\\([],[])" "\\1" name "${name}")
        string(REPLACE ";" "<semicolon>" name "${name}")
        list(FIND listed "${name}" found)
        if(found EQUAL -1)
            list(APPEND unmatched "${name}")
        endif()
    endforeach()
endif()

message(STATUS "${EXECUTABLE}: ${catch_count} test cases, ${ctest_count} CTest tests")
if(unmatched)
    string(REPLACE ";" "\n  " unmatched "${unmatched}")
    message(FATAL_ERROR "CTest tests that name no test case of the program:\n  ${unmatched}")
endif()
if(NOT catch_count EQUAL ctest_count)
    message(FATAL_ERROR "${catch_count} test cases but ${ctest_count} CTest tests")
endif()
