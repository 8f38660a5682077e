// SPDX-License-Identifier: BSL-1.0
// Fuzzing the reference backend in process: the input is a sequence of operations on one
// esign::reference::backend (fixed clock, fixed seed), each picked by a byte, its arguments
// taken from the next bytes (e-mails from a pool of five, so that duplicates and collisions
// happen). After every step the invariants of contract.md are checked through the public API:
//  - metrics equal the recipient counts by role and status (envelope/get);
//  - pagination arithmetic of every list (envelope/list, logs/list, workspace/list);
//  - a final status (complete, declined, canceled, expired) never changes;
//  - a failing operation (status != 200) changes nothing: both teams' snapshots (every
//    resource, logs, outbox, deliveries, credits, clock; the identifier stream aside, which the
//    error's requestId draws from) are the same before and after;
//  - an envelope is never visible with the other team's key;
//  - a team's snapshot restored into it gives the same snapshot again;
//  - a snapshot with members set to extremes (numbers, statuses, dates) restored into its team
//    is either refused with INVALID_REQUEST_FORMAT and changes nothing (the snapshot's bytes are
//    the same after), or installed, and then the clock moves and requests answer (a walk over due
//    events that did not end would be the fuzzer's timeout); the first snapshot is put back;
//  - every reply is a JSON object, every error body has statusCode == the HTTP status and a
//    code that the operation's row of the table lists (model/operations.hpp).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <esign/reference/backend.hpp>

#include "check.hpp"

namespace {

namespace bj = boost::json;

struct bytes {
    const std::uint8_t* p;
    std::size_t n;
    bool empty() const { return n == 0; }
    std::uint8_t u8() {
        if (n == 0) return 0;
        --n;
        return *p++;
    }
    bool bit() { return u8() & 1; }
    std::size_t below(std::size_t bound) { return bound == 0 ? 0 : u8() % bound; }
};

constexpr const char* email_pool[] = {"ann@example.com", "bob@example.com", "cy@example.org", "dee@x.test",
                                      "eve@mail.invalid"};
constexpr const char* roles[] = {"signer", "approver", "viewer"};
constexpr const char* actions[] = {"open", "approve", "sign", "decline"};
constexpr const char* verifications[] = {"none", "email", "sms"};

bool is_final(std::string_view s) { return s == "complete" || s == "declined" || s == "canceled" || s == "expired"; }

struct team_info {
    std::string key, uuid, workspace;
};
struct envelope_info {
    std::string uuid;
    int team;
    std::vector<std::string> documents;
    std::string last_status;
};

struct session {
    esign::reference::backend backend;
    team_info teams[2];
    std::vector<envelope_info> envelopes;
    std::string trace;  // the steps so far, printed with a failure

    session()
        : backend([] {
              esign::reference::backend_options o;
              o.seed = 42;
              o.wall_clock = [] { return std::int64_t{1767225600000}; };  // 2026-01-01T00:00:00Z
              o.self_check = true;  // a response that breaks its type is a 500, which fails below
              return o;
          }()) {}

    esign::reference::reply call(std::string_view path, const std::optional<std::string>& key, const bj::object& body) {
        const std::string text = bj::serialize(body);
        std::optional<std::string_view> k;
        if (key) k = *key;
        auto r = backend.handle(path, k, text);
        trace += std::string(path) + " " + text + " -> " + std::to_string(r.status) + "\n";
        if (trace.size() > 20000) trace.erase(0, trace.size() - 20000);
        bj::error_code ec;
        bj::value v = bj::parse(r.body, ec);
        ESIGN_FUZZ_CHECK(!ec && v.is_object(), "%.*s: reply is not a JSON object: %s\n%s", int(path.size()),
                         path.data(), r.body.c_str(), trace.c_str());
        if (r.status != 200) {
            const auto* sc = v.get_object().if_contains("statusCode");
            ESIGN_FUZZ_CHECK(sc && sc->is_int64() && sc->get_int64() == r.status,
                             "%.*s: error body's statusCode differs from HTTP %u: %s\n%s", int(path.size()),
                             path.data(), r.status, r.body.c_str(), trace.c_str());
            ESIGN_FUZZ_CHECK(r.status != 500, "%.*s: internal error: %s\n%s", int(path.size()), path.data(),
                             r.body.c_str(), trace.c_str());
            const auto* error = v.get_object().if_contains("error");
            const auto* code = error && error->is_object() ? error->get_object().if_contains("code") : nullptr;
            const auto parsed = code && code->is_string()
                                    ? esign::enum_from_wire<esign::error_code>(std::string_view(code->get_string()))
                                    : std::nullopt;
            ESIGN_FUZZ_CHECK(parsed && esign::operation_may_answer(path, *parsed),
                             "%.*s: answered a code its operation does not list: %s\n%s", int(path.size()), path.data(),
                             r.body.c_str(), trace.c_str());
        }
        return r;
    }
    bj::value call_ok(std::string_view path, const std::optional<std::string>& key, const bj::object& body) {
        auto r = call(path, key, body);
        ESIGN_FUZZ_CHECK(r.status == 200, "%.*s must succeed here, got %u: %s\n%s", int(path.size()), path.data(),
                         r.status, r.body.c_str(), trace.c_str());
        return bj::parse(r.body);
    }

