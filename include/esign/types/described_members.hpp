// SPDX-License-Identifier: BSL-1.0
#pragma once
// The members of a described struct as every part of esign sees them: the codec, esign::check,
// the schema export and copy_members walk this one list, so they agree on what a struct holds.
//
// It is the public members, those of a described base class included (first, as C++ lays them
// out), in declaration order; a member declared `flattened<U>` stands for U's members, in its
// place (JSON writes them inline, as if the struct declared them itself). Several resources
// share a block of members that way without repeating its declaration, and without moving it
// to the front as a base class would.
//
// Each entry M of the list has `M::name` (the JSON name), `M::type` (the member's type) and
// `M::get(object)` (the member of a T, const or not).
#include <optional>
#include <type_traits>

#include <boost/describe/members.hpp>
#include <boost/describe/modifiers.hpp>
#include <boost/mp11/algorithm.hpp>
#include <boost/mp11/list.hpp>

namespace esign {

// A member whose own members are the enclosing struct's in JSON (no nested object): U must be a
// described struct. `contact.address.city` in C++ is `"city"` of the contact in JSON.
template <class U>
struct flattened : U {
    using flattened_type = U;
};

namespace detail {

template <class U>
using own_and_inherited_members =
    boost::describe::describe_members<U, boost::describe::mod_public | boost::describe::mod_inherited>;

// `object.*First::pointer.*Rest::pointer...`: a member, or a member of a flattened member.
template <class First, class... Rest, class Object>
constexpr auto& follow(Object& object) noexcept {
    if constexpr (sizeof...(Rest) == 0)
        return object.*First::pointer;
    else
        return follow<Rest...>(object.*First::pointer);
}

// The member reached from a T through the described members Path... .
template <class T, class... Path>
struct member_path {
    using type = std::remove_cvref_t<decltype(follow<Path...>(std::declval<T&>()))>;
    static constexpr const char* name = boost::mp11::mp_back<boost::mp11::mp_list<Path...>>::name;

    template <class Object>
    static constexpr auto& get(Object& object) noexcept {
        return follow<Path...>(object);
    }
};

template <class T, class Path, class U>
struct members_below;

// A member of type M reached through Path: itself, or the members of a flattened struct.
template <class T, class Path, class M>
struct expand_member {
    using type = boost::mp11::mp_list<boost::mp11::mp_apply<member_path, boost::mp11::mp_push_front<Path, T>>>;
};
template <class T, class Path, class U>
struct expand_member<T, Path, flattened<U>> {
    using type = typename members_below<T, Path, U>::type;
};

template <class T, class... Path, class U>
struct members_below<T, boost::mp11::mp_list<Path...>, U> {
    template <class D>
    using expand = typename expand_member<T, boost::mp11::mp_list<Path..., D>,
                                          std::remove_cvref_t<decltype(std::declval<U&>().*D::pointer)>>::type;
    using type =
        boost::mp11::mp_apply<boost::mp11::mp_append,
                              boost::mp11::mp_push_front<
                                  boost::mp11::mp_transform<expand, boost::mp11::mp_rename<own_and_inherited_members<U>,
                                                                                           boost::mp11::mp_list>>,
                                  boost::mp11::mp_list<>>>;
};

}  // namespace detail

template <class T>
using described_members = typename detail::members_below<T, boost::mp11::mp_list<>, T>::type;

namespace detail {
template <class M>
concept is_flattened = requires {
    typename M::flattened_type;
}
&&std::is_base_of_v<typename M::flattened_type, M>;

template <class U>
struct parts_of;
template <class M>
struct parts_of_member {
    using type = boost::mp11::mp_list<>;
};
template <is_flattened M>
struct parts_of_member<M> {
    using part = typename M::flattened_type;
    using type = boost::mp11::mp_push_back<typename parts_of<part>::type, part>;
};
template <class U>
struct parts_of {
    template <class D>
    using of_member = typename parts_of_member<std::remove_cvref_t<decltype(std::declval<U&>().*D::pointer)>>::type;
    using type = boost::mp11::mp_apply<
        boost::mp11::mp_append,
        boost::mp11::mp_push_front<
            boost::mp11::mp_transform<of_member,
                                      boost::mp11::mp_rename<own_and_inherited_members<U>, boost::mp11::mp_list>>,
            boost::mp11::mp_list<>>>;
};
}  // namespace detail

// The U of each flattened<U> member of T (those inside a part before it), in declaration order.
template <class T>
using flattened_parts = typename detail::parts_of<T>::type;

// Calls f(part) for the U of each flattened<U> member of `object` (those inside a part before
// it), in declaration order: the parts whose own rules across members are T's rules too.
template <class T, class F>
constexpr void for_each_flattened_part(const T& object, F&& f) {
    boost::mp11::mp_for_each<detail::own_and_inherited_members<T>>([&](auto m) {
        using member_type = std::remove_cvref_t<decltype(object.*m.pointer)>;
        if constexpr (detail::is_flattened<member_type>) {
            const typename member_type::flattened_type& part = object.*m.pointer;
            for_each_flattened_part(part, f);
            f(part);
        }
    });
}

// Whether a member may be left out: a std::optional (nullable<T> derives from std::optional
// but is always present, so it is not one).
template <class T>
struct is_std_optional : std::false_type {};
template <class T>
struct is_std_optional<std::optional<T>> : std::true_type {};

}  // namespace esign
