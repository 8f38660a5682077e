// SPDX-License-Identifier: BSL-1.0
// The model against interface.md and contract.md, through Boost.Describe only; and the member
// list that the codec, check, schema and copy_members all walk (flattened members).
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/describe/class.hpp>
#include <boost/describe/members.hpp>
#include <boost/mp11/algorithm.hpp>

#include <esign/esign.hpp>
#include <esign/model/members.hpp>
#include <esign/model/model.hpp>
#include <esign/schema/json_schema.hpp>

#include "source_text.hpp"

namespace test_model {

namespace {

using namespace esign;

template <class T>
std::vector<std::string> member_names() {
    std::vector<std::string> out;
    using members = described_members<T>;
    boost::mp11::mp_for_each<members>([&](auto d) { out.emplace_back(d.name); });
    return out;
}

template <class E>
std::vector<std::string> wire_strings() {
    std::vector<std::string> out;
    for (auto s : enum_wire_names<E>()) out.emplace_back(s);
    return out;
}

template <class E>
void check_round_trip() {
    std::set<std::string_view> seen;
    for (E e : enum_values<E>()) {
        auto s = enum_to_wire(e);
        CHECK_FALSE(s.empty());
        CHECK(seen.insert(s).second);
        auto back = enum_from_wire<E>(s);
        REQUIRE(back.has_value());
        CHECK(*back == e);
    }
    CHECK_FALSE(enum_from_wire<E>("").has_value());
    CHECK_FALSE(enum_from_wire<E>("not-a-value").has_value());
    // Near misses: each wire string with one byte changed at each place, one byte short and
    // one byte longer, are read as an enumerator only when they are its wire string.
    for (std::string_view s : seen) {
        std::vector<std::string> near{std::string(s.substr(0, s.size() - 1)), std::string(s) + "x"};
        for (std::size_t i = 0; i < s.size(); ++i) {
            near.emplace_back(s);
            near.back()[i] ^= 0x20;  // a letter's other case; '-' and '_' become other bytes
        }
        for (const std::string& n : near) {
            INFO(n);
            CHECK(enum_from_wire<E>(n).has_value() == seen.contains(n));
        }
    }
}

problem_list run_validate(const auto& value) {
    problem_list out;
    problem_path base;
    problem_sink sink(out, base);
    validate(value, sink);
    return out;
}

using strings = std::vector<std::string>;

}  // namespace

TEST_CASE("model: error_code_set", "[model]") {
    constexpr error_code_set none{};
    constexpr error_code_set some{error_code::NO_SIGNERS, error_code::AUTHENTICATION_ERROR};
    STATIC_REQUIRE(none.empty());
    STATIC_REQUIRE(some.contains(error_code::NO_SIGNERS));
    STATIC_REQUIRE(some.contains(error_code::AUTHENTICATION_ERROR));
    STATIC_REQUIRE_FALSE(some.contains(error_code::NO_RECIPIENTS));
    STATIC_REQUIRE((none | some) == some);
    // The last code of the enum has its bit too.
    constexpr auto last = enum_values<error_code>().back();
    STATIC_REQUIRE(error_code_set{last}.contains(last));
    STATIC_REQUIRE_FALSE(some.contains(last));
    std::vector<error_code> listed;
    some.for_each([&](error_code c) { listed.push_back(c); });
    CHECK(listed == std::vector<error_code>{error_code::AUTHENTICATION_ERROR, error_code::NO_SIGNERS});
}

// The codes interface.md lists for each endpoint ("Errors: A, B." after "**POST /public/...**"),
// read from ../shared/spec/interface.md beside the repository.
static std::map<std::string, std::vector<std::string>> interface_error_lists() {
    const std::string doc = esign::test::spec_text("interface.md");
    std::map<std::string, std::vector<std::string>> lists;
    const std::string heading = "**POST ";
    for (auto at = doc.find(heading); at != std::string::npos;) {
        const auto path_end = doc.find("**", at + heading.size());
        const std::string path = doc.substr(at + heading.size(), path_end - at - heading.size());
        const auto next = doc.find(heading, path_end);
        const std::string section = doc.substr(path_end, next == std::string::npos ? next : next - path_end);
        if (auto errors = section.find("rrors: "); errors != std::string::npos) {
            auto& codes = lists[path];
            std::string word;
            for (auto i = errors + 7; i < section.size() && section[i] != '.'; ++i) {
                const char c = section[i];
                if ((c >= 'A' && c <= 'Z') || c == '_')
                    word += c;
                else if (!word.empty())
                    codes.push_back(std::exchange(word, {}));
            }
            if (!word.empty()) codes.push_back(word);
        }
        at = next;
    }
    return lists;
}

TEST_CASE("model: every operation may answer the error codes interface.md lists for it", "[model]") {
    const auto lists = interface_error_lists();
    REQUIRE(lists.size() >= 15);  // ../shared/spec/interface.md is beside the repository
    for (const auto& [path, codes] : lists) {
        INFO(path);
        CHECK(find_operation(path).has_value());
        for (const auto& name : codes) {
            INFO(name);
            auto code = enum_from_wire<error_code>(name);
            REQUIRE(code);
            CHECK(operation_may_answer(path, *code));
        }
    }
    // And a few that only contract.md names (§4, §5).
    STATIC_REQUIRE(operation_may_answer("/public/webhook/create", error_code::WEBHOOK_LIMIT_REACHED));
    STATIC_REQUIRE(operation_may_answer("/public/contact/create", error_code::CONTACT_EMAIL_ALREADY_EXISTS));
    STATIC_REQUIRE(operation_may_answer("/_control/recipient/act", error_code::ACTION_NOT_ALLOWED));
    STATIC_REQUIRE(operation_may_answer("/_control/envelope/cancel", error_code::ACTION_NOT_ALLOWED));
    STATIC_REQUIRE(operation_may_answer("/_control/team/create", error_code::TEAM_LIMIT_REACHED));
    STATIC_REQUIRE_FALSE(operation_may_answer("/_control/team/reset", error_code::TEAM_LIMIT_REACHED));
    // Every operation may answer the common codes, and none answers another's own codes.
    STATIC_REQUIRE(operation_may_answer("/public/utils/whoami", error_code::AUTHENTICATION_ERROR));
    STATIC_REQUIRE_FALSE(operation_may_answer("/public/utils/whoami", error_code::ENVELOPE_NOT_FOUND));
    STATIC_REQUIRE_FALSE(operation_may_answer("/public/envelope/get", error_code::NO_SIGNERS));
    STATIC_REQUIRE_FALSE(operation_may_answer("/public/envelope/nope", error_code::AUTHENTICATION_ERROR));
}

TEST_CASE("model: operation table", "[model]") {
    STATIC_REQUIRE(operation_count == 49);
    std::set<std::string_view> paths;
    int public_count = 0, control_count = 0, signer_count = 0;
    std::set<std::string_view> keyed_control;
    for_each_operation([&](const auto& op) {
        using op_t = std::remove_cvref_t<decltype(op)>;
        STATIC_REQUIRE(boost::describe::has_describe_members<typename op_t::request_type>::value);
        STATIC_REQUIRE(boost::describe::has_describe_members<typename op_t::response_type>::value);
        CHECK(paths.insert(op.path).second);
        const bool is_public = op.path.starts_with("/public/");
        const bool is_control = op.path.starts_with("/_control/");
        const bool is_signer = op.path.starts_with("/embeds/");  // contract.md §7.1
        CHECK(int(is_public) + int(is_control) + int(is_signer) == 1);
        CHECK(op.is_control == is_control);
        CHECK((op.access == operation_access::signer) == is_signer);
        if (is_signer) {
            ++signer_count;
            CHECK_FALSE(op.needs_api_key);
        } else if (is_public) {
            ++public_count;
            CHECK(op.needs_api_key);
        } else {
            ++control_count;
            if (op.needs_api_key) keyed_control.insert(op.path);
        }
    });
    CHECK(paths.size() == 49);
    CHECK(public_count == 27);
    CHECK(control_count == 19);
    CHECK(signer_count == 3);
    CHECK(keyed_control == std::set<std::string_view>{"/_control/envelope/create", "/_control/template/create",
                                                      "/_control/team/reset", "/_control/journal/list",
                                                      "/_control/journal/clear", "/_control/faults/add",
                                                      "/_control/faults/list", "/_control/faults/clear",
                                                      "/_control/team/snapshot", "/_control/team/restore"});

    const std::set<std::string_view> expected{
        "/public/webhook/update",
        "/public/webhook/list",
        "/public/webhook/delete",
        "/public/webhook/create",
        "/public/envelope/get",
        "/public/envelope/list",
        "/public/envelope/update",
        "/public/envelope/send",
        "/public/envelope/create-from-template",
        "/public/envelope/delete-attachment",
        "/public/envelope/add-recipients",
        "/public/envelope/update-recipient",
        "/public/envelope/delete-recipients",
        "/public/envelope/add-blocks",
        "/public/envelope/delete-blocks",
        "/public/workspace/list",
        "/public/workspace/get",
        "/public/workspace/create",
        "/public/workspace/update",
        "/public/contact/update",
        "/public/contact/create",
        "/public/contact/list",
        "/public/contact/delete",
        "/public/template/list",
        "/public/logs/list",
        "/public/authentication/create-iframe-token",
        "/public/utils/whoami",
        "/_control/reset",
        "/_control/team/create",
        "/_control/team/update",
        "/_control/team/reset",
        "/_control/envelope/create",
        "/_control/template/create",
        "/_control/recipient/act",
        "/_control/envelope/cancel",
        "/_control/clock/advance",
        "/_control/clock/now",
        "/_control/outbox/list",
        "/_control/webhook/deliveries",
        "/_control/journal/list",
        "/_control/journal/clear",
        "/_control/faults/add",
        "/_control/faults/list",
        "/_control/faults/clear",
        "/_control/team/snapshot",
        "/_control/team/restore",
        "/embeds/session/start",
        "/embeds/envelope/get",
        "/embeds/recipient/act",
    };
    CHECK(paths == expected);
    CHECK(std::set<std::string_view>(operation_paths.begin(), operation_paths.end()) == expected);

    // Who may call what (contract.md §6.2), and which operations only read.
    std::set<std::string_view> server_only, team_or_server, read_only;
    for_each_operation([&](const auto& op) {
        if (op.access == operation_access::server) server_only.insert(op.path);
        if (op.access == operation_access::team_or_server) team_or_server.insert(op.path);
        if (op.read_only) read_only.insert(op.path);
        CHECK(op.needs_api_key == (op.access == operation_access::team || op.access == operation_access::team_control));
    });
    CHECK(server_only == std::set<std::string_view>{"/_control/reset", "/_control/team/create"});
    CHECK(team_or_server == std::set<std::string_view>{"/_control/team/update", "/_control/recipient/act",
                                                       "/_control/envelope/cancel", "/_control/clock/advance",
                                                       "/_control/clock/now", "/_control/outbox/list",
                                                       "/_control/webhook/deliveries"});
    CHECK(read_only == std::set<std::string_view>{
                           "/public/webhook/list", "/public/envelope/get", "/public/envelope/list",
                           "/public/workspace/list", "/public/workspace/get", "/public/contact/list",
                           "/public/template/list", "/public/logs/list", "/public/utils/whoami", "/_control/clock/now",
                           "/_control/outbox/list", "/_control/webhook/deliveries", "/_control/journal/list",
                           "/_control/faults/list", "/_control/team/snapshot", "/embeds/envelope/get"});

    STATIC_REQUIRE(find_operation("/public/envelope/get").has_value());
    STATIC_REQUIRE_FALSE(find_operation("/public/envelope/nope").has_value());
    bool typed = false;
    CHECK(visit_operation("/public/envelope/get", [&](const auto& op) {
        using op_t = std::remove_cvref_t<decltype(op)>;
        typed = std::is_same_v<typename op_t::request_type, envelope_get_request> &&
                std::is_same_v<typename op_t::response_type, envelope>;
    }));
    CHECK(typed);
    CHECK_FALSE(visit_operation("/public/nope", [](const auto&) {}));
    STATIC_REQUIRE(boost::mp11::mp_size<request_types>::value == 49);
    STATIC_REQUIRE(boost::mp11::mp_size<boost::mp11::mp_unique<request_types>>::value == 49);
}

TEST_CASE("model: resources have exactly the members of the spec", "[model]") {
    CHECK(member_names<envelope>() ==
          strings{"uuid", "title", "status", "creationDate", "updateDate", "sentDate", "owner", "sender", "documents",
                  "attachments", "tags", "metrics", "signatureOrder", "customMessage", "useUserAsSenderName",
                  "timestampEnabled", "expirationPeriod", "reminderFrequencyPeriod", "recipients"});
    CHECK(member_names<envelope>().size() == 19);
    CHECK(member_names<envelope_summary>() == strings{"uuid", "title", "creationDate", "updateDate", "sentDate",
                                                      "status", "workspaceUuid", "owner", "metrics", "tags"});
    CHECK(member_names<owner>() == strings{"uuid", "email", "firstname", "lastname"});
    CHECK(member_names<owner_summary>() == strings{"uuid", "email", "firstname", "lastname"});
    CHECK(member_names<sender>() == strings{"email", "name"});
    CHECK(member_names<metrics>() ==
          strings{"signatureCount", "signatureRequiredCount", "approvalCount", "approvalRequiredCount"});
    CHECK(member_names<attachment>() == strings{"uuid", "title"});
    CHECK(member_names<document>() == strings{"uuid", "title", "blocks", "snapshotDate", "signaturesOnSeparatePage",
                                              "initialsOnAllPages", "initialsVerticalMargin", "mustReadAllPages",
                                              "pageCount"});
    CHECK(member_names<block>() ==
          strings{"uuid",      "label",         "labelIcon",      "x",        "y",     "height",
                  "width",     "exportable",    "recipientEmail", "exported", "color", "recipientLabel",
                  "required",  "placeholder",   "defaultValue",   "value",    "type",  "text",
                  "maxLength", "templatedText", "editable"});
    CHECK(member_names<recipient>() == strings{"id", "email", "firstname", "lastname", "phone", "jobTitle", "company",
                                               "addressLine1", "addressLine2", "zipCode", "city", "country", "role",
                                               "order", "associatedContact", "status", "language", "verificationType",
                                               "invitation"});
    CHECK(member_names<invitation>() ==
          strings{"valid", "expirationDate", "creationDate", "lastNotificationDate", "medium", "verificationType"});
    CHECK(member_names<workspace>() ==
          strings{"uuid", "name", "creationDate", "updateDate", "isDefault", "colorHex", "sandbox", "membersCount"});
    CHECK(member_names<workspace_list_item>() ==
          strings{"uuid", "name", "creationDate", "updateDate", "sandbox", "membersCount"});
    CHECK(member_names<workspace_created>() ==
          strings{"uuid", "name", "creationDate", "updateDate", "isDefault", "colorHex", "sandbox"});
    CHECK(member_names<webhook>() == strings{"uuid", "title", "active", "sslVerify", "contentType", "events",
                                             "workspaceUuids", "creationDate", "updateDate"});
    CHECK(member_names<contact>() == strings{"uuid", "email", "firstname", "lastname", "phone", "language", "jobTitle",
                                             "company", "addressLine1", "addressLine2", "zipCode", "city", "country"});
    CHECK(member_names<log_entry>() ==
          strings{"category", "eventType", "eventData", "timestamp", "author", "envelopeUuid", "workspaceUuid"});
    CHECK(member_names<log_author>() == strings{"uuid", "email", "name"});
    CHECK(member_names<pagination>() == strings{"totalRecords", "currentPage", "totalPages", "nextPage", "prevPage"});
    CHECK(member_names<template_summary>() ==
          strings{"uuid", "title", "creationDate", "updateDate", "workspaceUuid", "documents", "recipients"});
    CHECK(member_names<error_body>() == strings{"statusCode", "error", "requestId", "timestamp", "path"});
    CHECK(member_names<error_info>() == strings{"code", "message", "suggestion", "documentationUrl", "details"});
    CHECK(member_names<error_detail>() == strings{"path", "message"});
    CHECK(member_names<empty_response>().empty());
    CHECK(member_names<utils_whoami_request>().empty());
}

TEST_CASE("model: requests and responses have the members of the spec", "[model]") {
    CHECK(member_names<envelope_update_fields>() == strings{"title", "documents", "tags", "signatureOrder",
                                                            "expirationPeriod", "reminderFrequencyPeriod",
                                                            "customInvitationMessage", "useUserAsSenderName"});
    CHECK(member_names<add_recipients_item>() ==
          strings{"type", "email", "firstname", "lastname", "phone", "language", "verificationType"});
    CHECK(member_names<added_recipient>() ==
          strings{"email", "firstname", "lastname", "role", "associatedContact", "status", "colorVariant"});
    CHECK(member_names<updated_recipient>().size() == 18);
    CHECK(member_names<recipient_updates>().size() == 14);
    CHECK(member_names<add_blocks_item>() == strings{"page", "x", "y", "height", "width", "recipientEmail", "required",
                                                     "placeholder", "defaultValue", "type", "text", "maxLength",
                                                     "templatedText"});
    CHECK(member_names<logs_list_request>() ==
          strings{"category", "workspaceUuid", "envelopeUuid", "eventTypes", "page", "limit", "sortBy", "sortOrder"});
    CHECK(member_names<webhook_update_request>() ==
          strings{"uuid", "url", "contentType", "sslVerify", "active", "secret", "events", "workspaceUuids", "title"});
    CHECK(member_names<webhook_create_request>() ==
          strings{"url", "contentType", "sslVerify", "active", "secret", "events", "workspaceUuids", "title"});
    CHECK(member_names<utils_whoami_response>() == strings{"teamUuid", "teamName", "ownerEmail", "ownerUuid"});
    CHECK(member_names<control_team_create_response>() ==
          strings{"teamUuid", "apiKey", "defaultWorkspaceUuid", "ownerUuid", "ownerEmail", "accessKey", "secretKey"});
    CHECK(member_names<outbox_email>() == strings{"to", "kind", "envelopeUuid", "teamUuid", "timestamp", "signingUrl"});
    CHECK(member_names<webhook_delivery>() ==
          strings{"eventUuid", "webhookUuid", "eventType", "attempts", "delivered", "lastStatus", "dropped"});
    CHECK(member_names<template_list_request>() == strings{"workspaceUuid", "page"});
    CHECK(member_names<envelope_list_request>() == strings{"workspaceUuid", "tags", "status", "page"});
}

TEST_CASE("model: requiredness and constraints are in the types", "[model]") {
    // required / optional / nullable / tri-state
    STATIC_REQUIRE(std::is_same_v<decltype(envelope_get_request::envelopeUuid), uuid36>);
    STATIC_REQUIRE(std::is_same_v<decltype(envelope_get_request::workspaceUuid), std::optional<uuid36>>);
    STATIC_REQUIRE(std::is_same_v<decltype(envelope_update_fields::customInvitationMessage), tri_state<std::string>>);
    STATIC_REQUIRE(std::is_same_v<decltype(webhook_update_request::secret), tri_state<webhook_secret>>);
    STATIC_REQUIRE(std::is_same_v<decltype(contact_update_fields::phone), nullable<std::string>>);
    STATIC_REQUIRE(std::is_same_v<decltype(contact_create_item::phone), tri_state<std::string>>);
    STATIC_REQUIRE(std::is_same_v<decltype(owner::firstname), tri_state<std::string>>);
    STATIC_REQUIRE(std::is_same_v<decltype(owner_summary::firstname), nullable<std::string>>);
    STATIC_REQUIRE(std::is_same_v<decltype(envelope::sentDate), nullable<std::int64_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype(envelope::reminderFrequencyPeriod), nullable<std::int64_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype(document::blocks), std::map<std::string, std::vector<block>>>);
    STATIC_REQUIRE(std::is_same_v<decltype(recipient::invitation), std::optional<invitation>>);
    STATIC_REQUIRE(std::is_same_v<decltype(updated_recipient::phone), nullable<std::string>>);
    STATIC_REQUIRE(std::is_same_v<decltype(log_entry::eventData), boost::json::object>);
    STATIC_REQUIRE(std::is_same_v<decltype(control_clock_advance_request::milliseconds), std::int64_t>);

    // e-mail forms and limits
    STATIC_REQUIRE(std::is_same_v<decltype(add_recipients_item::email), email128>);
    STATIC_REQUIRE(std::is_same_v<decltype(create_from_template_recipient::email), email128>);
    STATIC_REQUIRE(std::is_same_v<decltype(envelope_update_recipient_request::email), update_recipient_email255>);
    STATIC_REQUIRE(std::is_same_v<decltype(delete_recipients_item::email), email255>);
    STATIC_REQUIRE(std::is_same_v<decltype(contact_update_fields::email), email255>);
    STATIC_REQUIRE(std::is_same_v<decltype(contact_create_item::email), email255>);
    STATIC_REQUIRE(std::is_same_v<decltype(contact_delete_request::emails)::value_type, email255>);
    STATIC_REQUIRE(std::is_same_v<decltype(authentication_create_iframe_token_request::signerEmail), email_address>);
    STATIC_REQUIRE(std::is_same_v<decltype(add_blocks_item::recipientEmail), std::optional<email_address>>);

    // string bounds
    STATIC_REQUIRE(decltype(workspace_create_request::name)::min_length == 1);
    STATIC_REQUIRE(decltype(workspace_create_request::name)::max_length == 100);
    STATIC_REQUIRE(decltype(create_from_template_recipient::label)::min_length == 1);
    STATIC_REQUIRE(decltype(create_from_template_recipient::label)::max_length == 255);
    STATIC_REQUIRE(decltype(envelope_update_fields::title)::value_type::max_length == 255);
    STATIC_REQUIRE(decltype(webhook_update_request::title)::value_type::max_length == 256);
    STATIC_REQUIRE(decltype(webhook_update_request::uuid)::min_length == 36);
    STATIC_REQUIRE(decltype(webhook_update_request::uuid)::max_length == 36);

    // integer ranges
    STATIC_REQUIRE(decltype(webhook_list_request::page)::value_type::min_value == 1);
    STATIC_REQUIRE(decltype(webhook_list_request::limit)::value_type::min_value == 1);
    STATIC_REQUIRE(decltype(webhook_list_request::limit)::value_type::max_value == 50);
    STATIC_REQUIRE(decltype(envelope_update_fields::expirationPeriod)::value_type::min_value == 1);
    STATIC_REQUIRE(decltype(envelope_update_fields::expirationPeriod)::value_type::max_value == 90);
    STATIC_REQUIRE(decltype(envelope_update_fields::reminderFrequencyPeriod)::value_type::min_value == 1);
    STATIC_REQUIRE(decltype(envelope_update_document::initialsVerticalMargin)::value_type::min_value == 0);
    STATIC_REQUIRE(decltype(envelope_update_document::initialsVerticalMargin)::value_type::max_value == 120);
    STATIC_REQUIRE(decltype(add_blocks_item::maxLength)::value_type::min_value == 1);
    STATIC_REQUIRE(std::is_same_v<decltype(recipient_updates::order), std::optional<int32>>);

    // array sizes
    STATIC_REQUIRE(decltype(envelope_add_recipients_request::recipients)::min_size == 1);
    STATIC_REQUIRE(decltype(envelope_add_recipients_request::recipients)::max_size == 50);
    STATIC_REQUIRE(decltype(envelope_delete_recipients_request::recipients)::max_size == 50);
    STATIC_REQUIRE(decltype(envelope_create_from_template_request::recipients)::min_size == 1);
    STATIC_REQUIRE(decltype(envelope_add_blocks_request::blocks)::min_size == 1);
    STATIC_REQUIRE(decltype(envelope_delete_blocks_request::blockUuids)::min_size == 1);
    STATIC_REQUIRE(std::is_same_v<decltype(envelope_delete_blocks_request::blockUuids)::value_type, uuid36>);
    STATIC_REQUIRE(decltype(contact_create_request::contacts)::min_size == 1);
    STATIC_REQUIRE(decltype(contact_create_request::contacts)::max_size == 50);
    STATIC_REQUIRE(decltype(contact_delete_request::emails)::max_size == 50);
    STATIC_REQUIRE(decltype(control_envelope_content::documents)::min_size == 1);

    // defaults are left to the caller
    STATIC_REQUIRE(default_page == 1);
    STATIC_REQUIRE(default_limit == 50);
    STATIC_REQUIRE(default_distribution_method == distribution_method::email);
    STATIC_REQUIRE(default_log_sort_by == log_sort_by::timestamp);
    STATIC_REQUIRE(default_log_sort_order == sort_order::desc);
    CHECK(page_or_default(std::nullopt) == 1);
    CHECK(limit_or_default(page_limit{7}) == 7);
}

TEST_CASE("model: enums match the spec lists", "[model]") {
    CHECK(wire_strings<envelope_status>() ==
          strings{"uploading", "draft", "approving", "signing", "complete", "declined", "canceled", "expired"});
    CHECK(wire_strings<recipient_status>() == strings{"pending", "approved", "signed", "declined", "canceled"});
    CHECK(wire_strings<recipient_role>() == strings{"signer", "approver", "viewer"});
    CHECK(wire_strings<language>() == strings{"en", "fr", "es", "it", "fi"});
    CHECK(wire_strings<verification_type>() == strings{"none", "sms", "email"});
    CHECK(wire_strings<block_color>() ==
          strings{"primary", "info", "auxiliary", "success", "warning", "danger", "teal", "pink", "grape", "lime"});
    CHECK(wire_strings<label_icon>() == strings{"at", "text-t", "image", "signature", "user", "building-office",
                                                "road-horizon", "city", "building", "phone", "read-cv-logo", "calendar",
                                                "hash", "dot-outline", "check-square", "caret-down"});
    CHECK(wire_strings<templated_text>() == strings{"email", "fullname", "phone", "jobTitle", "company", "addressLine1",
                                                    "addressLine2", "zipCode", "city", "country"});
    CHECK(wire_strings<block_type>() == strings{"text"});
    CHECK(wire_strings<recipient_type>() == strings{"manual"});
    CHECK(wire_strings<webhook_content_type>() == strings{"application/json", "application/x-www-form-urlencoded"});
    CHECK(wire_strings<distribution_method>() == strings{"email", "none"});
    CHECK(wire_strings<log_category>() == strings{"envelope", "team", "dataroom", "user"});
    CHECK(wire_strings<log_sort_by>() == strings{"timestamp", "id"});
    CHECK(wire_strings<sort_order>() == strings{"asc", "desc"});
    CHECK(wire_strings<webhook_event>() == strings{"ENVELOPE_CREATED", "ENVELOPE_SENT", "ENVELOPE_OPENED",
                                                   "ENVELOPE_SIGNED", "ENVELOPE_COMPLETED", "ENVELOPE_DECLINED",
                                                   "ENVELOPE_CANCELED"});
    CHECK(wire_strings<envelope_log_event>() == strings{"ENVELOPE_CREATED", "ENVELOPE_SENT", "ENVELOPE_OPENED",
                                                        "RECIPIENT_VERIFIED", "RECIPIENT_APPROVED", "DOCUMENT_SIGNED",
                                                        "ENVELOPE_COMPLETED", "ENVELOPE_DECLINED", "ENVELOPE_CANCELED",
                                                        "ENVELOPE_EXPIRED"});
    CHECK(wire_strings<team_log_event>() == strings{"TEAM_CREATED", "WORKSPACE_CREATED", "WORKSPACE_UPDATED",
                                                    "WEBHOOK_CREATED", "WEBHOOK_UPDATED", "WEBHOOK_DELETED",
                                                    "CONTACT_CREATED", "CONTACT_UPDATED", "CONTACT_DELETED"});
    CHECK(wire_strings<recipient_action>() == strings{"open", "approve", "sign", "decline"});
    CHECK(wire_strings<outbox_kind>() == strings{"invitation", "reminder"});
    CHECK(wire_strings<plan_feature>() == strings{"sms", "timestamp", "webhooks"});

    STATIC_REQUIRE(enum_count<error_code>() == 39);
    const auto codes = wire_strings<error_code>();
    for (const char* code : {"AUTHENTICATION_ERROR",
                             "DBSC_COOKIE_INVALID",
                             "TUNNEL_ERROR",
                             "TUNNEL_SESSION_NOT_FOUND",
                             "INVALID_REQUEST_FORMAT",
                             "AUTHORIZATION_ERROR",
                             "FEATURE_NOT_IN_CURRENT_PLAN",
                             "INTERNAL_SERVER_ERROR",
                             "WORKSPACE_NOT_FOUND",
                             "ENVELOPE_NOT_FOUND",
                             "DOCUMENT_NOT_FOUND",
                             "DOCUMENT_NOT_ATTACHMENT",
                             "ENVELOPE_NOT_IN_DRAFT",
                             "RECIPIENT_NOT_FOUND",
                             "DUPLICATE_RECIPIENT",
                             "CONTACT_NOT_FOUND",
                             "USER_NOT_FOUND",
                             "TEMPLATE_NOT_FOUND",
                             "INVALID_RECIPIENT_LABELS",
                             "INVALID_EMAIL",
                             "INVALID_RECIPIENT_EMAIL",
                             "NO_RECIPIENTS",
                             "NO_SIGNERS",
                             "SUBSCRIPTION_NOT_FOUND",
                             "SES_LIMIT_EXCEEDED",
                             "API_CREDITS_LIMIT_EXCEEDED",
                             "WEBHOOK_NOT_FOUND",
                             "WEBHOOK_URL_REFUSED",
                             "LOG_CATEGORY_NOT_IMPLEMENTED",
                             "SIGNER_NOT_IN_ENVELOPE",
                             "RECIPIENT_VERIFICATION_DISABLED",
                             "WEBHOOK_LIMIT_REACHED",
                             "CONTACT_EMAIL_ALREADY_EXISTS",
                             "ACTION_NOT_ALLOWED",
                             "TEAM_LIMIT_REACHED",
                             "SIGNING_TOKEN_UNKNOWN",
                             "SIGNING_TOKEN_USED",
                             "SIGNING_TOKEN_EXPIRED",
                             "SIGNING_SESSION_INVALID"}) {
        INFO(code);
        CHECK(enum_from_wire<error_code>(code).has_value());
    }
    CHECK(std::set<std::string>(codes.begin(), codes.end()).size() == 39);

    // A trailing underscore is never written; an enum whose wire strings are not identifiers says
    // how its names are spelled (wire_spelling_of, found by ADL).
    STATIC_REQUIRE(enum_to_wire(label_icon::text_t) == "text-t");
    STATIC_REQUIRE(enum_to_wire(label_icon::read_cv_logo) == "read-cv-logo");
    STATIC_REQUIRE(enum_to_wire(label_icon::at) == "at");
    STATIC_REQUIRE(enum_to_wire(webhook_content_type::application_json) == "application/json");
    STATIC_REQUIRE(enum_to_wire(webhook_content_type::application_x_www_form_urlencoded) ==
                   "application/x-www-form-urlencoded");
    STATIC_REQUIRE(enum_to_wire(recipient_status::signed_) == "signed");
    STATIC_REQUIRE(enum_to_wire(recipient_status::pending) == "pending");
    STATIC_REQUIRE(enum_to_wire(templated_text::addressLine1) == "addressLine1");
    STATIC_REQUIRE(enum_to_wire(error_code::ENVELOPE_NOT_IN_DRAFT) == "ENVELOPE_NOT_IN_DRAFT");
    STATIC_REQUIRE(has_wire_spelling<label_icon>);
    STATIC_REQUIRE_FALSE(has_wire_spelling<block_color>);
    STATIC_REQUIRE_FALSE(has_wire_spelling<recipient_status>);
    STATIC_REQUIRE(enum_to_wire(static_cast<label_icon>(99)).empty());
    STATIC_REQUIRE(enum_to_wire(static_cast<recipient_status>(-1)).empty());
    STATIC_REQUIRE(enum_from_wire<recipient_status>("signed") == recipient_status::signed_);
    STATIC_REQUIRE_FALSE(enum_from_wire<recipient_status>("signed_").has_value());
    CHECK(enum_wire_names<label_icon>() ==
          std::array<std::string_view, 16>{"at", "text-t", "image", "signature", "user", "building-office",
                                           "road-horizon", "city", "building", "phone", "read-cv-logo", "calendar",
                                           "hash", "dot-outline", "check-square", "caret-down"});
    STATIC_REQUIRE(enum_from_wire<label_icon>("building-office") == label_icon::building_office);
    STATIC_REQUIRE_FALSE(enum_from_wire<label_icon>("building_office").has_value());
    STATIC_REQUIRE(enum_to_wire(block_color::lime) == "lime");

    check_round_trip<envelope_status>();
    check_round_trip<recipient_status>();
    check_round_trip<label_icon>();
    check_round_trip<webhook_content_type>();
    check_round_trip<error_code>();
    check_round_trip<templated_text>();
}

TEST_CASE("model: cross-member rules", "[model]") {
    SECTION("add-recipients: sms needs a non-empty phone") {
        add_recipients_item item;
        item.email = "a@x.io";
        item.verificationType = verification_type::sms;
        auto problems = run_validate(item);
        REQUIRE(problems.size() == 1);
        CHECK(problems[0].path == problem_path{"phone"});
        CHECK(problems[0].kind == problem_kind::rule);
        item.phone = "";
        CHECK(run_validate(item).size() == 1);
        item.phone = "+33600000000";
        CHECK(run_validate(item).empty());
        item.phone.reset();
        item.verificationType = verification_type::email;
        CHECK(run_validate(item).empty());
    }
    SECTION("create-from-template: the same e-mail under two labels") {
        envelope_create_from_template_request request;
        auto add = [&](std::string label, std::string email) {
            create_from_template_recipient r;
            r.label = std::move(label);
            r.email = std::move(email);
            request.recipients.push_back(std::move(r));
        };
        add("A", "a@x.io");
        add("B", "b@x.io");
        CHECK(run_validate(request).empty());
        add("C", "a@x.io");
        auto problems = run_validate(request);
        REQUIRE(problems.size() == 1);
        CHECK(problems[0].path == problem_path{"recipients", "2", "email"});
        CHECK(problems[0].kind == problem_kind::rule);
        // the same label twice is INVALID_RECIPIENT_LABELS (a business error), not a problem here
        envelope_create_from_template_request twice;
        twice.recipients.resize(2);
        twice.recipients[0].label = "A";
        twice.recipients[0].email = "a@x.io";
        twice.recipients[1].label = "A";
        twice.recipients[1].email = "b@x.io";
        CHECK(run_validate(twice).empty());
    }
    SECTION("logs list: eventTypes of the category") {
        logs_list_request request;
        request.category = log_category::envelope;
        request.eventTypes = std::vector<std::string>{"ENVELOPE_CREATED", "TEAM_CREATED", "DOCUMENT_SIGNED", "x"};
        auto problems = run_validate(request);
        REQUIRE(problems.size() == 2);
        CHECK(problems[0].path == problem_path{"eventTypes", "1"});
        CHECK(problems[0].kind == problem_kind::enum_value);
        CHECK(problems[1].path == problem_path{"eventTypes", "3"});
        request.category = log_category::team;
        request.eventTypes = std::vector<std::string>{"TEAM_CREATED", "ENVELOPE_CREATED"};
        problems = run_validate(request);
        REQUIRE(problems.size() == 1);
        CHECK(problems[0].path == problem_path{"eventTypes", "1"});
        request.category = log_category::user;
        CHECK(run_validate(request).empty());
        request.category = log_category::dataroom;
        CHECK(run_validate(request).empty());
        request.eventTypes.reset();
        request.category = log_category::envelope;
        CHECK(run_validate(request).empty());
    }
    SECTION("control template create: distinct recipient labels") {
        control_template_content request;  // the hook of its content, flattened into the request
        request.recipientLabels.assign({"A", "B", "A", "B"});
        auto problems = run_validate(request);
        REQUIRE(problems.size() == 2);
        CHECK(problems[0].path == problem_path{"recipientLabels", "2"});
        CHECK(problems[1].path == problem_path{"recipientLabels", "3"});
        CHECK(problems[0].kind == problem_kind::rule);
    }
    SECTION("paths are relative to the struct") {
        add_recipients_item item;
        item.verificationType = verification_type::sms;
        problem_list out;
        problem_path base{"recipients", "4"};
        problem_sink sink(out, base);
        validate(item, sink);
        REQUIRE(out.size() == 1);
        CHECK(out[0].path == problem_path{"recipients", "4", "phone"});
    }
}

namespace copy_members_test {
struct address {
    std::optional<std::string> city;
};
BOOST_DESCRIBE_STRUCT(address, (), (city))
struct stored : address {
    std::string name;
    std::int64_t order{};
    std::string phone;
    int not_in_patch{7};
};
BOOST_DESCRIBE_STRUCT(stored, (address), (name, order, phone, not_in_patch))
struct patch {
    std::optional<std::string> name;
    std::optional<esign::int32> order;
    std::optional<std::string> city;  // an inherited member of `stored`
    std::string phone;                // not optional: apply_present leaves it
    std::optional<int> unknown;       // no member of that name in `stored`
};
BOOST_DESCRIBE_STRUCT(patch, (), (name, order, city, phone, unknown))
struct view {
    std::string name;
    esign::nullable<std::string> phone;
    std::optional<std::string> city;
    bool extra{};
};
BOOST_DESCRIBE_STRUCT(view, (), (name, phone, city, extra))
}  // namespace copy_members_test

TEST_CASE("model: copy_members and apply_present pair members by name", "[model][members]") {
    using namespace copy_members_test;
    stored s;
    s.name = "before";
    s.order = 3;
    s.phone = "+33";
    s.city = "Paris";

    patch p;
    p.order = esign::int32{9};
    p.phone = "ignored";
    p.unknown = 1;
    esign::apply_present(p, s);
    CHECK(s.name == "before");  // absent: unchanged
    CHECK(s.order == 9);        // present: converted from the ranged type
    CHECK(s.phone == "+33");    // not optional in the patch: not applied
    CHECK(s.city == "Paris");
    CHECK(s.not_in_patch == 7);

    p.name = "after";
    p.city = "Lyon";
    esign::apply_present(p, s);
    CHECK(s.name == "after");
    CHECK(s.city == "Lyon");  // inherited members are paired too

    view v;
    v.extra = true;
    esign::copy_members(s, v);
    CHECK(v.name == "after");
    CHECK(v.phone.has_value());
    CHECK(*v.phone == "+33");
    CHECK(v.city == "Lyon");
    CHECK(v.extra);  // no member of that name in `stored`: unchanged
}

namespace flattened_test {
struct place {
    esign::bounded_string<1, 5> city;  // required, inside a flattened member
    std::optional<std::string> zip;
};
BOOST_DESCRIBE_STRUCT(place, (), (city, zip))
// A rule across place's members: it holds wherever a place is flattened.
inline void validate(const place& value, esign::problem_sink& sink) {
    if (value.zip && value.zip->size() != 5) sink.add({"zip"}, esign::problem_kind::rule, "a zip code has 5 digits");
}
struct labelled {
    std::optional<std::string> label;
    esign::flattened<place> where;  // flattened inside a flattened member
};
BOOST_DESCRIBE_STRUCT(labelled, (), (label, where))
struct identity {
    std::string id;
};
BOOST_DESCRIBE_STRUCT(identity, (), (id))
struct item : identity {
    std::string name;
    esign::flattened<labelled> about;
    std::int64_t after{};
};
BOOST_DESCRIBE_STRUCT(item, (identity), (name, about, after))
}  // namespace flattened_test

TEST_CASE("model: a flattened member's members are the struct's own and in its place", "[model][members]") {
    using namespace flattened_test;
    namespace json = esign::json;
    CHECK(member_names<item>() == strings{"id", "name", "label", "city", "zip", "after"});
    STATIC_REQUIRE(std::is_same_v<esign::flattened_parts<item>, boost::mp11::mp_list<place, labelled>>);

    SECTION("read and write: inline members, in declaration order") {
        const std::string text = R"({"id":"a","name":"n","label":"L","city":"Paris","zip":"75001","after":3})";
        auto r = json::read<item>(R"({"after":3,"city":"Paris","zip":"75001","id":"a","label":"L","name":"n"})");
        REQUIRE(r.has_value());
        CHECK(r->about.where.city == "Paris");
        CHECK(r->about.where.zip == "75001");
        CHECK(r->about.label == "L");
        CHECK(r->id == "a");
        CHECK(json::write(*r) == text);
        CHECK(boost::json::serialize(json::encode(*r)) == text);

        item sparse;
        sparse.about.where.city = "Lyon";
        CHECK(json::write(sparse) == R"({"id":"","name":"","city":"Lyon","after":0})");
    }
    SECTION("problems: at the member's own name, as for any member") {
        auto missing = json::read<item>(R"({"id":"a","name":"n","after":1})");
        REQUIRE(missing.problems().size() == 1);
        CHECK(missing.problems()[0].path == problem_path{"city"});
        CHECK(missing.problems()[0].kind == problem_kind::missing);

        auto twice = json::read<item>(R"({"id":"a","name":"n","after":1,"city":"x","city":"y"})");
        REQUIRE(twice.problems().size() == 1);
        CHECK(twice.problems()[0].path == problem_path{"city"});
        CHECK(twice.problems()[0].kind == problem_kind::duplicate_member);

        auto too_long = json::read<item>(R"({"id":"a","name":"n","after":1,"city":"Marseille"})");
        REQUIRE(too_long.problems().size() == 1);
        CHECK(too_long.problems()[0].path == problem_path{"city"});
        CHECK(too_long.problems()[0].kind == problem_kind::too_long);

        // The C++ names of the flattened members are not JSON names.
        auto nested =
            json::read<item>(R"({"id":"a","name":"n","after":1,"city":"x","about":{},"where":{}})", {.strict = true});
        REQUIRE(nested.problems().size() == 2);
        CHECK(nested.problems()[0].path == problem_path{"about"});
        CHECK(nested.problems()[0].kind == problem_kind::unknown_member);
        CHECK(nested.problems()[1].path == problem_path{"where"});

        // place's rule, at its member's own path, by read and esign::check alike.
        auto short_zip = json::read<item>(R"({"id":"a","name":"n","after":1,"city":"x","zip":"123"})");
        REQUIRE(short_zip.problems().size() == 1);
        CHECK(short_zip.problems()[0].path == problem_path{"zip"});
        CHECK(short_zip.problems()[0].kind == problem_kind::rule);
        item zip_of_three;
        zip_of_three.about.where.city = "x";
        zip_of_three.about.where.zip = "123";
        CHECK(esign::check(zip_of_three).problems() == short_zip.problems());

        item built;
        built.about.where.city = "Marseille";
        const auto checked = esign::check(built);
        REQUIRE(checked.problems().size() == 1);
        CHECK(checked.problems()[0].path == problem_path{"city"});
        CHECK(checked.problems() == json::read<item>(json::write(built)).problems());
    }
    SECTION("schema: the members are the object's own properties") {
        const boost::json::object s = esign::schema::json_schema<item>();
        std::set<std::string> properties, required;
        for (const auto& p : s.at("properties").as_object()) properties.emplace(p.key());
        for (const auto& r : s.at("required").as_array()) required.emplace(r.as_string().c_str());
        CHECK(properties == std::set<std::string>{"id", "name", "label", "city", "zip", "after"});
        CHECK(required == std::set<std::string>{"id", "name", "city", "after"});
        CHECK(s.at("properties").at("city").at("maxLength").to_number<int>() == 5);
    }
}

TEST_CASE("model: person details pass between a recipient, its updates and its response", "[model][members]") {
    esign::recipient r;
    r.email = "a@b.co";
    r.details.city = "Paris";
    r.details.jobTitle = "CFO";
    esign::recipient_updates u;
    u.details.company = "ACME";
    esign::apply_present(u, r);
    CHECK(r.details.company == "ACME");
    CHECK(r.details.city == "Paris");  // absent from the updates: kept
    CHECK(esign::json::write(r).find(R"("phone":"","jobTitle":"CFO","company":"ACME","city":"Paris","role":)") !=
          std::string::npos);

    esign::updated_recipient out;
    esign::copy_members(r, out);
    CHECK(out.email == "a@b.co");
    CHECK(out.details.city == "Paris");
    CHECK(out.details.jobTitle == "CFO");
    CHECK(out.details.company == "ACME");
}

}  // namespace test_model
