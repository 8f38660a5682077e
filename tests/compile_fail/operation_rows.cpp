// SPDX-License-Identifier: BSL-1.0
// Compile-fail tests (tests/compile_fail/run.py): an operation is one row and one handler. A row
// whose kind has no handler for its request type does not compile, and the message names the
// row's path (reference/backend/dispatch.hpp checks every row of the table this way).
#define ESIGN_SEPARATE_COMPILATION  // the backend's declarations only: no route is instantiated
#include <esign/model/operations.hpp>
#include <esign/reference/backend.hpp>
#include <esign/reference/backend/dispatch.hpp>  // every_row_has_a_handler, with every entry

namespace rows {

using esign::detail::control_operation;
using esign::detail::public_operation;
using esign::reference::detail::every_row_has_a_handler;

// A request that no handler takes.
struct orphan_request {};

#ifdef ESIGN_FAIL_team_row_without_handler  // expect: operation_row<.*"/public/orphan/run"\}, false>
inline constexpr auto team_rows =
    esign::make_operation_table(public_operation<orphan_request, esign::empty_response>("/public/orphan/run", {}));
static_assert(every_row_has_a_handler<team_rows>());
#elif !defined(ESIGN_FAIL)
// A row with its handler passes (the table as it is passes too: dispatch.hpp checks it).
inline constexpr auto team_rows = esign::make_operation_table(
    public_operation<esign::envelope_get_request, esign::envelope_get_response>("/public/envelope/get-again", {}));
static_assert(every_row_has_a_handler<team_rows>());
#endif

#ifdef ESIGN_FAIL_operator_row_without_handler  // expect: operation_row<.*"/_control/orphan/get"\}, false>
// A team's handler exists (envelope/get's), but the operator has no entry for it.
inline constexpr auto operator_rows =
    esign::make_operation_table(control_operation<esign::envelope_get_request, esign::envelope_get_response>(
        "/_control/orphan/get", esign::operation_access::team_or_server, {}));
static_assert(every_row_has_a_handler<operator_rows>());
#elif !defined(ESIGN_FAIL)
inline constexpr auto operator_rows =
    esign::make_operation_table(control_operation<esign::envelope_get_request, esign::envelope_get_response>(
        "/_control/orphan/get", esign::operation_access::team_control, {}));
static_assert(every_row_has_a_handler<operator_rows>());
#endif

}  // namespace rows
