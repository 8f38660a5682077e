#pragma once
// One webhook delivery to make: the backend decides what to send, the server sends it.
#include <cstdint>
#include <optional>
#include <string>

namespace esign::reference {

struct webhook_job {
    std::string event_uuid;
    std::string webhook_uuid;
    std::string event_type;
    std::string url;
    bool form_encoded = false;           // application/x-www-form-urlencoded: body is payload=<json>
    bool ssl_verify = true;
    std::optional<std::string> secret;   // HMAC-SHA256 key, when set
    std::string payload;                 // the JSON event {eventUuid, eventType, eventTime, webhookUuid, teamUuid, data}
    int attempt = 1;                     // 1 for the first try
};

} // namespace esign::reference
