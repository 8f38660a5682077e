// SPDX-License-Identifier: BSL-1.0
#pragma once
// What a webhook delivery carries (contract.md §3, "Webhooks"): the body the reference server
// POSTs to a webhook's url, as JSON or as the form field `payload=<JSON>`. Read by a receiver
// (esign/client/webhook_receiver.hpp) with esign::json::read; members it does not know (more in
// `data`, which carries at least the two below) are ignored, as the API's responses' are.
#include <cstdint>
#include <string>

#include <boost/describe/class.hpp>

#include <esign/model/enums.hpp>

namespace esign {

struct webhook_event_data {
    std::string workspaceUuid;
    std::string envelopeUuid;
};
BOOST_DESCRIBE_STRUCT(webhook_event_data, (), (workspaceUuid, envelopeUuid))

struct webhook_event_payload {
    std::string eventUuid;  // the same for every webhook the event went to, and for each retry
    webhook_event eventType{webhook_event::ENVELOPE_CREATED};
    std::int64_t eventTime{};  // Unix time in milliseconds (the team's clock)
    std::string webhookUuid;
    std::string teamUuid;
    webhook_event_data data;
};
BOOST_DESCRIBE_STRUCT(webhook_event_payload, (), (eventUuid, eventType, eventTime, webhookUuid, teamUuid, data))

}  // namespace esign
