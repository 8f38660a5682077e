// SPDX-License-Identifier: BSL-1.0
#pragma once
// JSON Schema (draft 2020-12) generated from the reflected types, so the schema and the
// decoder (json/codecs.hpp, json/described.hpp) cannot drift apart.
//
// A string type of your own with a rule (validation/rule.hpp) gets its schema from the facts it
// states as static members (format, pattern(), min_length, max_length, ascii: see
// schema_of<checked_string> below), with nothing to add here. Any other type of your own gives its
// schema where it says everything else, in its codec:
//   static boost::json::object schema(auto& context);   // context: a schema_context
// (json/codec.hpp). Specializing esign::schema::schema_of<T> with
//   static boost::json::object make(schema_context&);
// does the same from outside the codec. Described structs and enums are handled generically.
//
// What each rule of the decoder becomes:
//   std::optional<T> member      not in `required`
//   nullable<T>, tri_state<T>     "type": [..., "null"] (a $ref becomes anyOf [$ref, {type: null}])
//   a string type with a rule      its facts (schema_of<checked_string> below), e.g.
//     bounded_string<Min, Max>     minLength / maxLength (code points, as JSON Schema counts them)
//     uuid36                        minLength = maxLength = 36
//     email<Form, Max>              pattern = email<>::pattern() (the same text as the code), maxLength
//     pattern_string<P>             pattern = P
//     absolute_uri                  format uri, pattern = absolute_uri::pattern() (types/uri.hpp), maxLength 2048
//   ranged<Min, Max>              integer, minimum / maximum (JSON Schema's integer accepts 3.0
//                                 like the decoder does)
//   std::int64_t / double / bool  integer / number / boolean
//   bounded_vector<T, Min, Max>   array, minItems / maxItems
//   described enum                string, enum = its wire strings (enum_wire_names<E>())
//   std::map<std::string, T>      object, additionalProperties = schema of T
//   scalar_text                   type [string, number, boolean]
//   boost::json::object / value   object / any
//   unknown members               allowed; additionalProperties false with options.strict
//                                 (the decoder's decode_options::strict)
//   validate() hooks              if/then, allOf, uniqueItems where JSON Schema can say them
//                                 (schema/cross_member.hpp)
//
// What the schema does not say, so a document valid against it may still be refused with
// INVALID_REQUEST_FORMAT (tests/test_schema_independent.cpp shows each with valijson):
//   - the same e-mail under two template labels (uniqueItems compares whole items only);
//   - a member name that appears twice in one object (the parser refuses it; JSON Schema sees
//     the parsed object only);
//   - the exact syntax of an IPv6 literal in absolute_uri ("http://[1:2]/"): the pattern reads
//     "[" hex digits, ':' and '.' "]", parse_ipv6 the rest (an exact IPv6 pattern is beyond the
//     constexpr budget of the regex engine under clang; see types/uri.hpp);
//   - that strings are valid UTF-8 (JSON Schema works on decoded text).
// Business rules (WORKSPACE_NOT_FOUND, INVALID_EMAIL's ".invalid" domain, ...) are not
// schema rules at all.
#include <concepts>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeindex>
#include <typeinfo>
#include <utility>
#include <vector>

#include <boost/describe/members.hpp>
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <boost/mp11/algorithm.hpp>

#include <esign/json/codecs.hpp>
#include <esign/json/described.hpp>
#include <esign/model/error_body.hpp>
#include <esign/model/operations.hpp>
#include <esign/schema/cross_member.hpp>
#include <esign/types/ascii.hpp>
#include <esign/validation/enum_names.hpp>

