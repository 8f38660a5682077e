// SPDX-License-Identifier: BSL-1.0
#pragma once
// /_control/outbox/list (contract.md §5): the e-mails the server would have sent.
#include <algorithm>

#include <esign/reference/context.hpp>

namespace esign::reference::handlers {

// Every e-mail the server would have sent, oldest first (ties in the order they were sent).
inline outcome<control_outbox_list_response> handle(context& c, const control_outbox_list_request&) {
    control_outbox_list_response out;
    for (const auto& e : c.st.outbox)
        out.emails.push_back(outbox_email{e.to, e.kind, e.envelope_uuid, e.team_uuid, e.timestamp});
    std::stable_sort(out.emails.begin(), out.emails.end(),
                     [](const outbox_email& a, const outbox_email& b) { return a.timestamp < b.timestamp; });
    return out;
}

}  // namespace esign::reference::handlers