    void fail(const char* what, const std::string& detail) {
        ESIGN_FUZZ_CHECK(false, "%s: %s\nsteps:\n%s", what, detail.c_str(), trace.c_str());
    }

    std::string get_body(const envelope_info& e) {
        auto r = call("/public/envelope/get", teams[e.team].key, {{"envelopeUuid", e.uuid}});
        ESIGN_FUZZ_CHECK(r.status == 200, "envelope/get of a known envelope failed: %s\n%s", r.body.c_str(),
                         trace.c_str());
        return r.body;
    }

    // The invariants of one envelope, from its envelope/get.
    void check_envelope(envelope_info& e) {
        const std::string body = get_body(e);
        const bj::object env = bj::parse(body).as_object();
        const std::string status(env.at("status").as_string());
        std::int64_t signers = 0, signed_ = 0, approvers = 0, approved = 0;
        for (const auto& rv : env.at("recipients").as_array()) {
            const auto& r = rv.as_object();
            const std::string_view role = r.at("role").as_string();
            const std::string_view rs = r.at("status").as_string();
            if (role == "signer") {
                ++signers;
                if (rs == "signed") ++signed_;
            } else if (role == "approver") {
                ++approvers;
                if (rs == "approved") ++approved;
            }
            if (status == "draft" || is_final(status))
                if (r.contains("invitation")) fail("invitation present in a draft or final envelope", body);
            if ((status == "declined" || status == "canceled" || status == "expired") && rs == "pending" &&
                role != "viewer")
                fail("a pending recipient in a declined/canceled/expired envelope", body);
        }
        const auto& m = env.at("metrics").as_object();
        if (m.at("signatureRequiredCount").to_number<std::int64_t>() != signers ||
            m.at("signatureCount").to_number<std::int64_t>() != signed_ ||
            m.at("approvalRequiredCount").to_number<std::int64_t>() != approvers ||
            m.at("approvalCount").to_number<std::int64_t>() != approved)
            fail("metrics differ from the recipients", body);
        if (status == "complete" && signed_ != signers) fail("complete with unsigned signers", body);
        if (status == "draft" && !env.at("sentDate").is_null()) fail("draft with a sentDate", body);
        if (is_final(e.last_status) && status != e.last_status)
            fail("a final status changed", e.last_status + " -> " + body);
        e.last_status = status;

        // Never visible with the other team's key, whichever workspace is named.
        const team_info& other = teams[1 - e.team];
        auto r1 = call("/public/envelope/get", other.key, {{"envelopeUuid", e.uuid}});
        auto r2 = call("/public/envelope/get", other.key,
                       {{"envelopeUuid", e.uuid}, {"workspaceUuid", teams[e.team].workspace}});
        if (r1.status == 200 || r2.status == 200) fail("envelope visible with the other team's key", e.uuid);
    }

