#pragma once
// What the backend answers: an HTTP status and a JSON body (a response or an error body).
#include <string>

namespace esign::reference {

struct reply {
    unsigned status = 200;
    std::string body;        // JSON text
    std::string request_id;  // lowercase UUID, also sent as X-Request-Id
};

} // namespace esign::reference
