// SPDX-License-Identifier: BSL-1.0
#pragma once
// The definitions of team_state's codec (team/snapshot_state.hpp) that write: the described
// struct's writers, and with them every record type's. (Its readers:
// team_state_reader_definitions.hpp.)
#include <boost/json/value.hpp>

#include <esign/json/codec.hpp>
#include <esign/json/codecs.hpp>
#include <esign/json/described.hpp>
#include <esign/reference/detail/backend_inline.hpp>
#include <esign/reference/team/snapshot_state.hpp>

namespace esign::json {

ESIGN_DETAIL_BACKEND_INLINE void codec<reference::team_state>::encode(const reference::team_state& in,
                                                                      boost::json::value& out) {
    detail::described_codec<reference::team_state>::encode(in, out);
}

ESIGN_DETAIL_BACKEND_INLINE void codec<reference::team_state>::write(const reference::team_state& in,
                                                                     text_buffer& out) {
    detail::described_codec<reference::team_state>::write(in, out);
}

}  // namespace esign::json