    void check_pagination(const bj::object& reply, const char* items_member, std::int64_t page, std::int64_t limit) {
        const auto& p = reply.at("pagination").as_object();
        const std::int64_t total = p.at("totalRecords").to_number<std::int64_t>();
        const std::int64_t pages = std::max<std::int64_t>(1, (total + limit - 1) / limit);
        const std::size_t count = reply.at(items_member).as_array().size();
        const std::int64_t expect_count = std::clamp<std::int64_t>(total - (page - 1) * limit, 0, limit);
        bool ok = p.at("currentPage").to_number<std::int64_t>() == page &&
                  p.at("totalPages").to_number<std::int64_t>() == pages &&
                  static_cast<std::int64_t>(count) == expect_count;
        const auto& next = p.at("nextPage");
        const auto& prev = p.at("prevPage");
        ok = ok && (page < pages ? next.is_number() && next.to_number<std::int64_t>() == page + 1 : next.is_null());
        ok = ok && (page > 1 ? prev.is_number() && prev.to_number<std::int64_t>() == page - 1 : prev.is_null());
        if (!ok)
            fail("pagination arithmetic", std::string(items_member) + " page " + std::to_string(page) + " limit " +
                                              std::to_string(limit) + ": " + bj::serialize(reply));
    }

    envelope_info* pick(bytes& b) {
        if (envelopes.empty()) return nullptr;
        return &envelopes[b.below(envelopes.size())];
    }

    void create_envelope(bytes& b) {
        if (envelopes.size() >= 6) return;
        const int t = b.bit();
        bj::array docs;
        for (std::size_t i = 1 + b.below(2); i > 0; --i)
            docs.push_back(bj::object{{"title", "doc"}, {"pageCount", 1 + b.below(3)}});
        bj::array tags;
        for (std::size_t i = b.below(3); i > 0; --i) tags.push_back(bj::string(b.bit() ? "hr" : "legal"));
        auto v = call_ok("/_control/envelope/create", teams[t].key,
                         {{"title", "envelope"},
                          {"documents", docs},
                          {"attachments", bj::array{bj::object{{"title", "a"}}}},
                          {"tags", tags}});
        envelope_info e{std::string(v.at("envelopeUuid").as_string()), t, {}, "draft"};
        for (const auto& d : v.at("documentUuids").as_array()) e.documents.emplace_back(d.as_string());
        envelopes.push_back(std::move(e));
    }

    // Everything both teams show: their snapshots (every resource, logs, outbox, deliveries,
    // credits and quota, clock) but the identifier stream, which an error body's requestId moves.
    std::string teams_state() {
        std::string out;
        for (const auto& t : teams) {
            auto r = call("/_control/team/snapshot", t.key, {});
            if (r.status != 200) fail("team/snapshot failed", r.body);
            out += bj::serialize(records(r.body));
            out += '\n';
        }
        return out;
    }

    // One step on an envelope: the request, and the check that a failure changed nothing, in
    // either team (not only the envelope it named: a log, an e-mail or a credit counts too).
    void envelope_step(envelope_info& e, std::string_view path, bool with_key, const bj::object& body) {
        const std::string before = teams_state();
        auto r = call(path, with_key ? std::optional<std::string>(teams[e.team].key) : std::nullopt, body);
        if (r.status != 200) {
            const std::string after = teams_state();
            if (after != before)
                fail("a failing operation changed a team's state",
                     std::string(path) + " -> " + r.body + "\nbefore: " + before + "\nafter:  " + after);
        }
    }

    // A snapshot's team object but its identifier stream.
    static bj::value records(const std::string& snapshot_body) {
        bj::value v = bj::parse(snapshot_body);
        v.at("team").at("state").as_object().erase("stream");
        return v;
    }

    // A number from the edges of what a restored member may hold.
    static bj::value extreme(bytes& b) {
        static constexpr std::int64_t values[] = {std::numeric_limits<std::int64_t>::min(),
                                                  -8'640'000'000'000'001,
                                                  -3'155'760'000'001,
                                                  -3'155'760'000'000,
                                                  -1'000'000'000,
                                                  -1,
                                                  0,
                                                  1,
                                                  29,
                                                  89,
                                                  90,
                                                  91,
                                                  1'767'225'600'000,
                                                  3'155'760'000'000,
                                                  3'155'760'000'001,
                                                  std::numeric_limits<std::int32_t>::max(),
                                                  8'640'000'000'000'000,
                                                  8'640'000'000'000'001,
                                                  std::numeric_limits<std::int64_t>::max()};
        const std::size_t i = b.below(std::size(values) + 2);
        if (i == std::size(values)) return bj::value(std::numeric_limits<std::uint64_t>::max());
        if (i == std::size(values) + 1) return bj::value(nullptr);
        return bj::value(values[i]);
    }

