// SPDX-License-Identifier: BSL-1.0
#pragma once
// The rows' runners (backend::add_runners): run<Row> for each row of the table, which instantiates
// its request's decoding, its handler and its response's encoding, most of what compiling the
// backend costs. The rows are dealt to backend::runner_parts parts (row index % runner_parts), so
// that a program compiling the backend once may compile the parts in as many source files, each
// with an explicit instantiation (the project's: examples/backend_definitions/runners_*.cpp):
//   #include <esign/reference/backend/runners.hpp>
//   template void esign::reference::backend::add_runners<0>(std::span<esign::reference::backend::runner>);
// build_routes (routing.hpp) calls every part; where it sees this header (header-only, or
// src.hpp in one file) the parts are instantiated there. Templates only: a source file of a part
// defines none of the backend's other members.
#include <cstddef>
#include <span>
#include <string_view>

#include <esign/model/operations.hpp>
#include <esign/reference/backend.hpp>
#include <esign/reference/backend/dispatch.hpp>
#include <esign/reference/backend/respond.hpp>
#include <esign/reference/backend/run_as_signer.hpp>  // hook for signer rows
#include <esign/reference/backend/run_for_team.hpp>

namespace esign::reference {

template <std::size_t Part>
void backend::add_runners(std::span<runner> by_row) {
    static_assert(Part < runner_parts);
    for_each_operation_index([&](auto index) {
        static constexpr std::size_t row = decltype(index)::value;
        if constexpr (row * runner_parts / operation_count == Part)
            by_row[row] = [](backend& self, const caller& who, std::string_view body) {
                return self.run<row>(who, body);
            };
    });
}

}  // namespace esign::reference
