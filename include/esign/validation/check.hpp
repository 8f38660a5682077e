// SPDX-License-Identifier: BSL-1.0
#pragma once
// Checking a value built in code (issue 17), below any wire format (issue 41). esign::check(v)
// walks a value's described members, items and entries, judges each value by its type's rule
// (validation/rule.hpp) and each struct by its rules across members
// (validation/across_members.hpp), and gives every problem with its path, kind, limit and
// message, in document order: declaration order for a struct's members; a vector's size problem
// after its items; a struct's rules across members last. At most max_reported_problems are kept.
// No wire format is involved: a program that validates requests built in code includes this
// header and the model, nothing of Boost.JSON (tests/no_json/ builds one).
//
// What it judges besides the types' rules:
//   - a string (a type derived from std::string) that is not valid UTF-8: one problem, kind
//     syntax, "must be valid UTF-8", and its other rules are not judged;
//   - an absent std::optional member is not judged; a null nullable or tri_state is fine;
//   - a bounded_vector's items beyond its maximum are not judged by their rules (a reader does
//     not read them), the vector has its one size problem;
//   - a rule across members judges the value as a reader would keep it: a member whose value
//     breaks its type's rule (an enumerator outside the enum, an integer out of range; strings
//     excepted, which a reader keeps) holds what a new value holds, and a bounded_vector its
//     first max_size items. Only then, and only for a struct that has such a rule, is the value
//     copied.
//
// A layer above extends the same walk through one customization point, the `Ext` parameter of
// validation::check (see no_extension below). The JSON layer's (json/check.hpp) judges what only
// JSON has (a boost::json value's depth and UTF-8, a NaN double, a codec's own `check`) and
// models what json::read(json::write(v)) says of an empty optional outside a struct; it also
// gives esign::check an overload for every type with a codec, so that where <esign/json/check.hpp>
// is included
//
//   esign::check(v).problems() == esign::json::read<T>(esign::json::write(v)).problems()
//
// (see json/check.hpp for where that holds). Without it, a value that holds a boost::json value
// does not compile here (static_assert: no rule known for it), rather than pass unjudged.
//
// Cost: one walk of the value, no allocation but a small path buffer until a problem is found
// (its path is built then); usable on every response a server sends.
//
// esign::checked(v) gives the value, or its problems; the `make` factories of the constrained
// types (types/bounded_string.hpp) call validation::checked.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/mp11/algorithm.hpp>

#include <esign/validation/across_members.hpp>
#include <esign/validation/described_members.hpp>
#include <esign/validation/problem.hpp>
#include <esign/validation/result.hpp>
#include <esign/validation/rule.hpp>
#include <esign/validation/utf8.hpp>

