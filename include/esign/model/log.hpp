// SPDX-License-Identifier: BSL-1.0
#pragma once
// Activity logs (interface.md "Log entry") and /public/logs/list.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/describe/class.hpp>
#include <boost/json/object.hpp>

#include <esign/model/enums.hpp>
#include <esign/model/pagination.hpp>
#include <esign/types/bounded_string.hpp>
#include <esign/validation/problem.hpp>

namespace esign {

// The author of a log entry: the team's owner for API operations; the nil UUID with the
// recipient's e-mail and name for a recipient's action; the nil UUID, "" and "System" for expiry.
struct log_author {
    std::string uuid;
    std::string email;
    std::string name;
};
BOOST_DESCRIBE_STRUCT(log_author, (), (uuid, email, name))

inline constexpr std::string_view nil_uuid = "00000000-0000-0000-0000-000000000000";

struct log_entry {
    log_category category{log_category::envelope};
    std::string eventType;  // a wire name of envelope_log_event or team_log_event, per category
    boost::json::object eventData;
    std::int64_t timestamp{};
    log_author author;
    std::optional<std::string> envelopeUuid;   // envelope category only
    std::optional<std::string> workspaceUuid;  // envelope category only
};
BOOST_DESCRIBE_STRUCT(log_entry, (), (category, eventType, eventData, timestamp, author, envelopeUuid, workspaceUuid))

// ---------------------------------------------------------------------------------------------
// POST /public/logs/list

inline constexpr log_sort_by default_log_sort_by = log_sort_by::timestamp;
inline constexpr sort_order default_log_sort_order = sort_order::desc;

struct logs_list_request {
    log_category category{log_category::envelope};
    std::optional<uuid36> workspaceUuid;                 // filter, envelope category only (absent: every workspace)
    std::optional<uuid36> envelopeUuid;                  // filter, envelope category only
    std::optional<std::vector<std::string>> eventTypes;  // empty or absent: every type
    std::optional<page_number> page;
    std::optional<page_limit> limit;
    std::optional<log_sort_by> sortBy;    // default_log_sort_by when absent
    std::optional<sort_order> sortOrder;  // default_log_sort_order when absent
};
BOOST_DESCRIBE_STRUCT(logs_list_request, (),
                      (category, workspaceUuid, envelopeUuid, eventTypes, page, limit, sortBy, sortOrder))

// Whether `event_type` is an event type of `category`. The user category is not checked (it
// holds no events yet), nor is dataroom (answered later with LOG_CATEGORY_NOT_IMPLEMENTED).
constexpr bool is_event_type_of(log_category category, std::string_view event_type) noexcept {
    switch (category) {
        case log_category::envelope:
            return enum_from_wire<envelope_log_event>(event_type).has_value();
        case log_category::team:
            return enum_from_wire<team_log_event>(event_type).has_value();
        case log_category::dataroom:
        case log_category::user:
            return true;
    }
    return true;
}

// contract.md §3: eventTypes are checked against the category's list.
inline void validate(const logs_list_request& value, problem_sink& sink) {
    if (!value.eventTypes || sink.has_problem_at("category")) return;  // no category to judge them by
    const auto& types = *value.eventTypes;
    for (std::size_t i = 0; i < types.size(); ++i)
        if (!is_event_type_of(value.category, types[i]))
            sink.add({"eventTypes", std::to_string(i)}, problem_kind::enum_value,
                     "not an event type of the " + std::string(enum_to_wire(value.category)) + " category");
}

struct logs_list_response {
    std::vector<log_entry> logs;
    esign::pagination pagination;
};
BOOST_DESCRIBE_STRUCT(logs_list_response, (), (logs, pagination))

}  // namespace esign
