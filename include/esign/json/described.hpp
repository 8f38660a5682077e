// SPDX-License-Identifier: BSL-1.0
#pragma once
// Codecs for described enums (their wire strings) and described structs (one JSON member
// per C++ member, same name). A struct member's type says whether it may be absent
// (std::optional), null (nullable) or both (tri_state); a struct's rules across its members
// (`validate`, validation/across_members.hpp) are judged when every required member is present,
// and an enum's rule (validation/enum_names.hpp) when its string is read.
// Members are read in the order they come, so problems follow the document's order; the
// missing members and the rules across members come last, when the object closes.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <boost/describe/members.hpp>
#include <boost/json/value.hpp>
#include <boost/mp11/algorithm.hpp>
#include <boost/mp11/integral.hpp>

#include <esign/json/codec.hpp>
#include <esign/json/detail/messages.hpp>
#include <esign/validation/across_members.hpp>
#include <esign/validation/described_members.hpp>
#include <esign/validation/detail/same_name.hpp>
#include <esign/validation/enum_names.hpp>

namespace esign::json {

using esign::described_struct;

namespace detail {
using esign::is_std_optional;

// `,"name":`, what a described member's text begins with (its first written member's begins
// with '{' instead), as one literal: a member name is an identifier, nothing to escape.
template <class Descriptor>
inline constexpr auto member_prefix = [] {
    constexpr std::string_view name = Descriptor::name;
    std::array<char, name.size() + 4> out{};
    out[0] = ',';
    out[1] = '"';
    std::copy(name.begin(), name.end(), out.begin() + 2);
    out[name.size() + 2] = '"';
    out[name.size() + 3] = ':';
    return out;
}();

// `"name":`, what a described member's text in a body most likely begins with, followed by 8
// bytes of padding: the direct reader compares it a word at a time, and a compiler that cannot
// tell the word loads' bounds from the name's length sees them inside the array.
template <class Descriptor>
inline constexpr auto quoted_member_name = [] {
    constexpr std::string_view name = Descriptor::name;
    std::array<char, name.size() + 3 + 8> out{};
    out[0] = '"';
    std::copy(name.begin(), name.end(), out.begin() + 1);
    out[name.size() + 1] = '"';
    out[name.size() + 2] = ':';
    return out;
}();

}  // namespace detail

template <described_enum E>
struct codec<E> {
    static void read(const scalar& s, E& out, decoder& d) {
        if (!s.is_string()) return d.add(problem_kind::type, detail::expected_but("a string", s.kind));
        auto sink = d.sink();
        if (auto e = enum_from_wire<E>(s.text, sink)) out = *e;
    }
    static void encode(E in, boost::json::value& out) {
        auto s = enum_to_wire(in);
        out = boost::json::string_view(s.data(), s.size());
    }
    static void write(E in, text_buffer& out) { write_string(enum_to_wire(in), out); }
};

namespace detail {
// The codec of a described struct (codec<T> below), a template of its own so that a type may
// instead have a codec compiled in one source file whose members call these (an explicit
// specialization of codec: reference/team/snapshot_state.hpp's team_state).
template <class T>
struct described_codec {
    static void read_scalar(void*, const scalar& s, decoder& d) {
        d.add(problem_kind::type, detail::expected_but("an object", s.kind));
    }
    static const detail::container_reader* read_container(void*&, bool is_array, decoder& d) {
        if (is_array) {
            d.add(problem_kind::type, detail::expected_but("an object", boost::json::kind::array));
            return nullptr;
        }
        return &contents;
    }

