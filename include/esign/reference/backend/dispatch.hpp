// SPDX-License-Identifier: BSL-1.0
#pragma once
// From a row of the table (model/operations.hpp) to its handler: the row's kind says which of the
// backend's entries may run it (run_for_team for a team's caller, run_as_operator for the
// operator's, run_as_signer for a signer's row), and the request's type picks the entry's
// overload. No list of request types: a new operation is its row and its handler, and a row
// whose kind has no entry for its request type does not compile (the assertion below names it).
// Templates only: a test may include it to ask whether a row has its entry (the entries'
// declarations are the class's; their definitions are the other parts').
#include <cstddef>
#include <memory>
#include <string_view>
#include <type_traits>
#include <utility>

#include <esign/model/operations.hpp>
#include <esign/reference/backend.hpp>
#include <esign/reference/fixture/format.hpp>        // restore_document
#include <esign/reference/handlers/has_handler.hpp>  // run_for_team's overloads

namespace esign::reference {

template <class Request>
consteval bool backend::runs_for_team() {
    return requires(backend & b, team_shard & shard, const std::shared_ptr<team_shard>& owner, std::string_view text) {
        b.run_for_team(shard, owner, text, std::move(*b.read_request(text, std::type_identity<Request>{})), false);
    };
}

template <class Request>
consteval bool backend::runs_for_operator() {
    return requires(backend & b, std::string_view path, const Request& request) { b.run_as_operator(path, request); };
}

namespace detail {

// A row's path as a template argument, so that the compiler's message names it.
template <std::size_t N>
struct operation_path_name {
    char text[N]{};
    constexpr explicit operation_path_name(std::string_view path) noexcept {
        for (std::size_t i = 0; i + 1 < N; ++i) text[i] = path[i];
    }
};

template <operation_path_name Path, bool HasHandler>
struct operation_row {
    static_assert(HasHandler,
                  "this operation row has no handler: its path is the operation_path_name above; write the "
                  "handler its kind needs (see model/operations.hpp, How to add an operation)");
    static constexpr bool has_handler = HasHandler;
};

// Whether the backend has every entry the row's kind needs for its request type.
template <class Row>
constexpr bool row_has_handler(const Row& row) noexcept {
    using request = typename Row::request_type;
    // run_as_signer finds the team, then runs the request as the team's own operations run.
    if (row.access == operation_access::signer) return backend::runs_for_team<request>();
    return (!team_may_call(row.access) || backend::runs_for_team<request>()) &&
           (!operator_may_call(row.access) || backend::runs_for_operator<request>());
}

// True when every row of `Rows` (an operation_table: all_operations or a test's) has its
// handler; otherwise a compile error that names the first row's path without one.
template <const auto& Rows>
consteval bool every_row_has_a_handler() {
    return []<std::size_t... I>(std::index_sequence<I...>) {
        return (... &&
                operation_row<operation_path_name<Rows.template get<I>().path.size() + 1>{Rows.template get<I>().path},
                              row_has_handler(Rows.template get<I>())>::has_handler);
    }
    (std::make_index_sequence<Rows.size>{});
}

}  // namespace detail

static_assert(detail::every_row_has_a_handler<all_operations>());

template <std::size_t Row>
reply backend::run(const caller& who, std::string_view body) {
    static constexpr const auto& row = all_operations.get<Row>();
    using request_type = request_of<std::remove_cvref_t<decltype(row)>>;
    auto request = read_request(body, std::type_identity<request_type>{});
    if (!request) {
        failure f{error_code::INVALID_REQUEST_FORMAT, std::move(request).take_problems()};
        return who.team ? team_error(*who.team, reply_ids<request_type>(*who.team), row.path, std::move(f))
                        : operator_error(row.path, std::move(f));
    }
    if constexpr (row.access == operation_access::signer) {
        return run_as_signer<request_type>(row.path, *request);
    } else {
        if constexpr (team_may_call(row.access)) {
            if (who.team) return run_for_team(*who.team, who.team, row.path, std::move(*request), row.read_only);
        }
        if constexpr (operator_may_call(row.access)) {
            if (!who.team) return run_as_operator(row.path, *request);
        }
        return unauthenticated(row.path, false);  // not reached: authenticate() lets in no one else
    }
}

template <class Request>
result<Request> backend::read_request(std::string_view body, std::type_identity<Request>) const {
    return json::read<Request>(body, json::decode_options{options_.strict});
}

}  // namespace esign::reference