    // A snapshot of a team with some members set from the input, restored into the team.
    void restore_mutated(bytes& b) {
        static constexpr const char* statuses[] = {"uploading", "draft",    "approving", "signing",
                                                   "complete",  "declined", "canceled",  "expired"};
        static constexpr const char* recipient_statuses[] = {"pending", "approved", "signed", "declined", "canceled"};
        static constexpr const char* envelope_members[] = {
            "creation_date",      "update_date",    "sent_date", "expiration_period",
            "reminder_frequency", "reminders_sent", "seq"};
        const int t = b.bit();
        auto taken = call("/_control/team/snapshot", teams[t].key, {});
        if (taken.status != 200) fail("team/snapshot failed", taken.body);
        bj::value team = bj::parse(taken.body).at("team");
        auto& state = team.at("state").as_object();
        for (std::size_t n = 1 + b.below(4); n > 0; --n) {
            const std::size_t what = b.below(6);
            auto& envelopes = state["envelopes"].as_object();
            if (what == 0 || envelopes.empty()) {
                const char* member = b.bit() ? "clock_offset" : "next_seq";  // (its byte first)
                state[member] = extreme(b);
                continue;
            }
            auto it = envelopes.begin() + static_cast<std::ptrdiff_t>(b.below(envelopes.size()));
            auto& env = it->value().as_object();
            auto& recipients = env["recipients"].as_array();
            if (what == 1) {
                env["status"] = statuses[b.below(std::size(statuses))];
            } else if (what == 2 && !recipients.empty()) {
                recipients[b.below(recipients.size())].at("data").as_object()["status"] =
                    recipient_statuses[b.below(std::size(recipient_statuses))];
            } else if (what == 3) {
                env["signature_order"] = b.bit();
            } else {
                const char* member = envelope_members[b.below(std::size(envelope_members))];
                env[member] = extreme(b);
            }
        }
        auto restored = call("/_control/team/restore", teams[t].key, bj::object{{"team", team}});
        auto after = call("/_control/team/snapshot", teams[t].key, {});
        if (restored.status != 200) {
            const bj::value body = bj::parse(restored.body);
            const auto* error = body.as_object().if_contains("error");
            const auto* code = error && error->is_object() ? error->as_object().if_contains("code") : nullptr;
            if (restored.status != 400 || !code || !code->is_string() || code->as_string() != "INVALID_REQUEST_FORMAT")
                fail("a mutated snapshot's restore failed otherwise than INVALID_REQUEST_FORMAT", restored.body);
            // (The error's requestId is drawn from the team's stream, §6.3: all but the stream.)
            if (records(after.body) != records(taken.body))
                fail("a refused restore changed the team", taken.body + "\n" + after.body);
            return;
        }
        // Installed: the clock moves over whatever fell due, and the team answers.
        static constexpr std::int64_t steps[] = {1, 86'400'000, 91LL * 86'400'000, 3650LL * 86'400'000};
        call("/_control/clock/advance", teams[t].key, {{"milliseconds", steps[b.below(std::size(steps))]}});
        call_ok("/public/envelope/list", teams[t].key, {});
        call_ok("/public/logs/list", teams[t].key, {{"category", "envelope"}});
        // Back as it was (the envelopes of this session are there again, in their statuses).
        auto back = call("/_control/team/restore", teams[t].key, bj::parse(taken.body).as_object());
        if (back.status != 200) fail("team/restore of a snapshot failed", back.body);
    }

