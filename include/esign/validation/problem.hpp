// SPDX-License-Identifier: BSL-1.0
#pragma once
// A problem found in a request: where (path from the body's root), what (a stable kind),
// the limit involved where there is one, and a message for people.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/describe/enum.hpp>

namespace esign {

enum class problem_kind {
    syntax,            // the body itself: empty, invalid JSON or UTF-8, not an object, too deep
    missing,           // a required member is absent
    type,              // wrong JSON type (no coercion between strings, numbers, booleans)
    too_short,         // string shorter than its minimum (code points)
    too_long,          // string longer than its maximum (code points)
    pattern,           // string does not match its pattern (e-mail, colour, ...)
    enum_value,        // string is not one of the allowed values
    range,             // integer outside its range, or not an integer
    size,              // array with too few or too many items
    unknown_member,    // member not in the request type (strict mode only)
    duplicate_member,  // the same member name twice in one object
    rule,              // a rule beyond the value's own type: across members (sms needs a phone), or
                       // of the operation (a teamUuid that is not the caller's)
};
BOOST_DESCRIBE_ENUM(problem_kind, syntax, missing, type, too_short, too_long, pattern, enum_value, range, size,
                    unknown_member, duplicate_member, rule)

using problem_path = std::vector<std::string>;

struct problem {
    problem_path path;
    problem_kind kind{};
    std::optional<std::int64_t> limit;
    std::string message;
    friend bool operator==(const problem&, const problem&) = default;
};

using problem_list = std::vector<problem>;

// Bounds on what decoding keeps of a hostile body (contract.md §1 and §6.7).
// At most this many problems are kept, and reported (the error body's details): a decoder
// drops further problems (it counts them), and a body with more is still refused.
inline constexpr std::size_t max_reported_problems = 100;
// A member name in a problem path keeps at most max_path_name_bytes bytes; from the
// segment long_path_segments on (counted from 0), at most max_deep_path_name_bytes: 100
// paths of 64 names of 256 bytes would take 1.6 MiB, out of proportion to a body of 17 KiB
// (contract.md §6.7 bounds memory to 32 times the body plus 1 MiB).
inline constexpr std::size_t max_path_name_bytes = 256;
inline constexpr std::size_t long_path_segments = 8;
inline constexpr std::size_t max_deep_path_name_bytes = 32;

// The part of a member name that a problem path keeps as its segment `position`: its first
// max_path_name_bytes bytes (max_deep_path_name_bytes from position long_path_segments on),
// one to three fewer where the cut would split a UTF-8 sequence (it ends before the code
// point that does not fit whole; names are valid UTF-8, the parser checks). Array indices
// and names of C++ members are shorter, and kept whole. Cutting a cut name again, at the
// same or a later position, gives what one cut would.
inline std::string_view path_name(std::string_view name, std::size_t position) noexcept {
    const std::size_t max = position < long_path_segments ? max_path_name_bytes : max_deep_path_name_bytes;
    if (name.size() <= max) return name;
    std::size_t n = max;
    while (n > 0 && (static_cast<unsigned char>(name[n]) & 0xC0) == 0x80) --n;  // a continuation byte
    return name.substr(0, n);
}

// Whether `out` holds max_reported_problems already: a further problem is dropped (and its
// path need not be built).
inline bool problems_full(const problem_list& out) noexcept { return out.size() >= max_reported_problems; }

// Appends the problems `found` of a value judged on its own to `out`, each at its path below
// `base`, where the value stands; beyond max_reported_problems in `out` they are dropped.
inline void append_below(problem_list& out, const problem_path& base, const problem_list& found) {
    for (problem p : found) {
        if (problems_full(out)) return;
        p.path.insert(p.path.begin(), base.begin(), base.end());
        out.push_back(std::move(p));
    }
}

// Whether `p` says that the value at its path did not decode, so that a rule across members
// must not judge it. A duplicate does not: it is about a later copy of a member, and the
// first copy, the one kept and judged, decoded.
inline bool marks_bad_value(const problem& p) noexcept { return p.kind != problem_kind::duplicate_member; }

// Where rules add problems. It knows the path of the value being checked, so a rule
// names only the members below it: sink.add({"recipients", "3", "phone"}, ...).
// Problems beyond max_reported_problems in `out` are dropped (problems_full), and counted
// where the sink was given a counter.
class problem_sink {
public:
    // Problems below a fixed base path.
    problem_sink(problem_list& out, const problem_path& base) noexcept : out_(&out), base_(&base) {}
    // Problems below a base path built only when a problem is added: a decoder checks many
    // values that have no problem, and their paths are never needed.
    // `first_problem`: where the problems of the value being checked begin in `out`.
    // `dropped`: where to count the problems not kept (may be null).
    problem_sink(problem_list& out, problem_path (*base)(const void*), const void* context,
                 std::size_t first_problem = 0, std::size_t* dropped = nullptr) noexcept
        : out_(&out), make_base_(base), context_(context), first_problem_(first_problem), dropped_(dropped) {}

    // A problem of the value being checked itself (a type's rule: "must be at most 100 characters").
    void add(problem_kind kind, std::string message, std::optional<std::int64_t> limit = std::nullopt) {
        if (full()) return;
        out_->push_back(problem{base(), kind, limit, std::move(message)});
    }
    void add(std::initializer_list<std::string_view> relative, problem_kind kind, std::string message,
             std::optional<std::int64_t> limit = std::nullopt) {
        if (full()) return;
        problem p{base(), kind, limit, std::move(message)};
        for (auto part : relative) p.path.emplace_back(part);
        out_->push_back(std::move(p));
    }
    void add(const problem_path& relative, problem_kind kind, std::string message,
             std::optional<std::int64_t> limit = std::nullopt) {
        if (full()) return;
        problem p{base(), kind, limit, std::move(message)};
        p.path.insert(p.path.end(), relative.begin(), relative.end());
        out_->push_back(std::move(p));
    }
    std::size_t count() const noexcept { return out_->size(); }

    // Whether the member `name` of the value being checked already has a problem that marks
    // it bad (marks_bad_value): a rule across members should not judge others against it.
    bool has_problem_at(std::string_view name) const {
        const problem_path here = base();
        for (std::size_t i = first_problem_; i < out_->size(); ++i) {
            if (!marks_bad_value((*out_)[i])) continue;
            const problem_path& p = (*out_)[i].path;
            if (p.size() > here.size() && p[here.size()] == name && std::equal(here.begin(), here.end(), p.begin()))
                return true;
        }
        return false;
    }

private:
    problem_path base() const { return base_ ? *base_ : make_base_(context_); }
    // Whether `out` holds max_reported_problems already (then the problem is dropped, and
    // its path never built).
    bool full() noexcept {
        if (!problems_full(*out_)) return false;
        if (dropped_) ++*dropped_;
        return true;
    }

    problem_list* out_;
    const problem_path* base_ = nullptr;
    problem_path (*make_base_)(const void*) = nullptr;
    const void* context_ = nullptr;
    std::size_t first_problem_ = 0;
    std::size_t* dropped_ = nullptr;
};

}  // namespace esign
