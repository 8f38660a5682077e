// SPDX-License-Identifier: BSL-1.0
#pragma once
// One page of a list response, the chain every list operation ends with: the items on page
// `page` (rules::paginate's arithmetic), each made into its view and appended to the
// response's list, and the response's pagination object.
#include <cstddef>
#include <cstdint>
#include <vector>

#include <esign/model/pagination.hpp>
#include <esign/reference/store/records.hpp>  // in_creation_order
#include <esign/rules/pagination.hpp>

namespace esign::reference {

// `item(i)` for the position i (in list order) of each item on the page, appended to `list`; a
// list read in place, `total` long. Returns the pagination object of the response.
template <class List, class Item>
pagination fill_page(List& list, std::size_t total, std::int32_t page, std::int32_t limit, Item item) {
    return rules::visit_page(total, page, limit, [&](std::size_t i) { list.push_back(item(i)); });
}

// The same over `items`, already filtered and in list order: `view(items[i])` for each item on
// the page.
template <class List, class T, class View>
pagination fill_page(List& list, const std::vector<T>& items, std::int32_t page, std::int32_t limit, View view) {
    return fill_page(list, items.size(), page, limit, [&](std::size_t i) { return view(items[i]); });
}

// The same over the records of `records` that `keep` keeps, in creation order: the list
// operations of contacts, templates and webhooks.
template <class List, class Records, class Keep, class View>
pagination fill_page_in_creation_order(List& list, const Records& records, Keep keep, std::int32_t page,
                                       std::int32_t limit, View view) {
    return fill_page(list, in_creation_order(records, keep), page, limit, view);
}

}  // namespace esign::reference