namespace esign::validation {

// nullable<T> (types/nullable.hpp): a std::optional that is always present, possibly null.
template <class T>
concept nullable_like = !is_std_optional<T>::value && requires {
    typename T::value_type;
}
&&std::is_base_of_v<std::optional<typename T::value_type>, T>;

// std::vector<T> and the types derived from one (bounded_vector<T, Min, Max>).
template <class T>
concept sequence = requires {
    typename T::value_type;
}
&&std::is_base_of_v<std::vector<typename T::value_type>, T>;

template <class T>
struct is_string_map : std::false_type {};
template <class T>
struct is_string_map<std::map<std::string, T>> : std::true_type {};

// A string of the interface: std::string and the types derived from it.
template <class T>
concept string_like = std::is_base_of_v<std::string, T>;

inline constexpr std::string_view not_utf8_message = "must be valid UTF-8";

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
    // False where a reader parses values without reading them (a bounded_vector's items beyond
    // its maximum): there only what the wire format cannot say is a problem, the rules are not
    // judged.
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
    // Where a type's rule or a rule across members adds problems: at the current path. The
    // problems of the value being checked begin at `first_problem`.
    problem_sink sink(std::size_t first_problem = 0) noexcept {
        return problem_sink(
            problems_, [](const void* self) { return static_cast<const checker*>(self)->path(); }, this, first_problem,
            &dropped_);
    }
    // Problems found at paths relative to the current value (by a reader of its own).
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

// The walk's customization point: what a layer above (a wire format) adds. Each hook is a static
// member template; this one adds nothing. json/check.hpp's json_extension is the other.
struct no_extension {
    // Whether the extension knows T (a wire format's own type, a type with a codec): a leaf
    // without a rule that it does not know is a compile error rather than a value passed unjudged.
    template <class T>
    static constexpr bool knows = false;
    // Whether the extension walks values of T itself (a boost::json value): walk(value, c).
    template <class T>
    static constexpr bool walks = false;
    template <class T>
    static void walk(const T&, checker&) {}
    // Whether such a value is null (a nullable that holds it reads as null).
    template <class T>
    static bool is_null(const T&) {
        return false;
    }
    // Whether it has rules for T beyond T's own (a codec's `check`): rules(value, sink), true
    // when they hold.
    template <class T>
    static constexpr bool has_rules = false;
    template <class T>
    static bool rules(const T&, problem_sink&) {
        return true;
    }
    // What the wire format cannot say of a value (a NaN double): true when it added that problem
    // (the value's rules are then not judged).
    template <class T>
    static bool unsayable(const T&, checker&) {
        return false;
    }
    // An empty std::optional outside a struct (an item, the root; an absent member is not
    // judged): its problems; true when a reader keeps it as it is. Here: nothing, kept.
    template <class Optional>
    static bool empty_optional(checker&) {
        return true;
    }
    // Turns such an empty optional into what a reader makes of it (see as_read below).
    template <class Optional>
    static void empty_optional_as_read(Optional&) {}
};

namespace detail {

template <class Ext, class T>
bool check_value(const T& value, checker& c);
template <class Ext, class T>
void as_read(T& value, const T& fresh);

// Whether `value` has no problem by T's rule and the extension's rules for T.
template <class Ext, class T>
bool keeps(const T& value) {
    problem_list found;
    const problem_path here;
    problem_sink sink(found, here);
    if constexpr (has_rule<T>) rule_of<T>::check(value, sink);
    if constexpr (Ext::template has_rules<T>) Ext::rules(value, sink);
    return found.empty();
}

// A value that is not a container: what the wire format cannot say, then its rules. True when a
// reader keeps the value (a string always; another value when its rules hold).
template <class Ext, class T>
bool check_leaf(const T& value, checker& c) {
    static_assert(!std::is_class_v<T> || string_like<T> || has_rule<T> || Ext::template knows<T>,
                  "esign::check: no rule known for this type (a type of a wire format, such as a boost::json "
                  "value, is judged where <esign/json/check.hpp> is included)");
    if constexpr (string_like<T>) {
        if (!valid_utf8(value)) {
            c.add(problem_kind::syntax, std::string(not_utf8_message));
            return true;
        }
    }
    if (Ext::unsayable(value, c)) return true;
    if constexpr (has_rule<T> || Ext::template has_rules<T>) {
        if (!c.judging) return true;
        const std::size_t before = c.problems().size();
        auto sink = c.sink();
        if constexpr (has_rule<T>) rule_of<T>::check(value, sink);
        if constexpr (Ext::template has_rules<T>) Ext::rules(value, sink);
        return string_like<T> || c.problems().size() == before;
    } else {
        return true;
    }
}

// Items in order, then the size (the vector type's rule). A reader reads a bounded_vector's
// items up to its maximum only.
template <class Ext, class Vector>
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
        kept = check_value<Ext>(items[i], c) && kept;
        c.leave();
        c.judging = judging;
    }
    if constexpr (has_rule<Vector>) {
        if (c.judging) {
            auto sink = c.sink();
            rule_of<Vector>::check(items, sink);
        }
    }
    return kept;
}

template <class Ext, class Map>
bool check_entries(const Map& map, checker& c) {
    bool kept = true;
    for (const auto& [key, item] : map) {
        if (c.full()) break;
        c.enter(std::string_view(key));
        if (!valid_utf8(key)) c.add(problem_kind::syntax, std::string(not_utf8_message));
        kept = check_value<Ext>(item, c) && kept;
        c.leave();
    }
    return kept;
}

// Members in declaration order, then the rules across members.
template <class Ext, class T>
bool check_members(const T& value, checker& c) {
    const std::size_t first_problem = c.problems().size();
    bool kept = true;
    boost::mp11::mp_for_each<described_members<T>>([&](auto m) {
        constexpr std::string_view name = decltype(m)::name;
        const auto& member = decltype(m)::get(value);
        using member_type = std::remove_cvref_t<decltype(member)>;
        if constexpr (is_std_optional<member_type>::value) {
            if (!member) return;  // absent: not judged
            c.enter(name);
            kept = check_value<Ext>(*member, c) && kept;
        } else {
            c.enter(name);
            kept = check_value<Ext>(member, c) && kept;
        }
        c.leave();
    });
    // No member is missing from a value: the rules across members are judged, as a reader
    // judges them once every required member is present.
    if constexpr (has_rules_across_members<T>()) {
        if (c.judging && !c.full()) {
            auto sink = c.sink(first_problem);
            if constexpr (std::is_copy_constructible_v<T>) {
                if (!kept) {
                    T seen = value;
                    as_read<Ext>(seen, T{});
                    check_across_members(seen, c.problems(), sink, first_problem);
                    return kept;
                }
            }
            check_across_members(value, c.problems(), sink, first_problem);
        }
    }
    return kept;
}