    void step(bytes& b) {
        const std::uint8_t raw = b.u8();
        if (raw >= 0xf0) return restore_mutated(b);  // (byte values the seeds before it never held)
        const std::uint8_t op = raw % 17;
        if (op == 0 || envelopes.empty()) return create_envelope(b);
        envelope_info& e = *pick(b);
        const bj::string uuid(e.uuid);
        switch (op) {
            case 1: {  // add recipients
                bj::array items;
                for (std::size_t i = 1 + b.below(3); i > 0; --i) {
                    bj::object r{
                        {"type", "manual"}, {"email", email_pool[b.below(5)]}, {"firstname", "F"}, {"lastname", "L"}};
                    const std::uint8_t x = b.u8();
                    if (x & 1) r["verificationType"] = verifications[(x >> 1) % 3];
                    if (x & 8) r["phone"] = "+33600000000";
                    items.push_back(std::move(r));
                }
                return envelope_step(e, "/public/envelope/add-recipients", true,
                                     {{"envelopeUuid", uuid}, {"recipients", items}});
            }
            case 2: {  // update recipient
                bj::object updates;
                const std::uint8_t x = b.u8();
                if (x & 1) updates["role"] = roles[b.below(3)];
                if (x & 2) updates["order"] = b.below(4);
                if (x & 4) updates["verificationType"] = verifications[b.below(3)];
                if (x & 8) updates["phone"] = (x & 16) ? "" : "+1";
                if (x & 32) updates["firstname"] = "G";
                return envelope_step(e, "/public/envelope/update-recipient", true,
                                     {{"envelopeUuid", uuid},
                                      {"email", email_pool[b.below(5)]},
                                      {"role", roles[b.below(3)]},
                                      {"updates", updates}});
            }
            case 3: {  // delete recipients
                bj::array items;
                for (std::size_t i = 1 + b.below(2); i > 0; --i)
                    items.push_back(bj::object{{"email", email_pool[b.below(5)]}});
                return envelope_step(e, "/public/envelope/delete-recipients", true,
                                     {{"envelopeUuid", uuid}, {"recipients", items}});
            }
            case 4: {  // add blocks
                bj::object block{{"page", std::to_string(1 + b.below(4))},
                                 {"x", b.u8()},
                                 {"y", 1.5},
                                 {"type", "text"},
                                 {"text", "t"}};
                if (b.bit()) block["recipientEmail"] = email_pool[b.below(5)];
                if (b.bit()) block["defaultValue"] = b.bit() ? bj::value(true) : bj::value(7);
                const std::string doc =
                    b.below(8) == 0 ? std::string(36, 'f') : e.documents[b.below(e.documents.size())];
                return envelope_step(e, "/public/envelope/add-blocks", true,
                                     {{"envelopeUuid", uuid}, {"documentUuid", doc}, {"blocks", bj::array{block}}});
            }
            case 5: {  // delete blocks: a stored one or an unknown one
                const std::string doc = e.documents[b.below(e.documents.size())];
                std::string block(36, 'a');
                const bj::object env = bj::parse(get_body(e)).as_object();
                for (const auto& d : env.at("documents").as_array())
                    if (d.at("uuid").as_string() == doc)
                        for (const auto& page : d.at("blocks").as_object())
                            for (const auto& bl : page.value().as_array())
                                if (b.bit()) block = std::string(bl.at("uuid").as_string());
                return envelope_step(
                    e, "/public/envelope/delete-blocks", true,
                    {{"envelopeUuid", uuid}, {"documentUuid", doc}, {"blockUuids", bj::array{bj::string(block)}}});
            }
            case 6:  // send
                return envelope_step(e, "/public/envelope/send", true,
                                     {{"envelopeUuid", uuid}, {"distributionMethod", b.bit() ? "email" : "none"}});
            case 7:
            case 8:  // act
                return envelope_step(
                    e, "/_control/recipient/act", false,
                    {{"envelopeUuid", uuid}, {"email", email_pool[b.below(5)]}, {"action", actions[b.below(4)]}});
            case 9:  // cancel
                return envelope_step(e, "/_control/envelope/cancel", false, {{"envelopeUuid", uuid}});
            case 10: {  // clock
                static constexpr std::int64_t steps[] = {0, 3600000, 86400000, 31LL * 86400000, 91LL * 86400000};
                call_ok("/_control/clock/advance", std::nullopt, {{"milliseconds", steps[b.below(5)]}});
                return;
            }
            case 11: {  // envelope update
                bj::object update;
                const std::uint8_t x = b.u8();
                if (x & 1) update["signatureOrder"] = bool(x & 2);
                if (x & 4) update["expirationPeriod"] = 1 + b.below(3);
                if (x & 8) update["reminderFrequencyPeriod"] = 1;
                if (x & 16) update["tags"] = bj::array{"hr"};
                return envelope_step(e, "/public/envelope/update", true, {{"envelopeUuid", uuid}, {"update", update}});
            }
            case 12: {  // envelope list, with filters and a page
                const int t = b.bit();
                const std::int64_t page = 1 + b.below(3);
                bj::object req{{"page", page}};
                if (b.bit()) req["tags"] = bj::array{"hr"};
                if (b.bit()) req["status"] = bj::array{"draft", "signing"};
                auto v = call_ok("/public/envelope/list", teams[t].key, req);
                check_pagination(v.as_object(), "envelopes", page, 50);
                for (const auto& item : v.at("envelopes").as_array())
                    for (const auto& known : envelopes)
                        if (known.uuid == item.at("uuid").as_string() && known.team != t)
                            fail("envelope/list shows another team's envelope", known.uuid);
                return;
            }
            case 13: {  // logs list, small pages
                const int t = b.bit();
                const std::int64_t page = 1 + b.below(4), limit = 1 + b.below(5);
                bj::object req{{"category", b.below(4) == 0 ? "team" : "envelope"}, {"page", page}, {"limit", limit}};
                if (b.bit()) req["sortBy"] = "id";
                if (b.bit()) req["sortOrder"] = "asc";
                auto v = call_ok("/public/logs/list", teams[t].key, req);
                check_pagination(v.as_object(), "logs", page, limit);
                return;
            }
            case 16: {  // a snapshot restored into its team: the same bytes again, and nothing else moved
                const int t = b.bit();
                auto first = call("/_control/team/snapshot", teams[t].key, {});
                if (first.status != 200) fail("team/snapshot failed", first.body);
                auto restored = call("/_control/team/restore", teams[t].key, bj::parse(first.body).as_object());
                if (restored.status != 200) fail("team/restore of a snapshot failed", restored.body);
                auto second = call("/_control/team/snapshot", teams[t].key, {});
                if (second.body != first.body)
                    fail("snapshot, restore, snapshot differ", first.body + "\n" + second.body);
                return;
            }
            case 14: {  // workspaces: create one, or list with a page
                const int t = b.bit();
                if (b.bit()) {
                    call("/public/workspace/create", teams[t].key, {{"name", "ws"}});
                } else {
                    const std::int64_t page = 1 + b.below(3), limit = 1 + b.below(3);
                    auto v = call_ok("/public/workspace/list", teams[t].key, {{"page", page}, {"limit", limit}});
                    check_pagination(v.as_object(), "workspaces", page, limit);
                }
                return;
            }
            default: {  // a public operation on the envelope with the wrong team's key must fail
                auto r = call("/public/envelope/send", teams[1 - e.team].key, {{"envelopeUuid", uuid}});
                if (r.status == 200) fail("send with the other team's key succeeded", e.uuid);
                return;
            }
        }
    }
};

}  // namespace

// The longest input fuzzed (run.sh reads this line for -max_len): at most ~100 steps, as each
// step re-reads the envelopes.
constexpr std::size_t esign_fuzz_max_len = 512;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size > esign_fuzz_max_len) return -1;
    session s;
    bytes b{data, size};
    // Team 0 has few credits and a small e-mail quota, so the send errors are reachable.
    const std::int64_t credits = b.below(4), quota = b.below(6);
    for (int t = 0; t < 2; ++t) {
        bj::object req{{"name", t == 0 ? "Acme" : "Other"},
                       {"ownerEmail", t == 0 ? "owner@acme.test" : "o@other.test"}};
        if (t == 0) {
            req["apiCredits"] = credits;
            req["emailQuota"] = quota;
        }
        auto v = s.call_ok("/_control/team/create", std::nullopt, req);
        s.teams[t] = {std::string(v.at("apiKey").as_string()), std::string(v.at("teamUuid").as_string()),
                      std::string(v.at("defaultWorkspaceUuid").as_string())};
    }
    while (!b.empty()) {
        s.step(b);
        for (auto& e : s.envelopes) s.check_envelope(e);
    }
    return 0;
}

#include "replay_main.hpp"
