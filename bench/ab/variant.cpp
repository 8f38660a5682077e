// SPDX-License-Identifier: BSL-1.0
// One tree's decoding, compiled once per tree by run.sh with `-Design=esign_<tag>`: the macro
// renames the namespace, so two trees' headers live in one program without clashing (each object
// file sees one tree's include directory), and the benchmark can alternate between them.
#include <string_view>

#include <esign/json/decode.hpp>
#include <esign/model/document.hpp>
#include <esign/model/recipient.hpp>

#include "variant.hpp"

namespace ESIGN_AB_NAMESPACE {
namespace {
template <class Request>
bool read(std::string_view body) {
    return esign::json::read<Request>(body).has_value();
}
// json::read_into into a value kept between calls, where the tree has it (else read).
template <class Request>
bool read_into(std::string_view body) {
#if ESIGN_AB_HAS_READ_INTO
    static Request value;
    return bool(esign::json::read_into(body, value));
#else
    return read<Request>(body);
#endif
}
}  // namespace

bool read_recipients(std::string_view body) { return read<esign::envelope_add_recipients_request>(body); }
bool read_blocks(std::string_view body) { return read<esign::envelope_add_blocks_request>(body); }
bool read_into_recipients(std::string_view body) { return read_into<esign::envelope_add_recipients_request>(body); }
bool read_into_blocks(std::string_view body) { return read_into<esign::envelope_add_blocks_request>(body); }

}  // namespace ESIGN_AB_NAMESPACE
