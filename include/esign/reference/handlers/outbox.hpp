// SPDX-License-Identifier: BSL-1.0
#pragma once
// /_control/outbox/list (contract.md §5): the e-mails the server would have sent.
#include <algorithm>

#include <esign/reference/context.hpp>
#include <esign/reference/signer_access.hpp>

namespace esign::reference::handlers {

// Every e-mail the server would have sent, oldest first (ties in the order they were sent).
inline outcome<control_outbox_list_response> handle(context& c, const control_outbox_list_request&) {
    control_outbox_list_response out;
    for (const auto& e : c.st.outbox) {
        outbox_email mail{e.to, e.kind, e.envelope_uuid, e.team_uuid, e.timestamp, std::nullopt};
        // The recipient's link (contract.md §7.1); none once its token was dropped (team/limits.hpp).
        if (const std::string* token = find_link_token(c.st, e.envelope_uuid, e.to))
            mail.signingUrl = signing_url(c.options.public_url, *token);
        out.emails.push_back(std::move(mail));
    }
    std::stable_sort(out.emails.begin(), out.emails.end(),
                     [](const outbox_email& a, const outbox_email& b) { return a.timestamp < b.timestamp; });
    return out;
}

}  // namespace esign::reference::handlers
