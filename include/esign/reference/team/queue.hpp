// SPDX-License-Identifier: BSL-1.0
#pragma once
// A team's requests in the order they came, on whatever threads run them (contract.md §6.1:
// requests of different teams do not wait for each other). A write (a job not read-only) runs
// alone; read-only jobs next to each other in the queue run together, as many threads as the
// pool gives them. Order is kept between a write and what came before and after it: a write
// waits for the reads already running, and reads that came after a waiting write wait for it, so
// a stream of reads never starves a write. A job waiting for its team holds no thread: a job is
// handed to the thread pool (`post`) once it may run, and when a job ends, the jobs it made
// ready are handed over in turn; a team with a long queue takes one thread at a time (or as many
// as its runnable reads), and the pool's other threads serve the other teams. No dependency on
// the pool: the HTTP server posts to its io_context, a test to an asio::thread_pool.
//
//   team_queue::submit(queue, [&] { work(); }, [&](team_queue::task t) { asio::post(pool, std::move(t)); });
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>

namespace esign::reference {

class team_queue {
public:
    using task = std::function<void()>;
    // Hands a task to the thread pool, to be run once, later, on one of its threads.
    using poster = std::function<void(task)>;

    // Runs `job` once the jobs submitted before it allow (see above): after every job before it
    // when it is a write; after the writes before it, beside the reads around it, when
    // `read_only`. `post` is how it reaches the pool. The queue is held by `self` until its jobs
    // are done (a team_shard's member: an aliasing shared_ptr). A job's exceptions are dropped
    // (the caller's job catches its own); the next job still runs. `here`: when the job may run
    // at once (nothing of the queue waits, and no write runs, nor any job for a write), run it
    // now on the calling thread (one that `post` could have chosen) rather than through the
    // pool: one hand-over less.
    static void submit(const std::shared_ptr<team_queue>& self, task job, poster post, bool here = false,
                       bool read_only = false) {
        std::optional<entry> ready;
        {
            std::lock_guard lock(self->mutex_);
            self->jobs_.push_back({std::move(job), std::move(post), read_only});
            ready = self->take_ready();  // this job, or none: the jobs before it wait for something
        }
        if (!ready) return;
        if (here) return run(self, *ready);
        launch(self, std::move(*ready));
    }

    // Jobs waiting (not those running or handed to the pool). For tests and diagnostics.
    std::size_t waiting() const {
        std::lock_guard lock(mutex_);
        return jobs_.size();
    }

    // Drops the jobs waiting (those running, if any, finish). For a server stopping after its
    // threads ended: a waiting job may hold objects that must go before the pool does.
    void discard() {
        std::deque<entry> dropped;
        {
            std::lock_guard lock(mutex_);
            dropped.swap(jobs_);
        }
    }  // destroyed outside the lock: a job's captures may come back here

private:
    struct entry {
        task job;
        poster post;
        bool read_only = false;
    };

    // The next job that may start now, taken off the queue and counted as running; none when
    // the queue is empty or its first job waits (a write for the jobs running, a read for a
    // write). Under mutex_. Called again after each start, so that every read next to the
    // others starts.
    std::optional<entry> take_ready() {
        if (jobs_.empty()) return std::nullopt;
        entry& first = jobs_.front();
        if (first.read_only ? writing_ : (writing_ || reading_ > 0)) return std::nullopt;
        if (first.read_only)
            ++reading_;
        else
            writing_ = true;
        std::optional<entry> out(std::move(first));
        jobs_.pop_front();
        return out;
    }

    // Hands a started job to the pool, and every read that may start beside it.
    static void launch(const std::shared_ptr<team_queue>& self, entry e) {
        for (std::optional<entry> next(std::move(e)); next;) {
            auto job = std::make_shared<entry>(std::move(*next));
            try {
                job->post([self, job] { run(self, *job); });
            } catch (...) {
                // The pool refused the task (out of memory): run it here rather than stall the team.
                run(self, *job);
            }
            std::lock_guard lock(self->mutex_);
            next = job->read_only ? self->take_ready() : std::nullopt;
        }
    }

    static void run(const std::shared_ptr<team_queue>& self, entry& e) {
        try {
            e.job();
        } catch (...) {}
        e.job = nullptr;  // its captures go before the next job runs
        std::optional<entry> next;
        {
            std::lock_guard lock(self->mutex_);
            if (e.read_only)
                --self->reading_;
            else
                self->writing_ = false;
            next = self->take_ready();
        }
        if (next) launch(self, std::move(*next));
    }

    mutable std::mutex mutex_;
    std::deque<entry> jobs_;
    std::size_t reading_ = 0;  // read-only jobs started (running, or handed to the pool)
    bool writing_ = false;     // a write started (running, or handed to the pool)
};

}  // namespace esign::reference
