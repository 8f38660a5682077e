// SPDX-License-Identifier: BSL-1.0
#pragma once
// The HTTP server's open connections, for shutdown.
#include <cstddef>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace esign::server {

class http_session;

// The open connections. Shared with the sessions, which may outlive the server
// object when a forced stop leaves handlers in the io_context.
class session_registry {
public:
    bool add(const std::shared_ptr<http_session>& s) {
        std::lock_guard lock(mutex_);
        if (closed_) return false;
        sessions_.emplace(s.get(), s);
        return true;
    }
    void remove(const http_session* s) noexcept {
        std::lock_guard lock(mutex_);
        sessions_.erase(s);
    }
    // Refuses new sessions from now on; returns the open ones.
    std::vector<std::shared_ptr<http_session>> close() {
        std::vector<std::shared_ptr<http_session>> out;
        std::lock_guard lock(mutex_);
        closed_ = true;
        for (auto& [ptr, weak] : sessions_)
            if (auto s = weak.lock()) out.push_back(std::move(s));
        return out;  // destroyed by the caller, outside the lock
    }
    std::size_t size() const {
        std::lock_guard lock(mutex_);
        return sessions_.size();
    }

private:
    mutable std::mutex mutex_;
    bool closed_ = false;
    std::unordered_map<const http_session*, std::weak_ptr<http_session>> sessions_;
};

}  // namespace esign::server
