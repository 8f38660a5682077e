// SPDX-License-Identifier: BSL-1.0
// Every response type of the operation table: encode → JSON → decode → the same value (round
// trip), and the encoding rules: absent optionals are left out, nullables are written as null,
// enums as their exact wire strings, pagination's nextPage/prevPage as null at the ends.
//
// Values are built by a generic filler that walks the described members of a type (so every
// member is filled, whatever is added later) in several modes: every optional present and every
// nullable set; every optional absent and every nullable null; optionals present but nullables
// null; and a mix. Hand-written samples add the values the rules single out.
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeindex>
#include <vector>

#include <boost/core/demangle.hpp>
#include <boost/describe/members.hpp>
#include <boost/json.hpp>
#include <boost/mp11/algorithm.hpp>

#include <esign/esign.hpp>

namespace test_responses {

namespace {

using namespace esign;
namespace bj = boost::json;

// ---------------------------------------------------------------------------------------------
// Type traits over the vocabulary

template <class T>
struct is_nullable : std::false_type {};
template <class T>
struct is_nullable<nullable<T>> : std::true_type {};
template <class T>
struct is_vector : std::false_type {};
template <class T>
struct is_vector<std::vector<T>> : std::true_type {};
template <class T, std::size_t A, std::size_t B>
struct is_vector<bounded_vector<T, A, B>> : std::true_type {};
template <class T>
struct is_string_map : std::false_type {};
template <class T>
struct is_string_map<std::map<std::string, T>> : std::true_type {};
template <class T>
struct is_ranged : std::false_type {};
template <std::int64_t A, std::int64_t B>
struct is_ranged<ranged<A, B>> : std::true_type {};

template <class T>
concept described_class = std::is_class_v<T> && boost::describe::has_describe_members<T>::value;

template <class T>
using members_of = described_members<T>;

template <class T>
std::string type_name() {
    return boost::core::demangle(typeid(T).name());
}

// ---------------------------------------------------------------------------------------------
// The generic filler

enum class fill_mode {
    full,    // every optional present, every nullable set
    sparse,  // every optional absent, every nullable null
    nulls,   // every optional present, every nullable null (tri-states present and null)
    mixed,   // alternating, member by member
};

struct filler {
    fill_mode mode;
    int counter = 0;

