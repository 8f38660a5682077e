// SPDX-License-Identifier: BSL-1.0
#pragma once
// The backend's self-check (backend_options::self_check, the server's --self-check): before a
// response is sent, it is judged by esign::check against its own type, as a client reading it
// with json::read would judge it. A response that breaks the model is a bug of the backend: it
// is reported (the whole list of problems) and answered instead with INTERNAL_SERVER_ERROR, so
// that the test that provoked it fails where it happened rather than in a client far away.
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <esign/json/check.hpp>
#include <esign/rules/make_error_body.hpp>
#include <esign/validation/format.hpp>

namespace esign::reference {

// Where a failed self-check is reported: one text, a line per problem after the first (no final
// newline). Without one, stderr.
using self_check_report = std::function<void(std::string_view)>;

// The text reported for `problems` of the response to `path`. (Built without fmt's formatters:
// see to_text.)
inline std::string self_check_text(std::string_view path, const problem_list& problems) {
    std::string text = "esign self-check: the response to ";
    text += path;
    text += " breaks its type (" + std::to_string(problems.size());
    text += problems.size() == 1 ? " problem):" : " problems):";
    for (const problem& p : problems) {
        text += "\n  ";
        text += to_text(p);
    }
    return text;
}

// The error body to send instead of `response` when it breaks its type (reported first), or
// nothing when it keeps to it.
template <class Response>
std::optional<error_body> self_check(const Response& response, const rules::error_context& ctx,
                                     const self_check_report& report = {}) {
    auto checked = esign::check(response);
    if (checked) return std::nullopt;
    const problem_list& problems = checked.problems();
    const std::string text = self_check_text(ctx.path, problems);
    if (report)
        report(text);
    else
        std::fprintf(stderr, "%s\n", text.c_str());
    // The first problem names the bug; the report has them all.
    return rules::make_error_body(error_code::INTERNAL_SERVER_ERROR, ctx, {},
                                  "The response failed the server's self-check: " + to_text(problems.front()));
}

}  // namespace esign::reference