    // json::read's direct reader (json/detail/direct_reader.hpp): each member's value read by
    // the member's own reader, found by its index. Gives up where the decoder would report
    // something: a name T does not have (skipped, or reported in strict mode), a name twice, a
    // missing member, a rule across members.
    template <class Reader>
    static bool read_direct(Reader& in, T& out) {
        if constexpr (member_count == 0) {
            return in.object([](std::string_view) { return false; });  // any member is one T lacks
        } else {
            std::uint64_t seen = 0;
            std::array<std::uint8_t, member_count + 1>& order = learned_order();
            std::size_t last = member_count;  // the member read last (member_count: none yet)
            const auto expected = [&] { return quoted_names[order[last]]; };
            const bool read = in.object(
                [&](std::string_view name) {
                    // A name given as a view of the expected member's quoted name is that member's
                    // (see object()).
                    const std::size_t guess = order[last];
                    const std::size_t i = name.data() == quoted_names[guess].data() + 1 ? guess : find(name);
                    if (i == member_count) return false;
                    order[last] = static_cast<std::uint8_t>(i);
                    last = i;
                    const std::uint64_t bit = std::uint64_t{1} << i;
                    if (seen & bit) return false;
                    seen |= bit;
                    return boost::mp11::mp_with_index<member_count>(i, [&](auto index) {
                        return in.value(boost::mp11::mp_at_c<described_members<T>, index>::get(out));
                    });
                },
                expected);
            if (!read || (required_members & ~seen) != 0) return false;
            reset_absent(out, seen);
            if constexpr (has_rules_across_members<T>()) {
                decoder& d = in.problems();
                auto sink = d.sink();
                esign::check_across_members(static_cast<const T&>(out), d.problems(), sink, 0);
                return d.problem_count() == 0;
            }
            return true;
        }
    }

    static void encode(const T& in, boost::json::value& out) {
        auto& object = out.emplace_object();
        object.reserve(boost::mp11::mp_size<described_members<T>>::value);  // one allocation
        for_each_written(in, [&](auto descriptor, const auto& member) {
            constexpr std::string_view name = decltype(descriptor)::name;
            encode_value(member, object[boost::json::string_view(name.data(), name.size())]);
        });
    }
    static void write(const T& in, text_buffer& out) {
        bool first = true;
        for_each_written(in, [&](auto descriptor, const auto& member) {
            constexpr auto& prefix = detail::member_prefix<decltype(descriptor)>;
            char* p = out.room(prefix.size());
            std::memcpy(p, prefix.data(), prefix.size());
            *p = std::exchange(first, false) ? '{' : ',';
            out.advance(prefix.size());
            write_value(member, out);
        });
        first ? out.append("{}") : out.put('}');
    }

private:
    // Calls f(descriptor, value) for each member that is written, in declaration order: all but
    // the absent std::optionals (a present one gives its value).
    template <class F>
    static void for_each_written(const T& in, F&& f) {
        boost::mp11::mp_for_each<described_members<T>>([&](auto m) {
            const auto& member = decltype(m)::get(in);
            using member_type = std::remove_cvref_t<decltype(member)>;
            if constexpr (detail::is_std_optional<member_type>::value) {
                if (member) f(m, *member);
            } else {
                f(m, member);
            }
        });
    }

    // One row per member, in declaration order: its name, whether it must be present, and how
    // it reads.
    struct member_row {
        std::string_view name;
        bool required;
        const detail::value_reader* reader;
    };
    // A member's reader takes the T that holds it: one call per value finds the member in the T
    // and reads it, where the member's own reader can be inlined.
    template <class Descriptor>
    static void read_member_scalar(void* object, const scalar& s, decoder& d) {
        using member_type = typename Descriptor::type;
        reader_for<member_type>.scalar(&Descriptor::get(*static_cast<T*>(object)), s, d);
    }
    template <class Descriptor>
    static const detail::container_reader* read_member_container(void*& target, bool is_array, decoder& d) {
        using member_type = typename Descriptor::type;
        target = &Descriptor::get(*static_cast<T*>(target));
        return reader_for<member_type>.begin(target, is_array, d);
    }
    template <class Descriptor>
    static constexpr detail::value_reader member_reader{&read_member_scalar<Descriptor>,
                                                        &read_member_container<Descriptor>};
    static constexpr std::size_t member_count = boost::mp11::mp_size<described_members<T>>::value;
    static_assert(member_count <= 64, "a struct read by esign has at most 64 members (a bit each)");
    static constexpr std::array<member_row, member_count> rows = [] {
        std::array<member_row, member_count> out{};
        std::size_t i = 0;
        boost::mp11::mp_for_each<described_members<T>>([&](auto m) {
            using member_type = typename decltype(m)::type;
            out[i++] = member_row{m.name, !is_std_optional<member_type>::value, &member_reader<decltype(m)>};
        });
        return out;
    }();

    // Each member's name in quotes with its colon (`"name":`).
    static constexpr std::array<std::string_view, member_count> quoted_names = [] {
        std::array<std::string_view, member_count> out{};
        std::size_t i = 0;
        boost::mp11::mp_for_each<described_members<T>>([&](auto m) {
            constexpr auto& quoted = detail::quoted_member_name<decltype(m)>;
            out[i++] = std::string_view(quoted.data(), quoted.size() - 8);
        });
        return out;
    }();

