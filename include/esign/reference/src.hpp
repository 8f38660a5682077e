// SPDX-License-Identifier: BSL-1.0
#pragma once
// The reference backend compiled once for a whole program: include this header in exactly one
// source file, and define ESIGN_SEPARATE_COMPILATION for every source file of the program
// (CMake: target_compile_definitions(... ESIGN_SEPARATE_COMPILATION)). The other files then
// include <esign/reference/backend.hpp> as usual, which declares the backend only: they read
// neither the handlers, the fixture nor the members' definitions (backend/, detail/), and
// instantiate no operation. Like Boost.JSON's src.hpp.
//
// Or in parts, each a source file of its own, compiled in parallel (the project's
// esign_backend_definitions: examples/backend_definitions/, each part under 30 s of g++ -O3):
// the headers below but backend_definitions.hpp, and instead of it each header of
// reference/backend/ that defines members (all but the templates-only dispatch.hpp, respond.hpp,
// run_as_signer.hpp, run_for_team.hpp and runners.hpp), each in one file or another; then for
// each part K < backend::runner_parts of the rows' runners, a file with runners.hpp and the
// explicit instantiation of backend::add_runners<K> (runners.hpp shows it). A part left out
// fails the link. The parts read the same headers, so together they take about three times the
// one file's CPU time: worth it where cores are many, or for an edit's rebuild.
#ifndef ESIGN_SEPARATE_COMPILATION
#error "<esign/reference/src.hpp> is for programs that define ESIGN_SEPARATE_COMPILATION in every source file"
#endif

#include <esign/reference/backend.hpp>
#include <esign/reference/detail/backend_definitions.hpp>
#include <esign/reference/detail/document_read_definitions.hpp>
#include <esign/reference/detail/document_write_definitions.hpp>
#include <esign/reference/detail/state_file_definitions.hpp>
#include <esign/reference/detail/team_state_definitions.hpp>
#include <esign/reference/detail/team_state_reader_definitions.hpp>
#include <esign/reference/detail/team_state_writer_definitions.hpp>
