// SPDX-License-Identifier: BSL-1.0
#pragma once
// A webhook receiver for the black-box tests: an HTTP server on 127.0.0.1:<ephemeral> that
// records every request the reference server POSTs to it (test_server_webhooks.cpp,
// test_server_deliveries.cpp).
//
//   hook_receiver rx;                      // answers 200
//   hook_receiver failing({500, 0, false}); // answers 500; {204, 1, false}: 500 once, then 204
//   hook_receiver hanging({200, 0, true});  // reads the request and never answers
//   rx.url("/hook"), rx.wait_for(2, 10s), rx.requests()
//
// Events rather than a stopwatch: every request gets an arrival number from one counter shared
// by all receivers of the process (which came first, across receivers), and a hanging receiver
// tells when the server closed a connection it held (the server gave up on that attempt).
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "http_client.hpp"

namespace esign::test {

struct received_request {
    std::string method;
    std::string target;
    header_list headers;
    std::string body;
    std::uint64_t arrival = 0;  // the order of arrival among every receiver's requests (from 1)

    std::optional<std::string> header(std::string_view name) const {
        for (const auto& [n, v] : headers)
            if (boost::beast::iequals(n, name)) return v;
        return std::nullopt;
    }
};

// It answers `status` (after the first `fail_first` requests, which get 500), or never answers
// when `hang`.
struct receiver_behaviour {
    unsigned status = 200;
    int fail_first = 0;
    bool hang = false;
};

// Whether `condition()` holds within `timeout`, asked every 50 ms (for state that only a request
// can read, such as the server's delivery records; the wait ends as soon as it holds).
template <class F>
bool eventually(F condition, std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
        if (condition()) return true;
        if (std::chrono::steady_clock::now() >= deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
}

class hook_receiver {
public:
    using behaviour = receiver_behaviour;

    explicit hook_receiver(behaviour b = {}) : behaviour_(b) {
        const tcp::endpoint ep(boost::asio::ip::make_address("127.0.0.1"), 0);
        acceptor_.open(ep.protocol());
        acceptor_.set_option(boost::asio::socket_base::reuse_address(true));
        acceptor_.bind(ep);
        acceptor_.listen();
        port_ = acceptor_.local_endpoint().port();
        accept();
        thread_ = std::thread([this] { ioc_.run(); });
    }

    hook_receiver(const hook_receiver&) = delete;
    hook_receiver& operator=(const hook_receiver&) = delete;

    ~hook_receiver() {
        boost::asio::post(ioc_, [this] {
            stopping_ = true;  // the held connections' reads now end by our close, not the server's
            boost::beast::error_code ignored;
            acceptor_.close(ignored);
            for (auto& s : held_) s->close();
            held_.clear();
            ioc_.stop();  // connections still reading are dropped with the io_context
        });
        thread_.join();
    }

    unsigned short port() const noexcept { return port_; }
    std::string url(std::string_view path = "/hook") const {
        return "http://127.0.0.1:" + std::to_string(port_) + std::string(path);
    }

    std::vector<received_request> requests() const {
        std::lock_guard lock(mutex_);
        return requests_;
    }

    // Waits until at least `n` requests arrived (false after `timeout`).
    bool wait_for(std::size_t n, std::chrono::milliseconds timeout) {
        std::unique_lock lock(mutex_);
        return cv_.wait_for(lock, timeout, [&] { return requests_.size() >= n; });
    }

    // Hanging: how many of the connections it held the server has closed (an attempt it gave up).
    std::size_t hung_up() const {
        std::lock_guard lock(mutex_);
        return hung_up_;
    }

    // Waits until the server closed at least `n` held connections (false after `timeout`).
    bool wait_for_hang_ups(std::size_t n, std::chrono::milliseconds timeout) {
        std::unique_lock lock(mutex_);
        return cv_.wait_for(lock, timeout, [&] { return hung_up_ >= n; });
    }

private:
    using tcp = boost::asio::ip::tcp;

    struct connection {
        explicit connection(tcp::socket s) : stream(std::move(s)) {}
        boost::beast::tcp_stream stream;
        boost::beast::flat_buffer buffer;
        boost::beast::http::request<boost::beast::http::string_body> request;
        boost::beast::http::response<boost::beast::http::string_body> response;
        char scratch[256];  // what a held connection reads: nothing but its end
        void close() {
            boost::beast::error_code ignored;
            stream.socket().close(ignored);
        }
    };

    static std::atomic<std::uint64_t>& arrivals() {
        static std::atomic<std::uint64_t> counter{0};
        return counter;
    }

    void accept() {
        acceptor_.async_accept([this](boost::beast::error_code ec, tcp::socket socket) {
            if (ec) return;
            auto c = std::make_shared<connection>(std::move(socket));
            c->stream.expires_after(std::chrono::seconds(30));
            boost::beast::http::async_read(c->stream, c->buffer, c->request,
                                           [this, c](boost::beast::error_code e, std::size_t) {
                                               if (e) return;
                                               on_request(c);
                                           });
            accept();
        });
    }

    void on_request(const std::shared_ptr<connection>& c) {
        received_request r;
        r.method = std::string(c->request.method_string());
        r.target = std::string(c->request.target());
        for (const auto& f : c->request) r.headers.emplace_back(std::string(f.name_string()), std::string(f.value()));
        r.body = c->request.body();
        r.arrival = ++arrivals();
        std::size_t count;
        {
            std::lock_guard lock(mutex_);
            requests_.push_back(std::move(r));
            count = requests_.size();
        }
        cv_.notify_all();
        if (behaviour_.hang) {
            c->stream.expires_never();
            held_.push_back(c);  // never answered, closed when the receiver goes
            hold(c);
            return;
        }
        namespace http = boost::beast::http;
        const unsigned status = static_cast<int>(count) <= behaviour_.fail_first ? 500 : behaviour_.status;
        c->response = http::response<http::string_body>{static_cast<http::status>(status), 11};
        if (status >= 200 && status != 204 && status != 304) {
            c->response.set(http::field::content_type, "text/plain");
            c->response.body() = "ok";
        }
        c->response.keep_alive(false);
        c->response.prepare_payload();
        http::async_write(c->stream, c->response, [c](boost::beast::error_code, std::size_t) { c->close(); });
    }

    // Reads a held connection until it ends: its end (not ours) is the server giving up.
    void hold(const std::shared_ptr<connection>& c) {
        c->stream.async_read_some(boost::asio::buffer(c->scratch), [this, c](boost::beast::error_code ec, std::size_t) {
            if (!ec) return hold(c);
            if (stopping_) return;
            {
                std::lock_guard lock(mutex_);
                ++hung_up_;
            }
            cv_.notify_all();
        });
    }

    behaviour behaviour_;
    boost::asio::io_context ioc_;
    std::optional<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> work_{ioc_.get_executor()};
    tcp::acceptor acceptor_{ioc_};
    unsigned short port_ = 0;
    std::thread thread_;
    std::vector<std::shared_ptr<connection>> held_;  // on the receiver's thread only
    bool stopping_ = false;                          // on the receiver's thread only

    mutable std::mutex mutex_;
    std::condition_variable cv_;
    std::vector<received_request> requests_;
    std::size_t hung_up_ = 0;
};

}  // namespace esign::test
