// SPDX-License-Identifier: BSL-1.0
#pragma once
// The definitions of fixture/documents.hpp's readers and of state_file.hpp's read_state_file:
// every record type's decoder is instantiated here, and nowhere else in the backend. (The
// writers: document_write_definitions.hpp.)
#include <optional>
#include <string>
#include <string_view>

#include <boost/describe/class.hpp>

#include <esign/json/decode.hpp>
#include <esign/reference/detail/backend_inline.hpp>
#include <esign/reference/fixture/documents.hpp>
#include <esign/reference/fixture/state_file_format.hpp>

namespace esign::reference {

namespace detail {
// Only the version, read leniently: a file of another layout is refused for that alone, not
// for the hundred members that layout may name differently.
struct format_only {
    std::string format;
};
BOOST_DESCRIBE_STRUCT(format_only, (), (format))
}  // namespace detail

ESIGN_DETAIL_BACKEND_INLINE result<fixture_document> read_fixture_document(std::string_view text) {
    return json::read<fixture_document>(text, json::decode_options{true});
}

ESIGN_DETAIL_BACKEND_INLINE result<restore_document> read_restore_document(std::string_view text) {
    return json::read<restore_document>(text, json::decode_options{true});
}

ESIGN_DETAIL_BACKEND_INLINE result<state_file_document> read_state_file(std::string_view text) {
    auto version = json::read<detail::format_only>(text);
    if (!version) return std::move(version).take_problems();  // not JSON, or "format" not a string
    if (version->format != state_file_format)
        return problem_list{problem{{"format"},
                                    problem_kind::rule,
                                    std::nullopt,
                                    "is \"" + version->format.substr(0, 64) + "\"; this server reads \"" +
                                        std::string(state_file_format) + "\""}};
    return json::read<state_file_document>(text, json::decode_options{true});
}

}  // namespace esign::reference