    // The direct reader's guess of which member comes next: after member i, the one that came
    // after it in the last T this thread read (at [member_count]: the first one), at first the
    // declaration order. The objects of one array mostly list their members in one order, which
    // need not be T's.
    static std::array<std::uint8_t, member_count + 1>& learned_order() noexcept {
        static thread_local std::array<std::uint8_t, member_count + 1> order = [] {
            std::array<std::uint8_t, member_count + 1> out{};
            for (std::size_t i = 0; i < member_count; ++i)
                out[i] = static_cast<std::uint8_t>(i + 1 == member_count ? 0 : i + 1);
            out[member_count] = 0;
            return out;
        }();
        return order;
    }

    // The members whose names have a given length, as bits (lengths from 32 share the last
    // entry): a name is compared with the few candidates of its length only.
    static constexpr std::size_t longest_bucket = 32;
    static constexpr std::array<std::uint64_t, longest_bucket + 1> by_length = [] {
        std::array<std::uint64_t, longest_bucket + 1> out{};
        for (std::size_t i = 0; i < member_count; ++i)
            out[std::min(rows[i].name.size(), longest_bucket)] |= std::uint64_t{1} << i;
        return out;
    }();

    // The index of the member named `key`, or member_count.
    static std::size_t find(std::string_view key) noexcept {
        for (std::uint64_t candidates = by_length[std::min(key.size(), longest_bucket)]; candidates != 0;
             candidates &= candidates - 1) {
            const auto i = static_cast<std::size_t>(std::countr_zero(candidates));
            if (esign::detail::same_name(rows[i].name, key)) return i;
        }
        return member_count;
    }

    static detail::slot member(detail::frame& f, std::string_view key, decoder& d) {
        const std::size_t i = find(key);
        if (i == member_count) [[unlikely]]
            return other_member(f, key, d);
        f.enter_member(rows[i].name);
        const std::uint64_t bit = std::uint64_t{1} << i;
        if (f.seen & bit) [[unlikely]] {
            d.add_duplicate();
            return {};
        }
        f.seen |= bit;
        return {f.target, rows[i].reader};
    }

    // An optional member absent from the body holds what it holds in a new T (empty, unless T
    // gives it a default), also in a value read into again (json::read_into).
    static void reset_absent(T& value, std::uint64_t seen) {
        std::size_t i = 0;
        boost::mp11::mp_for_each<described_members<T>>([&](auto m) {
            if constexpr (is_std_optional<typename decltype(m)::type>::value) {
                auto& member = decltype(m)::get(value);
                if (member && !(seen & (std::uint64_t{1} << i))) member = decltype(m)::get(new_value());
            }
            ++i;
        });
    }
    static const T& new_value() {
        static const T value{};
        return value;
    }

    // A name T does not have: skipped, reported in strict mode.
    static detail::slot other_member(detail::frame& f, std::string_view key, decoder& d) {
        f.enter_key(key);
        if (!f.first_time(key))
            d.add_duplicate();
        else if (d.options().strict)
            d.add(problem_kind::unknown_member, std::string(detail::unknown_member_message));
        return {};
    }

    // The required members, as bits: one test says whether any is missing.
    static constexpr std::uint64_t required_members = [] {
        std::uint64_t out = 0;
        for (std::size_t i = 0; i < member_count; ++i)
            if (rows[i].required) out |= std::uint64_t{1} << i;
        return out;
    }();

    static void end(detail::frame& f, decoder& d) {
        reset_absent(*static_cast<T*>(f.target), f.seen);
        const std::uint64_t missing = required_members & ~f.seen;
        for (std::uint64_t m = missing; m != 0; m &= m - 1)
            d.add_at(rows[std::countr_zero(m)].name, problem_kind::missing,
                     std::string(detail::missing_member_message));
        if constexpr (has_rules_across_members<T>()) {
            if (missing == 0) {
                auto sink = d.sink(f.first_problem);
                esign::check_across_members(*static_cast<const T*>(f.target), d.problems(), sink, f.first_problem);
            }
        }
    }

    static constexpr detail::container_reader contents{&member, nullptr, &end};
};
}  // namespace detail

template <described_struct T>
struct codec<T> : detail::described_codec<T> {};

}  // namespace esign::json
