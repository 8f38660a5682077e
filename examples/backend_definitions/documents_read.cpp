// SPDX-License-Identifier: BSL-1.0
// A part of the reference backend's definitions (see core.cpp): the documents of a team's whole
// state read from JSON (a fixture, a restore, the state file), down to their team_state (read by
// team_state_read.cpp).
#include <esign/reference/detail/document_read_definitions.hpp>