    int next() { return ++counter; }
    bool optional_present() {
        switch (mode) {
            case fill_mode::full:
            case fill_mode::nulls:
                return true;
            case fill_mode::sparse:
                return false;
            case fill_mode::mixed:
                return next() % 2 == 0;
        }
        return true;
    }
    bool nullable_set() {
        switch (mode) {
            case fill_mode::full:
                return true;
            case fill_mode::sparse:
            case fill_mode::nulls:
                return false;
            case fill_mode::mixed:
                return next() % 3 != 0;
        }
        return true;
    }
    std::size_t items() { return mode == fill_mode::full ? 3 : (mode == fill_mode::mixed ? 2 : 1); }
};

template <class T>
void fill(T& out, filler& f);

template <class T>
void fill(T& out, filler& f) {
    if constexpr (is_std_optional<T>::value) {
        if (f.optional_present())
            fill(out.emplace(), f);
        else
            out.reset();
    } else if constexpr (is_nullable<T>::value) {
        if (f.nullable_set())
            fill(out.emplace(), f);
        else
            out.reset();
    } else if constexpr (std::is_same_v<T, bool>) {
        out = f.next() % 2 == 0;
    } else if constexpr (std::is_same_v<T, std::int64_t>) {
        // Large values (millisecond timestamps) and negative ones both occur.
        int n = f.next();
        out = n % 5 == 0 ? -n : 1795000000000 + n;
    } else if constexpr (std::is_same_v<T, double>) {
        int n = f.next();
        out = n % 2 == 0 ? n + 0.25 : static_cast<double>(n);  // fractional and whole
    } else if constexpr (is_ranged<T>::value) {
        out.value = static_cast<std::int32_t>(T::min_value > 0 ? T::min_value : 0);
    } else if constexpr (described_enum<T>) {
        constexpr auto values = enum_values<T>();
        out = values[static_cast<std::size_t>(f.next()) % values.size()];
    } else if constexpr (std::is_same_v<T, bj::object>) {
        out = bj::object{{"k", "v\u00e9"}, {"n", f.next()}, {"nested", bj::array{nullptr, true, 1.5}}};
    } else if constexpr (std::is_same_v<T, bj::value>) {
        out = bj::value(f.next());
    } else if constexpr (std::is_convertible_v<T&, std::string&>) {
        static_cast<std::string&>(out) = "v\u00e9 \"" + std::to_string(f.next()) + "\"\n\u2603";
    } else if constexpr (is_vector<T>::value) {
        out.clear();
        out.resize(f.items());
        for (auto& item : out) fill(item, f);
    } else if constexpr (is_string_map<T>::value) {
        out.clear();
        for (std::size_t i = 1; i <= f.items(); ++i) fill(out[std::to_string(i)], f);
    } else if constexpr (described_class<T>) {
        boost::mp11::mp_for_each<members_of<T>>([&](auto m) { fill(decltype(m)::get(out), f); });
    } else {
        static_assert(sizeof(T) == 0, "fill: a member type the test does not know; teach fill() about it");
    }
}

template <class T>
T filled(fill_mode mode) {
    filler f{mode};
    T out{};
    fill(out, f);
    return out;
}

// ---------------------------------------------------------------------------------------------
// Structural equality and encoding shape

template <class T>
bool same(const T& a, const T& b);

template <class T>
bool same(const T& a, const T& b) {
    if constexpr (is_std_optional<T>::value || is_nullable<T>::value) {
        if (a.has_value() != b.has_value()) return false;
        return !a.has_value() || same(*a, *b);
    } else if constexpr (is_ranged<T>::value) {
        return a.value == b.value;
    } else if constexpr (std::is_convertible_v<const T&, const std::string&>) {
        return static_cast<const std::string&>(a) == static_cast<const std::string&>(b);
    } else if constexpr (is_vector<T>::value) {
        if (a.size() != b.size()) return false;
        for (std::size_t i = 0; i < a.size(); ++i)
            if (!same(a[i], b[i])) return false;
        return true;
    } else if constexpr (is_string_map<T>::value) {
        if (a.size() != b.size()) return false;
        for (auto ia = a.begin(), ib = b.begin(); ia != a.end(); ++ia, ++ib)
            if (ia->first != ib->first || !same(ia->second, ib->second)) return false;
        return true;
    } else if constexpr (described_class<T>) {
        bool equal = true;
        boost::mp11::mp_for_each<members_of<T>>(
            [&](auto m) { equal = equal && same(decltype(m)::get(a), decltype(m)::get(b)); });
        return equal;
    } else {
        return a == b;  // scalars, enums, boost::json values
    }
}

// Checks that `j` is how `v` must be written: a described struct is an object with exactly the
// members that are present; an absent optional has no key; a null nullable is null; an enum is
// its wire string; numbers, booleans and strings as themselves.
template <class T>
void check_shape(const T& v, const bj::value& j, const std::string& where);

template <class T>
void check_shape(const T& v, const bj::value& j, const std::string& where) {
    INFO("at " << where << " (" << type_name<T>() << "): " << bj::serialize(j));
    if constexpr (is_std_optional<T>::value) {
        REQUIRE(v.has_value());  // the caller handles absence (the key must not exist)
        check_shape(*v, j, where);
    } else if constexpr (is_nullable<T>::value) {
        if (!v)
            CHECK(j.is_null());
        else
            check_shape(*v, j, where);
    } else if constexpr (std::is_same_v<T, bool>) {
        REQUIRE(j.is_bool());
        CHECK(j.get_bool() == v);
    } else if constexpr (std::is_same_v<T, std::int64_t>) {
        REQUIRE(j.is_int64());
        CHECK(j.get_int64() == v);
    } else if constexpr (std::is_same_v<T, double>) {
        REQUIRE(j.is_number());
        CHECK(j.to_number<double>() == v);
    } else if constexpr (is_ranged<T>::value) {
        REQUIRE(j.is_int64());
        CHECK(j.get_int64() == v.value);
    } else if constexpr (described_enum<T>) {
        REQUIRE(j.is_string());
        CHECK(std::string_view(j.get_string()) == enum_to_wire(v));
    } else if constexpr (std::is_same_v<T, bj::object>) {
        REQUIRE(j.is_object());
        CHECK(j.get_object() == v);
    } else if constexpr (std::is_same_v<T, bj::value>) {
        CHECK(j == v);
    } else if constexpr (std::is_convertible_v<const T&, const std::string&>) {
        REQUIRE(j.is_string());
        CHECK(std::string_view(j.get_string()) == static_cast<const std::string&>(v));
    } else if constexpr (is_vector<T>::value) {
        REQUIRE(j.is_array());
        REQUIRE(j.get_array().size() == v.size());
        for (std::size_t i = 0; i < v.size(); ++i)
            check_shape(v[i], j.get_array()[i], where + "[" + std::to_string(i) + "]");
    } else if constexpr (is_string_map<T>::value) {
        REQUIRE(j.is_object());
        REQUIRE(j.get_object().size() == v.size());
        for (const auto& [key, item] : v) {
            REQUIRE(j.get_object().contains(key));
            check_shape(item, j.get_object().at(key), where + "." + key);
        }
    } else if constexpr (described_class<T>) {
        REQUIRE(j.is_object());
        const auto& o = j.get_object();
        std::size_t present = 0;
        boost::mp11::mp_for_each<members_of<T>>([&](auto m) {
            const auto& member = decltype(m)::get(v);
            using member_type = std::remove_cvref_t<decltype(member)>;
            const std::string path = where + "." + m.name;
            if constexpr (is_std_optional<member_type>::value) {
                if (!member) {
                    INFO(path << " is absent: its key must not exist");
                    CHECK_FALSE(o.contains(m.name));
                    return;
                }
            }
            ++present;
            INFO(path << " must be written");
            REQUIRE(o.contains(m.name));
            check_shape(member, o.at(m.name), path);
        });
        CHECK(o.size() == present);  // nothing else is written
    } else {
        static_assert(sizeof(T) == 0, "check_shape: unknown type");
    }
}

// ---------------------------------------------------------------------------------------------
// The round-trip registry: for every response type, the values that must survive
// encode → JSON → decode. It is filled for every type of esign::response_types (mp_for_each),
// so a new response type gets generic cases without anyone writing them; the coverage test
// checks, type by type, that each has cases and that they ran.

template <class T>
struct round_trip_case {
    std::string name;
    T value;
};

// Hand-written samples: the values the encoding rules single out. Default: none.
template <class T>
std::vector<round_trip_case<T>> hand_samples() {
    return {};
}

template <>
std::vector<round_trip_case<envelope>> hand_samples<envelope>() {
    envelope e;
    e.uuid = "0b5c2a1e-9a7e-4c5b-8a3d-2f6e1d4c3b2a";
    e.title = "Contrat d'été ✍";
    e.status = envelope_status::signing;
    e.creationDate = 1795000000000;
    e.updateDate = 1795000000123;
    e.sentDate = nullable<std::int64_t>(1795000000100);  // plain `= value` is ambiguous (see report)
    e.owner = {"11111111-1111-4111-8111-111111111111", "owner@example.com", std::nullopt, nullable<std::string>{}};
    e.sender = {"owner@example.com", "Team"};
    document d;
    d.uuid = "22222222-2222-4222-8222-222222222222";
    d.title = "Doc";
    block b;
    b.uuid = "33333333-3333-4333-8333-333333333333";
    b.label = "Name";
    b.labelIcon = label_icon::text_t;
    b.x = 10.5;
    b.y = 20;
    b.exportable = false;
    b.color = block_color::grape;
    b.defaultValue = nullable<std::string>("3");
    b.value = nullable<std::string>{};
    b.type = block_type::text;
    b.text = "Name";
    b.maxLength = 20;
    b.templatedText = templated_text::addressLine1;
    d.blocks["1"] = {b};
    d.blocks["10"] = {};
    d.pageCount = 10;
    d.initialsVerticalMargin = 120;
    e.documents = {d};
    e.attachments = {{"44444444-4444-4444-8444-444444444444", "Annex"}};
    e.tags = {"a", "b"};
    e.metrics = {1, 2, 0, 0};
    e.signatureOrder = true;
    e.customMessage = nullable<std::string>{};
    e.expirationPeriod = 90;
    e.reminderFrequencyPeriod = 3;
    recipient r;
    r.email = "a@example.com";
    r.firstname = "A";
    r.lastname = "B";
    r.phone = "";
    r.role = recipient_role::signer;
    r.order = 1;
    r.status = recipient_status::signed_;
    r.language = language::fi;
    r.verificationType = verification_type::email;
    r.invitation =
        invitation{true, 1797592000100, 1795000000100, nullable<std::int64_t>{}, "email", verification_type::none};
    e.recipients = {r};
    return {{"a signing envelope", e}};
}

template <>
std::vector<round_trip_case<webhook_update_response>> hand_samples<webhook_update_response>() {
    webhook_update_response r;
    r.webhook.uuid = "55555555-5555-4555-8555-555555555555";
    r.webhook.title = nullable<std::string>{};
    r.webhook.contentType = webhook_content_type::application_x_www_form_urlencoded;
    r.webhook.events = {};
    r.webhook.workspaceUuids = {};
    return {{"a webhook with null title and empty lists", r}};
}

template <>
std::vector<round_trip_case<workspace_list_response>> hand_samples<workspace_list_response>() {
    workspace_list_response r;
    r.pagination = rules::paginate(0, 1, 50).pagination;
    return {{"an empty first page", r}};
}

struct registry_entry {
    std::string type;
    std::size_t cases = 0;
    std::size_t ran = 0;
};

// One entry per distinct response type, keyed by type.
std::map<std::type_index, registry_entry>& registry() {
    static std::map<std::type_index, registry_entry> entries;
    return entries;
}

using distinct_response_types = boost::mp11::mp_unique<response_types>;

template <class T>
std::vector<round_trip_case<T>> cases_for() {
    std::vector<round_trip_case<T>> out{
        {"full", filled<T>(fill_mode::full)},
        {"sparse", filled<T>(fill_mode::sparse)},
        {"nulls", filled<T>(fill_mode::nulls)},
        {"mixed", filled<T>(fill_mode::mixed)},
        {"default", T{}},
    };
    for (auto& c : hand_samples<T>()) out.push_back(std::move(c));
    return out;
}

template <class T>
void run_round_trip(const round_trip_case<T>& c) {
    INFO(type_name<T>() << ", case " << c.name);
    const bj::value json = esign::json::encode(c.value);
    INFO("json: " << bj::serialize(json));
    check_shape(c.value, json, "(root)");

    // From the JSON value.
    auto from_value = esign::json::decode<T>(json);
    for (const auto& p : from_value.problems()) FAIL_CHECK(fmt::format("{}", p));
    REQUIRE(from_value.has_value());
    CHECK(same(*from_value, c.value));
    CHECK(esign::json::encode(*from_value) == json);

    // From the bytes, strictly (a response carries no member the type does not have).
    const std::string text = esign::json::write(c.value);
    CHECK(bj::parse(text) == json);
    auto from_bytes = esign::json::read<T>(text, esign::json::decode_options{.strict = true});
    for (const auto& p : from_bytes.problems()) FAIL_CHECK(fmt::format("{}", p));
    REQUIRE(from_bytes.has_value());
    CHECK(same(*from_bytes, c.value));
}

// Runs every case of every response type, recording what ran in the registry.
void run_all_round_trips() {
    boost::mp11::mp_for_each<boost::mp11::mp_transform<std::type_identity, distinct_response_types>>([](auto id) {
        using T = typename decltype(id)::type;
        auto& entry = registry()[std::type_index(typeid(T))];
        entry.type = type_name<T>();
        const auto cases = cases_for<T>();
        entry.cases = cases.size();
        entry.ran = 0;
        for (const auto& c : cases) {
            run_round_trip(c);
            ++entry.ran;
        }
    });
}

// Finds the first object member named `key` anywhere in `v` (depth first).
const bj::value* find_member(const bj::value& v, std::string_view key) {
    if (v.is_object()) {
        for (const auto& m : v.get_object()) {
            if (m.key() == key) return &m.value();
            if (auto* found = find_member(m.value(), key)) return found;
        }
    } else if (v.is_array()) {
        for (const auto& item : v.get_array())
            if (auto* found = find_member(item, key)) return found;
    }
    return nullptr;
}

}  // namespace

// =============================================================================================

TEST_CASE("responses: every response type round-trips", "[responses][round-trip]") {
    run_all_round_trips();
    for (const auto& [_, entry] : registry()) {
        INFO(entry.type);
        CHECK(entry.ran == entry.cases);
    }
}

TEST_CASE("responses: coverage, every response type of the table has round-trip cases", "[responses][coverage]") {
    if (registry().empty()) run_all_round_trips();  // when run alone
    std::size_t types = 0;
    boost::mp11::mp_for_each<boost::mp11::mp_transform<std::type_identity, response_types>>([&](auto id) {
        using T = typename decltype(id)::type;
        ++types;
        INFO(type_name<T>());
        auto it = registry().find(std::type_index(typeid(T)));
        REQUIRE(it != registry().end());
        CHECK(it->second.cases >= 5);  // full, sparse, nulls, mixed, default (+ hand samples)
        CHECK(it->second.ran == it->second.cases);
    });
    CHECK(types == operation_count);
    CHECK(registry().size() == boost::mp11::mp_size<distinct_response_types>::value);

    // Every operation's response type is in the list, in table order.
    std::size_t i = 0;
    for_each_operation([&](const auto& op) {
        using T = typename std::remove_cvref_t<decltype(op)>::response_type;
        INFO(op.path);
        CHECK(registry().count(std::type_index(typeid(T))) == 1);
        ++i;
    });
    CHECK(i == operation_count);
}

TEST_CASE("responses: the filler really fills every member", "[responses][coverage]") {
    // full: no optional absent and no nullable null anywhere; sparse: the opposite.
    const auto full = esign::json::encode(filled<envelope>(fill_mode::full));
    const auto sparse = esign::json::encode(filled<envelope>(fill_mode::sparse));
    std::function<bool(const bj::value&)> has_null = [&](const bj::value& v) {
        if (v.is_null()) return true;
        if (v.is_object())
            for (const auto& m : v.get_object())
                if (has_null(m.value())) return true;
        if (v.is_array())
            for (const auto& item : v.get_array())
                if (has_null(item)) return true;
        return false;
    };
    CHECK_FALSE(has_null(full));
    CHECK(has_null(sparse));
    // Every member of the full form is written (block.labelIcon is optional, deep inside).
    CHECK(find_member(full, "labelIcon") != nullptr);
    CHECK(find_member(full, "invitation") != nullptr);
    CHECK(find_member(sparse, "invitation") == nullptr);
    CHECK(find_member(sparse, "jobTitle") == nullptr);
}

TEST_CASE("responses: absent optionals are omitted, nullables are written as null", "[responses][encoding]") {
    SECTION("recipient") {
        recipient r;
        r.email = "a@example.com";
        const auto j = esign::json::encode(r);
        const auto& o = j.as_object();
        for (const char* absent :
             {"id", "jobTitle", "company", "addressLine1", "addressLine2", "zipCode", "city", "country", "invitation"})
            CHECK_FALSE(o.contains(absent));
        CHECK(o.at("phone") == "");
        CHECK(o.at("status") == "pending");
        CHECK(o.at("language") == "en");
        CHECK(o.at("verificationType") == "none");
    }
    SECTION("envelope: nullables null") {
        envelope e;
        const auto j = esign::json::encode(e);
        const auto& o = j.as_object();
        REQUIRE(o.contains("sentDate"));
        CHECK(o.at("sentDate").is_null());
        REQUIRE(o.contains("customMessage"));
        CHECK(o.at("customMessage").is_null());
        REQUIRE(o.contains("reminderFrequencyPeriod"));
        CHECK(o.at("reminderFrequencyPeriod").is_null());
        // owner.firstname is optional and nullable: absent, null and a value are three things.
        CHECK_FALSE(o.at("owner").as_object().contains("firstname"));
        e.owner.firstname = nullable<std::string>{};
        e.owner.lastname = nullable<std::string>("Doe");
        const auto k = esign::json::encode(e);
        REQUIRE(k.at("owner").as_object().contains("firstname"));
        CHECK(k.at("owner").at("firstname").is_null());
        CHECK(k.at("owner").at("lastname") == "Doe");
        auto back = esign::json::decode<envelope>(k);
        REQUIRE(back.has_value());
        REQUIRE(back->owner.firstname.has_value());
        CHECK(back->owner.firstname->is_null());
        REQUIRE(back->owner.lastname.has_value());
        CHECK(**back->owner.lastname == "Doe");
    }
    SECTION("list-form owner: required nullables") {
        envelope_summary s;
        const auto j = esign::json::encode(s);
        CHECK(j.at("owner").at("firstname").is_null());
        CHECK(j.at("owner").at("lastname").is_null());
    }
    SECTION("invitation lastNotificationDate") {
        invitation i;
        CHECK(esign::json::encode(i).at("lastNotificationDate").is_null());
        i.lastNotificationDate = nullable<std::int64_t>(1795000000000);
        CHECK(esign::json::encode(i).at("lastNotificationDate") == 1795000000000);
    }
    SECTION("block defaultValue and value") {
        block b;
        auto j = esign::json::encode(b);
        CHECK_FALSE(j.as_object().contains("defaultValue"));
        CHECK_FALSE(j.as_object().contains("value"));
        CHECK_FALSE(j.as_object().contains("labelIcon"));
        b.value = nullable<std::string>{};
        b.defaultValue = nullable<std::string>("true");
        j = esign::json::encode(b);
        CHECK(j.at("value").is_null());
        CHECK(j.at("defaultValue") == "true");
    }
    SECTION("contact phone and webhook title") {
        contact c;
        CHECK(esign::json::encode(c).at("phone").is_null());
        webhook w;
        CHECK(esign::json::encode(w).at("title").is_null());
        updated_recipient u;
        CHECK(esign::json::encode(u).at("phone").is_null());
    }
    SECTION("empty responses are {}") {
        CHECK(esign::json::write(envelope_send_response{}) == "{}");
        CHECK(esign::json::write(control_reset_response{}) == "{}");
        CHECK(esign::json::encode(contact_delete_response{}) == bj::object{});
    }
}

TEST_CASE("responses: enums are written as their exact wire strings", "[responses][encoding]") {
    block b;
    b.labelIcon = label_icon::text_t;
    CHECK(esign::json::encode(b).at("labelIcon") == "text-t");
    for (auto icon : enum_values<label_icon>()) {
        b.labelIcon = icon;
        CHECK(std::string_view(esign::json::encode(b).at("labelIcon").as_string()) == enum_to_wire(icon));
    }
    b.labelIcon = label_icon::building_office;
    CHECK(esign::json::encode(b).at("labelIcon") == "building-office");
    b.labelIcon = label_icon::read_cv_logo;
    CHECK(esign::json::encode(b).at("labelIcon") == "read-cv-logo");

    webhook w;
    w.contentType = webhook_content_type::application_x_www_form_urlencoded;
    CHECK(esign::json::encode(w).at("contentType") == "application/x-www-form-urlencoded");
    w.contentType = webhook_content_type::application_json;
    CHECK(esign::json::encode(w).at("contentType") == "application/json");

    recipient r;
    r.status = recipient_status::signed_;
    CHECK(esign::json::encode(r).at("status") == "signed");
    control_recipient_act_response act{envelope_status::complete, recipient_status::signed_};
    CHECK(esign::json::write(act) == R"({"envelopeStatus":"complete","recipientStatus":"signed"})");

    // And they decode back from those strings.
    auto back = esign::json::read<control_recipient_act_response>(
        R"({"envelopeStatus":"declined","recipientStatus":"signed"})");
    REQUIRE(back.has_value());
    CHECK(back->recipientStatus == recipient_status::signed_);
    CHECK(back->envelopeStatus == envelope_status::declined);
    // The C++ names are not wire strings.
    CHECK_FALSE(esign::json::read<control_recipient_act_response>(
        R"({"envelopeStatus":"declined","recipientStatus":"signed_"})"));
    auto hook = esign::json::read<webhook>(
        R"({"uuid":"u","title":null,"active":true,"sslVerify":true,"contentType":"application_json","events":[],"workspaceUuids":[],"creationDate":1,"updateDate":2})");
    CHECK_FALSE(hook.has_value());

    log_entry l;
    l.category = log_category::team;
    CHECK(esign::json::encode(l).at("category") == "team");
    added_recipient a;
    a.colorVariant = block_color::lime;
    CHECK(esign::json::encode(a).at("colorVariant") == "lime");
    CHECK(esign::json::encode(a).at("role") == "signer");
}

TEST_CASE("responses: pagination ends are null", "[responses][encoding]") {
    SECTION("single page") {
        const auto j = esign::json::encode(rules::paginate(3, 1, 50).pagination);
        CHECK(j == bj::parse(R"({"totalRecords":3,"currentPage":1,"totalPages":1,"nextPage":null,"prevPage":null})"));
    }
    SECTION("middle page") {
        const auto j = esign::json::encode(rules::paginate(120, 2, 50).pagination);
        CHECK(j == bj::parse(R"({"totalRecords":120,"currentPage":2,"totalPages":3,"nextPage":3,"prevPage":1})"));
    }
    SECTION("last page") {
        const auto j = esign::json::encode(rules::paginate(120, 3, 50).pagination);
        CHECK(j == bj::parse(R"({"totalRecords":120,"currentPage":3,"totalPages":3,"nextPage":null,"prevPage":2})"));
    }
    SECTION("inside a list response") {
        webhook_list_response r;
        r.pagination = rules::paginate(0, 1, 50).pagination;
        CHECK(
            esign::json::write(r) ==
            R"({"webhooks":[],"pagination":{"totalRecords":0,"currentPage":1,"totalPages":1,"nextPage":null,"prevPage":null}})");
    }
}

TEST_CASE("responses: numbers keep their kind", "[responses][encoding]") {
    block b;
    b.x = 3;
    b.y = 2.5;
    const auto j = esign::json::encode(b);
    CHECK(j.at("x").is_int64());  // a whole number is written without a fraction
    CHECK(j.at("x") == 3);
    CHECK(j.at("y").is_double());
    CHECK(j.at("y") == 2.5);
    envelope_update_response u{1795000000123};
    CHECK(esign::json::write(u) == R"({"updateDate":1795000000123})");
    control_clock_now_response n{INT64_MAX};
    auto back = esign::json::read<control_clock_now_response>(esign::json::write(n));
    REQUIRE(back.has_value());
    CHECK(back->now == INT64_MAX);
}

TEST_CASE("responses: a response missing a required member does not decode", "[responses][decode]") {
    // The decoders of responses are usable by clients: required members are required.
    auto r = esign::json::read<envelope_update_response>("{}");
    REQUIRE(r.problems().size() == 1);
    CHECK(r.problems()[0].path == problem_path{"updateDate"});
    CHECK(r.problems()[0].kind == problem_kind::missing);
    // A null where the member is not nullable.
    auto w = esign::json::read<workspace_get_response>(
        R"({"workspace":{"uuid":"u","name":null,"creationDate":1,"updateDate":1,"isDefault":true,"colorHex":"#228be6","sandbox":false,"membersCount":1}})");
    REQUIRE(w.problems().size() == 1);
    CHECK(w.problems()[0].path == problem_path{"workspace", "name"});
    CHECK(w.problems()[0].kind == problem_kind::type);
}

}  // namespace test_responses
