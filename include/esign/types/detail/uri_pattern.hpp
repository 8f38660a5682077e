// SPDX-License-Identifier: BSL-1.0
#pragma once
// The URI grammar of types/uri.hpp as one regular expression (ECMAScript, as JSON Schema takes
// it): the pattern the schema publishes, and the source of the DFA frozen in
// detail/uri_automaton.hpp. On its own so that the program that freezes the DFA
// (tests/regex/freeze_automaton.cpp) needs nothing that includes the frozen table.
#include <esign/regex/fixed_string.hpp>

namespace esign::detail {

// The pieces of the pattern, spelled once (see the grammar in types/uri.hpp).
//   [A-Za-z0-9\-._~!$&'()*+,;=]   unreserved and sub-delims
//   %[0-9A-Fa-f]{2}               pct-encoded
//   port value 1..65535 after optional leading zeros
#define ESIGN_URI_UNRESERVED_SUB_DELIMS "A-Za-z0-9\\-._~!$&'()*+,;="
#define ESIGN_URI_PCT "%[0-9A-Fa-f]{2}"
inline constexpr regex::fixed_string uri_pattern{
    "^[A-Za-z][A-Za-z0-9+\\-.]*:"  // scheme ":"
    "//(([" ESIGN_URI_UNRESERVED_SUB_DELIMS ":]|" ESIGN_URI_PCT
    ")*@)?"  // [ userinfo "@" ]
    "(\\[[0-9A-Fa-f:.]+\\]|([" ESIGN_URI_UNRESERVED_SUB_DELIMS "]|" ESIGN_URI_PCT
    ")+)"                                                                                              // host
    "(:(0*(6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3}))?)?"  // [ ":" port ]
    "(/([" ESIGN_URI_UNRESERVED_SUB_DELIMS ":@]|" ESIGN_URI_PCT
    ")*)*"  // path-abempty
    "(\\?([" ESIGN_URI_UNRESERVED_SUB_DELIMS ":@/?]|" ESIGN_URI_PCT
    ")*)?"                                                                   // [ "?" query ]
    "(#([" ESIGN_URI_UNRESERVED_SUB_DELIMS ":@/?]|" ESIGN_URI_PCT ")*)?$"};  // [ "#" fragment ]
#undef ESIGN_URI_UNRESERVED_SUB_DELIMS
#undef ESIGN_URI_PCT

}  // namespace esign::detail
