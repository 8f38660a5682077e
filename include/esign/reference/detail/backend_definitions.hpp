// SPDX-License-Identifier: BSL-1.0
#pragma once
// Every member of esign::reference::backend defined, one idea per header under backend/ (which
// read the handlers and the fixture): the rows' runners (runners.hpp), which instantiate every
// operation of the table, and the members that read every record type (the constructor, through
// the fixture; snapshots) are most of what compiling the backend costs, so a program with several
// source files that use the backend may compile them once: define ESIGN_SEPARATE_COMPILATION for
// every source file of the program, and include <esign/reference/src.hpp> in one of them (or the
// parts in several: src.hpp). Otherwise backend.hpp includes this header and the definitions are
// inline (ESIGN_DETAIL_BACKEND_INLINE), as in any header-only library.
#include <esign/reference/backend.hpp>

// The members' definitions, one idea per header.
#include <esign/reference/backend/dispatch.hpp>
#include <esign/reference/backend/operator_operations.hpp>
#include <esign/reference/backend/replies.hpp>
#include <esign/reference/backend/respond.hpp>
#include <esign/reference/backend/routing.hpp>
#include <esign/reference/backend/run_as_signer.hpp>  // hook for signer rows
#include <esign/reference/backend/run_for_team.hpp>
#include <esign/reference/backend/runners.hpp>
#include <esign/reference/backend/signer_operations.hpp>  // hook for signer rows
#include <esign/reference/backend/snapshots.hpp>
#include <esign/reference/backend/team_operations.hpp>
#include <esign/reference/backend/teams.hpp>
#include <esign/reference/backend/webhook_deliveries.hpp>
