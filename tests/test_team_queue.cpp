// SPDX-License-Identifier: BSL-1.0
// team_queue (include/esign/reference/team/queue.hpp): a team's jobs run one at a time, in
// order, and the jobs waiting for their team hold no thread of the pool, so another team's job
// runs meanwhile even when the pool has 2 threads (contract.md §6.1). Read-only jobs next to each
// other run together; a write runs alone, after the reads before it and before the reads after
// it (no stream of reads starves it).
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <future>
#include <memory>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>

#include <esign/reference/team/queue.hpp>

namespace test_team_queue {

using esign::reference::team_queue;

namespace {

// How a job reaches the pool.
team_queue::poster to(boost::asio::thread_pool& pool) {
    return [&pool](team_queue::task t) { boost::asio::post(pool, std::move(t)); };
}

// Counts the jobs of one queue running at once, and the most ever seen.
struct overlap {
    std::atomic<int> running{0};
    std::atomic<int> most{0};
    void enter() {
        const int now = ++running;
        int seen = most.load();
        while (now > seen && !most.compare_exchange_weak(seen, now)) {}
    }
    void leave() { --running; }
};

constexpr auto generous = std::chrono::seconds(20);

}  // namespace

TEST_CASE("team_queue: a team's waiting jobs hold no thread while another team's job runs meanwhile", "[team_queue]") {
    boost::asio::thread_pool pool(2);
    auto a = std::make_shared<team_queue>();
    auto b = std::make_shared<team_queue>();
    overlap a_overlap;
    std::promise<void> release_first;
    std::shared_future<void> released = release_first.get_future().share();
    std::promise<void> first_started;
    std::mutex order_mutex;
    std::vector<int> order;
    std::promise<void> a_done;
    std::promise<void> b_done;

    team_queue::submit(
        a,
        [&] {
            a_overlap.enter();
            first_started.set_value();
            released.wait();  // the slow request: blocked until the test says
            {
                std::lock_guard lock(order_mutex);
                order.push_back(0);
            }
            a_overlap.leave();
        },
        to(pool));
    REQUIRE(first_started.get_future().wait_for(generous) == std::future_status::ready);
    for (int i = 1; i <= 10; ++i)
        team_queue::submit(
            a,
            [&, i] {
                a_overlap.enter();
                {
                    std::lock_guard lock(order_mutex);
                    order.push_back(i);
                }
                a_overlap.leave();
                if (i == 10) a_done.set_value();
            },
            to(pool));
    CHECK(a->waiting() == 10);

    // Team B is served by the other thread while A's first job holds one and ten wait.
    team_queue::submit(
        b, [&] { b_done.set_value(); }, to(pool));
    CHECK(b_done.get_future().wait_for(generous) == std::future_status::ready);
    CHECK(a->waiting() == 10);
    {
        std::lock_guard lock(order_mutex);
        CHECK(order.empty());
    }

    release_first.set_value();
    REQUIRE(a_done.get_future().wait_for(generous) == std::future_status::ready);
    pool.join();
    CHECK(a_overlap.most.load() == 1);
    CHECK(a->waiting() == 0);
    std::vector<int> expected;
    for (int i = 0; i <= 10; ++i) expected.push_back(i);
    CHECK(order == expected);
}

TEST_CASE("team_queue: a job that throws does not stop its team, and discard drops the waiting jobs", "[team_queue]") {
    boost::asio::thread_pool pool(2);
    auto q = std::make_shared<team_queue>();
    std::promise<void> after;
    team_queue::submit(
        q, [] { throw std::runtime_error("the job failed"); }, to(pool));
    team_queue::submit(
        q, [&] { after.set_value(); }, to(pool));
    CHECK(after.get_future().wait_for(generous) == std::future_status::ready);

    std::promise<void> release;
    std::shared_future<void> released = release.get_future().share();
    std::promise<void> started;
    std::atomic<int> ran{0};
    team_queue::submit(
        q,
        [&] {
            started.set_value();
            released.wait();
        },
        to(pool));
    REQUIRE(started.get_future().wait_for(generous) == std::future_status::ready);
    for (int i = 0; i < 3; ++i)
        team_queue::submit(
            q, [&] { ++ran; }, to(pool));
    CHECK(q->waiting() == 3);
    q->discard();
    CHECK(q->waiting() == 0);
    release.set_value();
    pool.join();
    CHECK(ran.load() == 0);

    // The queue still works after a discard.
    boost::asio::thread_pool again(1);
    std::promise<void> later;
    team_queue::submit(
        q, [&] { later.set_value(); }, to(again));
    CHECK(later.get_future().wait_for(generous) == std::future_status::ready);
    again.join();
}

TEST_CASE("team_queue: `here` runs an idle team's job at once on the calling thread, a busy team's later",
          "[team_queue]") {
    boost::asio::thread_pool pool(1);
    auto q = std::make_shared<team_queue>();
    std::thread::id ran_on;
    team_queue::submit(
        q, [&] { ran_on = std::this_thread::get_id(); }, to(pool), true);
    CHECK(ran_on == std::this_thread::get_id());

    std::promise<void> release;
    std::shared_future<void> released = release.get_future().share();
    std::promise<void> started;
    team_queue::submit(
        q,
        [&] {
            started.set_value();
            released.wait();
        },
        to(pool));
    REQUIRE(started.get_future().wait_for(generous) == std::future_status::ready);
    std::atomic<bool> ran{false};
    std::thread::id later_on;
    team_queue::submit(
        q,
        [&] {
            later_on = std::this_thread::get_id();
            ran = true;
        },
        to(pool), true);
    CHECK_FALSE(ran.load());  // its team is busy: it waits, and the caller goes on
    CHECK(q->waiting() == 1);
    release.set_value();
    pool.join();
    CHECK(ran.load());
    CHECK(later_on != std::this_thread::get_id());
}

TEST_CASE("team_queue: many threads submitting to many queues, never two jobs of one queue at once", "[team_queue]") {
    // Each job updates its queue's plain counter: ThreadSanitizer reports a race if two jobs of a
    // queue ever overlap, and the atomic overlap count fails without it.
    constexpr int queues = 8, submitters = 6, per_submitter = 400;
    boost::asio::thread_pool pool(4);
    struct team {
        std::shared_ptr<team_queue> queue = std::make_shared<team_queue>();
        overlap jobs;
        long count = 0;  // only ever touched by the queue's jobs
    };
    std::vector<team> teams(queues);
    std::atomic<long> total{0};
    std::vector<std::thread> threads;
    for (int s = 0; s < submitters; ++s)
        threads.emplace_back([&, s] {
            std::mt19937 random(static_cast<unsigned>(s));
            for (int i = 0; i < per_submitter; ++i) {
                team& t = teams[random() % queues];
                team_queue::submit(
                    t.queue,
                    [&t, &total] {
                        t.jobs.enter();
                        ++t.count;
                        ++total;
                        t.jobs.leave();
                    },
                    to(pool));
            }
        });
    for (auto& t : threads) t.join();
    pool.join();  // returns once no job is left, posted or waiting
    CHECK(total.load() == long{submitters} * per_submitter);
    long sum = 0;
    for (auto& t : teams) {
        CHECK(t.jobs.most.load() == 1);
        CHECK(t.queue->waiting() == 0);
        sum += t.count;
    }
    CHECK(sum == long{submitters} * per_submitter);
}

namespace {

// Holds the jobs that arrive until `count` of them are inside at once (then all go on), or
// `generous` passed; whether they all met.
class meeting {
public:
    explicit meeting(int count) : count_(count) {}
    bool arrive() {
        std::unique_lock lock(mutex_);
        ++inside_;
        cv_.notify_all();
        return cv_.wait_for(lock, generous, [&] { return inside_ >= count_; });
    }

private:
    int count_;
    int inside_ = 0;
    std::mutex mutex_;
    std::condition_variable cv_;
};

}  // namespace

TEST_CASE("team_queue: read-only jobs next to each other run together", "[team_queue]") {
    boost::asio::thread_pool pool(4);
    auto q = std::make_shared<team_queue>();
    meeting all_three(3);
    std::atomic<int> met{0};
    for (int i = 0; i < 3; ++i)
        team_queue::submit(
            q, [&] { met += all_three.arrive() ? 1 : 0; }, to(pool), false, true);
    pool.join();
    CHECK(met.load() == 3);  // each saw the three inside at once
}

TEST_CASE("team_queue: a write waits for the reads before it, and the reads after it wait for it", "[team_queue]") {
    boost::asio::thread_pool pool(4);
    auto q = std::make_shared<team_queue>();
    std::promise<void> release;
    std::shared_future<void> released = release.get_future().share();
    std::promise<void> first_started;
    std::mutex order_mutex;
    std::vector<std::string> order;
    auto note = [&](std::string what) {
        std::lock_guard lock(order_mutex);
        order.push_back(std::move(what));
    };
    std::promise<void> done;
    team_queue::submit(
        q,
        [&] {
            first_started.set_value();
            released.wait();
            note("read 1");
        },
        to(pool), false, true);
    REQUIRE(first_started.get_future().wait_for(generous) == std::future_status::ready);
    team_queue::submit(
        q, [&] { note("write"); }, to(pool));
    // Reads keep coming while the first read runs: none passes the waiting write.
    for (int i = 2; i <= 4; ++i)
        team_queue::submit(
            q,
            [&, i] {
                note("read " + std::to_string(i));
                if (i == 4) done.set_value();
            },
            to(pool), true, true);
    CHECK(q->waiting() == 4);
    {
        std::lock_guard lock(order_mutex);
        CHECK(order.empty());
    }
    release.set_value();
    REQUIRE(done.get_future().wait_for(generous) == std::future_status::ready);
    pool.join();
    REQUIRE(order.size() == 5);
    CHECK(order[0] == "read 1");
    CHECK(order[1] == "write");  // then reads 2-4, together, in any order
}

TEST_CASE("team_queue: many threads submitting reads and writes, a write never beside another job", "[team_queue]") {
    // Writes change a plain counter, reads read it: ThreadSanitizer reports a race if a write
    // ever overlaps another job of its queue; the atomic counts fail without it.
    constexpr int queues = 4, submitters = 6, per_submitter = 300;
    boost::asio::thread_pool pool(4);
    struct team {
        std::shared_ptr<team_queue> queue = std::make_shared<team_queue>();
        std::atomic<int> reading{0}, writing{0};
        std::atomic<int> alone_violations{0};
        long value = 0;  // written by the queue's writes only
    };
    std::vector<team> teams(queues);
    std::atomic<long> writes{0}, reads{0}, read_sum{0};
    std::vector<std::thread> threads;
    for (int s = 0; s < submitters; ++s)
        threads.emplace_back([&, s] {
            std::mt19937 random(static_cast<unsigned>(s) + 100);
            for (int i = 0; i < per_submitter; ++i) {
                team& t = teams[random() % queues];
                const bool read_only = random() % 4 != 0;  // mostly reads, as a test suite's requests
                if (read_only)
                    team_queue::submit(
                        t.queue,
                        [&t, &reads, &read_sum] {
                            ++t.reading;
                            if (t.writing.load() != 0) ++t.alone_violations;
                            read_sum += t.value;
                            ++reads;
                            --t.reading;
                        },
                        to(pool), false, true);
                else
                    team_queue::submit(
                        t.queue,
                        [&t, &writes] {
                            if (++t.writing != 1 || t.reading.load() != 0) ++t.alone_violations;
                            ++t.value;
                            ++writes;
                            --t.writing;
                        },
                        to(pool));
            }
        });
    for (auto& t : threads) t.join();
    pool.join();
    CHECK(reads.load() + writes.load() == long{submitters} * per_submitter);
    long values = 0;
    for (auto& t : teams) {
        CHECK(t.alone_violations.load() == 0);
        CHECK(t.queue->waiting() == 0);
        values += t.value;
    }
    CHECK(values == writes.load());
}

}  // namespace test_team_queue
