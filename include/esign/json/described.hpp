#pragma once
// Codecs for described enums (their wire strings) and described structs (one JSON member
// per C++ member, same name). A struct member's type says whether it may be absent
// (std::optional), null (nullable) or both (tri_state); a struct may add rules across its
// members with `void validate(const T&, problem_sink&)`, found by ADL, called when every
// member decoded cleanly.
#include <optional>
#include <string>
#include <type_traits>

#include <boost/describe/members.hpp>
#include <boost/json/value.hpp>
#include <boost/mp11/algorithm.hpp>
#include <fmt/format.h>

#include <esign/json/codec.hpp>
#include <esign/json/detail/messages.hpp>
#include <esign/types/enum_names.hpp>

namespace esign::json {

template <class T>
concept described_struct = std::is_class_v<T> && !std::is_union_v<T> &&
    boost::describe::has_describe_members<T>::value;

namespace detail {
template <class T>
struct is_std_optional : std::false_type {};
template <class T>
struct is_std_optional<std::optional<T>> : std::true_type {};

template <class T>
concept has_validate = requires(const T& t, problem_sink& s) { validate(t, s); };

template <described_enum E>
std::string allowed_values_message() {
    std::string m = "must be one of: ";
    bool first = true;
    for (auto name : enum_wire_names<E>()) {
        if (!first) m += ", ";
        m += name;
        first = false;
    }
    return m;
}

template <class T>
using public_members = boost::describe::describe_members<T, boost::describe::mod_public>;

template <class T>
bool is_member_name(std::string_view key) noexcept {
    bool found = false;
    boost::mp11::mp_for_each<public_members<T>>([&](auto m) { found = found || key == m.name; });
    return found;
}
} // namespace detail

template <described_enum E>
struct codec<E> {
    static void decode(const boost::json::value& v, E& out, decoder& d) {
        if (!v.is_string()) return d.add(problem_kind::type, detail::expected_but("a string", v.kind()));
        auto s = v.get_string();
        if (auto e = enum_from_wire<E>(std::string_view(s.data(), s.size()))) out = *e;
        else d.add(problem_kind::enum_value, detail::allowed_values_message<E>());
    }
    static void encode(E in, boost::json::value& out) {
        auto s = enum_to_wire(in);
        out = boost::json::string_view(s.data(), s.size());
    }
};

template <described_struct T>
struct codec<T> {
    static void decode(const boost::json::value& v, T& out, decoder& d) {
        if (!v.is_object()) return d.add(problem_kind::type, detail::expected_but("an object", v.kind()));
        const auto& object = v.get_object();
        const std::size_t problems_before = d.problem_count();

        boost::mp11::mp_for_each<detail::public_members<T>>([&](auto m) {
            auto& member = out.*m.pointer;
            using member_type = std::remove_cvref_t<decltype(member)>;
            const boost::json::value* found = object.if_contains(m.name);
            if constexpr (detail::is_std_optional<member_type>::value) {
                if (found) d.at(m.name, [&] { decode_value(*found, member.emplace(), d); });
                else member.reset();
            } else {
                if (found) d.at(m.name, [&] { decode_value(*found, member, d); });
                else d.add_at(m.name, problem_kind::missing, "is required");
            }
        });

        if (d.options().strict)
            for (const auto& member : object)
                if (!detail::is_member_name<T>(std::string_view(member.key().data(), member.key().size())))
                    d.add_at(std::string_view(member.key().data(), member.key().size()), problem_kind::unknown_member,
                             "is not a member of this request");

        if constexpr (detail::has_validate<T>) {
            if (d.problem_count() == problems_before) {
                auto sink = d.sink();
                validate(std::as_const(out), sink);
            }
        }
    }

    static void encode(const T& in, boost::json::value& out) {
        auto& object = out.emplace_object();
        boost::mp11::mp_for_each<detail::public_members<T>>([&](auto m) {
            const auto& member = in.*m.pointer;
            using member_type = std::remove_cvref_t<decltype(member)>;
            if constexpr (detail::is_std_optional<member_type>::value) {
                if (member) encode_value(*member, object[m.name]);
            } else {
                encode_value(member, object[m.name]);
            }
        });
    }
};

} // namespace esign::json
