// SPDX-License-Identifier: BSL-1.0
#pragma once
// The state file (contract.md §7.3): every team of a backend as one JSON document, so that a
// server restarted with --state-file starts where it stopped. Each team is its §6.6 snapshot
// (the team object of /_control/team/snapshot, written by the same code) plus what a snapshot
// taken through the API leaves out (§6.9): its credentials, the owner's uuid and the team's
// creation date, a frozen clock's start, when each queued delivery falls due, and the state a
// team reset returns to. Journals and fault rules are not kept.
//
//   { "format": "esign-state/1",          the version of this layout (read_state_file refuses others)
//     "clockOffset": 0,                    what server-wide /_control/clock/advance added
//     "teams": [ {
//       "apiKey", "accessKey", "secretKey" the team's credentials (§6.8)
//       "ownerUuid", "creationDate"        as team/create made them
//       "startTime"?                       a frozen clock's start (team/create startTime)
//       "team": { ... }                    the team object of /_control/team/snapshot, its "state" included
//       "pendingDue": [ ms ]               when each of team.state.pending_deliveries falls due (team's clock)
//       "initial": { ... }                 what /_control/team/reset returns to, as a team object
//       "signer"?: { "key",                the team's part of its signer secrets (signer_access.hpp)
//                    "links": [ {token, envelope_uuid, email} ],  its e-mail link tokens, oldest first
//                    "initialLinks": [ ... ] }                    those of "initial"
//     } ] }
// ("signer" keeps the links of the team's e-mails working across a restart; a file without it,
// as written before it was kept, loads with new links, as a restore makes.)
//
// Reading checks the whole document as a restore does (every state one the API could have
// produced: check_state), and more: uuids and credentials used once, the pieces agreeing with
// each other. A file with a problem loads nothing; every problem has its path in the file.
//
// The backend's two members declared in backend.hpp and defined with this header's functions in
// detail/state_file_definitions.hpp copy the teams out (export_state: each team under its
// own lock, one at a time; the JSON is written outside every lock) and put them in place
// (import_state: checked whole first; the teams in place before are retired as by a server-wide
// reset). The server's file handling (atomic write, interval) is examples/reference_server/
// state_file.hpp.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <esign/reference/detail/backend_inline.hpp>
#include <esign/reference/fixture/state_file_format.hpp>
#include <esign/validation/problem.hpp>
#include <esign/validation/result.hpp>

namespace esign::reference {

class backend;  // save_state and load_state take one (backend.hpp)

// ---- declared here, defined in detail/state_file_definitions.hpp (the file's text is read and
// written in detail/document_read_definitions.hpp and document_write_definitions.hpp) --------

// The file's text: its version, then the whole document, read strictly (a typo in a state file
// is not ignored). Problems have their paths in the file.
ESIGN_DETAIL_BACKEND_INLINE result<state_file_document> read_state_file(std::string_view text);
ESIGN_DETAIL_BACKEND_INLINE std::string write_state_file(const state_file_document& doc);
// The backend's whole state as the file's text (written outside every team's lock).
ESIGN_DETAIL_BACKEND_INLINE std::string save_state(backend& b);
// Loads the file's text into `b`: every team, or (problems) nothing.
ESIGN_DETAIL_BACKEND_INLINE problem_list load_state(backend& b, std::string_view text);

}  // namespace esign::reference

// The definitions: here, unless the program compiles them once in the source file that includes
// <esign/reference/src.hpp> (ESIGN_SEPARATE_COMPILATION), as the backend's members.
#ifndef ESIGN_SEPARATE_COMPILATION
#include <esign/reference/detail/document_read_definitions.hpp>
#include <esign/reference/detail/document_write_definitions.hpp>
#include <esign/reference/detail/state_file_definitions.hpp>
#endif
