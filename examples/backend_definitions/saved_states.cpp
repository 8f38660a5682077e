// SPDX-License-Identifier: BSL-1.0
// A part of the reference backend's definitions (see core.cpp): a team's snapshot and restore,
// and the state file's functions with the backend's export_state and import_state.
#include <esign/reference/backend/snapshots.hpp>
#include <esign/reference/detail/state_file_definitions.hpp>
