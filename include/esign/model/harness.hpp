// SPDX-License-Identifier: BSL-1.0
#pragma once
// The test-harness control operations of a team (contract.md §6.4-§6.6): its request journal,
// its fault rules, and snapshots of its state. Called with the team's key; they act on it only.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <boost/describe/class.hpp>
#include <boost/describe/enum.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <esign/model/common.hpp>
#include <esign/model/enums.hpp>
#include <esign/types/bounded_string.hpp>
#include <esign/types/ranged.hpp>
#include <esign/validation/problem.hpp>

namespace esign {

// ---------------------------------------------------------------------------------------------
// POST /_control/journal/list, /_control/journal/clear (§6.4)

struct control_journal_list_request {
    std::optional<std::string> path;       // only requests to this path
    std::optional<ranged<0, 599>> status;  // only answers with this HTTP status (0: dropped)
    std::optional<ranged<0>> since;        // only entries after this sequence number
    std::optional<ranged<1, 1000>> limit;  // at most this many, oldest first (default 100)
};
BOOST_DESCRIBE_STRUCT(control_journal_list_request, (), (path, status, since, limit))

inline constexpr std::int32_t default_journal_limit = 100;

struct journal_entry {
    std::int64_t sequence = 0;  // 1, 2, ... in the order the team's requests were answered
    std::int64_t time = 0;      // the team's clock when the request came (unix ms)
    std::string path;
    std::int64_t status = 0;      // the HTTP status answered; 0 when a fault dropped the connection
    boost::json::value request;   // the body as received: its JSON when it parsed, else its text
    boost::json::value response;  // the body answered (null when dropped)
};
BOOST_DESCRIBE_STRUCT(journal_entry, (), (sequence, time, path, status, request, response))

struct control_journal_list_response {
    std::vector<journal_entry> entries;
};
BOOST_DESCRIBE_STRUCT(control_journal_list_response, (), (entries))

struct control_journal_clear_request {};
BOOST_DESCRIBE_STRUCT(control_journal_clear_request, (), ())
using control_journal_clear_response = empty_response;

// ---------------------------------------------------------------------------------------------
// POST /_control/faults/add, /_control/faults/list, /_control/faults/clear (§6.5)

// What a rule does: to a request of its operation (error, delay, drop), or to a delivery
// attempt to its webhook (fail: counted as an answer 503; timeout: as no answer).
enum class fault_action { error, delay, drop, fail, timeout };
BOOST_DESCRIBE_ENUM(fault_action, error, delay, drop, fail, timeout)

inline constexpr std::int32_t max_fault_delay_ms = 30'000;

struct control_faults_add_request {
    std::optional<std::string> operation;  // a /public/ path; or
    std::optional<uuid36> webhookUuid;     // a webhook of the team
    std::optional<ranged<1, 1000>> times;  // default 1
    std::optional<double> probability;     // 0 to 1, default 1 (drawn from the team's stream)
    fault_action action{};
    std::optional<error_code> error;                       // for "error"
    std::optional<ranged<1, max_fault_delay_ms>> delayMs;  // for "delay"
};
BOOST_DESCRIBE_STRUCT(control_faults_add_request, (),
                      (operation, webhookUuid, times, probability, action, error, delayMs))

namespace detail {
inline bool is_operation_action(fault_action a) {
    return a == fault_action::error || a == fault_action::delay || a == fault_action::drop;
}
}  // namespace detail

// The members that go together (the table of operations is checked by the backend: whether
// `operation` is a public path).
inline void validate(const control_faults_add_request& value, problem_sink& sink) {
    if (value.operation.has_value() == value.webhookUuid.has_value())
        sink.add({"operation"}, problem_kind::rule, "give exactly one of operation and webhookUuid");
    else if (value.operation && !detail::is_operation_action(value.action))
        sink.add({"action"}, problem_kind::enum_value, "must be error, delay or drop for an operation");
    else if (value.webhookUuid && detail::is_operation_action(value.action))
        sink.add({"action"}, problem_kind::enum_value, "must be fail or timeout for a webhook");
    if (value.probability && !(*value.probability >= 0.0 && *value.probability <= 1.0))
        sink.add({"probability"}, problem_kind::range, "must be from 0 to 1");
    if ((value.action == fault_action::error) != value.error.has_value())
        sink.add({"error"}, value.error ? problem_kind::rule : problem_kind::missing,
                 value.error ? "is only for action error" : "is required for action error");
    if ((value.action == fault_action::delay) != value.delayMs.has_value())
        sink.add({"delayMs"}, value.delayMs ? problem_kind::rule : problem_kind::missing,
                 value.delayMs ? "is only for action delay" : "is required for action delay");
}

struct control_faults_add_response {
    std::string faultUuid;
};
BOOST_DESCRIBE_STRUCT(control_faults_add_response, (), (faultUuid))

// A rule as faults/list shows it: `times` is what is left of it.
struct fault_rule {
    std::string faultUuid;
    std::optional<std::string> operation;
    std::optional<std::string> webhookUuid;
    std::int64_t times = 1;
    double probability = 1.0;
    fault_action action{};
    std::optional<error_code> error;
    std::optional<std::int64_t> delayMs;
};
BOOST_DESCRIBE_STRUCT(fault_rule, (), (faultUuid, operation, webhookUuid, times, probability, action, error, delayMs))

struct control_faults_list_request {};
BOOST_DESCRIBE_STRUCT(control_faults_list_request, (), ())

struct control_faults_list_response {
    std::vector<fault_rule> faults;
};
BOOST_DESCRIBE_STRUCT(control_faults_list_response, (), (faults))

struct control_faults_clear_request {};
BOOST_DESCRIBE_STRUCT(control_faults_clear_request, (), ())
using control_faults_clear_response = empty_response;

// ---------------------------------------------------------------------------------------------
// POST /_control/team/snapshot, /_control/team/restore (§6.6). The team object is one team of
// the reference server's --fixture format (esign::reference::fixture_team, with its `state`),
// which the backend reads: the model keeps it as JSON.

struct control_team_snapshot_request {};
BOOST_DESCRIBE_STRUCT(control_team_snapshot_request, (), ())

struct control_team_snapshot_response {
    boost::json::object team;
};
BOOST_DESCRIBE_STRUCT(control_team_snapshot_response, (), (team))

struct control_team_restore_request {
    boost::json::object team;
};
BOOST_DESCRIBE_STRUCT(control_team_restore_request, (), (team))
using control_team_restore_response = empty_response;

}  // namespace esign
