// SPDX-License-Identifier: BSL-1.0
#pragma once
// What the backend answers: an HTTP status and a JSON body (a response or an error body).
#include <memory>
#include <string>

namespace esign::reference {

class spooled_text;  // spooled_text.hpp

struct reply {
    unsigned status = 200;
    std::string body;        // JSON text
    std::string request_id;  // lowercase UUID, also sent as X-Request-Id
    // contract.md §6.5: the uuid of the fault rule that answered instead of the operation (the
    // server sends it as X-Esign-Fault), and whether that rule drops the connection (then
    // there is no answer: status 0, empty body).
    std::string fault_uuid{};
    bool dropped = false;
    // §6.7: the body's text in a file instead (backend_options::spool_directory; the body is then
    // empty): the HTTP server sends it from there, a part at a time.
    std::shared_ptr<const spooled_text> spooled{};
};

}  // namespace esign::reference
