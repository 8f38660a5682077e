// SPDX-License-Identifier: BSL-1.0
#pragma once
// The members of a described struct as every part of esign sees them: the codec, esign::check,
// the schema export and copy_members walk this one list, so they agree on what a struct holds.
// It is the public members, those of a described base class included (first, as C++ lays
// them out), in declaration order.
#include <optional>
#include <type_traits>

#include <boost/describe/members.hpp>
#include <boost/describe/modifiers.hpp>

namespace esign {

template <class T>
using described_members =
    boost::describe::describe_members<T, boost::describe::mod_public | boost::describe::mod_inherited>;

// Whether a member may be left out: a std::optional (nullable<T> derives from std::optional
// but is always present, so it is not one).
template <class T>
struct is_std_optional : std::false_type {};
template <class T>
struct is_std_optional<std::optional<T>> : std::true_type {};

}  // namespace esign
