// SPDX-License-Identifier: BSL-1.0
#pragma once
// The definitions of fixture/documents.hpp's writer and self-check and of state_file.hpp's
// write_state_file: every record type's encoder and check is instantiated here, and nowhere else
// in the backend. (The readers: document_read_definitions.hpp.)
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <esign/json/check.hpp>
#include <esign/json/encode.hpp>
#include <esign/reference/detail/backend_inline.hpp>
#include <esign/reference/fixture/documents.hpp>
#include <esign/reference/fixture/state_file_format.hpp>
#include <esign/reference/self_check.hpp>
#include <esign/reference/team/snapshot_text.hpp>

namespace esign::reference {

ESIGN_DETAIL_BACKEND_INLINE void write_team_snapshot(const team_snapshot_text& team, json::text_buffer& out) {
    json::write_value(team, out);
}

ESIGN_DETAIL_BACKEND_INLINE std::optional<error_body> self_check(const fixture_team& team,
                                                                 const rules::error_context& ctx,
                                                                 const std::function<void(std::string_view)>& report) {
    return self_check<fixture_team>(team, ctx, report);  // the template (self_check.hpp)
}

ESIGN_DETAIL_BACKEND_INLINE std::string write_state_file(const state_file_document& doc) { return json::write(doc); }

}  // namespace esign::reference
