// SPDX-License-Identifier: BSL-1.0
#pragma once
// An e-mail address of one of the interface's two formats, with its length limit.
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

#include <esign/regex/email.hpp>
#include <esign/types/bounded_string.hpp>
#include <esign/types/detail/string_value.hpp>
#include <esign/validation/check.hpp>
#include <esign/validation/problem.hpp>

namespace esign {

enum class email_form {
    general,           // every e-mail field except update-recipient's
    update_recipient,  // the variant written with lookaheads (same language, see regex/email.hpp)
};

template <email_form Form, std::size_t Max = unbounded>
struct email : detail::string_value {
    static constexpr email_form form = Form;
    static constexpr std::size_t max_length = Max;
    using detail::string_value::string_value;

    static constexpr std::string_view pattern() noexcept {
        return Form == email_form::general ? regex::general_email_pattern : regex::update_recipient_email_pattern;
    }
    static constexpr bool matches(std::string_view s) noexcept {
        return Form == email_form::general ? regex::is_general_email(s) : regex::is_update_recipient_email(s);
    }

    // Both rules are judged: a long address can also be malformed.
    static bool check(const email& value, problem_sink& out) {
        bool ok = check_length(value, 0, Max, out);
        if (!matches(value)) {
            out.add(problem_kind::pattern, "must be a valid e-mail address");
            ok = false;
        }
        return ok;
    }
    // The address, or its problems (too long, not an e-mail address of the form, not valid
    // UTF-8); see `make` in types/bounded_string.hpp.
    static result<email> make(std::string s) { return validation::checked(email(std::move(s))); }
};

using email_address = email<email_form::general>;
using email128 = email<email_form::general, 128>;
using email255 = email<email_form::general, 255>;
using update_recipient_email255 = email<email_form::update_recipient, 255>;

}  // namespace esign
