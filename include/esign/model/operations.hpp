// SPDX-License-Identifier: BSL-1.0
#pragma once
// The table of every operation: path, who may call it, whether it changes state, the request
// and response types, and the error codes it may answer. It is data, the one source of these
// facts: the router, the backend, the OpenAPI generator, the fuzz harness and the tests
// iterate it with for_each_operation (or mp11 over operation_types).
#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>

#include <boost/mp11/algorithm.hpp>
#include <boost/mp11/list.hpp>

#include <esign/model/auth.hpp>
#include <esign/model/contact.hpp>
#include <esign/model/control.hpp>
#include <esign/model/document.hpp>
#include <esign/model/embeds.hpp>
#include <esign/model/envelope.hpp>
#include <esign/model/error_code_set.hpp>
#include <esign/model/harness.hpp>
#include <esign/model/log.hpp>
#include <esign/model/recipient.hpp>
#include <esign/model/template.hpp>
#include <esign/model/webhook.hpp>
#include <esign/model/workspace.hpp>

namespace esign {

// Who may call an operation, and on what it acts (contract.md §1, §6.2). The kind decides the
// rest of the row's calling facts (needs_api_key, is_control) and where the backend runs it.
enum class operation_access {
    team,            // a team's credentials; acts on that team (every public operation)
    team_control,    // a control operation that needs a team's credentials; acts on that team
    team_or_server,  // with a team's credentials: that team; without: every team (the operator)
    server,          // the operator only (with --control-token, its token); never a team's key
    signer,          // a signer's page: no API key, the body carries a signing token or session
};

// Whether Authorization: Bearer <team credentials> is required.
constexpr bool needs_api_key(operation_access access) noexcept {
    return access == operation_access::team || access == operation_access::team_control;
}
// Whether it is a /_control/ operation of the reference server.
constexpr bool is_control(operation_access access) noexcept {
    return access == operation_access::team_control || access == operation_access::team_or_server ||
           access == operation_access::server;
}
// Whether a team's credentials may call it (it then runs for that team).
constexpr bool team_may_call(operation_access access) noexcept {
    return access == operation_access::team || access == operation_access::team_control ||
           access == operation_access::team_or_server;
}
// Whether the operator may call it (it then runs over every team, or the one the request names).
constexpr bool operator_may_call(operation_access access) noexcept {
    return access == operation_access::team_or_server || access == operation_access::server;
}

// What a row says beside its path, kind and errors (the markers of the table below).
struct operation_traits {
    bool read_only = false;   // changes nothing stored: the backend takes the team's shared lock
    bool draft_only = false;  // ENVELOPE_NOT_IN_DRAFT unless the envelope is a draft (interface.md)
};

template <class Request, class Response>
struct operation {
    using request_type = Request;
    using response_type = Response;
    std::string_view path;    // e.g. "/public/envelope/get"
    operation_access access;  // who may call it
    bool read_only;           // changes nothing stored (the reference backend shares its lock)
    bool draft_only;          // fails with ENVELOPE_NOT_IN_DRAFT unless the envelope is a draft
    bool needs_api_key;       // from access: Authorization: Bearer <team credentials> required
    bool is_control;          // from access: a /_control/ operation of the reference server
    error_code_set errors;    // the codes of its own that it may answer (besides common_error_codes)

    // needs_api_key and is_control follow from the kind; a draft-only operation may answer
    // ENVELOPE_NOT_IN_DRAFT (so that the row never says one without the other).
    constexpr operation(std::string_view path_, operation_access access_, error_code_set errors_,
                        operation_traits traits = {}) noexcept
        : path(path_),
          access(access_),
          read_only(traits.read_only),
          draft_only(traits.draft_only),
          needs_api_key(esign::needs_api_key(access_)),
          is_control(esign::is_control(access_)),
          errors(traits.draft_only ? errors_ | error_code_set{error_code::ENVELOPE_NOT_IN_DRAFT} : errors_) {}

