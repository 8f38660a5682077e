// SPDX-License-Identifier: BSL-1.0
// A part of the reference backend's definitions (see core.cpp): the constructor and the teams
// (a fixture's, through the handlers that make its records).
#include <esign/reference/backend/teams.hpp>
