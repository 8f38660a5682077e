// SPDX-License-Identifier: BSL-1.0
#pragma once
// The definitions of team_state's codec (team/snapshot_state.hpp) that read: the described
// struct's readers, and with them every record type's. (Its writers:
// team_state_writer_definitions.hpp.)
#include <boost/json/value.hpp>

#include <esign/json/codecs.hpp>
#include <esign/json/decoder.hpp>
#include <esign/json/described.hpp>
#include <esign/json/detail/direct_reader.hpp>
#include <esign/json/scalar.hpp>
#include <esign/reference/detail/backend_inline.hpp>
#include <esign/reference/team/snapshot_state.hpp>

namespace esign::json {

ESIGN_DETAIL_BACKEND_INLINE void codec<reference::team_state>::read_scalar(void* target, const scalar& s, decoder& d) {
    detail::described_codec<reference::team_state>::read_scalar(target, s, d);
}

ESIGN_DETAIL_BACKEND_INLINE const detail::container_reader* codec<reference::team_state>::read_container(void*& target,
                                                                                                         bool is_array,
                                                                                                         decoder& d) {
    return detail::described_codec<reference::team_state>::read_container(target, is_array, d);
}

ESIGN_DETAIL_BACKEND_INLINE bool codec<reference::team_state>::read_direct(detail::direct_reader& in,
                                                                           reference::team_state& out) {
    return detail::described_codec<reference::team_state>::read_direct(in, out);
}

}  // namespace esign::json
