// SPDX-License-Identifier: BSL-1.0
#pragma once
// Walks a boost::json::value and gives its events (json/parse.hpp) to a sink, in document
// order, without recursion (a value built in memory may be nested any depth).
#include <cstddef>
#include <vector>

#include <boost/json/value.hpp>

#include <esign/json/scalar.hpp>

namespace esign::json::detail {

template <class Sink>
void walk(const boost::json::value& root, Sink& sink) {
    struct open_container {
        const boost::json::value* container;
        std::size_t next = 0;
    };
    std::vector<open_container> open;
    auto visit = [&](const boost::json::value& v) {
        if (v.is_object() || v.is_array()) {
            sink.on_begin(v.is_array());
            open.push_back({&v});
        } else {
            sink.on_scalar(scalar::of(v));
        }
    };
    visit(root);
    while (!open.empty()) {
        open_container& top = open.back();
        if (top.container->is_array()) {
            const auto& array = top.container->get_array();
            if (top.next == array.size()) {
                open.pop_back();
                sink.on_end();
            } else {
                visit(array[top.next++]);  // may grow `open`: `top` is not used after this
            }
        } else {
            const auto& object = top.container->get_object();
            if (top.next == object.size()) {
                open.pop_back();
                sink.on_end();
            } else {
                const auto& member = object.begin()[top.next++];
                sink.on_key(std::string_view(member.key().data(), member.key().size()));
                visit(member.value());
            }
        }
    }
}

}  // namespace esign::json::detail
