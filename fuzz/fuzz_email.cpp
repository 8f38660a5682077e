// SPDX-License-Identifier: BSL-1.0
// Differential fuzzing of the two compile-time e-mail DFAs against std::regex (ECMAScript,
// regex_match) compiled from the very same pattern texts, and of the two forms against each
// other (contract.md §2: they accept the same language).
//
// Input: the bytes are the candidate address, capped at 256 bytes so that libstdc++'s
// backtracking std::regex stays fast. Both engines treat '.' as any byte but '\n' and '\r'.
#include <cstddef>
#include <cstdint>
#include <regex>
#include <string>
#include <string_view>

#include <esign/regex/email.hpp>

#include "check.hpp"

namespace {
const std::regex& general_reference() {
    static const std::regex re(std::string(esign::regex::general_email_pattern), std::regex::ECMAScript);
    return re;
}
const std::regex& update_reference() {
    static const std::regex re(std::string(esign::regex::update_recipient_email_pattern), std::regex::ECMAScript);
    return re;
}
std::string printable(std::string_view s) {
    std::string out;
    for (unsigned char c : s) {
        if (c >= 0x20 && c < 0x7f && c != '\\')
            out += static_cast<char>(c);
        else {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
        }
    }
    return out;
}
}  // namespace

// The longest address fuzzed (run.sh reads this line for -max_len): both forms are bounded far below.
constexpr std::size_t esign_fuzz_max_len = 256;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size > esign_fuzz_max_len) return -1;  // not added to the corpus
    const std::string s(reinterpret_cast<const char*>(data), size);

    const bool general = esign::regex::is_general_email(s);
    const bool update = esign::regex::is_update_recipient_email(s);
    const bool general_ref = std::regex_match(s, general_reference());
    const bool update_ref = std::regex_match(s, update_reference());

    ESIGN_FUZZ_CHECK(general == general_ref, "general form: DFA %d, std::regex %d on \"%s\"", general, general_ref,
                     printable(s).c_str());
    ESIGN_FUZZ_CHECK(update == update_ref, "update-recipient form: DFA %d, std::regex %d on \"%s\"", update, update_ref,
                     printable(s).c_str());
    ESIGN_FUZZ_CHECK(general == update, "the forms disagree: general %d, update-recipient %d on \"%s\"", general,
                     update, printable(s).c_str());
    return 0;
}

#include "replay_main.hpp"
