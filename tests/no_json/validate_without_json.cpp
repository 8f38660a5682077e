// SPDX-License-Identifier: BSL-1.0
// Validation without JSON (issue 41): a program that includes the model and the validation layer,
// nothing of Boost.JSON, builds a request in code and judges it by the same rules json::read
// judges a body by (the types' own, the rules across members). tests/no_json/no_json.cmake
// compiles this file with -H and fails if any boost/json header is read; this program checks the
// problems found.
//
// The model's headers, but harness.hpp, log.hpp, operations.hpp and model.hpp (which includes
// them): the control-plane harness types and the log entry hold free-form JSON members
// (boost::json::value, boost::json::object), which only the JSON layer can judge. Every request
// of the public API a client builds is in the headers below.
#include <cstdio>
#include <string>

#include <esign/model/auth.hpp>
#include <esign/model/contact.hpp>
#include <esign/model/control.hpp>
#include <esign/model/document.hpp>
#include <esign/model/envelope.hpp>
#include <esign/model/recipient.hpp>
#include <esign/model/template.hpp>
#include <esign/model/webhook.hpp>
#include <esign/model/workspace.hpp>
#include <esign/validation/check.hpp>
#include <esign/validation/format.hpp>

#ifdef ESIGN_NO_JSON_SHOW_IT_FAILS
#include <esign/model/log.hpp>  // holds a boost::json::object: no_json.cmake must then fail
#endif

namespace {

int failures = 0;

void expect(bool ok, const char* what) {
    if (ok) return;
    std::fprintf(stderr, "FAILED: %s\n", what);
    ++failures;
}

}  // namespace

int main() {
    using namespace esign;

    envelope_add_recipients_request request;
    request.envelopeUuid = uuid36(std::string(36, 'e'));
    add_recipients_item good;
    good.email = "ada@example.com";
    good.firstname = "Ada";
    request.recipients.push_back(good);
    expect(bool(check(request)), "a valid request has no problem");

    add_recipients_item bad;
    bad.email = "not an address";
    bad.verificationType = verification_type::sms;  // needs a phone: a rule across members
    request.recipients.push_back(bad);
    request.envelopeUuid = uuid36(std::string("short"));
    const auto judged = check(request);
    expect(!judged, "an invalid request has problems");
    const problem_list& found = judged.problems();
    expect(found.size() == 3, "three problems");
    if (found.size() == 3) {
        expect(to_text(found[0]) == "envelopeUuid: must be exactly 36 characters (too_short)", "the uuid's length");
        expect(to_text(found[1]) == "recipients[1].email: must be a valid e-mail address (pattern)", "the e-mail");
        expect(to_text(found[2]) ==
                   "recipients[1].phone: a recipient with verificationType sms needs a non-empty phone (rule)",
               "the rule across members");
    }
    for (const problem& p : found) std::printf("%s\n", to_text(p).c_str());

    // The factories of the constrained types, and checked.
    expect(!email128::make("x"), "email128::make refuses a non-address");
    expect(bool(ranged<1, 90>::make(90)) && !ranged<1, 90>::make(91), "ranged::make judges the range");
    expect(!checked(request), "checked gives the problems");

    // An enumerator outside its enum is refused as read refuses an unknown string.
    request = {};
    request.envelopeUuid = uuid36(std::string(36, 'e'));
    good.language = static_cast<language>(250);
    request.recipients.push_back(good);
    const auto enum_problems = check(request).problems();
    expect(enum_problems.size() == 1 && enum_problems[0].kind == problem_kind::enum_value &&
               to_text(path_text{enum_problems[0].path}) == "recipients[0].language",
           "an enumerator outside its enum");

    if (failures == 0) std::printf("validation without JSON: ok\n");
    return failures == 0 ? 0 : 1;
}
