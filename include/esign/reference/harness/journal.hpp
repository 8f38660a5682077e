// SPDX-License-Identifier: BSL-1.0
#pragma once
// A team's request journal (contract.md §6.4): the last public requests it made and what they
// were answered, oldest first, bounded by a number of entries (--journal-size) and by bytes,
// so that a team sending large bodies cannot make the shared server hold more than
// max_journal_bytes for it.
//
// Listing stays within the per-request memory bound of §6.7 (32 times the body plus 1 MiB, a
// journal/list body being a few bytes): a body is kept as text, and what listing it will take
// (its JSON value, built again when listed, and the text written) is counted once, when it is
// recorded, by a parse that builds nothing (journal_cost). A page stops before its entries would
// take more than max_journal_page_cost (at least one entry: a client pages on with `since`), and
// a body that alone would take more than max_journal_body_cost is kept cut, as text: its first
// bytes (max_journal_cut_bytes at most, written) and a note of its size. Below that, entries are
// listed exactly as before: `request` and `response` are the JSON bodies when they parsed, else
// their text.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>

#include <boost/json/basic_parser_impl.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <esign/model/harness.hpp>
#include <esign/reference/signer_access.hpp>

namespace esign::reference {

inline constexpr std::size_t default_journal_size = 1000;
inline constexpr std::size_t max_journal_bytes = std::size_t(16) << 20;  // kept per team
// What one journal/list answer may take (values built and text written, journal_cost): with the
// answer's buffer, which grows by doubling, well below 1 MiB.
inline constexpr std::size_t max_journal_page_cost = std::size_t(256) << 10;
// What one body may take to be listed whole; beyond, it is kept cut (so that a page of a single
// entry keeps to max_journal_page_cost too).
inline constexpr std::size_t max_journal_body_cost = std::size_t(128) << 10;
// The most bytes of a cut body's text, as written (escapes counted).
inline constexpr std::size_t max_journal_cut_bytes = std::size_t(32) << 10;

namespace detail {

// The bytes a JSON string takes written (boost::json::serialize's escapes: \" \\ \b \f \n \r \t
// in two bytes, the other control bytes in six).
inline std::size_t written_string_size(std::string_view s) noexcept {
    std::size_t n = 2;
    for (char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        if (c == '"' || c == '\\' || c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t')
            n += 2;
        else if (c < 0x20)
            n += 6;
        else
            n += 1;
    }
    return n;
}

// Counts, without building anything, what listing a body takes beyond its text written as it
// came: what boost::json::parse allocates for it (16 bytes a value in its container, twice that
// again for the parser's stack where values wait for their container, which grows by doubling; a
// member's pair and key; a string's bytes; a container's header), and what serialize may write
// more than the text (a number, up to 25 bytes: "1.5" is written 1.5E0; a string or a key is
// never written longer than it came, whitespace not at all). Generous rather than exact.
struct cost_counter {
    static constexpr std::size_t max_array_size = boost::json::array::max_size();
    static constexpr std::size_t max_object_size = boost::json::object::max_size();
    static constexpr std::size_t max_string_size = boost::json::string::max_size();
    static constexpr std::size_t max_key_size = boost::json::string::max_size();

    std::size_t bytes = 0;

    void value() noexcept { bytes += 48; }
    bool on_document_begin(boost::json::error_code&) { return true; }
    bool on_document_end(boost::json::error_code&) { return true; }
    bool on_array_begin(boost::json::error_code&) { return true; }
    bool on_array_end(std::size_t, boost::json::error_code&) {
        value();
        bytes += 32;
        return true;
    }
    bool on_object_begin(boost::json::error_code&) { return true; }
    bool on_object_end(std::size_t n, boost::json::error_code&) {
        value();
        bytes += 32 + 8 * n;  // header and index
        return true;
    }
    bool on_string_part(boost::json::string_view, std::size_t, boost::json::error_code&) { return true; }
    bool on_string(boost::json::string_view, std::size_t n, boost::json::error_code&) {
        value();
        bytes += n + 1;
        return true;
    }
    bool on_key_part(boost::json::string_view, std::size_t, boost::json::error_code&) { return true; }
    bool on_key(boost::json::string_view, std::size_t n, boost::json::error_code&) {
        bytes += 48 + n + 1;  // the member's pair, on the stack too, and its key
        return true;
    }
    bool on_number_part(boost::json::string_view, boost::json::error_code&) { return true; }
    bool on_int64(std::int64_t, boost::json::string_view, boost::json::error_code&) { return number(); }
    bool on_uint64(std::uint64_t, boost::json::string_view, boost::json::error_code&) { return number(); }
    bool on_double(double, boost::json::string_view, boost::json::error_code&) { return number(); }
    bool on_bool(bool, boost::json::error_code&) { return scalar(); }
    bool on_null(boost::json::error_code&) { return scalar(); }
    bool on_comment_part(boost::json::string_view, boost::json::error_code&) { return true; }
    bool on_comment(boost::json::string_view, boost::json::error_code&) { return true; }

private:
    bool scalar() {
        value();
        return true;
    }
    bool number() {
        bytes += 25;
        return scalar();
    }
};

// What listing a body takes, and whether it is JSON (as boost::json::parse, with the same
// options, would accept it). Its memory is the parser's, a few bytes a level of nesting.
struct body_cost {
    bool json = false;
    std::size_t bytes = 0;  // values built and text written
};

inline body_cost journal_cost(std::string_view text) {
    boost::json::basic_parser<cost_counter> p{boost::json::parse_options{}};
    boost::json::error_code ec;
    const std::size_t n = p.write_some(false, text.data(), text.size(), ec);
    if (!ec && n == text.size()) return {true, p.handler().bytes + text.size()};
    // A string: its bytes, and its text written.
    return {false, text.size() + 16 + written_string_size(text)};
}

// The text kept of a body too large to list whole: its first bytes (whole UTF-8 sequences), as
// many as write in max_journal_cut_bytes, and a note of its size.
inline std::string cut_body(std::string_view text) {
    std::string note = " [cut by the journal: " + std::to_string(text.size()) + " bytes in all]";
    std::size_t written = written_string_size(note), end = 0;
    for (; end < text.size(); ++end) {
        written += written_string_size(text.substr(end, 1)) - 2;
        if (written > max_journal_cut_bytes) break;
    }
    while (end > 0 && end < text.size() && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
    return std::string(text.substr(0, end)) + note;
}

// A body as the journal keeps it: its text (cut if need be), whether it is JSON, and what
// listing it takes.
struct kept_body {
    std::string text;
    bool json = false;
    std::size_t cost = 0;

    static kept_body of(std::string_view text) {
        const body_cost c = journal_cost(text);
        if (c.bytes <= max_journal_body_cost) return {std::string(text), c.json, c.bytes};
        std::string cut = cut_body(text);
        const std::size_t cost = cut.size() + 16 + written_string_size(cut);
        return {std::move(cut), false, cost};
    }

    // Its JSON when it parsed, else its text.
    boost::json::value listed() const {
        if (json) {
            boost::system::error_code ec;
            auto v = boost::json::parse(text, ec);
            if (!ec) return v;
        }
        return boost::json::value(boost::json::string_view(text.data(), text.size()));
    }
};

}  // namespace detail

class request_journal {
public:
    struct entry {
        std::int64_t sequence = 0;
        std::int64_t time = 0;
        std::string path;
        unsigned status = 0;
        detail::kept_body request;   // the body as received
        detail::kept_body response;  // the body answered; empty when dropped
        std::size_t bytes() const noexcept {
            return path.size() + request.text.size() + response.text.size() + sizeof(entry);
        }
        // What listing it takes (detail::journal_cost).
        std::size_t cost() const noexcept {
            return path.size() + request.cost + (status == 0 ? 0 : response.cost) + sizeof(journal_entry) + 128;
        }
    };

    explicit request_journal(std::size_t capacity = default_journal_size) : capacity_(capacity) {}

    std::size_t capacity() const noexcept { return capacity_; }
    std::size_t size() const noexcept { return entries_.size(); }

    // Records a request; the oldest entries go beyond the capacity or the byte budget (the
    // newest is always kept). Nothing is kept when the capacity is 0.
    void record(std::int64_t time, std::string_view path, unsigned status, std::string_view request,
                std::string_view response) {
        if (capacity_ == 0) return;
        if (may_carry_signer_secret(path)) {
            // contract.md §7.1: tokens and sessions are never kept in clear (signer_access.hpp).
            const std::string req = redact_signer_secrets(request);
            const std::string res = status == 0 ? std::string() : redact_signer_secrets(response);
            return keep(time, path, status, req, res);
        }
        keep(time, path, status, request, response);
    }

private:
    void keep(std::int64_t time, std::string_view path, unsigned status, std::string_view request,
              std::string_view response) {
        entry e{++last_sequence_,
                time,
                std::string(path),
                status,
                detail::kept_body::of(request),
                status == 0 ? detail::kept_body{} : detail::kept_body::of(response)};
        bytes_ += e.bytes();
        entries_.push_back(std::move(e));
        while (entries_.size() > 1 && (entries_.size() > capacity_ || bytes_ > max_journal_bytes)) {
            bytes_ -= entries_.front().bytes();
            entries_.pop_front();
        }
    }

public:
    // Forgets every entry; sequence numbers go on (a test that listed before clearing can keep
    // its `since`). A team reset makes a new journal instead.
    void clear() {
        entries_.clear();
        bytes_ = 0;
    }

    // The entries a journal/list request selects, oldest first: at most its limit, and fewer
    // when listing them would take more than max_journal_page_cost (at least one): a client
    // pages with `since`, the sequence of the last entry it got.
    control_journal_list_response list(const control_journal_list_request& q) const {
        control_journal_list_response out;
        const std::size_t limit = q.limit ? static_cast<std::size_t>(q.limit->value) : default_journal_limit;
        std::size_t page_cost = 0;
        for (const auto& e : entries_) {
            if (out.entries.size() == limit) break;
            if (q.since && e.sequence <= q.since->value) continue;
            if (q.path && e.path != *q.path) continue;
            if (q.status && e.status != static_cast<unsigned>(q.status->value)) continue;
            if (!out.entries.empty() && page_cost + e.cost() > max_journal_page_cost) break;
            out.entries.push_back(journal_entry{e.sequence, e.time, e.path, e.status, e.request.listed(),
                                                e.status == 0 ? boost::json::value() : e.response.listed()});
            page_cost += e.cost();
        }
        return out;
    }

private:
    std::size_t capacity_;
    std::deque<entry> entries_;
    std::size_t bytes_ = 0;
    std::int64_t last_sequence_ = 0;
};

}  // namespace esign::reference
