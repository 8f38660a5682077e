// SPDX-License-Identifier: BSL-1.0
#pragma once
// The HTTP server's open connections, for shutdown and for making room at --max-connections.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>
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
    // `idle_since`: the session's (http_session::idle_since), read while it is registered.
    bool add(const std::shared_ptr<http_session>& s, const std::atomic<std::int64_t>& idle_since) {
        std::lock_guard lock(mutex_);
        if (closed_) return false;
        sessions_.emplace(s.get(), entry{s, &idle_since, false});
        ++counted_;
        return true;
    }
    void remove(const http_session* s) noexcept {
        std::lock_guard lock(mutex_);
        auto it = sessions_.find(s);
        if (it == sessions_.end()) return;
        if (!it->second.evicted) --counted_;
        sessions_.erase(it);
    }
    // Refuses new sessions from now on; returns the open ones.
    std::vector<std::shared_ptr<http_session>> close() {
        std::vector<std::shared_ptr<http_session>> out;
        std::lock_guard lock(mutex_);
        closed_ = true;
        for (auto& [ptr, e] : sessions_)
            if (auto s = e.session.lock()) out.push_back(std::move(s));
        return out;  // destroyed by the caller, outside the lock
    }
    // The open connections, less those chosen by evict_oldest_idle (closing).
    std::size_t size() const {
        std::lock_guard lock(mutex_);
        return counted_;
    }
    // The connection idle the longest (waiting for a request with nothing of it received), no
    // longer counted by size(); null when none is idle. The caller evicts it. A linear scan:
    // it runs only when every place is taken.
    std::shared_ptr<http_session> evict_oldest_idle() {
        std::lock_guard lock(mutex_);
        entry* oldest = nullptr;
        std::int64_t oldest_since = std::numeric_limits<std::int64_t>::max();
        for (auto& [ptr, e] : sessions_) {
            if (e.evicted) continue;
            const std::int64_t since = e.idle_since->load(std::memory_order_relaxed);
            if (since != 0 && since < oldest_since) {
                oldest = &e;
                oldest_since = since;
            }
        }
        if (!oldest) return nullptr;
        oldest->evicted = true;
        --counted_;
        return oldest->session.lock();  // null when it is being destroyed: gone anyway
    }                                   // (the caller destroys the returned pointer outside the lock)

private:
    struct entry {
        std::weak_ptr<http_session> session;
        const std::atomic<std::int64_t>* idle_since;  // the session's: valid until remove()
        bool evicted;
    };
    mutable std::mutex mutex_;
    bool closed_ = false;
    std::size_t counted_ = 0;
    std::unordered_map<const http_session*, entry> sessions_;
};

}  // namespace esign::server
