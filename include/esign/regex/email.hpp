// SPDX-License-Identifier: BSL-1.0
#pragma once
// The interface's two e-mail address formats, as compile-time DFAs.
//
// The spec says the two patterns accept exactly the same strings. That holds:
// tests/test_regex.cpp proves it at compile time by searching the product of
// the two DFAs for an input they disagree on (detail::first_difference finds
// none), and checks it again, with std::regex as the reference, on generated
// inputs. In words, both accept: a local part of dot-separated, non-empty runs
// of [A-Za-z0-9_'+-] whose last character is not "'", then '@', then one or
// more labels "[A-Za-z0-9][A-Za-z0-9-]*." and a TLD of two or more letters.
// The lookaheads of the second form only re-state "no leading dot, no '..'";
// every other character is already excluded, "\n" and "\r" included.
#include <string_view>

#include <esign/regex/regex.hpp>

namespace esign::regex {

using general_email =
    compiled<R"(^([A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+\-]@([A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$)">;

using update_recipient_email =
    compiled<R"(^(?!\.)(?!.*\.\.)[A-Za-z0-9_'+\-.]*[A-Za-z0-9_+\-]@([A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$)">;

inline constexpr std::string_view general_email_pattern = general_email::pattern();
inline constexpr std::string_view update_recipient_email_pattern = update_recipient_email::pattern();

constexpr bool is_general_email(std::string_view s) noexcept { return general_email::match(s); }

constexpr bool is_update_recipient_email(std::string_view s) noexcept { return update_recipient_email::match(s); }

}  // namespace esign::regex
