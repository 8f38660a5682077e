// SPDX-License-Identifier: BSL-1.0
#pragma once
// The signer's operations (contract.md §7.1, operation_access::signer): no credentials; the
// token or session in the body names its team (its team key, signer_access.hpp), found in O(1)
// in the registry. The request then runs as the team's own operations do (run_for_team: the
// team's lock, its clock, due expiries and reminders applied, webhook jobs queued), on the
// calling thread rather than the team's queue, and is recorded in the team's journal with its
// secrets redacted. A secret that names no team of the registry is refused on the server's clock.
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <type_traits>

#include <esign/json/encode.hpp>
#include <esign/reference/backend.hpp>
#include <esign/reference/backend/run_as_signer.hpp>
#include <esign/reference/detail/backend_inline.hpp>
#include <esign/reference/handlers/embeds.hpp>
#include <esign/reference/handlers/has_handler.hpp>  // run_for_team's overloads
#include <esign/reference/signer_access.hpp>

namespace esign::reference {

ESIGN_DETAIL_BACKEND_INLINE std::shared_ptr<team_shard> backend::team_by_signer_secret(std::string_view secret,
                                                                                       std::string_view prefix) const {
    std::optional<std::string_view> key;
    if (prefix.empty()) {
        key = signer_team_key(secret, iframe_token_prefix);
        if (!key) key = signer_team_key(secret, signer_link_token_prefix);
    } else {
        key = signer_team_key(secret, prefix);
    }
    if (!key) return nullptr;
    std::shared_lock lock(registry_mutex_);
    auto it = registry_.by_signer_key.find(std::string(*key));
    return it == registry_.by_signer_key.end() ? nullptr : it->second;
}

}  // namespace esign::reference
