// SPDX-License-Identifier: BSL-1.0
#pragma once
// A TCP connection for the synchronous call, which runs on the calling thread: blocking reads
// and writes that wait at most until a deadline. A non-blocking descriptor and poll(2), not an
// Asio socket: Asio's synchronous operations wait without end once a read would block, and an
// Asio socket is registered with its io_context's reactor, whose thread the arrival of every
// answer would then wake for nothing. It is a Beast SyncReadStream/SyncWriteStream and the next
// layer of an asio::ssl::stream (its executor serves only that stream's bookkeeping).
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstddef>
#include <utility>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/error.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/system/system_error.hpp>

namespace esign::client::detail {

class deadline_socket {
public:
    using clock = std::chrono::steady_clock;
    using executor_type = boost::asio::any_io_executor;
    using lowest_layer_type = deadline_socket;

    explicit deadline_socket(executor_type executor) noexcept : executor_(std::move(executor)) {}
    deadline_socket(deadline_socket&& other) noexcept
        : executor_(std::move(other.executor_)),
          fd_(std::exchange(other.fd_, -1)),
          deadline_(other.deadline_),
          wrote_(other.wrote_) {}
    deadline_socket& operator=(deadline_socket&&) = delete;
    deadline_socket(const deadline_socket&) = delete;
    ~deadline_socket() { close(); }

    executor_type get_executor() const noexcept { return executor_; }
    deadline_socket& lowest_layer() noexcept { return *this; }

    bool is_open() const noexcept { return fd_ >= 0; }
    int native_handle() const noexcept { return fd_; }
    void close() noexcept {
        if (fd_ >= 0) ::close(std::exchange(fd_, -1));
    }

    // Reads and writes from now on fail with beast::error::timeout at `deadline`.
    void expires_at(clock::time_point deadline) noexcept { deadline_ = deadline; }

    // Connects to the first of `endpoints` that answers before the deadline (TCP_NODELAY set).
    void connect(const boost::asio::ip::tcp::resolver::results_type& endpoints, boost::system::error_code& ec) {
        ec = boost::asio::error::host_not_found;
        for (const auto& entry : endpoints) {
            close();
            const auto& to = entry.endpoint();
            fd_ = ::socket(to.protocol().family(), SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_TCP);
            if (fd_ < 0) {
                ec = last_error();
                continue;
            }
            if (::connect(fd_, to.data(), static_cast<socklen_t>(to.size())) != 0) {
                if (errno != EINPROGRESS) {
                    ec = last_error();
                    continue;
                }
                if (!wait_for(POLLOUT, ec)) continue;
                int error = 0;
                socklen_t size = sizeof error;
                if (::getsockopt(fd_, SOL_SOCKET, SO_ERROR, &error, &size) != 0) error = errno;
                if (error != 0) {
                    ec = {error, boost::system::system_category()};
                    continue;
                }
            }
            const int on = 1;
            ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
            ec = {};
            return;
        }
        close();
    }

    template <class MutableBuffers>
    std::size_t read_some(const MutableBuffers& b, boost::system::error_code& ec) {
        return transfer(b, POLLIN, ec);
    }
    template <class ConstBuffers>
    std::size_t write_some(const ConstBuffers& b, boost::system::error_code& ec) {
        return transfer(b, POLLOUT, ec);
    }
    // (The throwing forms a Beast SyncReadStream and SyncWriteStream must have too.)
    template <class MutableBuffers>
    std::size_t read_some(const MutableBuffers& b) {
        return or_throw(transfer(b, POLLIN, error_), "read_some");
    }
    template <class ConstBuffers>
    std::size_t write_some(const ConstBuffers& b) {
        return or_throw(transfer(b, POLLOUT, error_), "write_some");
    }

private:
    static constexpr std::size_t max_iov = 16;

    static boost::system::error_code last_error() noexcept { return {errno, boost::system::system_category()}; }

    // One recvmsg or sendmsg over the buffers, waiting (poll) while it would block.
    template <class Buffers>
    std::size_t transfer(const Buffers& buffers, short events, boost::system::error_code& ec) {
        ::iovec iov[max_iov];
        std::size_t count = 0, total = 0;
        for (auto it = boost::asio::buffer_sequence_begin(buffers);
             it != boost::asio::buffer_sequence_end(buffers) && count < max_iov; ++it) {
            boost::asio::const_buffer b(*it);
            if (b.size() == 0) continue;
            iov[count].iov_base = const_cast<void*>(b.data());  // (sendmsg does not write through it)
            iov[count].iov_len = b.size();
            total += b.size();
            ++count;
        }
        ec = {};
        if (total == 0) return 0;
        if (fd_ < 0) {
            ec = boost::asio::error::bad_descriptor;
            return 0;
        }
        ::msghdr message{};
        message.msg_iov = iov;
        message.msg_iovlen = count;
        // The first read after a write waits before it tries: the answer is rarely there yet, and a
        // read that would block costs a system call for nothing.
        const bool wait_first = events == POLLIN && std::exchange(wrote_, false);
        if (events == POLLOUT) wrote_ = true;
        if (wait_first && !wait_for(events, ec)) return 0;
        for (;;) {
            const ssize_t n = events == POLLIN ? ::recvmsg(fd_, &message, 0) : ::sendmsg(fd_, &message, MSG_NOSIGNAL);
            if (n > 0) return static_cast<std::size_t>(n);
            if (n == 0 && events == POLLIN) {
                ec = boost::asio::error::eof;
                return 0;
            }
            if (n < 0 && errno == EINTR) continue;
            if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
                ec = last_error();
                return 0;
            }
            if (!wait_for(events, ec)) return 0;
        }
    }

    // Waits until the descriptor is ready for `events`; false (timeout or error in ec) otherwise.
    bool wait_for(short events, boost::system::error_code& ec) {
        for (;;) {
            const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline_ - clock::now()).count();
            if (left <= 0) {
                ec = boost::beast::error::timeout;
                return false;
            }
            ::pollfd p{fd_, events, 0};
            const int r = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 1'000'000)));
            if (r > 0) return true;  // ready, or an error the next call reports
            if (r < 0 && errno != EINTR) {
                ec = last_error();
                return false;
            }
        }
    }

    std::size_t or_throw(std::size_t n, const char* what) {
        if (error_) throw boost::system::system_error(error_, what);
        return n;
    }

    executor_type executor_;
    int fd_ = -1;
    clock::time_point deadline_ = clock::time_point::max();
    bool wrote_ = false;               // the last transfer was a write
    boost::system::error_code error_;  // of the throwing overloads
};

}  // namespace esign::client::detail
