// SPDX-License-Identifier: BSL-1.0
#pragma once
// A team's requests in the order they came, one at a time, on whatever threads run them
// (contract.md §6.1: requests of different teams do not wait for each other). A job waiting for
// its team holds no thread: when a job ends, the next one is handed back to the thread pool
// (`post`) rather than run in a loop, so a team with a long queue takes at most one thread at a
// time and the pool's other threads serve the other teams. No dependency on the pool: the HTTP
// server posts to its io_context, a test to an asio::thread_pool.
//
//   team_queue::submit(queue, [&] { work(); }, [&](team_queue::task t) { asio::post(pool, std::move(t)); });
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <utility>

namespace esign::reference {

class team_queue {
public:
    using task = std::function<void()>;
    // Hands a task to the thread pool, to be run once, later, on one of its threads.
    using poster = std::function<void(task)>;

    // Runs `job` after every job submitted before it, never at the same time as another job of
    // this queue. `post` is how it (and, after it, the next job) reaches the pool. The queue is
    // held by `self` until its jobs are done (a team_shard's member: an aliasing shared_ptr).
    // A job's exceptions are dropped (the caller's job catches its own); the next job still runs.
    // `here`: when no job of the queue runs or waits, run this one now on the calling thread
    // (one that `post` could have chosen) rather than through the pool: one hand-over less.
    static void submit(const std::shared_ptr<team_queue>& self, task job, poster post, bool here = false) {
        {
            std::lock_guard lock(self->mutex_);
            self->jobs_.push_back({std::move(job), std::move(post)});
            if (self->active_) return;  // the job running now hands over to the next one
            self->active_ = true;
        }
        if (here) return run_first(self);
        hand_over(self);
    }

    // Jobs waiting (not the one running). For tests and diagnostics.
    std::size_t waiting() const {
        std::lock_guard lock(mutex_);
        return jobs_.size();
    }

    // Drops the jobs waiting (the one running, if any, finishes). For a server stopping after
    // its threads ended: a waiting job may hold objects that must go before the pool does.
    void discard() {
        std::deque<entry> dropped;
        {
            std::lock_guard lock(mutex_);
            dropped.swap(jobs_);  // a job posted to run finds none and ends the queue's turn
        }
    }  // destroyed outside the lock: a job's captures may come back here

private:
    struct entry {
        task job;
        poster post;
    };

    // Posts "run the first job" with that job's poster. Called with active_ set and a job waiting.
    static void hand_over(const std::shared_ptr<team_queue>& self) {
        poster post;
        {
            std::lock_guard lock(self->mutex_);
            if (self->jobs_.empty()) {
                self->active_ = false;
                return;
            }
            post = self->jobs_.front().post;
        }
        try {
            post([self] { run_first(self); });
        } catch (...) {
            // The pool refused the task (out of memory): run it here rather than stall the team.
            run_first(self);
        }
    }

    static void run_first(const std::shared_ptr<team_queue>& self) {
        task job;
        {
            std::lock_guard lock(self->mutex_);
            if (self->jobs_.empty()) {  // discarded meanwhile
                self->active_ = false;
                return;
            }
            job = std::move(self->jobs_.front().job);
            self->jobs_.pop_front();
        }
        try {
            job();
        } catch (...) {}
        job = nullptr;  // its captures go before the next job runs
        hand_over(self);
    }

    mutable std::mutex mutex_;
    std::deque<entry> jobs_;
    bool active_ = false;  // a job runs, or is posted to run
};

}  // namespace esign::reference
