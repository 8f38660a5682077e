// SPDX-License-Identifier: BSL-1.0
// The typed client's overhead (include/esign/client/, issue 38): one envelope/get through the
// client, against the same request written by hand with Beast, each on one keep-alive
// connection to the same server, interleaved. "by hand, typed" also writes the request with
// json::write and reads the answer with json::read, as a caller of the toolkit would; "by hand,
// bytes" only moves the bytes. The synchronous client runs the call on the calling thread with
// blocking I/O, as the hand-written one does; "async on the caller's io_context" runs the
// asynchronous form there (no hop either, but an event loop), and "by hand, typed, async" is its
// hand-written counterpart: what Beast's own asynchronous client example does (a tcp_stream, a
// timeout armed before each operation, completion handlers) on an io_context of its own.
//
//   ESIGN_SERVER=build/release/examples/esign-reference-server ./build/release/bench/esign_bench_client
//       --benchmark_repetitions=10 --benchmark_enable_random_interleaving=true   (one command line)
#include <benchmark/benchmark.h>

#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <esign/client/client.hpp>

#include "../tests/http/server_process.hpp"

namespace {

namespace http = boost::beast::http;
using tcp = boost::asio::ip::tcp;

// The server, a team with one envelope, and both ways of asking for it.
struct world {
    esign::test::server_process server{std::vector<std::string>{"--threads", "1"}};
    std::string url = "http://" + server.host() + ":" + std::to_string(server.port());
    std::string key;
    esign::envelope_get_request get;
    std::unique_ptr<esign::client::client> api;

    world() {
        esign::client::client op(url);
        esign::control_team_create_request team;
        auto made = op.call(team);
        key = made ? made->apiKey : "";
        esign::client::client_options options;
        options.pool_size = 1;  // one keep-alive connection
        api = std::make_unique<esign::client::client>(url, esign::client::credentials::api_key(key), options);
        esign::control_envelope_create_request create;
        create.content.title = "Bench";
        create.content.documents.push_back({"d.pdf", 1});
        auto envelope = api->call(create);
        if (envelope) get.envelopeUuid = envelope->envelopeUuid;
    }
    static world& instance() {
        static world w;
        return w;
    }
};

// The request both hand-written callers send.
http::request<http::string_body> envelope_get_request(const std::string& host, const std::string& authorization,
                                                      std::string body) {
    http::request<http::string_body> req{http::verb::post, "/public/envelope/get", 11};
    req.set(http::field::host, host);
    req.set(http::field::content_type, "application/json");
    req.set(http::field::authorization, authorization);
    req.body() = std::move(body);
    req.prepare_payload();
    return req;
}

// One keep-alive connection, by hand.
class by_hand {
public:
    by_hand(const world& w) : socket_(io_), key_("Bearer " + w.key), host_(w.server.host()) {
        tcp::resolver resolver(io_);
        boost::asio::connect(socket_, resolver.resolve(w.server.host(), std::to_string(w.server.port())));
        socket_.set_option(tcp::no_delay(true));
    }
    std::pair<unsigned, std::string> post(std::string body) {
        const auto req = envelope_get_request(host_, key_, std::move(body));
        http::write(socket_, req);
        http::response<http::string_body> res;
        http::read(socket_, buffer_, res);
        return {res.result_int(), std::move(res.body())};
    }

private:
    boost::asio::io_context io_;
    tcp::socket socket_;
    boost::beast::flat_buffer buffer_;
    std::string key_;
    std::string host_;
};

// The same, asynchronous, as Beast's asynchronous client example writes it.
class by_hand_async {
public:
    by_hand_async(const world& w) : stream_(io_), key_("Bearer " + w.key), host_(w.server.host()) {
        tcp::resolver resolver(io_);
        stream_.connect(resolver.resolve(w.server.host(), std::to_string(w.server.port())));
        stream_.socket().set_option(tcp::no_delay(true));
    }
    std::pair<unsigned, std::string> post(std::string body) {
        request_ = envelope_get_request(host_, key_, std::move(body));
        response_ = {};
        stream_.expires_after(std::chrono::seconds(30));
        http::async_write(stream_, request_, [this](boost::beast::error_code ec, std::size_t) {
            if (ec) return;
            stream_.expires_after(std::chrono::seconds(30));
            http::async_read(stream_, buffer_, response_, [](boost::beast::error_code, std::size_t) {});
        });
        io_.run();
        io_.restart();
        return {response_.result_int(), std::move(response_.body())};
    }

private:
    boost::asio::io_context io_;
    boost::beast::tcp_stream stream_;
    boost::beast::flat_buffer buffer_;
    http::request<http::string_body> request_;
    http::response<http::string_body> response_;
    std::string key_;
    std::string host_;
};

void BM_envelope_get(benchmark::State& state) {
    auto& w = world::instance();
    // 0 client (sync), 1 by hand typed, 2 by hand bytes, 3 client (async, on the caller's
    // io_context), 4 by hand typed, async
    const int how = static_cast<int>(state.range(0));
    std::unique_ptr<by_hand> hand;
    if (how == 1 || how == 2) hand = std::make_unique<by_hand>(w);
    std::unique_ptr<by_hand_async> hand_async;
    if (how == 4) hand_async = std::make_unique<by_hand_async>(w);
    boost::asio::io_context io;
    esign::client::client_options options;
    options.pool_size = 1;
    esign::client::client local(io.get_executor(), w.url, esign::client::credentials::api_key(w.key), options);
    const std::string bytes = esign::json::write(w.get);
    int bad = 0;
    for (auto _ : state) {
        if (how == 0) {
            auto r = w.api->call(w.get);
            bad += !r;
            benchmark::DoNotOptimize(r);
        } else if (how == 3) {
            local.async_call(w.get, [&](esign::client::call_result<esign::envelope_get_response> r) { bad += !r; });
            io.run();
            io.restart();
        } else if (how == 1 || how == 4) {
            auto [status, body] =
                how == 1 ? hand->post(esign::json::write(w.get)) : hand_async->post(esign::json::write(w.get));
            auto r = esign::json::read<esign::envelope_get_response>(body);
            bad += status != 200 || !r;
            benchmark::DoNotOptimize(r);
        } else {
            auto [status, body] = hand->post(bytes);
            bad += status != 200;
            benchmark::DoNotOptimize(body);
        }
    }
    if (bad) state.SkipWithError("a call failed");
    state.SetLabel(how == 0   ? "client"
                   : how == 1 ? "by hand, typed"
                   : how == 2 ? "by hand, bytes"
                   : how == 3 ? "client, async on the caller's io_context"
                              : "by hand, typed, async");
}
BENCHMARK(BM_envelope_get)->ArgName("how")->DenseRange(0, 4)->UseRealTime();

}  // namespace
