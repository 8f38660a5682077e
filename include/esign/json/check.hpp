// SPDX-License-Identifier: BSL-1.0
#pragma once
// Checking a value built in code (issue 17). esign::check(v) judges any value that has a codec
// by the rules json::read judges a body by, without writing JSON, and gives every problem with
// the path, kind, limit and message read would give:
//
//   esign::check(v).problems() == esign::json::read<T>(esign::json::write(v)).problems()
//
// for every value whose JSON is an object (a described struct, a map: read takes only an
// object; for any other T, check is decode<T>(encode(v))), in the same order: document order,
// which is declaration order for a struct's members; a vector's size problem after its items;
// a struct's rules across members last. At most max_reported_problems are kept, as by read.
//
// The rules are the codecs' own (one function per rule for both ways): codec<T>::check of each
// constrained type (lengths in code points, exact lengths, the e-mail patterns, patterns, the
// URI grammar, ranges, enumerators), the size rule of a bounded_vector (vector_codec::check_size)
// and the rules across members (detail::check_across_members, with the same dropping of a rule's
// problems at a member that has one of its own). What check does that read does not need to:
//   - Containers are walked as read walks the JSON write gives: an absent std::optional member
//     is not judged; a null nullable or tri_state is fine; an empty std::optional outside a
//     struct (an item, the root) is written as null, so it gets what read says of null there
//     (T's own reader judges it); a bounded_vector's items beyond its maximum are not judged
//     (read does not read them, only parses them: what JSON cannot say, below, is still found
//     there), the vector has its one size problem.
//   - An enumerator outside the described ones is written as "" and refused as an unknown
//     string is (codec<E>::check judges the wire string).
//   - A rule across members judges the value as read would have it: a member whose value read
//     does not keep (an enumerator outside the enum, an integer out of range: any value whose
//     codec check finds a problem, except strings, which read keeps) holds what it holds in a
//     new value (T{}), an empty optional outside a struct becomes what reading null makes of it,
//     and a bounded_vector holds its first max_size items. Only then, and only for a struct that
//     has such a rule, is the value copied.
//   - What write(v) cannot say as JSON is a problem of kind syntax at the value's path: a string
//     (or a member name, or a string of a boost::json value) that is not valid UTF-8, "must be
//     valid UTF-8" (its other rules are not judged then); a double that is NaN or infinite,
//     "must be a finite number" (Boost.JSON writes NaN and Infinity, which no parser reads); a
//     boost::json value nested deeper than read's limit (parse_limits::max_depth, the root
//     object being level 1). There the invariant does not hold: read(write(v)) gives one
//     problem, syntax, at [] (the body is not JSON), where check gives each at its path, with
//     the value's other problems.
// Where else the invariant may not be exact: Boost.JSON's parser may read a double back a few ulp
// away (see fuzz/check.hpp), and -0.0 is written as 0, so a rule across members that compares a
// double with a bound may judge the two values differently right at the bound; and a member of
// struct type that its enclosing struct initializes to something other than a new value of its
// type (`inner x{.a = 5};`, which the model has not) is taken, by a rule across members, to start
// as a new value of its type. A codec of the user's (codec.hpp) is trusted to keep a value its
// check accepts and, unless its type derives from std::string, to drop one it refuses.
//
// Cost: one walk of the value, no allocation but a small path buffer until a problem is found
// (its path is built then); usable on every response a server sends.
//
// esign::checked(v) gives the value, or its problems; the `make` factories of the constrained
// types (types/bounded_string.hpp) call it.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/json/value.hpp>
#include <boost/mp11/algorithm.hpp>
#include <fmt/format.h>

#include <esign/json/codecs.hpp>
#include <esign/json/described.hpp>
#include <esign/json/parse.hpp>
#include <esign/types/bounded_string.hpp>
#include <esign/validation/problem.hpp>
#include <esign/validation/result.hpp>

