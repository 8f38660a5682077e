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

// A page of a list: the response's pagination object, and where its items are in the list.
struct page_window {
    ::esign::pagination pagination;
    std::size_t offset = 0;  // index of the first item of the page (may be past the end)
    std::size_t count = 0;   // items on the page
};

// page >= 1 and limit >= 1 (the request types guarantee both).
constexpr page_window paginate(std::size_t total_records, std::int32_t page, std::int32_t limit) noexcept {
    page_window w;
    const auto total = static_cast<std::int64_t>(total_records);
    auto& p = w.pagination;
    p.totalRecords = total;
    p.currentPage = page;
    p.totalPages = std::max<std::int64_t>(1, (total + limit - 1) / limit);
    if (page < p.totalPages) p.nextPage = std::int64_t{page} + 1;
    if (page > 1) p.prevPage = std::int64_t{page} - 1;
    const std::int64_t offset = (std::int64_t{page} - 1) * limit;
    w.offset = static_cast<std::size_t>(std::min(offset, total));
    w.count = static_cast<std::size_t>(std::clamp<std::int64_t>(total - offset, 0, limit));
    return w;
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
    return w.pagination;
}

// Page `page` of `items` (already filtered and in the order of the list), `limit` per page.
template <class T>
page_slice<T> page_of(const std::vector<T>& items, std::int32_t page, std::int32_t limit) {
    const page_window w = paginate(items.size(), page, limit);
    return page_slice<T>{std::span<const T>(items).subspan(w.offset, w.count), w.pagination};
}
// The items of a page are a view of `items`: they must outlive it.
template <class T>
page_slice<T> page_of(const std::vector<T>&& items, std::int32_t page, std::int32_t limit) = delete;

}  // namespace esign::rules
