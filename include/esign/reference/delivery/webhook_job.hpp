// SPDX-License-Identifier: BSL-1.0
#pragma once
// Webhook deliveries: the backend decides what to send, the server sends it.
//
// A job names its webhook and does not copy its url or secret (contract.md §6.7): they are read
// when the attempt is made, so an update applies to later attempts, and a deleted or deactivated
// webhook's queued deliveries are dropped.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <boost/describe/class.hpp>

namespace esign::reference {

struct team_shard;

struct webhook_job {
    std::string event_uuid;
    std::string webhook_uuid;
    std::string event_type;
    std::string payload;  // the JSON event {eventUuid, eventType, eventTime, webhookUuid, teamUuid, data}
    int attempt = 1;      // 1 for the first try
};
BOOST_DESCRIBE_STRUCT(webhook_job, (), (event_uuid, webhook_uuid, event_type, payload, attempt))

// One attempt to make now: the job, and its webhook as it is at this moment.
struct webhook_attempt {
    webhook_job job;
    std::string url;
    std::optional<std::string> secret;  // HMAC-SHA256 key, when set
    bool form_encoded = false;          // application/x-www-form-urlencoded: body is payload=<json>
    bool ssl_verify = true;
    std::int64_t now_ms = 0;  // the team's clock, for the signature's t=
    // The team it belongs to, and the team's generation when the job was queued (a reset moves it
    // on: what was queued before is then never attempted or recorded).
    std::weak_ptr<team_shard> team;
    std::uint64_t generation = 0;
};

}  // namespace esign::reference
