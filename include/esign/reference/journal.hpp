// SPDX-License-Identifier: BSL-1.0
#pragma once
// A team's request journal (contract.md §6.4): the last public requests it made and what they
// were answered, oldest first, bounded by a number of entries (--journal-size) and by bytes,
// so that a team sending large bodies cannot make the shared server hold more than
// max_journal_bytes for it. Kept as text; turned into JSON values only when listed.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <esign/model/harness.hpp>

namespace esign::reference {

inline constexpr std::size_t default_journal_size = 1000;
inline constexpr std::size_t max_journal_bytes = std::size_t(16) << 20;      // kept per team
inline constexpr std::size_t max_journal_page_bytes = std::size_t(4) << 20;  // listed per call

class request_journal {
public:
    struct entry {
        std::int64_t sequence = 0;
        std::int64_t time = 0;
        std::string path;
        unsigned status = 0;
        std::string request;   // the body as received
        std::string response;  // the body answered; empty when dropped
        std::size_t bytes() const noexcept { return path.size() + request.size() + response.size() + sizeof(entry); }
    };

    explicit request_journal(std::size_t capacity = default_journal_size) : capacity_(capacity) {}

    std::size_t capacity() const noexcept { return capacity_; }
    std::size_t size() const noexcept { return entries_.size(); }

    // Records a request; the oldest entries go beyond the capacity or the byte budget (the
    // newest is always kept). Nothing is kept when the capacity is 0.
    void record(std::int64_t time, std::string_view path, unsigned status, std::string_view request,
                std::string_view response) {
        if (capacity_ == 0) return;
        entry e{++last_sequence_, time, std::string(path), status, std::string(request), std::string(response)};
        bytes_ += e.bytes();
        entries_.push_back(std::move(e));
        while (entries_.size() > 1 && (entries_.size() > capacity_ || bytes_ > max_journal_bytes)) {
            bytes_ -= entries_.front().bytes();
            entries_.pop_front();
        }
    }

    // Forgets every entry; sequence numbers go on (a test that listed before clearing can keep
    // its `since`). A team reset makes a new journal instead.
    void clear() {
        entries_.clear();
        bytes_ = 0;
    }

    // The entries a journal/list request selects, oldest first: at most its limit, and fewer
    // when their bodies exceed max_journal_page_bytes (at least one): a client pages with
    // `since`, the sequence of the last entry it got.
    control_journal_list_response list(const control_journal_list_request& q) const {
        control_journal_list_response out;
        const std::size_t limit = q.limit ? static_cast<std::size_t>(q.limit->value) : default_journal_limit;
        std::size_t page_bytes = 0;
        for (const auto& e : entries_) {
            if (out.entries.size() == limit) break;
            if (!out.entries.empty() && page_bytes + e.bytes() > max_journal_page_bytes) break;
            if (q.since && e.sequence <= q.since->value) continue;
            if (q.path && e.path != *q.path) continue;
            if (q.status && e.status != static_cast<unsigned>(q.status->value)) continue;
            out.entries.push_back(journal_entry{e.sequence, e.time, e.path, e.status, as_json(e.request),
                                                e.status == 0 ? boost::json::value() : as_json(e.response)});
            page_bytes += e.bytes();
        }
        return out;
    }

private:
    // A body's JSON when it parses, else its text.
    static boost::json::value as_json(const std::string& text) {
        boost::system::error_code ec;
        auto v = boost::json::parse(text, ec);
        if (ec) return boost::json::value(boost::json::string_view(text.data(), text.size()));
        return v;
    }

    std::size_t capacity_;
    std::deque<entry> entries_;
    std::size_t bytes_ = 0;
    std::int64_t last_sequence_ = 0;
};

}  // namespace esign::reference