namespace esign::json::detail {

template <class T>
struct is_nullable : std::false_type {};
template <class T>
struct is_nullable<nullable<T>> : std::true_type {};

template <class T>
struct is_checked_vector : std::false_type {};
template <class T>
struct is_checked_vector<std::vector<T>> : std::true_type {};
template <class T, std::size_t Min, std::size_t Max>
struct is_checked_vector<bounded_vector<T, Min, Max>> : std::true_type {};

template <class T>
struct is_string_map : std::false_type {};
template <class T>
struct is_string_map<std::map<std::string, T>> : std::true_type {};

inline constexpr std::string_view not_utf8_message = "must be valid UTF-8";
inline constexpr std::string_view not_finite_message = "must be a finite number";

// Collects the problems of a value, each at its path as a decoder names it.
class checker {
public:
    checker() { path_.resize(16); }

    problem_list& problems() noexcept { return problems_; }
    bool full() const noexcept { return problems_full(problems_); }
    // Problems found but not kept (beyond max_reported_problems).
    std::size_t dropped_problems() const noexcept { return dropped_; }
    // Segments of the current path: a container here is at JSON level depth() + 1.
    std::size_t depth() const noexcept { return depth_; }
    // False where read parses values without reading them (a bounded_vector's items beyond its
    // maximum): there only what JSON cannot say is a problem, the rules are not judged.
    bool judging = true;

    // The path of the value being checked, e.g. ["recipients", "3", "email"] (names cut by path_name).
    problem_path path() const {
        problem_path p;
        p.reserve(depth_ + 1);
        for (std::size_t i = 0; i < depth_; ++i) {
            const segment& s = path_[i];
            if (s.index != segment::named)
                p.push_back(std::to_string(s.index));
            else
                p.emplace_back(path_name(s.name, p.size()));
        }
        return p;
    }

    void add(problem_kind kind, std::string message, std::optional<std::int64_t> limit = std::nullopt) {
        if (full()) {
            ++dropped_;
            return;
        }
        problems_.push_back(problem{path(), kind, limit, std::move(message)});
    }
    // Where a codec's check or a rule across members adds problems: at the current path. The
    // problems of the value being checked begin at `first_problem`.
    problem_sink sink(std::size_t first_problem = 0) noexcept {
        return problem_sink(
            problems_, [](const void* self) { return static_cast<const checker*>(self)->path(); }, this, first_problem,
            &dropped_);
    }
    // Problems found at paths relative to the current value (by a decoder of its own).
    void add_below(problem_list found) {
        const problem_path here = path();
        for (problem& p : found) {
            if (full()) {
                ++dropped_;
                continue;
            }
            p.path.insert(p.path.begin(), here.begin(), here.end());
            for (std::size_t i = here.size(); i < p.path.size(); ++i)  // now deeper: maybe cut more
                p.path[i].resize(path_name(p.path[i], i).size());
            problems_.push_back(std::move(p));
        }
    }

    // A member or key (a view that lives as long as the check), then an item.
    void enter(std::string_view name) {
        segment& s = next();
        s.name = name;
        s.index = segment::named;
    }
    void enter(std::size_t index) { next().index = index; }
    void leave() noexcept { --depth_; }

private:
    struct segment {
        static constexpr std::size_t named = static_cast<std::size_t>(-1);
        std::string_view name;  // when index is `named`
        std::size_t index = named;
    };
    segment& next() {
        if (depth_ == path_.size()) path_.resize(2 * depth_);
        return path_[depth_++];
    }

