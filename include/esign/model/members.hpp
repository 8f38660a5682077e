// SPDX-License-Identifier: BSL-1.0
#pragma once
// Copying between two described structs by member name. A response repeats members of a stored
// resource, and an update request is the resource's members made optional: the reflection
// pairs them, so a member added to both is copied without another line.
#include <optional>
#include <type_traits>

#include <boost/mp11/algorithm.hpp>

#include <esign/validation/described_members.hpp>

namespace esign {

namespace detail {

constexpr bool same_member_name(const char* a, const char* b) noexcept {
    for (; *a != '\0' && *a == *b; ++a, ++b) {}
    return *a == *b;
}

// Calls `f(from_member, to_member)` for every public member of To that From has too.
template <class From, class To, class F>
void for_each_member_pair(const From& from, To& to, F&& f) {
    boost::mp11::mp_for_each<described_members<From>>([&](auto source) {
        using source_member = decltype(source);
        boost::mp11::mp_for_each<described_members<To>>([&](auto target) {
            using target_member = decltype(target);
            if constexpr (same_member_name(source_member::name, target_member::name))
                f(source_member::get(from), target_member::get(to));
        });
    });
}

}  // namespace detail

// Every member of `to` that `from` has too (same name) is assigned from it.
template <class From, class To>
void copy_members(const From& from, To& to) {
    detail::for_each_member_pair(from, to, [](const auto& source, auto& target) { target = source; });
}

// Every member of `patch` that is a std::optional holding a value is assigned to the member of
// `to` of the same name; absent ones, and members that are not optional, leave `to` as it is.
template <class Patch, class To>
void apply_present(const Patch& patch, To& to) {
    detail::for_each_member_pair(patch, to, [](const auto& source, auto& target) {
        if constexpr (is_std_optional<std::remove_cvref_t<decltype(source)>>::value) {
            if (source) target = *source;
        }
    });
}

}  // namespace esign
