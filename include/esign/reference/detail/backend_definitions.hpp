// SPDX-License-Identifier: BSL-1.0
#pragma once
// Every member of esign::reference::backend defined: the parts under backend/ (which read the
// handlers and the fixture), and here those that instantiate every operation of the table (its
// routes) and read every record type (its constructor, through the fixture). They are most of
// what compiling the backend costs, so a program with several source files that use the backend
// may compile them once: define ESIGN_SEPARATE_COMPILATION for every source file of the program,
// and include <esign/reference/src.hpp> in one of them. Otherwise backend.hpp includes this
// header and the definitions are inline (ESIGN_DETAIL_BACKEND_INLINE), as in any header-only
// library.
#include <chrono>
#include <cstddef>
#include <string_view>
#include <tuple>
#include <utility>

#include <esign/reference/backend.hpp>
#include <esign/reference/detail/backend_inline.hpp>
#include <esign/reference/fixture/fixture.hpp>

// The members' definitions, one idea per header.
#include <esign/reference/backend/dispatch.hpp>
#include <esign/reference/backend/operator_operations.hpp>
#include <esign/reference/backend/replies.hpp>
#include <esign/reference/backend/routing.hpp>
#include <esign/reference/backend/signer_operations.hpp>  // hook for signer rows
#include <esign/reference/backend/snapshots.hpp>
#include <esign/reference/backend/team_operations.hpp>
#include <esign/reference/backend/teams.hpp>
#include <esign/reference/backend/webhook_deliveries.hpp>

namespace esign::reference {

ESIGN_DETAIL_BACKEND_INLINE backend::backend(backend_options options)
    : options_(std::move(options)), server_ids_(options_.seed), deliveries_([this] { return options_.wall_clock(); }) {
    if (!options_.wall_clock)
        options_.wall_clock = [] {
            using namespace std::chrono;
            return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
        };
    build_routes();
    if (options_.fixture_json) {
        auto loaded = load_fixture(*options_.fixture_json, options_, options_.wall_clock());
        if (!loaded.problems.empty())
            fixture_problems_ = std::move(loaded.problems);
        else
            registry_ = fixture_registry(std::move(loaded));
    }
}

ESIGN_DETAIL_BACKEND_INLINE void backend::build_routes() {
    for_each_operation_index([&](auto index) {
        static constexpr std::size_t row = decltype(index)::value;
        const auto& op = all_operations.get<row>();
        if (op.is_control && !options_.control_enabled) return;
        route r;
        r.path = op.path;
        r.access = op.access;
        r.read_only = op.read_only;
        r.is_public = op.access == operation_access::team;
        r.run = [](backend& self, const caller& who, std::string_view body) { return self.run<row>(who, body); };
        routes_.emplace(op.path, r);
    });
}

}  // namespace esign::reference
