// SPDX-License-Identifier: BSL-1.0
#pragma once
// Pagination arithmetic, the one place every list operation asks:
// totalPages = max(1, ceil(totalRecords / limit)); nextPage = page + 1 while page < totalPages;
// prevPage = page - 1 when page > 1. A page past the end is empty with the same arithmetic.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <esign/model/pagination.hpp>

namespace esign::rules {

struct page_window {
    std::int64_t total_records = 0;
    std::int32_t current_page = 1;
    std::int64_t total_pages = 1;
    std::optional<std::int64_t> next_page;
    std::optional<std::int64_t> prev_page;
    std::size_t offset = 0;  // index of the first item of the page (may be past the end)
    std::size_t count = 0;   // items on the page

    friend constexpr bool operator==(const page_window&, const page_window&) = default;
};

// page >= 1 and limit >= 1 (the request types guarantee both).
constexpr page_window paginate(std::size_t total_records, std::int32_t page, std::int32_t limit) noexcept {
    page_window w;
    const auto total = static_cast<std::int64_t>(total_records);
    w.total_records = total;
    w.current_page = page;
    w.total_pages = std::max<std::int64_t>(1, (total + limit - 1) / limit);
    if (page < w.total_pages) w.next_page = std::int64_t{page} + 1;
    if (page > 1) w.prev_page = std::int64_t{page} - 1;
    const std::int64_t offset = (std::int64_t{page} - 1) * limit;
    w.offset = static_cast<std::size_t>(std::min(offset, total));
    w.count = static_cast<std::size_t>(std::clamp<std::int64_t>(total - offset, 0, limit));
    return w;
}

// The pagination object of a response.
inline pagination to_pagination(const page_window& w) {
    pagination p;
    p.totalRecords = w.total_records;
    p.currentPage = w.current_page;
    p.totalPages = w.total_pages;
    p.nextPage = w.next_page;
    p.prevPage = w.prev_page;
    return p;
}

// One page of a list operation: the items on it and the pagination object of the response.
template <class T>
struct page_slice {
    std::span<const T> items;
    ::esign::pagination pagination;
};

// Page `page` of a list of `total` items that is read in place: `visit(i)` for the position i (in
// list order) of each item on the page, then the pagination object of the response.
template <class Visit>
pagination visit_page(std::size_t total, std::int32_t page, std::int32_t limit, Visit visit) {
    const page_window w = paginate(total, page, limit);
    for (std::size_t i = w.offset; i < w.offset + w.count; ++i) visit(i);
    return to_pagination(w);
}

// Page `page` of `items` (already filtered and in the order of the list), `limit` per page.
template <class T>
page_slice<T> page_of(const std::vector<T>& items, std::int32_t page, std::int32_t limit) {
    const page_window w = paginate(items.size(), page, limit);
    return page_slice<T>{std::span<const T>(items).subspan(w.offset, w.count), to_pagination(w)};
}
// The items of a page are a view of `items`: they must outlive it.
template <class T>
page_slice<T> page_of(const std::vector<T>&& items, std::int32_t page, std::int32_t limit) = delete;

}  // namespace esign::rules
