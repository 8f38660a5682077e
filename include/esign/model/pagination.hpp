// SPDX-License-Identifier: BSL-1.0
#pragma once
// The pagination object shared by every list operation, and the page/limit request members.
#include <cstdint>
#include <optional>

#include <boost/describe/class.hpp>

#include <esign/types/nullable.hpp>
#include <esign/types/ranged.hpp>

namespace esign {

// Request members: `page` (at least 1, default 1) and `limit` (1 to 50, default 50).
using page_number = ranged<1>;
using page_limit = ranged<1, 50>;

inline constexpr std::int32_t default_page = 1;
inline constexpr std::int32_t default_limit = 50;
// Page size of the lists without a `limit` member (envelope list, template list).
inline constexpr std::int32_t fixed_page_size = 50;

constexpr std::int32_t page_or_default(const std::optional<page_number>& page) noexcept {
    return page ? page->value : default_page;
}
constexpr std::int32_t limit_or_default(const std::optional<page_limit>& limit) noexcept {
    return limit ? limit->value : default_limit;
}

// Response member `pagination` (interface.md "Pagination object"; arithmetic in contract.md §3).
struct pagination {
    std::int64_t totalRecords{};
    std::int64_t currentPage{1};
    std::int64_t totalPages{1};
    nullable<std::int64_t> nextPage;  // null when there is no next page
    nullable<std::int64_t> prevPage;  // null on the first page
};
BOOST_DESCRIBE_STRUCT(pagination, (), (totalRecords, currentPage, totalPages, nextPage, prevPage))

}  // namespace esign
