// SPDX-License-Identifier: BSL-1.0
#pragma once
// /_control/journal/... and /_control/faults/... (contract.md §6.4, §6.5): a team's journal and
// fault rules. They read the team's store (its webhooks) and never change it.
#include <esign/model/harness.hpp>
#include <esign/model/operations.hpp>
#include <esign/reference/context.hpp>
#include <esign/reference/harness/team_harness.hpp>

namespace esign::reference {

struct harness_context {
    team_harness& harness;
    const state& st;  // the team's store, read only
    id_source& ids;   // the team's stream (fault uuids)
};

namespace handlers {

inline outcome<control_journal_list_response> handle(harness_context& c, const control_journal_list_request& r) {
    return c.harness.journal.list(r);
}

inline outcome<control_journal_clear_response> handle(harness_context& c, const control_journal_clear_request&) {
    c.harness.journal.clear();
    return control_journal_clear_response{};
}

// Whether `path` is a public operation (the only ones fault rules apply to).
inline bool is_public_operation(std::string_view path) {
    bool found = false;
    visit_operation(path, [&](const auto& op) { found = !op.is_control; });
    return found;
}

inline outcome<control_faults_add_response> handle(harness_context& c, const control_faults_add_request& r) {
    if (r.operation && !is_public_operation(*r.operation))
        return invalid_at({"operation"}, problem_kind::enum_value, "is not the path of a /public/ operation");
    if (r.webhookUuid && !c.st.webhooks.count(r.webhookUuid->str())) return failure{error_code::WEBHOOK_NOT_FOUND};
    if (c.harness.faults.full())
        return invalid_at({}, problem_kind::size,
                          "the team has " + std::to_string(max_fault_rules) + " fault rules already");
    return control_faults_add_response{c.harness.faults.add(r, c.ids)};
}

inline outcome<control_faults_list_response> handle(harness_context& c, const control_faults_list_request&) {
    return c.harness.faults.list();
}

inline outcome<control_faults_clear_response> handle(harness_context& c, const control_faults_clear_request&) {
    c.harness.faults.clear();
    return control_faults_clear_response{};
}

}  // namespace handlers
}  // namespace esign::reference
