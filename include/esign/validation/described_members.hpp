// SPDX-License-Identifier: BSL-1.0
#pragma once
// The members of a described struct as every part of esign sees them: esign::check, the codec,
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

// A struct described with BOOST_DESCRIBE_STRUCT: its members are read, written, checked and
// exported one by one.
template <class T>
concept described_struct = std::is_class_v<T> && !std::is_union_v<T> && boost::describe::has_describe_members<T>::value;

// A member whose own members are the enclosing struct's in JSON (no nested object): U must be a
// described struct. `contact.details.city` in C++ is `"city"` of the contact in JSON.
template <class U>
struct flattened : U {};

namespace detail {

template <class U>
using own_and_inherited_members =
    boost::describe::describe_members<U, boost::describe::mod_public | boost::describe::mod_inherited>;

// The type of U's described member D.
template <class U, class D>
using member_type_of = std::remove_cvref_t<decltype(std::declval<U&>().*D::pointer)>;

// The lists F<D> of U's described members D, joined in declaration order.
template <class U, template <class> class F>
using joined_over_members = boost::mp11::mp_apply<
    boost::mp11::mp_append,
    boost::mp11::mp_push_front<
        boost::mp11::mp_transform<F, boost::mp11::mp_rename<own_and_inherited_members<U>, boost::mp11::mp_list>>,
        boost::mp11::mp_list<>>>;

// The part U of a member of type flattened<U>; nothing for any other member type.
template <class M>
struct flattened_part_of {};
template <class U>
struct flattened_part_of<flattened<U>> {
    using type = U;
};
template <class M>
concept is_flattened = requires {
    typename flattened_part_of<M>::type;
};

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
template <class T, class Path, is_flattened M>
struct expand_member<T, Path, M> {
    using type = typename members_below<T, Path, typename flattened_part_of<M>::type>::type;
};

template <class T, class... Path, class U>
struct members_below<T, boost::mp11::mp_list<Path...>, U> {
    template <class D>
    using expand = typename expand_member<T, boost::mp11::mp_list<Path..., D>, member_type_of<U, D>>::type;
    using type = joined_over_members<U, expand>;
};

// The parts flattened into U, those inside a part before it.
template <class U>
struct parts_of {
    template <class D, class M = member_type_of<U, D>>
    struct of_member {
        using type = boost::mp11::mp_list<>;
    };
    template <class D, is_flattened M>
    struct of_member<D, M> {
        using part = typename flattened_part_of<M>::type;
        using type = boost::mp11::mp_push_back<typename parts_of<part>::type, part>;
    };
    template <class D>
    using of = typename of_member<D>::type;
    using type = joined_over_members<U, of>;
};

}  // namespace detail

template <class T>
using described_members = typename detail::members_below<T, boost::mp11::mp_list<>, T>::type;

// The U of each flattened<U> member of T (those inside a part before it), in declaration order.
template <class T>
using flattened_parts = typename detail::parts_of<T>::type;

// Calls f(part) for the U of each flattened<U> member of `object` (those inside a part before
// it), in declaration order: the parts whose own rules across members are T's rules too.
template <class T, class F>
constexpr void for_each_flattened_part(const T& object, F&& f) {
    boost::mp11::mp_for_each<detail::own_and_inherited_members<T>>([&](auto m) {
        using member_type = detail::member_type_of<T, decltype(m)>;
        if constexpr (detail::is_flattened<member_type>) {
            const typename detail::flattened_part_of<member_type>::type& part = object.*m.pointer;
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
