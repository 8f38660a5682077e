// SPDX-License-Identifier: BSL-1.0
#pragma once
// One keep-alive connection (plain TCP or TLS), of the asynchronous calls or of the synchronous
// ones (deadline_socket.hpp), and the client's pools of idle ones.
#include <sys/socket.h>

#include <cerrno>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include <boost/asio/ssl/stream.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/stream_traits.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

#include <esign/client/detail/deadline_socket.hpp>

namespace esign::client::detail {

// Whether the peer has closed an idle connection (or sent something unasked): such a connection
// would fail the next request after sending it, which could not be retried.
inline bool closed_while_idle(int fd) {
    if (fd < 0) return true;
    char byte;
    const auto n = ::recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    return !(n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK));
}

// A connection of the asynchronous calls, on the client's executor.
struct connection {
    std::optional<boost::beast::tcp_stream> plain;                          // http://
    std::optional<boost::beast::ssl_stream<boost::beast::tcp_stream>> tls;  // https://
    boost::beast::flat_buffer buffer;                                       // bytes read ahead
    bool reused = false;                                                    // taken from the pool

    boost::beast::tcp_stream& tcp() { return tls ? boost::beast::get_lowest_layer(*tls) : *plain; }

    bool closed_by_peer() {
        auto& socket = tcp().socket();
        return !socket.is_open() || closed_while_idle(socket.native_handle());
    }
};

// A connection of the synchronous calls, used on the calling thread with blocking I/O.
struct blocking_connection {
    std::optional<deadline_socket> plain;                          // http://
    std::optional<boost::asio::ssl::stream<deadline_socket>> tls;  // https://
    boost::beast::flat_buffer buffer;                              // bytes read ahead
    bool reused = false;                                           // taken from the pool

    deadline_socket& socket() { return tls ? tls->next_layer() : *plain; }
    bool closed_by_peer() { return closed_while_idle(socket().native_handle()); }
};

// Idle keep-alive connections of one client, shared by every thread that calls it: the mutex
// guards the list; a connection taken out is used by one call at a time.
template <class Connection>
class basic_connection_pool {
public:
    explicit basic_connection_pool(std::size_t max_idle) : max_idle_(max_idle) {}

    // The most recently used idle connection that is still open, or null.
    std::unique_ptr<Connection> take() {
        std::unique_lock lock(mutex_);
        while (!idle_.empty()) {
            auto c = std::move(idle_.back());
            idle_.pop_back();
            lock.unlock();
            if (!c->closed_by_peer()) {
                c->reused = true;
                return c;
            }
            lock.lock();  // `c` is closed as it goes
        }
        return nullptr;
    }

    // Keeps `c` for a later call, unless max_idle are kept already.
    void give_back(std::unique_ptr<Connection> c) {
        std::lock_guard lock(mutex_);
        if (idle_.size() < max_idle_) idle_.push_back(std::move(c));
    }

    std::size_t idle() const {
        std::lock_guard lock(mutex_);
        return idle_.size();
    }

    void clear() {
        std::vector<std::unique_ptr<Connection>> gone;
        std::lock_guard lock(mutex_);
        gone.swap(idle_);
    }

private:
    mutable std::mutex mutex_;
    std::vector<std::unique_ptr<Connection>> idle_;
    std::size_t max_idle_;
};

using connection_pool = basic_connection_pool<connection>;
using blocking_connection_pool = basic_connection_pool<blocking_connection>;

}  // namespace esign::client::detail
