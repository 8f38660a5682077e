// SPDX-License-Identifier: BSL-1.0
// Compile-fail tests (tests/compile_fail/run.py): a type esign::json cannot read or write is a
// compile error that says so. (Each compile of this file takes seconds: the JSON headers.)
//
// Not here: the limit of 64 members of a struct read by esign (described.hpp), which
// Boost.Describe's macros cannot reach (they take at most 52 members).
#include <string>
#include <string_view>
#include <vector>

#include <boost/describe/class.hpp>

#include <esign/json/decode.hpp>
#include <esign/json/encode.hpp>

namespace misuse {

// Neither described nor given a codec.
struct unreadable {
    int x = 0;
};
struct no_codec {
    int x = 0;
};
struct described_no_codec {
    int x = 0;
};
BOOST_DESCRIBE_STRUCT(described_no_codec, (), (x))

#ifdef ESIGN_FAIL_read_without_codec  // expect: codable<T>' \[with T = misuse::unreadable\]|'misuse::unreadable' does not satisfy 'codable'
[[maybe_unused]] auto read_it(std::string_view body) { return esign::json::read<unreadable>(body); }
#else
[[maybe_unused]] auto read_it(std::string_view body) { return esign::json::read<described_no_codec>(body); }
#endif

// A described struct whose member has no codec: the member is what cannot be read.
struct holder {
#ifdef ESIGN_FAIL_member_without_codec  // expect: codec<T> needs read, decode, or read_scalar and read_container
    no_codec member;
#else
    described_no_codec member;
#endif
};
BOOST_DESCRIBE_STRUCT(holder, (), (member))
[[maybe_unused]] auto read_holder(std::string_view body) { return esign::json::read<holder>(body); }

struct flags {
#ifdef ESIGN_FAIL_vector_of_bool  // expect: std::vector<bool> has no addressable items
    std::vector<bool> on;
#else
    std::vector<int> on;
#endif
};
BOOST_DESCRIBE_STRUCT(flags, (), (on))
[[maybe_unused]] auto read_flags(std::string_view body) { return esign::json::read<flags>(body); }

// A codec whose `write` appends to a std::string, the shape before json::text_buffer: json::write
// would otherwise use its `encode` and never call it.
struct stamp {
    int day = 0;
};
}  // namespace misuse
template <>
struct esign::json::codec<misuse::stamp> {
    static void encode(const misuse::stamp& in, boost::json::value& out) { out = in.day; }
#ifdef ESIGN_FAIL_write_to_std_string  // expect: codec<T>::write appends to a json::text_buffer&
    static void write(const misuse::stamp& in, std::string& out) { out += std::to_string(in.day); }
#else
    static void write(const misuse::stamp& in, text_buffer& out) { write_integer(in.day, out); }
#endif
};
namespace misuse {
[[maybe_unused]] std::string write_stamp(const stamp& s) { return esign::json::write(s); }

}  // namespace misuse