    std::vector<segment> path_;  // its first depth_ segments
    std::size_t depth_ = 0;
    problem_list problems_;
    std::size_t dropped_ = 0;
};

// Whether `value` is written as null (what a nullable reads as its own null).
template <class T>
bool writes_null(const T& value) noexcept {
    if constexpr (is_std_optional<T>::value || is_nullable<T>::value)
        return !value || writes_null(*value);
    else if constexpr (std::is_same_v<T, boost::json::value>)
        return value.is_null();
    else
        return false;
}

// What read makes of null where a T is expected, into `target` (T's own reader judges it); the
// problems, at paths relative to the value.
template <class T>
problem_list read_null(T& target) {
    decoder d;
    d.start(slot_for(target));
    d.on_scalar(scalar::null());
    return std::move(d.problems());
}

template <class T>
bool check_value(const T& value, checker& c);
template <class T>
void as_read(T& value, const T& fresh);

// A container of a boost::json value at level depth() + 1: refused beyond read's limit.
inline bool too_deep(checker& c) {
    constexpr std::size_t max_depth = parse_limits{}.max_depth;
    if (c.depth() + 1 <= max_depth) return false;
    c.add(problem_kind::syntax, fmt::format("is nested deeper than {} levels", max_depth));
    return true;
}

inline void check_dom(const boost::json::value& value, checker& c);

inline void check_dom_object(const boost::json::object& object, checker& c) {
    if (too_deep(c)) return;
    for (const auto& member : object) {
        if (c.full()) return;
        const std::string_view key(member.key().data(), member.key().size());
        c.enter(key);
        if (!valid_utf8(key)) c.add(problem_kind::syntax, std::string(not_utf8_message));
        check_dom(member.value(), c);
        c.leave();
    }
}

// Only what JSON cannot say: any boost::json value is read as it is.
inline void check_dom(const boost::json::value& value, checker& c) {
    switch (value.kind()) {
        case boost::json::kind::string: {
            const auto& s = value.get_string();
            if (!valid_utf8(std::string_view(s.data(), s.size())))
                c.add(problem_kind::syntax, std::string(not_utf8_message));
            return;
        }
        case boost::json::kind::double_:
            if (!std::isfinite(value.get_double())) c.add(problem_kind::syntax, std::string(not_finite_message));
            return;
        case boost::json::kind::array: {
            if (too_deep(c)) return;
            const auto& array = value.get_array();
            for (std::size_t i = 0; i < array.size() && !c.full(); ++i) {
                c.enter(i);
                check_dom(array[i], c);
                c.leave();
            }
            return;
        }
        case boost::json::kind::object:
            return check_dom_object(value.get_object(), c);
        default:
            return;
    }
}

// A value that is not a container: what JSON cannot say, then its codec's rules. True when read
// keeps the value (a string always; another value when its rules hold).
template <class T>
bool check_leaf(const T& value, checker& c) {
    if constexpr (std::is_base_of_v<std::string, T>) {
        if (!valid_utf8(value)) {
            c.add(problem_kind::syntax, std::string(not_utf8_message));
            return true;
        }
    }
    if constexpr (std::is_floating_point_v<T>) {
        if (!std::isfinite(value)) {
            c.add(problem_kind::syntax, std::string(not_finite_message));
            return true;
        }
    }
    if constexpr (checking_codec<T>) {
        if (!c.judging) return true;
        const std::size_t before = c.problems().size();
        auto sink = c.sink();
        codec<T>::check(value, sink);
        return std::is_base_of_v<std::string, T> || c.problems().size() == before;
    } else {
        return true;
    }
}

// Items in order, then the size. Read reads a bounded_vector's items up to its maximum only; the
// parser still reads those beyond, which must be JSON.
template <class Vector>
bool check_items(const Vector& items, checker& c) {
    std::size_t judged = items.size();
    bool kept = true;
    if constexpr (requires { Vector::max_size; }) {
        if (judged > Vector::max_size) {
            judged = Vector::max_size;
            kept = false;
        }
    }
    for (std::size_t i = 0; i < items.size() && !c.full(); ++i) {
        const bool judging = c.judging;
        if (i >= judged) c.judging = false;
        c.enter(i);
        kept = check_value(items[i], c) && kept;
        c.leave();
        c.judging = judging;
    }
    if constexpr (requires { Vector::max_size; }) {
        if (c.judging) {
            auto sink = c.sink();
            codec<Vector>::check_size(items.size(), sink);
        }
    }
    return kept;
}

template <class Map>
bool check_entries(const Map& map, checker& c) {
    bool kept = true;
    for (const auto& [key, item] : map) {
        if (c.full()) break;
        c.enter(std::string_view(key));
        if (!valid_utf8(key)) c.add(problem_kind::syntax, std::string(not_utf8_message));
        kept = check_value(item, c) && kept;
        c.leave();
    }
    return kept;
}

// Members in declaration order (the order write gives them), then the rules across members.
template <class T>
bool check_members(const T& value, checker& c) {
    const std::size_t first_problem = c.problems().size();
    bool kept = true;
    boost::mp11::mp_for_each<described_members<T>>([&](auto m) {
        constexpr std::string_view name = decltype(m)::name;
        const auto& member = decltype(m)::get(value);
        using member_type = std::remove_cvref_t<decltype(member)>;
        if constexpr (is_std_optional<member_type>::value) {
            if (!member) return;  // absent: not written, not read
            c.enter(name);
            kept = check_value(*member, c) && kept;
        } else {
            c.enter(name);
            kept = check_value(member, c) && kept;
        }
        c.leave();
    });
    // No member is missing from a value: the rules across members are judged, as read judges
    // them once every required member is present.
    if constexpr (has_rules_across_members<T>()) {
        if (c.judging && !c.full()) {
            auto sink = c.sink(first_problem);
            if constexpr (std::is_copy_constructible_v<T>) {
                if (!kept) {
                    T seen = value;
                    as_read(seen, T{});
                    check_across_members(seen, c.problems(), sink, first_problem);
                    return kept;
                }
            }
            check_across_members(value, c.problems(), sink, first_problem);
        }
    }
    return kept;
}

// Adds the problems of `value` at the current path. True when read(write(value)) keeps the
// value as it is (false: the value a rule across members must see differs, see as_read).
template <class T>
bool check_value(const T& value, checker& c) {
    if (c.full()) return true;  // read reads nothing more once it holds max_reported_problems
    if constexpr (is_std_optional<T>::value) {
        if (value) return check_value(*value, c);
        if (c.judging) {
            T null_read;  // written as null: what its reader says of null (outside a struct)
            c.add_below(read_null(null_read));
        }
        return false;
    } else if constexpr (is_nullable<T>::value) {
        if (writes_null(value)) return !value;  // a value written as null reads as null
        return check_value(*value, c);
    } else if constexpr (is_checked_vector<T>::value) {
        return check_items(value, c);
    } else if constexpr (is_string_map<T>::value) {
        return check_entries(value, c);
    } else if constexpr (described_struct<T>) {
        return check_members(value, c);
    } else if constexpr (std::is_same_v<T, boost::json::value>) {
        check_dom(value, c);
        return true;
    } else if constexpr (std::is_same_v<T, boost::json::object>) {
        check_dom_object(value, c);
        return true;
    } else {
        return check_leaf(value, c);
    }
}

// Turns `value` into what read(write(value)) gives, for a rule across members to judge; `fresh`
// is what its place holds before read reads into it (a new value, or the member of one).
template <class T>
void as_read(T& value, const T& fresh) {
    (void)fresh;
    if constexpr (is_std_optional<T>::value) {
        if (value)
            as_read(*value, typename T::value_type{});  // read emplaces a new value, then reads into it
        else
            (void)read_null(value);
    } else if constexpr (is_nullable<T>::value) {
        if (writes_null(value))
            value.reset();
        else
            as_read(*value, typename T::value_type{});
    } else if constexpr (is_checked_vector<T>::value) {
        if constexpr (requires { T::max_size; }) {
            if (value.size() > T::max_size)
                value.erase(value.begin() + static_cast<std::ptrdiff_t>(T::max_size), value.end());
        }
        for (auto& item : value) as_read(item, typename T::value_type{});
    } else if constexpr (is_string_map<T>::value) {
        for (auto& entry : value) as_read(entry.second, typename T::mapped_type{});
    } else if constexpr (described_struct<T>) {
        boost::mp11::mp_for_each<described_members<T>>([&](auto m) {
            auto& member = decltype(m)::get(value);
            using member_type = std::remove_cvref_t<decltype(member)>;
            if constexpr (is_std_optional<member_type>::value) {
                if (member) as_read(*member, typename member_type::value_type{});
            } else {
                as_read(member, decltype(m)::get(fresh));
            }
        });
    } else if constexpr (checking_codec<T> && !std::is_base_of_v<std::string, T>) {
        // A value that breaks its rules is not stored: its place keeps what it held.
        problem_list found;
        const problem_path here;
        problem_sink sink(found, here);
        codec<T>::check(value, sink);
        if (!found.empty()) value = fresh;
    }
}

}  // namespace esign::json::detail

namespace esign {

// Every problem of `value`, each at its path, as json::read<T>(json::write(value)) would report
// them (see the top of this file for the exact correspondence); nothing when it is valid.
template <json::codable T>
result<void> check(const T& value) {
    json::detail::checker c;
    json::detail::check_value(value, c);
    return std::move(c.problems());
}

// `value` when check(value) finds nothing, else its problems.
template <json::codable T>
result<T> checked(T value) {
    result<void> judged = check(value);
    if (!judged) return std::move(judged).take_problems();
    return value;
}

}  // namespace esign
