// SPDX-License-Identifier: BSL-1.0
#pragma once
// The rules across members (the `validate(const T&, problem_sink&)` hooks of the model) that
// JSON Schema can state, added to the schema of their type by esign::schema::schema_of.
//
// The extension point: specialize
//   template <> struct cross_member_rules<T> { static void add(boost::json::object& schema); };
// for a described struct; `schema` is its generated object schema (properties inline, named
// member types as $ref). The validators of tests/test_schema_independent.cpp (valijson) and
// tests/schema/validate_openapi.mjs (Ajv) judge every request example against the result and
// must agree with the decoder, which keeps these in step with the hooks.
//
// Not stated, because JSON Schema cannot: the same e-mail under two labels of
// create-from-template (uniqueItems compares whole items, not one member).
#include <string_view>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <esign/model/control.hpp>
#include <esign/model/embeds.hpp>
#include <esign/model/harness.hpp>
#include <esign/model/log.hpp>
#include <esign/model/recipient.hpp>
#include <esign/validation/enum_names.hpp>

namespace esign::schema {

// Primary template: no rule across members is stated.
template <class T>
struct cross_member_rules {};

template <class T>
concept has_cross_member_rules = requires(boost::json::object& schema) {
    cross_member_rules<T>::add(schema);
};

namespace detail {
inline boost::json::string_view sv(std::string_view s) { return {s.data(), s.size()}; }

// The wire strings of E, the "enum" of its schema.
template <described_enum E>
boost::json::array enum_values() {
    boost::json::array out;
    for (auto name : enum_wire_names<E>()) out.emplace_back(sv(name));
    return out;
}

// {"if": {member is `value`}, "then": then}: the member is required in the condition, so an
// absent member does not select the branch.
inline boost::json::object when_member_is(std::string_view member, std::string_view value, boost::json::object then) {
    boost::json::object condition{
        {"properties", boost::json::object{{sv(member), boost::json::object{{"const", sv(value)}}}}},
        {"required", boost::json::array{sv(member)}}};
    return {{"if", std::move(condition)}, {"then", std::move(then)}};
}
}  // namespace detail

// contract.md §2: verificationType sms needs a non-empty phone.
template <>
struct cross_member_rules<add_recipients_item> {
    static void add(boost::json::object& schema) {
        boost::json::object phone_given{
            {"properties", boost::json::object{{"phone", boost::json::object{{"minLength", 1}}}}},
            {"required", boost::json::array{"phone"}}};
        for (auto& [key, value] :
             detail::when_member_is("verificationType", enum_to_wire(verification_type::sms), std::move(phone_given)))
            schema[key] = std::move(value);
    }
};

// contract.md §7.1: signing needs the name typed to sign with.
template <>
struct cross_member_rules<embeds_recipient_act_request> {
    static void add(boost::json::object& schema) {
        for (auto& [key, value] :
             detail::when_member_is("action", enum_to_wire(recipient_action::sign),
                                    boost::json::object{{"required", boost::json::array{"signatureName"}}}))
            schema[key] = std::move(value);
    }
};

// contract.md §3: eventTypes are the event types of the category (is_event_type_of); the user
// and dataroom categories take any string.
template <>
struct cross_member_rules<logs_list_request> {
    static void add(boost::json::object& schema) {
        auto event_types_in = [](boost::json::array names) {
            boost::json::object items{{"items", boost::json::object{{"enum", std::move(names)}}}};
            return boost::json::object{{"properties", boost::json::object{{"eventTypes", std::move(items)}}}};
        };
        schema["allOf"] = boost::json::array{
            detail::when_member_is("category", enum_to_wire(log_category::envelope),
                                   event_types_in(detail::enum_values<envelope_log_event>())),
            detail::when_member_is("category", enum_to_wire(log_category::team),
                                   event_types_in(detail::enum_values<team_log_event>())),
        };
    }
};

// Recipient labels of a template are distinct.
template <>
struct cross_member_rules<control_template_content> {
    static void add(boost::json::object& schema) {
        schema.at("properties").as_object().at("recipientLabels").as_object()["uniqueItems"] = true;
    }
};

// contract.md §6.5: a rule targets an operation or a webhook (exactly one), with the actions of
// its kind; `error` goes with the action error, `delayMs` with delay; a probability is 0 to 1.
template <>
struct cross_member_rules<control_faults_add_request> {
    static void add(boost::json::object& schema) {
        auto only = [](std::string_view member) {
            return boost::json::object{{"required", boost::json::array{detail::sv(member)}}};
        };
        auto actions = [](std::initializer_list<fault_action> list) {
            boost::json::array names;
            for (auto a : list) names.emplace_back(detail::sv(enum_to_wire(a)));
            return boost::json::object{
                {"properties", boost::json::object{{"action", boost::json::object{{"enum", names}}}}}};
        };
        // `member` is given exactly when action is `action`.
        auto with_action = [](fault_action action, std::string_view member) {
            auto rule =
                detail::when_member_is("action", enum_to_wire(action),
                                       boost::json::object{{"required", boost::json::array{detail::sv(member)}}});
            rule["else"] =
                boost::json::object{{"not", boost::json::object{{"required", boost::json::array{detail::sv(member)}}}}};
            return rule;
        };
        schema["oneOf"] = boost::json::array{only("operation"), only("webhookUuid")};
        schema["allOf"] = boost::json::array{
            boost::json::object{{"if", only("operation")},
                                {"then", actions({fault_action::error, fault_action::delay, fault_action::drop})}},
            boost::json::object{{"if", only("webhookUuid")},
                                {"then", actions({fault_action::fail, fault_action::timeout})}},
            with_action(fault_action::error, "error"),
            with_action(fault_action::delay, "delayMs"),
        };
        auto& probability = schema.at("properties").as_object().at("probability").as_object();
        probability["minimum"] = 0;
        probability["maximum"] = 1;
    }
};

}  // namespace esign::schema