// Whether `value` is null where a nullable holds it (an empty optional inside it too).
template <class Ext, class T>
bool holds_null(const T& value) noexcept {
    if constexpr (is_std_optional<T>::value || nullable_like<T>)
        return !value || holds_null<Ext>(*value);
    else if constexpr (Ext::template walks<T>)
        return Ext::is_null(value);
    else
        return false;
}

// Adds the problems of `value` at the current path. True when a reader keeps the value as it
// is (false: the value a rule across members must see differs, see as_read).
template <class Ext, class T>
bool check_value(const T& value, checker& c) {
    if (c.full()) return true;  // a reader reads nothing more once it holds max_reported_problems
    if constexpr (Ext::template walks<T>) {
        Ext::walk(value, c);
        return true;
    } else if constexpr (is_std_optional<T>::value) {
        if (value) return check_value<Ext>(*value, c);
        return c.judging ? Ext::template empty_optional<T>(c) : true;
    } else if constexpr (nullable_like<T>) {
        if (holds_null<Ext>(value)) return !value;  // a value that is null inside is null
        return check_value<Ext>(*value, c);
    } else if constexpr (sequence<T>) {
        return check_items<Ext>(value, c);
    } else if constexpr (is_string_map<T>::value) {
        return check_entries<Ext>(value, c);
    } else if constexpr (described_struct<T>) {
        return check_members<Ext>(value, c);
    } else {
        return check_leaf<Ext>(value, c);
    }
}

// Turns `value` into what a reader keeps of it, for a rule across members to judge; `fresh` is
// what its place holds before the reader reads into it (a new value, or the member of one).
template <class Ext, class T>
void as_read(T& value, const T& fresh) {
    (void)fresh;
    if constexpr (Ext::template walks<T>) {
        return;
    } else if constexpr (is_std_optional<T>::value) {
        if (value)
            as_read<Ext>(*value, typename T::value_type{});  // a reader emplaces a new value, then reads into it
        else
            Ext::empty_optional_as_read(value);
    } else if constexpr (nullable_like<T>) {
        if (holds_null<Ext>(value))
            value.reset();
        else
            as_read<Ext>(*value, typename T::value_type{});
    } else if constexpr (sequence<T>) {
        if constexpr (requires { T::max_size; }) {
            if (value.size() > T::max_size)
                value.erase(value.begin() + static_cast<std::ptrdiff_t>(T::max_size), value.end());
        }
        for (auto& item : value) as_read<Ext>(item, typename T::value_type{});
    } else if constexpr (is_string_map<T>::value) {
        for (auto& entry : value) as_read<Ext>(entry.second, typename T::mapped_type{});
    } else if constexpr (described_struct<T>) {
        boost::mp11::mp_for_each<described_members<T>>([&](auto m) {
            auto& member = decltype(m)::get(value);
            using member_type = std::remove_cvref_t<decltype(member)>;
            if constexpr (is_std_optional<member_type>::value) {
                if (member) as_read<Ext>(*member, typename member_type::value_type{});
            } else {
                as_read<Ext>(member, decltype(m)::get(fresh));
            }
        });
    } else if constexpr (!string_like<T> && (has_rule<T> || Ext::template has_rules<T>)) {
        // A value that breaks its rules is not stored: its place keeps what it held.
        if (!keeps<Ext>(value)) value = fresh;
    }
}

}  // namespace detail

// Every problem of `value`, each at its path (see the top of this file); nothing when it is
// valid. `Ext`: what a layer above adds to the walk.
template <class Ext = no_extension, class T>
result<void> check(const T& value) {
    checker c;
    detail::check_value<Ext>(value, c);
    return std::move(c.problems());
}

// `value` when check<Ext>(value) finds nothing, else its problems.
template <class Ext = no_extension, class T>
result<T> checked(T value) {
    result<void> judged = validation::check<Ext>(value);
    if (!judged) return std::move(judged).take_problems();
    return value;
}

}  // namespace esign::validation

namespace esign {

// Every problem of `value`, by its types' rules and its rules across members (see the top of
// this file). Where <esign/json/check.hpp> is included, a more constrained overload judges every
// type with a codec as json::read(json::write(value)) would.
template <class T>
result<void> check(const T& value) {
    return validation::check(value);
}

// `value` when check(value) finds nothing, else its problems.
template <class T>
result<T> checked(T value) {
    return validation::checked(std::move(value));
}

}  // namespace esign
