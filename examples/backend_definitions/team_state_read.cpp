// SPDX-License-Identifier: BSL-1.0
// A part of the reference backend's definitions (see core.cpp): team_state's readers (the
// records of a fixture's, a restore's or the state file's team), every record type's decoder.
#include <esign/reference/detail/team_state_reader_definitions.hpp>
