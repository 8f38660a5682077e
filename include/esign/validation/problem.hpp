#pragma once
// A problem found in a request: where (path from the body's root), what (a stable kind),
// the limit involved where there is one, and a message for people.
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
    invalid,           // a rule across members (e.g. sms verification needs a phone)
};
BOOST_DESCRIBE_ENUM(problem_kind, syntax, missing, type, too_short, too_long, pattern, enum_value, range, size,
                    unknown_member, duplicate_member, invalid)

using problem_path = std::vector<std::string>;

struct problem {
    problem_path path;
    problem_kind kind{};
    std::optional<std::int64_t> limit;
    std::string message;
    friend bool operator==(const problem&, const problem&) = default;
};

using problem_list = std::vector<problem>;

// Where rules add problems. It knows the path of the value being checked, so a rule
// names only the members below it: sink.add({"recipients", "3", "phone"}, ...).
class problem_sink {
public:
    problem_sink(problem_list& out, problem_path& base) noexcept : out_(&out), base_(&base) {}

    void add(std::initializer_list<std::string_view> relative, problem_kind kind, std::string message,
             std::optional<std::int64_t> limit = std::nullopt) {
        problem p{*base_, kind, limit, std::move(message)};
        for (auto part : relative) p.path.emplace_back(part);
        out_->push_back(std::move(p));
    }
    void add(const problem_path& relative, problem_kind kind, std::string message,
             std::optional<std::int64_t> limit = std::nullopt) {
        problem p{*base_, kind, limit, std::move(message)};
        p.path.insert(p.path.end(), relative.begin(), relative.end());
        out_->push_back(std::move(p));
    }
    std::size_t count() const noexcept { return out_->size(); }

private:
    problem_list* out_;
    problem_path* base_;
};

} // namespace esign
