// SPDX-License-Identifier: BSL-1.0
// The typed client (include/esign/client/) from several threads at once and asynchronously,
// against the real server: one client shared by 8 threads; a callback, a future and a coroutine.
// Part of esign_http_tests, and compiled again with ThreadSanitizer in the clang-tsan tree
// (esign_client_race_tests: the client's own pool, strand and timers under TSan).
#include <atomic>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/use_future.hpp>

#include <esign/client/client.hpp>

#include "client_support.hpp"
#include "test_support.hpp"

namespace test_client_threads {

using namespace esign::test;
namespace ec = esign::client;
namespace asio = boost::asio;

TEST_CASE("client: asynchronous calls with a callback, a future and a coroutine", "[http][client]") {
    test_server srv;
    ec::client op(base_url(srv), {}, quick());
    const auto t = new_team(op);
    ec::client team(base_url(srv), ec::credentials::api_key(t.apiKey), quick());
    const esign::utils_whoami_request whoami;

    std::promise<std::string> by_callback;
    team.async_call(whoami, [&](ec::call_result<esign::utils_whoami_response> r) {
        by_callback.set_value(r ? r->teamUuid : ec::describe(r.error()));
    });
    CHECK(by_callback.get_future().get() == t.teamUuid);

    auto by_future = team.async_call(whoami, asio::use_future);
    auto r = by_future.get();
    REQUIRE(r);
    CHECK(r->teamUuid == t.teamUuid);

    asio::io_context io;
    // A client on the coroutine's own io_context (no thread of its own) beside the shared one.
    ec::client local(io.get_executor(), base_url(srv), ec::credentials::api_key(t.apiKey), quick());
    std::string by_coroutine;
    std::string by_local_client;
    std::thread::id resumed_on;
    asio::co_spawn(
        io,
        [&]() -> asio::awaitable<void> {
            auto got = co_await team.async_call(whoami, asio::use_awaitable);
            resumed_on = std::this_thread::get_id();
            by_coroutine = got ? got->teamUuid : ec::describe(got.error());
            auto mine = co_await local.async_call(whoami, asio::use_awaitable);
            by_local_client = mine ? mine->teamUuid : ec::describe(mine.error());
        },
        asio::detached);
    io.run();
    CHECK(by_coroutine == t.teamUuid);
    CHECK(resumed_on == std::this_thread::get_id());  // on the coroutine's executor, not the client's thread
    CHECK(by_local_client == t.teamUuid);
}

TEST_CASE("client: one client shared by 8 threads", "[http][client]") {
    test_server srv;
    ec::client op(base_url(srv), {}, quick());
    const auto t = new_team(op);
    auto options = quick();
    options.pool_size = 3;
    ec::client team(base_url(srv), ec::credentials::api_key(t.apiKey), options);
    std::atomic<int> ok{0};
    std::atomic<int> wrong{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < 8; ++i)
        threads.emplace_back([&, i] {
            for (int n = 0; n < 20; ++n) {
                if (n % 4 == 0) {
                    auto r = team.call(esign::workspace_create_request{"W" + std::to_string(i), std::nullopt});
                    (r ? ok : wrong)++;
                } else {
                    auto r = team.call(esign::utils_whoami_request{});
                    (r && r->teamUuid == t.teamUuid ? ok : wrong)++;
                }
            }
        });
    for (auto& th : threads) th.join();
    CHECK(ok == 160);
    CHECK(wrong == 0);
    CHECK(team.idle_connections() <= 3);
    esign::workspace_list_request list;
    list.limit = 50;
    auto all = team.call(list);
    REQUIRE(all);
    CHECK(all->pagination.totalRecords == 41);  // the default workspace and 8 x 5 created
}

}  // namespace test_client_threads