namespace esign::schema {

inline constexpr std::string_view json_schema_dialect = "https://json-schema.org/draft/2020-12/schema";

struct schema_options {
    // Unknown members refused (additionalProperties: false), like decode_options::strict.
    bool strict = false;
};

class schema_context;

// Primary template: a type without a schema is a compile error naming it.
template <class T, class Enable = void>
struct schema_of;

// ---------------------------------------------------------------------------------------------
// Names of the shared component types (Boost.Describe has no type names).
//
// ONE list: the shared types below, by hand; every request and response type of the operation
// table is named from its path (/public/envelope/add-recipients -> EnvelopeAddRecipientsRequest
// and EnvelopeAddRecipientsResponse) unless this list names it already. Other nested types
// are inlined where they are used.

template <class T>
struct named_type {
    using type = T;
    std::string_view name;
};

inline constexpr auto shared_type_names = std::make_tuple(
    named_type<empty_response>{"EmptyResponse"}, named_type<error_body>{"ErrorBody"},
    named_type<error_info>{"ErrorInfo"}, named_type<error_detail>{"ErrorDetail"}, named_type<pagination>{"Pagination"},
    named_type<envelope>{"Envelope"}, named_type<envelope_summary>{"EnvelopeSummary"}, named_type<document>{"Document"},
    named_type<block>{"Block"}, named_type<recipient>{"Recipient"}, named_type<invitation>{"Invitation"},
    named_type<webhook>{"Webhook"}, named_type<workspace>{"Workspace"}, named_type<contact>{"Contact"},
    named_type<log_entry>{"LogEntry"}, named_type<template_summary>{"TemplateSummary"});

// "/public/envelope/add-recipients" -> "EnvelopeAddRecipients" (the "/public/" or "/_control/"
// prefix dropped, every word capitalized).
inline std::string operation_base_name(std::string_view path) {
    std::string out;
    if (path.starts_with("/public/"))
        path.remove_prefix(8);
    else if (path.starts_with("/_control/"))
        path.remove_prefix(10), out = "Control";
    bool upper = true;
    for (char c : path) {
        if (c == '/' || c == '-' || c == '_') {
            upper = true;
            continue;
        }
        out += upper ? to_upper_ascii(c) : c;
        upper = false;
    }
    return out;
}

// "/public/envelope/add-recipients" -> "envelopeAddRecipients".
inline std::string operation_id(std::string_view path) {
    std::string name = operation_base_name(path);
    if (!name.empty()) name[0] = to_lower_ascii(name[0]);
    return name;
}

// type -> component name, for every named type (shared list first, then the operations).
inline const std::map<std::type_index, std::string>& type_names() {
    static const std::map<std::type_index, std::string> names = [] {
        std::map<std::type_index, std::string> out;
        std::apply(
            [&](const auto&... n) {
                (out.emplace(typeid(typename std::remove_cvref_t<decltype(n)>::type), std::string(n.name)), ...);
            },
            shared_type_names);
        for_each_operation([&](const auto& op) {
            using op_type = std::remove_cvref_t<decltype(op)>;
            std::string base = operation_base_name(op.path);
            out.emplace(typeid(typename op_type::request_type), base + "Request");
            out.emplace(typeid(typename op_type::response_type), base + "Response");
        });
        return out;
    }();
    return names;
}

template <class T>
std::optional<std::string> schema_name() {
    const auto& names = type_names();
    if (auto it = names.find(typeid(T)); it != names.end()) return it->second;
    return std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// The generation context: options, where references point, and the definitions made so far.

class schema_context {
public:
    explicit schema_context(schema_options options = {}, std::string ref_prefix = "#/$defs/")
        : options_(options), ref_prefix_(std::move(ref_prefix)) {}

    const schema_options& options() const noexcept { return options_; }
    boost::json::object& definitions() noexcept { return defs_; }

    // The schema of T where it is used: a {"$ref"} for a named type (defined once), else inline.
    template <class T>
    boost::json::object use() {
        if (auto name = schema_name<T>()) {
            define<T>(*name);
            return {{"$ref", ref_prefix_ + *name}};
        }
        return schema_of<T>::make(*this);
    }

    // Adds the definition of T under `name` (once).
    template <class T>
    void define(const std::string& name) {
        if (defs_.contains(name)) return;
        defs_[name] = boost::json::object{};  // placeholder: a recursive type refers to itself
        defs_[name] = schema_of<T>::make(*this);
    }

    // Inline schema of T (never a $ref at the top).
    template <class T>
    boost::json::object inline_schema() {
        return schema_of<T>::make(*this);
    }

private:
    schema_options options_;
    std::string ref_prefix_;
    boost::json::object defs_;
};

namespace detail {
inline boost::json::object string_schema() { return {{"type", "string"}}; }

// A length or item count, stored as a signed integer: readers of the value in memory, such as
// valijson's Boost.JSON adapter, take only int64 for a JSON integer (the text is the same).
inline std::int64_t count(std::size_t n) { return static_cast<std::int64_t>(n); }

// A schema that also accepts null.
inline boost::json::object or_null(boost::json::object s) {
    if (auto* type = s.if_contains("type")) {
        if (type->is_string()) {
            boost::json::array both{type->get_string(), "null"};
            *type = std::move(both);
        } else if (type->is_array()) {
            type->get_array().emplace_back("null");
        }
        if (auto* values = s.if_contains("enum"); values && values->is_array())
            values->get_array().emplace_back(nullptr);
        return s;
    }
    return {{"anyOf", boost::json::array{std::move(s), boost::json::object{{"type", "null"}}}}};
}

using esign::is_std_optional;
}  // namespace detail

// ---------------------------------------------------------------------------------------------
// Standard types

template <>
struct schema_of<bool> {
    static boost::json::object make(schema_context&) { return {{"type", "boolean"}}; }
};
template <>
struct schema_of<std::int64_t> {
    static boost::json::object make(schema_context&) { return {{"type", "integer"}, {"format", "int64"}}; }
};
template <>
struct schema_of<double> {
    static boost::json::object make(schema_context&) { return {{"type", "number"}}; }
};
template <>
struct schema_of<std::string> {
    static boost::json::object make(schema_context&) { return detail::string_schema(); }
};
template <>
struct schema_of<boost::json::object> {
    static boost::json::object make(schema_context&) { return {{"type", "object"}}; }
};
template <>
struct schema_of<boost::json::value> {
    static boost::json::object make(schema_context&) { return {}; }  // any JSON value
};

// ---------------------------------------------------------------------------------------------
// esign's constrained vocabulary

template <std::int64_t Min, std::int64_t Max>
struct schema_of<ranged<Min, Max>> {
    using type = ranged<Min, Max>;
    static boost::json::object make(schema_context&) {
        return {{"type", "integer"}, {"format", "int32"}, {"minimum", type::min_value}, {"maximum", type::max_value}};
    }
};

template <>
struct schema_of<scalar_text> {
    static boost::json::object make(schema_context&) {
        return {{"type", boost::json::array{"string", "number", "boolean"}}};
    }
};

template <class T>
struct schema_of<nullable<T>> {
    static boost::json::object make(schema_context& ctx) { return detail::or_null(ctx.use<T>()); }
};

template <class T>
struct schema_of<std::vector<T>> {
    static boost::json::object make(schema_context& ctx) { return {{"type", "array"}, {"items", ctx.use<T>()}}; }
};

template <class T, std::size_t Min, std::size_t Max>
struct schema_of<bounded_vector<T, Min, Max>> {
    using type = bounded_vector<T, Min, Max>;
    static boost::json::object make(schema_context& ctx) {
        boost::json::object s{{"type", "array"}, {"items", ctx.use<T>()}};
        if (type::min_size > 0) s["minItems"] = detail::count(type::min_size);
        if (type::max_size != unbounded) s["maxItems"] = detail::count(type::max_size);
        return s;
    }
};

template <class T>
struct schema_of<std::map<std::string, T>> {
    static boost::json::object make(schema_context& ctx) {
        return {{"type", "object"}, {"additionalProperties", ctx.use<T>()}};
    }
};

// ---------------------------------------------------------------------------------------------
// A codec that gives its type's schema (`schema`)

template <class T>
concept schema_giving_codec = requires(schema_context& ctx) {
    { json::codec<T>::schema(ctx) } -> std::convertible_to<boost::json::object>;
};

template <schema_giving_codec T>
struct schema_of<T> {
    static boost::json::object make(schema_context& ctx) { return json::codec<T>::schema(ctx); }
};

// A string type with a rule of its own (bounded_string, email, pattern_string, absolute_uri, a
// type of the user's), from the facts it states as static members, each optional: `format`,
// `pattern()`, `min_length`, `max_length` (in code points; unbounded: none), `ascii` (its valid
// values are ASCII: lengths are bytes, so the schema needs no note on code points).
template <json::detail::checked_string T>
requires(!schema_giving_codec<T>) struct schema_of<T> {
    static boost::json::object make(schema_context&) {
        auto s = detail::string_schema();
        if constexpr (requires { T::format; }) s["format"] = detail::sv(T::format);
        if constexpr (requires { T::pattern(); }) s["pattern"] = detail::sv(T::pattern());
        bool counted = false;
        if constexpr (requires { T::min_length; }) {
            if (T::min_length > 0) s["minLength"] = detail::count(T::min_length), counted = true;
        }
        if constexpr (requires { T::max_length; }) {
            if (T::max_length != unbounded) s["maxLength"] = detail::count(T::max_length), counted = true;
        }
        bool ascii = false;
        if constexpr (requires { T::ascii; }) ascii = T::ascii;
        if (counted && !ascii) s["$comment"] = "lengths count Unicode code points";
        return s;
    }
};

// ---------------------------------------------------------------------------------------------
// Described enums and structs

template <described_enum E>
struct schema_of<E> {
    static boost::json::object make(schema_context&) {
        return {{"type", "string"}, {"enum", detail::enum_values<E>()}};
    }
};

template <json::described_struct T>
struct schema_of<T> {
    static boost::json::object make(schema_context& ctx) {
        boost::json::object properties;
        boost::json::array required;
        boost::mp11::mp_for_each<described_members<T>>([&](auto m) {
            using member_type = typename decltype(m)::type;
            if constexpr (detail::is_std_optional<member_type>::value) {
                properties[m.name] = ctx.use<typename member_type::value_type>();
            } else {
                properties[m.name] = ctx.use<member_type>();
                required.emplace_back(m.name);
            }
        });
        boost::json::object s{{"type", "object"}, {"properties", std::move(properties)}};
        if (!required.empty()) s["required"] = std::move(required);
        if (ctx.options().strict) s["additionalProperties"] = false;
        // The rules of the parts flattened into T hold for its members too.
        boost::mp11::mp_for_each<boost::mp11::mp_transform<boost::mp11::mp_identity, flattened_parts<T>>>(
            [&](auto part) {
                using part_type = typename decltype(part)::type;
                if constexpr (has_cross_member_rules<part_type>) cross_member_rules<part_type>::add(s);
            });
        if constexpr (has_cross_member_rules<T>) cross_member_rules<T>::add(s);
        return s;
    }
};

// ---------------------------------------------------------------------------------------------
// Entry point

// The draft 2020-12 schema of T (inline at the root), the named types it uses under $defs.
template <class T>
boost::json::object json_schema(schema_options options = {}) {
    schema_context ctx(options, "#/$defs/");
    boost::json::object root{{"$schema", detail::sv(json_schema_dialect)}};
    if (auto name = schema_name<T>()) root["title"] = *name;
    for (auto& member : ctx.inline_schema<T>()) root[member.key()] = member.value();
    if (!ctx.definitions().empty()) root["$defs"] = ctx.definitions();
    return root;
}

}  // namespace esign::schema
