#pragma once
// Codecs for described enums (their wire strings) and described structs (one JSON member
// per C++ member, same name). A struct member's type says whether it may be absent
// (std::optional), null (nullable) or both (tri_state); a struct may add rules across its
// members with `void validate(const T&, problem_sink&)`, found by ADL, called when every
// required member is present, even if another member has a problem: every problem is
// reported, not only the first ones (a hook must not assume its members are valid).
#include <algorithm>
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

// A rule across members judges values that decoded; where a member already has a problem
// (wrong type, null), a rule's problem at the same place would only repeat it.
inline void drop_rule_problems_on_bad_members(problem_list& problems, std::size_t first_problem,
                                              std::size_t first_rule_problem) {
    auto overlaps = [](const problem_path& a, const problem_path& b) {
        const std::size_t n = std::min(a.size(), b.size());
        return std::equal(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(n), b.begin());
    };
    auto rule_begin = problems.begin() + static_cast<std::ptrdiff_t>(first_rule_problem);
    auto keep_end = std::remove_if(rule_begin, problems.end(), [&](const problem& rule) {
        for (std::size_t i = first_problem; i < first_rule_problem; ++i)
            if (overlaps(problems[i].path, rule.path)) return true;
        return false;
    });
    problems.erase(keep_end, problems.end());
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
        bool all_required_present = true;
        const std::size_t first_problem = d.problem_count();

        boost::mp11::mp_for_each<detail::public_members<T>>([&](auto m) {
            auto& member = out.*m.pointer;
            using member_type = std::remove_cvref_t<decltype(member)>;
            const boost::json::value* found = object.if_contains(m.name);
            if constexpr (detail::is_std_optional<member_type>::value) {
                if (found) d.at(m.name, [&] { decode_value(*found, member.emplace(), d); });
                else member.reset();
            } else {
                if (found) d.at(m.name, [&] { decode_value(*found, member, d); });
                else {
                    d.add_at(m.name, problem_kind::missing, "is required");
                    all_required_present = false;
                }
            }
        });

        if (d.options().strict)
            for (const auto& member : object)
                if (!detail::is_member_name<T>(std::string_view(member.key().data(), member.key().size())))
                    d.add_at(std::string_view(member.key().data(), member.key().size()), problem_kind::unknown_member,
                             "is not a member of this request");

        if constexpr (detail::has_validate<T>) {
            if (all_required_present) {
                const std::size_t first_rule_problem = d.problem_count();
                auto sink = d.sink();
                validate(std::as_const(out), sink);
                detail::drop_rule_problems_on_bad_members(d.problems(), first_problem, first_rule_problem);
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