    // Whether a failure of this operation may carry `code`.
    constexpr bool may_answer(error_code code) const noexcept {
        return common_error_codes.contains(code) || errors.contains(code);
    }
};

// A table of rows (operation<Req, Res>, each its own type), flat: row I is a base of its own,
// found by its index in O(1) template work. (A std::tuple of the fifty rows cost every
// translation unit that includes the model a second and a half of g++: its constructors'
// constraints are checked element by element, recursively.)
namespace detail {
template <std::size_t I, class Row>
struct table_slot {
    Row row;
};
template <std::size_t I, class Row>
constexpr const Row& slot_row(const table_slot<I, Row>& slot) noexcept {
    return slot.row;
}
template <class Indices, class... Rows>
struct table_slots;
template <std::size_t... I, class... Rows>
struct table_slots<std::index_sequence<I...>, Rows...> : table_slot<I, Rows>... {};
}  // namespace detail

template <class... Rows>
struct operation_table : detail::table_slots<std::index_sequence_for<Rows...>, Rows...> {
    static constexpr std::size_t size = sizeof...(Rows);
    // Row I.
    template <std::size_t I>
    constexpr const auto& get() const noexcept {
        return detail::slot_row<I>(*this);
    }
    // Calls f(row) for every row, in order.
    template <class F>
    constexpr void for_each(F&& f) const {
        [&]<std::size_t... I>(std::index_sequence<I...>) { (f(get<I>()), ...); }
        (std::index_sequence_for<Rows...>{});
    }
};

// A table of the rows given, in order.
template <class... Rows>
constexpr operation_table<Rows...> make_operation_table(const Rows&... rows) noexcept {
    return {{{rows}...}};  // the slots' base, each slot from its row, in order
}

namespace detail {
template <class Request, class Response>
constexpr operation<Request, Response> public_operation(std::string_view path, error_code_set errors,
                                                        operation_traits traits = {}) noexcept {
    return {path, operation_access::team, errors, traits};
}
template <class Request, class Response>
constexpr operation<Request, Response> control_operation(std::string_view path, operation_access access,
                                                         error_code_set errors, operation_traits traits = {}) noexcept {
    return {path, access, errors, traits};
}
template <class Request, class Response>
constexpr operation<Request, Response> signer_operation(std::string_view path, error_code_set errors,
                                                        operation_traits traits = {}) noexcept {
    return {path, operation_access::signer, errors, traits};
}
inline constexpr operation_traits reads{.read_only = true};        // marks a read-only operation below
inline constexpr operation_traits draft_only{.draft_only = true};  // marks a draft-only operation below
namespace codes {
using enum error_code;  // the table below names codes without their enum
}  // namespace codes
}  // namespace detail

// How to add an operation: its request and response types (model/), one row below (after the
// last: the fuzz corpora name operations by index), and its handler, found by the request's
// type: `handlers::handle(context&, const Request&)` for a team's operation (reference/
// handlers/), a `run_as_operator` overload of the backend for the operator's side of a server
// or team_or_server row, `backend::run_as_signer` for a signer row. A row without its handler
// does not compile (reference/backend/dispatch.hpp names its path).
// Every operation: the 27 public ones, then the 19 control ones, then the signer's 3. The error codes are those of
// interface.md "Endpoints" and contract.md §4-§6, in the order of the contract's §3 (a draft_only
// row adds ENVELOPE_NOT_IN_DRAFT).
inline constexpr auto all_operations = [] {
    using namespace detail::codes;
    using detail::control_operation;
    using detail::public_operation;
    using detail::draft_only;
    using detail::reads;
    using detail::signer_operation;
    constexpr error_code_set none{};
    return make_operation_table(
        // webhooks
        public_operation<webhook_update_request, webhook_update_response>(
            "/public/webhook/update", {WEBHOOK_NOT_FOUND, WORKSPACE_NOT_FOUND, WEBHOOK_URL_REFUSED}),
        public_operation<webhook_list_request, webhook_list_response>("/public/webhook/list", none, reads),
        public_operation<webhook_delete_request, webhook_delete_response>("/public/webhook/delete",
                                                                          {WEBHOOK_NOT_FOUND}),
        public_operation<webhook_create_request, webhook_create_response>(
            "/public/webhook/create", {WORKSPACE_NOT_FOUND, WEBHOOK_LIMIT_REACHED, WEBHOOK_URL_REFUSED}),
        // envelopes
        public_operation<envelope_get_request, envelope_get_response>("/public/envelope/get",
                                                                      {WORKSPACE_NOT_FOUND, ENVELOPE_NOT_FOUND}, reads),
        public_operation<envelope_list_request, envelope_list_response>("/public/envelope/list", {WORKSPACE_NOT_FOUND},
                                                                        reads),
        public_operation<envelope_update_request, envelope_update_response>(
            "/public/envelope/update", {WORKSPACE_NOT_FOUND, ENVELOPE_NOT_FOUND, DOCUMENT_NOT_FOUND}, draft_only),
        public_operation<envelope_send_request, envelope_send_response>(
            "/public/envelope/send",
            {WORKSPACE_NOT_FOUND, ENVELOPE_NOT_FOUND, NO_RECIPIENTS, NO_SIGNERS, SUBSCRIPTION_NOT_FOUND,
             API_CREDITS_LIMIT_EXCEEDED, SES_LIMIT_EXCEEDED, INVALID_EMAIL},
            draft_only),
        public_operation<envelope_create_from_template_request, envelope_create_from_template_response>(
            "/public/envelope/create-from-template", {WORKSPACE_NOT_FOUND, TEMPLATE_NOT_FOUND, CONTACT_NOT_FOUND,
                                                      USER_NOT_FOUND, INVALID_RECIPIENT_LABELS, INVALID_EMAIL}),
        public_operation<envelope_delete_attachment_request, envelope_delete_attachment_response>(
            "/public/envelope/delete-attachment",
            {WORKSPACE_NOT_FOUND, ENVELOPE_NOT_FOUND, DOCUMENT_NOT_FOUND, DOCUMENT_NOT_ATTACHMENT}, draft_only),
        public_operation<envelope_add_recipients_request, envelope_add_recipients_response>(
            "/public/envelope/add-recipients",
            {WORKSPACE_NOT_FOUND, ENVELOPE_NOT_FOUND, CONTACT_NOT_FOUND, USER_NOT_FOUND, DUPLICATE_RECIPIENT,
             INVALID_EMAIL},
            draft_only),
        public_operation<envelope_update_recipient_request, envelope_update_recipient_response>(
            "/public/envelope/update-recipient",
            {WORKSPACE_NOT_FOUND, ENVELOPE_NOT_FOUND, RECIPIENT_NOT_FOUND, DUPLICATE_RECIPIENT}, draft_only),
        public_operation<envelope_delete_recipients_request, envelope_delete_recipients_response>(
            "/public/envelope/delete-recipients", {WORKSPACE_NOT_FOUND, ENVELOPE_NOT_FOUND, RECIPIENT_NOT_FOUND},
            draft_only),
        public_operation<envelope_add_blocks_request, envelope_add_blocks_response>(
            "/public/envelope/add-blocks",
            {WORKSPACE_NOT_FOUND, ENVELOPE_NOT_FOUND, DOCUMENT_NOT_FOUND, INVALID_RECIPIENT_EMAIL}, draft_only),
        public_operation<envelope_delete_blocks_request, envelope_delete_blocks_response>(
            "/public/envelope/delete-blocks", {WORKSPACE_NOT_FOUND, ENVELOPE_NOT_FOUND, DOCUMENT_NOT_FOUND},
            draft_only),
        // workspaces
        public_operation<workspace_list_request, workspace_list_response>("/public/workspace/list", none, reads),
        public_operation<workspace_get_request, workspace_get_response>("/public/workspace/get", {WORKSPACE_NOT_FOUND},
                                                                        reads),
        public_operation<workspace_create_request, workspace_create_response>("/public/workspace/create", none),
        public_operation<workspace_update_request, workspace_update_response>("/public/workspace/update",
                                                                              {WORKSPACE_NOT_FOUND}),
        // contacts
        public_operation<contact_update_request, contact_update_response>(
            "/public/contact/update", {WORKSPACE_NOT_FOUND, CONTACT_NOT_FOUND, INVALID_EMAIL}),
        public_operation<contact_create_request, contact_create_response>(
            "/public/contact/create", {WORKSPACE_NOT_FOUND, CONTACT_EMAIL_ALREADY_EXISTS, INVALID_EMAIL}),
        public_operation<contact_list_request, contact_list_response>("/public/contact/list", {WORKSPACE_NOT_FOUND},
                                                                      reads),
        public_operation<contact_delete_request, contact_delete_response>("/public/contact/delete",
                                                                          {WORKSPACE_NOT_FOUND, CONTACT_NOT_FOUND}),
        // templates, logs, embedded signing, utils
        public_operation<template_list_request, template_list_response>("/public/template/list", {WORKSPACE_NOT_FOUND},
                                                                        reads),
        public_operation<logs_list_request, logs_list_response>(
            "/public/logs/list", {LOG_CATEGORY_NOT_IMPLEMENTED, WORKSPACE_NOT_FOUND, ENVELOPE_NOT_FOUND}, reads),
        public_operation<authentication_create_iframe_token_request, authentication_create_iframe_token_response>(
            "/public/authentication/create-iframe-token",
            {WORKSPACE_NOT_FOUND, ENVELOPE_NOT_FOUND, SIGNER_NOT_IN_ENVELOPE, RECIPIENT_VERIFICATION_DISABLED}),
        public_operation<utils_whoami_request, utils_whoami_response>("/public/utils/whoami", none, reads),
        // control (contract.md §5, §6)
        control_operation<control_reset_request, control_reset_response>("/_control/reset", operation_access::server,
                                                                         none),
        control_operation<control_team_create_request, control_team_create_response>(
            "/_control/team/create", operation_access::server, {TEAM_LIMIT_REACHED}),
        control_operation<control_team_update_request, control_team_update_response>(
            "/_control/team/update", operation_access::team_or_server, none),
        control_operation<control_envelope_create_request, control_envelope_create_response>(
            "/_control/envelope/create", operation_access::team_control, {WORKSPACE_NOT_FOUND}),
        control_operation<control_template_create_request, control_template_create_response>(
            "/_control/template/create", operation_access::team_control, {WORKSPACE_NOT_FOUND}),
        control_operation<control_recipient_act_request, control_recipient_act_response>(
            "/_control/recipient/act", operation_access::team_or_server,
            {ENVELOPE_NOT_FOUND, RECIPIENT_NOT_FOUND, ACTION_NOT_ALLOWED}),
        control_operation<control_envelope_cancel_request, control_envelope_cancel_response>(
            "/_control/envelope/cancel", operation_access::team_or_server, {ENVELOPE_NOT_FOUND, ACTION_NOT_ALLOWED}),
        control_operation<control_clock_advance_request, control_clock_advance_response>(
            "/_control/clock/advance", operation_access::team_or_server, none),
        control_operation<control_clock_now_request, control_clock_now_response>(
            "/_control/clock/now", operation_access::team_or_server, none, reads),
        control_operation<control_outbox_list_request, control_outbox_list_response>(
            "/_control/outbox/list", operation_access::team_or_server, none, reads),
        control_operation<control_webhook_deliveries_request, control_webhook_deliveries_response>(
            "/_control/webhook/deliveries", operation_access::team_or_server, none, reads),
        // contract.md §6 (after the others, so that the fuzz corpora's operation indices stay put)
        control_operation<control_team_reset_request, control_team_reset_response>(
            "/_control/team/reset", operation_access::team_control, none),
        // §6.4, §6.5: the team's journal and fault rules
        control_operation<control_journal_list_request, control_journal_list_response>(
            "/_control/journal/list", operation_access::team_control, none, reads),
        control_operation<control_journal_clear_request, control_journal_clear_response>(
            "/_control/journal/clear", operation_access::team_control, none),
        control_operation<control_faults_add_request, control_faults_add_response>(
            "/_control/faults/add", operation_access::team_control, {WEBHOOK_NOT_FOUND}),
        control_operation<control_faults_list_request, control_faults_list_response>(
            "/_control/faults/list", operation_access::team_control, none, reads),
        control_operation<control_faults_clear_request, control_faults_clear_response>(
            "/_control/faults/clear", operation_access::team_control, none),
        // §6.6: the team's state as one value
        control_operation<control_team_snapshot_request, control_team_snapshot_response>(
            "/_control/team/snapshot", operation_access::team_control, none, reads),
        control_operation<control_team_restore_request, control_team_restore_response>(
            "/_control/team/restore", operation_access::team_control, none),
        // contract.md §7.1: the signer's side, called by the signing page (GET /embeds/sign)
        signer_operation<embeds_session_start_request, embeds_session_start_response>(
            "/embeds/session/start", {SIGNING_TOKEN_UNKNOWN, SIGNING_TOKEN_USED, SIGNING_TOKEN_EXPIRED}),
        signer_operation<embeds_envelope_get_request, embeds_envelope_get_response>("/embeds/envelope/get",
                                                                                    {SIGNING_SESSION_INVALID}, reads),
        signer_operation<embeds_recipient_act_request, embeds_recipient_act_response>(
            "/embeds/recipient/act", {SIGNING_SESSION_INVALID, ACTION_NOT_ALLOWED}));
}();

// The type of the table: operation_table<operation<Req, Res>, ...>.
using operation_types = std::remove_const_t<decltype(all_operations)>;

template <class Op>
using request_of = typename Op::request_type;
template <class Op>
using response_of = typename Op::response_type;

// Every request type and every response type, in table order (as mp_list; responses may repeat).
using request_types =
    boost::mp11::mp_transform<request_of, boost::mp11::mp_rename<operation_types, boost::mp11::mp_list>>;
using response_types =
    boost::mp11::mp_transform<response_of, boost::mp11::mp_rename<operation_types, boost::mp11::mp_list>>;

inline constexpr std::size_t operation_count = operation_types::size;

// Calls f(op) for every operation<Req, Res> of the table, in order.
template <class F>
constexpr void for_each_operation(F&& f) {
    all_operations.for_each(f);
}

// Calls f(std::integral_constant<std::size_t, I>{}) for every row I, in order: for code that
// needs the row as a constant expression (all_operations.get<I>()).
template <class F>
constexpr void for_each_operation_index(F&& f) {
    [&]<std::size_t... I>(std::index_sequence<I...>) { (f(std::integral_constant<std::size_t, I>{}), ...); }
    (std::make_index_sequence<operation_count>{});
}

// Every path, in table order.
inline constexpr std::array<std::string_view, operation_count> operation_paths = [] {
    std::array<std::string_view, operation_count> out{};
    std::size_t i = 0;
    for_each_operation([&](const auto& op) { out[i++] = op.path; });
    return out;
}();

// The index of `path` in the table (exact match), if it is an operation.
constexpr std::optional<std::size_t> find_operation(std::string_view path) noexcept {
    for (std::size_t i = 0; i < operation_paths.size(); ++i)
        if (operation_paths[i] == path) return i;
    return std::nullopt;
}

// Calls f(op) with the operation whose path is `path`; returns false when there is none.
template <class F>
constexpr bool visit_operation(std::string_view path, F&& f) {
    bool found = false;
    for_each_operation([&](const auto& op) {
        if (!found && op.path == path) {
            found = true;
            f(op);
        }
    });
    return found;
}

// The index in the table of the operation whose request type is Request (each request type
// belongs to one operation), and that operation's type.
template <class Request>
constexpr std::size_t operation_index_of() noexcept {
    std::size_t index = operation_count, i = 0;
    for_each_operation([&](const auto& op) {
        if constexpr (std::is_same_v<request_of<std::remove_cvref_t<decltype(op)>>, Request>) index = i;
        ++i;
    });
    return index;
}
template <class Request>
using operation_of = std::remove_cvref_t<decltype(all_operations.get<operation_index_of<Request>()>())>;

// Whether a failure of the operation at `path` may carry `code` (false for no operation).
constexpr bool operation_may_answer(std::string_view path, error_code code) noexcept {
    bool may = false;
    visit_operation(path, [&](const auto& op) { may = op.may_answer(code); });
    return may;
}

}  // namespace esign
