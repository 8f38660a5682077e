// SPDX-License-Identifier: BSL-1.0
#pragma once
// One team of the reference backend and everything it owns (contract.md §6.1): its store, its
// lock, its clock, its identifier stream, and the state a team reset returns to. Nothing of one
// team is reachable from another's shard, so requests of different teams never wait for each
// other and never see each other's data.
#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <span>
#include <string>

#include <esign/reference/store/ids.hpp>
#include <esign/reference/signer_access.hpp>
#include <esign/reference/store/records.hpp>
#include <esign/reference/harness/team_harness.hpp>
#include <esign/reference/team/queue.hpp>

namespace esign::reference {

struct team_shard {
    // Fixed when the shard is made, read without the lock.
    std::string uuid;
    std::string api_key;
    std::string access_key;  // §6.8: `Bearer <access_key>:<secret_key>`
    std::string secret_key;
    std::optional<std::int64_t> start_time;  // a frozen clock starts here (team/create startTime)
    // Part of every signer secret the team issues (signer_access.hpp): the backend's registry
    // finds the team of a token or session by it. Secure, and never twice in a process: a new
    // one, or the team's own from before a restart (the state file's, claim_signer_team_key).
    std::string signer_key = new_signer_team_key();

    // Guarded by `mutex`: shared while a read-only operation runs, exclusive otherwise.
    mutable std::shared_mutex mutex;
    state st;       // this team's records only; st.teams holds this one team
    id_source ids;  // its own lock; seeded by the team's seed, if any
    state initial;  // what /_control/team/reset returns to
    id_source::position initial_ids;
    bool retired = false;  // a server-wide reset replaced the team: its keys answer 401

    // Its journal and fault rules, guarded by `harness_mutex` (taken after `mutex`, never
    // before): read-only requests record themselves under a shared `mutex`.
    std::mutex harness_mutex;
    team_harness harness;

    // Moves on at every reset: deliveries queued before it are never attempted or recorded.
    std::atomic<std::uint64_t> generation{0};
    // Deliveries queued and not yet attempted (bounded by max_pending_deliveries).
    std::atomic<std::size_t> pending{0};
    // st.clock_offset, readable without the lock: the delivery queue times retries on the team's
    // clock. Stored (publish_clock) under the exclusive lock whenever st.clock_offset changes.
    std::atomic<std::int64_t> published_offset{0};

    // The size of the team's last snapshot: the next one reserves as much, and a little more.
    std::atomic<std::size_t> last_snapshot_size{0};

    // The HTTP server runs the team's requests through it, one at a time, so that a team's
    // waiting requests hold no server thread (the in-process backend::handle does not use it).
    team_queue queue;

    team_record& team() { return st.teams.begin()->second; }
    const team_record& team() const { return st.teams.begin()->second; }

    // The team's clock at wall time `wall` (unix ms): wall time, or its frozen start, plus the
    // offset that clock/advance adds. Under the lock.
    std::int64_t now(std::int64_t wall) const { return (start_time ? *start_time : wall) + st.clock_offset; }

    // The same clock without the lock, as last published.
    std::int64_t published_now(std::int64_t wall) const {
        return (start_time ? *start_time : wall) + published_offset.load(std::memory_order_relaxed);
    }
    void publish_clock() { published_offset.store(st.clock_offset, std::memory_order_relaxed); }

    // The state reached now is what a team reset returns to, with its link tokens `kept` (the
    // state file's) and new ones. Under the exclusive lock.
    void mark_initial(std::span<const signing_link> kept = {}) {
        st.signer.team_key = signer_key;
        renew_signer_secrets(st, kept);  // a fixture's tokens are not the team's (signer_access.hpp)
        publish_clock();
        initial = st;
        initial_ids = ids.tell();
    }

    // Back to the marked state (records, clock offset, identifier stream), with an empty
    // journal and no fault rules. Under the exclusive lock.
    void reset() {
        st = initial;
        ids.seek(initial_ids);
        publish_clock();
        {
            std::lock_guard lock(harness_mutex);
            harness = team_harness(harness.journal.capacity());
        }
        ++generation;
    }
};

}  // namespace esign::reference
