// SPDX-License-Identifier: BSL-1.0
// Compile-fail tests (tests/compile_fail/run.py): the constrained types refuse bounds that
// contradict each other, a page cannot be taken of a temporary list (its items would be
// views of a vector that is gone), and esign::check does not pass a value of a type it knows no
// rule for (such as a boost::json value where json/check.hpp is not included) unjudged.
#include <cstdint>
#include <vector>

#include <boost/describe/class.hpp>

#include <esign/rules/pagination.hpp>
#include <esign/types/bounded_vector.hpp>
#include <esign/types/ranged.hpp>
#include <esign/validation/check.hpp>

namespace misuse {

#ifdef ESIGN_FAIL_string_bounds_reversed  // expect: bounded_string<Min, Max> needs Min <= Max
using name = esign::bounded_string<100, 1>;
#else
using name = esign::bounded_string<1, 100>;
#endif
static_assert(name::max_length == 100);

#ifdef ESIGN_FAIL_vector_bounds_reversed  // expect: bounded_vector<T, Min, Max> needs Min <= Max
using items = esign::bounded_vector<int, 50, 1>;
#else
using items = esign::bounded_vector<int, 1, 50>;
#endif
static_assert(items::max_size == 50);

#ifdef ESIGN_FAIL_range_reversed  // expect: ranged<Min, Max> needs Min <= Max
using days = esign::ranged<90, 1>;
#else
using days = esign::ranged<1, 90>;
#endif
static_assert(days::max_value == 90);

#ifdef ESIGN_FAIL_range_beyond_int32  // expect: ranged<Min, Max> needs Min <= Max, both within the 32-bit
using big = esign::ranged<0, std::int64_t{1} << 40>;
#else
using big = esign::ranged<0, (std::int64_t{1} << 31) - 1>;
#endif
static_assert(big::min_value == 0);

inline std::vector<int> all_items() { return {1, 2, 3}; }

#ifdef ESIGN_FAIL_page_of_temporary  // expect: (use of|call to) deleted function .*page_of
[[maybe_unused]] inline auto first_page() { return esign::rules::page_of(all_items(), 1, 50); }
#else
[[maybe_unused]] inline auto first_page(const std::vector<int>& kept) { return esign::rules::page_of(kept, 1, 50); }
#endif

// A class that is no string, has no rule and no described members: the validation layer cannot
// tell whether a value of it is fine.
struct opaque {
    int x = 0;
};
struct with_opaque {
    opaque inside;
    esign::ranged<1, 90> days;
};
BOOST_DESCRIBE_STRUCT(with_opaque, (), (inside, days))
struct without_opaque {
    esign::ranged<1, 90> days;
};
BOOST_DESCRIBE_STRUCT(without_opaque, (), (days))

#ifdef ESIGN_FAIL_check_without_rule  // expect: esign::check: no rule known for this type
[[maybe_unused]] inline bool judged() { return bool(esign::check(with_opaque{})); }
#else
[[maybe_unused]] inline bool judged() { return bool(esign::check(without_opaque{})); }
#endif

}  // namespace misuse
