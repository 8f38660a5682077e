// SPDX-License-Identifier: BSL-1.0
// A part of the reference backend's definitions (see core.cpp): the documents of a team's whole
// state written as JSON (a snapshot, the state file) with team_state's writers, which instantiate
// every record type's encoder; the snapshot's self-check; and the checks of a state read (every
// record type's rules).
#include <esign/reference/detail/document_write_definitions.hpp>
#include <esign/reference/detail/team_state_definitions.hpp>
#include <esign/reference/detail/team_state_writer_definitions.hpp>
