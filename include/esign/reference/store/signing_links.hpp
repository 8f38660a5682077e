// SPDX-License-Identifier: BSL-1.0
#pragma once
// A team's e-mail link tokens (contract.md §7.1): one per envelope and recipient, reused by every
// e-mail to them, found by token (a link opened) and by recipient (an e-mail listed), oldest
// first (the bound drops the oldest, team/limits.hpp). Each link is held once, in order; the two
// indexes view it (a restore makes a link for every e-mail of its outbox: copies of each token
// and key in three containers were a tenth of a restore's time).
#include <cstddef>
#include <deque>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace esign::reference {

// Whom an e-mail link token or a signer session stands for (signer_access.hpp). Neither is part
// of a snapshot (team/snapshot_state.hpp), nor are iframe tokens.
struct signer_grant {
    std::string envelope_uuid;
    std::string email;  // the recipient (found by e-mail, as /_control/recipient/act does)
};

class signing_links {
public:
    struct link {
        std::string token;
        signer_grant grant;
    };

    signing_links() = default;
    // A copy views its own links (a team's initial state is a copy of its store).
    signing_links(const signing_links& other) : order_(other.order_) { index_all(); }
    signing_links& operator=(const signing_links& other) {
        if (this != &other) {
            order_ = other.order_;
            index_all();
        }
        return *this;
    }
    // A move keeps the links where they are (a deque's elements move with its storage).
    signing_links(signing_links&&) = default;
    signing_links& operator=(signing_links&&) = default;
    ~signing_links() = default;

    // Whom `token` stands for, or null.
    const signer_grant* find(std::string_view token) const {
        auto it = by_token_.find(token);
        return it == by_token_.end() ? nullptr : &it->second->grant;
    }
    // The token of the recipient `email` of `envelope`, or null.
    const std::string* token_of(std::string_view envelope, std::string_view email) const {
        auto it = by_recipient_.find({envelope, email});
        return it == by_recipient_.end() ? nullptr : &it->second->token;
    }
    // Adds a link for a recipient that has none (token_of is null), the newest.
    const std::string& add(std::string token, signer_grant grant) {
        const link& l = order_.emplace_back(link{std::move(token), std::move(grant)});
        index(l);
        return l.token;
    }
    void drop_oldest() {
        const link& l = order_.front();
        by_token_.erase(l.token);
        by_recipient_.erase({l.grant.envelope_uuid, l.grant.email});
        order_.pop_front();
    }
    void reserve(std::size_t n) {
        by_token_.reserve(n);
        by_recipient_.reserve(n);
    }

    std::size_t size() const noexcept { return order_.size(); }
    bool empty() const noexcept { return order_.empty(); }
    // Oldest first.
    const std::deque<link>& in_order() const noexcept { return order_; }

private:
    using recipient_key = std::pair<std::string_view, std::string_view>;  // envelope, e-mail
    struct recipient_hash {
        std::size_t operator()(const recipient_key& k) const noexcept {
            const std::hash<std::string_view> h;
            return h(k.first) * 31 + h(k.second);
        }
    };

    void index_all() {
        by_token_.clear();
        by_recipient_.clear();
        reserve(order_.size());
        for (const link& l : order_) index(l);
    }
    void index(const link& l) {
        by_token_.emplace(l.token, &l);
        by_recipient_.emplace(recipient_key{l.grant.envelope_uuid, l.grant.email}, &l);
    }

    std::deque<link> order_;
    std::unordered_map<std::string_view, const link*> by_token_;
    std::unordered_map<recipient_key, const link*, recipient_hash> by_recipient_;
};

}  // namespace esign::reference
