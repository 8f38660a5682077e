#pragma once
// The table of every operation: path, authentication, and the request and response types.
// It is data: the router, the backend, the OpenAPI generator, the fuzz harness and the tests
// iterate it with for_each_operation (or mp11 over operation_types).
#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include <boost/mp11/algorithm.hpp>
#include <boost/mp11/list.hpp>

#include <esign/model/auth.hpp>
#include <esign/model/contact.hpp>
#include <esign/model/control.hpp>
#include <esign/model/document.hpp>
#include <esign/model/envelope.hpp>
#include <esign/model/log.hpp>
#include <esign/model/recipient.hpp>
#include <esign/model/template.hpp>
#include <esign/model/webhook.hpp>
#include <esign/model/workspace.hpp>

namespace esign {

// Who may call an operation, and on what it acts (contract.md §1, §6.2).
enum class operation_access {
    team,            // a team's credentials; acts on that team (every public operation)
    team_control,    // a control operation that needs a team's credentials; acts on that team
    team_or_server,  // with a team's credentials: that team; without: every team (the operator)
    server,          // the operator only (with --control-token, its token); never a team's key
};

template <class Request, class Response>
struct operation {
    using request_type = Request;
    using response_type = Response;
    std::string_view path;    // e.g. "/public/envelope/get"
    operation_access access;  // who may call it
    bool read_only;           // changes nothing stored (the reference backend shares its lock)
    bool needs_api_key;       // Authorization: Bearer <team credentials> required
    bool is_control;          // a /_control/ operation of the reference server
};

namespace detail {
template <class Request, class Response>
constexpr operation<Request, Response> public_operation(std::string_view path, bool read_only = false) noexcept {
    return {path, operation_access::team, read_only, true, false};
}
template <class Request, class Response>
constexpr operation<Request, Response> control_operation(std::string_view path, operation_access access,
                                                         bool read_only = false) noexcept {
    const bool keyed = access == operation_access::team || access == operation_access::team_control;
    return {path, access, read_only, keyed, true};
}
inline constexpr bool reads = true;  // marks a read-only operation in the table below
} // namespace detail

// Every operation: the 27 public ones, then the 12 control ones.
inline constexpr auto all_operations = std::make_tuple(
    // webhooks
    detail::public_operation<webhook_update_request, webhook_update_response>("/public/webhook/update"),
    detail::public_operation<webhook_list_request, webhook_list_response>("/public/webhook/list", detail::reads),
    detail::public_operation<webhook_delete_request, webhook_delete_response>("/public/webhook/delete"),
    detail::public_operation<webhook_create_request, webhook_create_response>("/public/webhook/create"),
    // envelopes
    detail::public_operation<envelope_get_request, envelope_get_response>("/public/envelope/get", detail::reads),
    detail::public_operation<envelope_list_request, envelope_list_response>("/public/envelope/list", detail::reads),
    detail::public_operation<envelope_update_request, envelope_update_response>("/public/envelope/update"),
    detail::public_operation<envelope_send_request, envelope_send_response>("/public/envelope/send"),
    detail::public_operation<envelope_create_from_template_request, envelope_create_from_template_response>(
        "/public/envelope/create-from-template"),
    detail::public_operation<envelope_delete_attachment_request, envelope_delete_attachment_response>(
        "/public/envelope/delete-attachment"),
    detail::public_operation<envelope_add_recipients_request, envelope_add_recipients_response>(
        "/public/envelope/add-recipients"),
    detail::public_operation<envelope_update_recipient_request, envelope_update_recipient_response>(
        "/public/envelope/update-recipient"),
    detail::public_operation<envelope_delete_recipients_request, envelope_delete_recipients_response>(
        "/public/envelope/delete-recipients"),
    detail::public_operation<envelope_add_blocks_request, envelope_add_blocks_response>("/public/envelope/add-blocks"),
    detail::public_operation<envelope_delete_blocks_request, envelope_delete_blocks_response>(
        "/public/envelope/delete-blocks"),
    // workspaces
    detail::public_operation<workspace_list_request, workspace_list_response>("/public/workspace/list", detail::reads),
    detail::public_operation<workspace_get_request, workspace_get_response>("/public/workspace/get", detail::reads),
    detail::public_operation<workspace_create_request, workspace_create_response>("/public/workspace/create"),
    detail::public_operation<workspace_update_request, workspace_update_response>("/public/workspace/update"),
    // contacts
    detail::public_operation<contact_update_request, contact_update_response>("/public/contact/update"),
    detail::public_operation<contact_create_request, contact_create_response>("/public/contact/create"),
    detail::public_operation<contact_list_request, contact_list_response>("/public/contact/list", detail::reads),
    detail::public_operation<contact_delete_request, contact_delete_response>("/public/contact/delete"),
    // templates, logs, embedded signing, utils
    detail::public_operation<template_list_request, template_list_response>("/public/template/list", detail::reads),
    detail::public_operation<logs_list_request, logs_list_response>("/public/logs/list", detail::reads),
    detail::public_operation<authentication_create_iframe_token_request, authentication_create_iframe_token_response>(
        "/public/authentication/create-iframe-token"),
    detail::public_operation<utils_whoami_request, utils_whoami_response>("/public/utils/whoami", detail::reads),
    // control (contract.md §5, §6)
    detail::control_operation<control_reset_request, control_reset_response>("/_control/reset",
                                                                             operation_access::server),
    detail::control_operation<control_team_create_request, control_team_create_response>("/_control/team/create",
                                                                                         operation_access::server),
    detail::control_operation<control_team_update_request, control_team_update_response>(
        "/_control/team/update", operation_access::team_or_server),
    detail::control_operation<control_envelope_create_request, control_envelope_create_response>(
        "/_control/envelope/create", operation_access::team_control),
    detail::control_operation<control_template_create_request, control_template_create_response>(
        "/_control/template/create", operation_access::team_control),
    detail::control_operation<control_recipient_act_request, control_recipient_act_response>(
        "/_control/recipient/act", operation_access::team_or_server),
    detail::control_operation<control_envelope_cancel_request, control_envelope_cancel_response>(
        "/_control/envelope/cancel", operation_access::team_or_server),
    detail::control_operation<control_clock_advance_request, control_clock_advance_response>(
        "/_control/clock/advance", operation_access::team_or_server),
    detail::control_operation<control_clock_now_request, control_clock_now_response>(
        "/_control/clock/now", operation_access::team_or_server, detail::reads),
    detail::control_operation<control_outbox_list_request, control_outbox_list_response>(
        "/_control/outbox/list", operation_access::team_or_server, detail::reads),
    detail::control_operation<control_webhook_deliveries_request, control_webhook_deliveries_response>(
        "/_control/webhook/deliveries", operation_access::team_or_server, detail::reads),
    // contract.md §6 (last, so that the fuzz corpora's operation indices stay put)
    detail::control_operation<control_team_reset_request, control_team_reset_response>(
        "/_control/team/reset", operation_access::team_control));

// The type list of the table: std::tuple<operation<Req, Res>, ...>.
using operation_types = std::remove_const_t<decltype(all_operations)>;

template <class Op>
using request_of = typename Op::request_type;
template <class Op>
using response_of = typename Op::response_type;

// Every request type and every response type, in table order (as mp_list; responses may repeat).
using request_types = boost::mp11::mp_transform<request_of, boost::mp11::mp_rename<operation_types, boost::mp11::mp_list>>;
using response_types = boost::mp11::mp_transform<response_of, boost::mp11::mp_rename<operation_types, boost::mp11::mp_list>>;

inline constexpr std::size_t operation_count = std::tuple_size_v<operation_types>;

// Calls f(op) for every operation<Req, Res> of the table, in order.
template <class F>
constexpr void for_each_operation(F&& f) {
    std::apply([&](const auto&... op) { (f(op), ...); }, all_operations);
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

} // namespace esign
