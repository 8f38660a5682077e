// SPDX-License-Identifier: BSL-1.0
#pragma once
// What a team keeps for its tests besides its data (contract.md §6.4, §6.5): its request
// journal and its fault rules. Guarded by the shard's harness mutex, not its data lock, so a
// read-only request can record itself; a team reset starts them afresh.
#include <cstddef>

#include <esign/reference/harness/fault_rules.hpp>
#include <esign/reference/harness/journal.hpp>

namespace esign::reference {

struct team_harness {
    request_journal journal;
    fault_rules faults;

    explicit team_harness(std::size_t journal_size = default_journal_size) : journal(journal_size) {}
};

}  // namespace esign::reference
