// SPDX-License-Identifier: BSL-1.0
#pragma once
// The webhook deliveries waiting for an attempt, one queue per team, served round-robin
// (contract.md §6.7): the next job goes to the next team in turn that has one due, so a team
// whose receivers are slow or never answer delays another team's deliveries by at most one
// attempt per sender thread. Within a team, jobs go in the order they fall due.
//
// Due times are on the team's clock (contract.md §6.3: every time a team sees comes from its
// clock), so a retry's backoff is the team's time: /_control/clock/advance brings retries
// forward, and under a frozen clock (team/create startTime) a retry waits for an advance.
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include <esign/reference/team/shard.hpp>
#include <esign/reference/delivery/webhook_job.hpp>

namespace esign::reference {

class delivery_queue {
public:
    using clock = std::chrono::steady_clock;
    // Wall time (unix ms); a team's clock is derived from it (team_shard::published_now).
    using wall_clock = std::function<std::int64_t()>;

    explicit delivery_queue(wall_clock wall) : wall_(std::move(wall)) {}

    struct entry {
        std::shared_ptr<team_shard> team;
        webhook_job job;
        std::uint64_t generation = 0;  // the team's generation when queued
    };

    // Queues `job`, due at `due` on the team's clock (unix ms; the team's now for a first attempt).
    // A job of a generation a reset already ended is not queued: it would never be attempted, and
    // the reset's drop() may have run before it came.
    void push(std::shared_ptr<team_shard> team, webhook_job job, std::uint64_t generation, std::int64_t due) {
        {
            std::lock_guard lock(mutex_);
            // Under mutex_: a reset moves the generation on before its drop() takes mutex_, so
            // either this sees the new generation, or drop() comes after and removes the job.
            if (generation != team->generation.load()) return;
            auto it = std::find_if(ring_.begin(), ring_.end(), [&](const team_jobs& q) { return q.team == team; });
            if (it == ring_.end()) it = ring_.insert(ring_.end(), team_jobs{team, {}});
            auto& jobs = it->jobs;
            // Most jobs are due now and go last; a retry goes after every job due before it.
            auto pos = std::upper_bound(jobs.begin(), jobs.end(), due,
                                        [](std::int64_t d, const queued& q) { return d < q.due; });
            jobs.insert(pos, queued{std::move(job), generation, due});
            ++team->pending;
        }
        cv_.notify_one();
    }

    // The next due job, teams in turn; waits up to `wait` for one. Nothing once stopped.
    std::optional<entry> pop(std::chrono::milliseconds wait) {
        std::unique_lock lock(mutex_);
        const auto deadline = clock::now() + wait;
        while (!stopped_) {
            const auto now = clock::now();
            const std::int64_t wall = wall_();
            auto earliest = deadline;
            for (std::size_t i = 0; i < ring_.size(); ++i) {
                const std::size_t at = (cursor_ + i) % ring_.size();
                team_jobs& q = ring_[at];
                const std::int64_t team_now = q.team->published_now(wall);
                if (q.jobs.front().due > team_now) {
                    // A running clock gets there in real time; a frozen one only by an advance,
                    // which calls clock_moved().
                    if (!q.team->start_time) {
                        const std::int64_t ahead = std::min<std::int64_t>(q.jobs.front().due - team_now, max_wait_ms);
                        earliest = std::min(earliest, now + std::chrono::milliseconds(ahead));
                    }
                    continue;
                }
                entry out{q.team, std::move(q.jobs.front().job), q.jobs.front().generation};
                q.jobs.pop_front();
                --out.team->pending;
                if (q.jobs.empty()) {
                    ring_.erase(ring_.begin() + static_cast<std::ptrdiff_t>(at));
                    cursor_ = ring_.empty() ? 0 : at % ring_.size();  // the team after it
                } else {
                    cursor_ = (at + 1) % ring_.size();
                }
                return out;
            }
            if (now >= deadline) return std::nullopt;
            cv_.wait_until(lock, earliest);
        }
        return std::nullopt;
    }

    // The jobs of `team` queued in `generation`, in the order they fall due (a snapshot).
    std::vector<webhook_job> jobs_of(const team_shard& team, std::uint64_t generation) {
        std::vector<webhook_job> out;
        std::lock_guard lock(mutex_);
        for (const auto& q : ring_)
            if (q.team.get() == &team)
                for (const auto& j : q.jobs)
                    if (j.generation == generation) out.push_back(j.job);
        return out;
    }

    // The same, each with the instant it falls due on the team's clock (the state file keeps a
    // retry's backoff across a restart: reference/state_file.hpp).
    std::vector<std::pair<webhook_job, std::int64_t>> jobs_due_of(const team_shard& team, std::uint64_t generation) {
        std::vector<std::pair<webhook_job, std::int64_t>> out;
        std::lock_guard lock(mutex_);
        for (const auto& q : ring_)
            if (q.team.get() == &team)
                for (const auto& j : q.jobs)
                    if (j.generation == generation) out.emplace_back(j.job, j.due);
        return out;
    }

    // Forgets the jobs of `team` queued before its current generation (a reset or restore, after
    // it moved the generation on). Jobs of the current generation stay: a request that ran after
    // the reset may have queued them before this call (contract.md §6.9: a delivery queued by a
    // request answered after the reset is always attempted).
    void drop(const team_shard& team) {
        std::lock_guard lock(mutex_);
        auto it = std::find_if(ring_.begin(), ring_.end(), [&](const team_jobs& q) { return q.team.get() == &team; });
        if (it == ring_.end()) return;
        const std::uint64_t current = team.generation.load();
        const auto before = it->jobs.size();
        std::erase_if(it->jobs, [&](const queued& q) { return q.generation != current; });
        it->team->pending -= before - it->jobs.size();
        if (!it->jobs.empty()) return;
        const auto at = static_cast<std::size_t>(it - ring_.begin());
        ring_.erase(it);
        if (cursor_ > at) --cursor_;
        if (cursor_ >= ring_.size()) cursor_ = 0;
    }

    // A team's clock moved (an advance): jobs may have fallen due.
    void clock_moved() {
        { std::lock_guard lock(mutex_); }  // a waiter between its check and its wait sees the move
        cv_.notify_all();
    }

    void stop() {
        {
            std::lock_guard lock(mutex_);
            stopped_ = true;
        }
        cv_.notify_all();
    }

private:
    struct queued {
        webhook_job job;
        std::uint64_t generation = 0;
        std::int64_t due = 0;  // on the team's clock
    };
    struct team_jobs {
        std::shared_ptr<team_shard> team;
        std::deque<queued> jobs;  // ordered by due time; never empty while in the ring
    };

    static constexpr std::int64_t max_wait_ms = 3'600'000;  // bounds the arithmetic, not the wait

    wall_clock wall_;
    std::mutex mutex_;
    std::condition_variable cv_;
    std::vector<team_jobs> ring_;  // the teams that have jobs, in turn
    std::size_t cursor_ = 0;       // the team whose turn is next
    bool stopped_ = false;
};

}  // namespace esign::reference
