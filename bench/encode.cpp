// SPDX-License-Identifier: BSL-1.0
// Encoding a full envelope response (envelope/get: 3 documents of 50 blocks each, 10 recipients)
// side by side (bench/README.md, "encode.cpp"):
//   esign_write               esign::json::write(envelope): the typed value → JSON text
//   esign_encode              esign::json::encode(envelope) alone: → boost::json::value (no text)
//   boost_serialize           boost::json::serialize of the same content as a boost::json::value
//                             built by hand once, outside the timed loop
//   boost_build_serialize     building that boost::json::value by hand, then serializing it
// At setup the hand-built value's text must be byte-equal to esign's, else the benchmarks are
// skipped with an error.
#include <cstddef>
#include <cstdint>
#include <string>

#include <benchmark/benchmark.h>
#include <boost/json.hpp>
#include <fmt/format.h>

#include <esign/json/encode.hpp>
#include <esign/model/envelope.hpp>

namespace {

// The content, as both builders compute it.
constexpr std::size_t document_count = 3;
constexpr std::size_t blocks_per_document = 50;
constexpr std::size_t pages = 5;
constexpr std::size_t recipient_count = 10;
constexpr std::int64_t now = 1'800'000'000'000;

std::string uuid_of(std::size_t kind, std::size_t i) { return fmt::format("{:08x}-8f0a-4d36-9a57-{:012x}", kind, i); }
std::string email_of(std::size_t r) { return fmt::format("signer.number{}@example.com", r); }
std::string page_of(std::size_t b) { return std::to_string(1 + b % pages); }

esign::envelope typed_envelope() {
    esign::envelope e;
    e.uuid = uuid_of(1, 0);
    e.title = "Contract of sale, 2026";
    e.status = esign::envelope_status::signing;
    e.creationDate = now;
    e.updateDate = now + 1000;
    e.sentDate = now + 1000;
    e.owner = {uuid_of(2, 0), "owner@example.com", esign::nullable<std::string>("Olivia"),
               esign::nullable<std::string>(std::nullopt)};
    e.sender = {"owner@example.com", "Olivia"};
    for (std::size_t d = 0; d < document_count; ++d) {
        esign::document doc;
        doc.uuid = uuid_of(3, d);
        doc.title = fmt::format("Document {}.pdf", d);
        for (std::size_t b = 0; b < blocks_per_document; ++b) {
            esign::block k;
            k.uuid = uuid_of(4, d * 1000 + b);
            k.label = fmt::format("Field {}", b);
            k.labelIcon = esign::label_icon::text_t;
            k.x = 40.25 + static_cast<double>(b);
            k.y = 100.5 + 3.0 * static_cast<double>(b);
            k.height = 24.5;
            k.width = 120;
            k.exportable = false;
            k.recipientEmail = email_of(b % recipient_count);
            k.color = b % 2 ? esign::block_color::info : esign::block_color::primary;
            k.required = b % 2 == 1;
            k.placeholder = "Your answer";
            k.defaultValue = esign::nullable<std::string>("none");
            k.value = esign::nullable<std::string>(std::nullopt);
            k.type = esign::block_type::text;
            k.text = k.label;
            k.maxLength = 80;
            doc.blocks[page_of(b)].push_back(std::move(k));
        }
        doc.snapshotDate = now + 500;
        doc.initialsVerticalMargin = 10;
        doc.pageCount = static_cast<std::int64_t>(pages);
        e.documents.push_back(std::move(doc));
    }
    e.tags = {"sales", "2026"};
    e.metrics = {0, static_cast<std::int64_t>(recipient_count), 0, 0};
    e.customMessage = esign::nullable<std::string>(std::nullopt);
    e.reminderFrequencyPeriod = 3;
    for (std::size_t r = 0; r < recipient_count; ++r) {
        esign::recipient p;
        p.email = email_of(r);
        p.firstname = fmt::format("Firstname{}", r);
        p.lastname = fmt::format("Lastname-{}", r);
        p.phone = r % 3 == 0 ? "+33612345678" : "";
        p.details.company = "Example SA";
        p.role = esign::recipient_role::signer;
        p.order = static_cast<std::int64_t>(r);
        p.status = esign::recipient_status::pending;
        p.language = esign::language::fr;
        p.verificationType = r % 3 == 0 ? esign::verification_type::sms : esign::verification_type::email;
        p.invitation =
            esign::invitation{true, now + 30 * 86'400'000LL, now + 1000, std::nullopt, "email", p.verificationType};
        e.recipients.push_back(std::move(p));
    }
    return e;
}

// The same content as a boost::json::value, built by hand, members in the order esign writes
// them (its described order; absent optionals left out).
boost::json::value hand_built() {
    namespace bj = boost::json;
    bj::array documents;
    documents.reserve(document_count);
    for (std::size_t d = 0; d < document_count; ++d) {
        bj::object blocks;
        for (std::size_t page = 0; page < pages; ++page) blocks[std::to_string(1 + page)] = bj::array();
        for (std::size_t b = 0; b < blocks_per_document; ++b) {
            const std::string label = fmt::format("Field {}", b);
            blocks[page_of(b)].as_array().push_back(bj::object{
                {"uuid", uuid_of(4, d * 1000 + b)},
                {"label", label},
                {"labelIcon", "text-t"},
                {"x", 40.25 + static_cast<double>(b)},
                {"y", 100.5 + 3.0 * static_cast<double>(b)},
                {"height", 24.5},
                {"width", 120},  // esign writes a whole double as an integer
                {"exportable", false},
                {"recipientEmail", email_of(b % recipient_count)},
                {"color", b % 2 ? "info" : "primary"},
                {"required", b % 2 == 1},
                {"placeholder", "Your answer"},
                {"defaultValue", "none"},
                {"value", nullptr},
                {"type", "text"},
                {"text", label},
                {"maxLength", 80},
            });
        }
        documents.push_back(bj::object{
            {"uuid", uuid_of(3, d)},
            {"title", fmt::format("Document {}.pdf", d)},
            {"blocks", std::move(blocks)},
            {"snapshotDate", now + 500},
            {"signaturesOnSeparatePage", false},
            {"initialsOnAllPages", false},
            {"initialsVerticalMargin", 10},
            {"mustReadAllPages", false},
            {"pageCount", static_cast<std::int64_t>(pages)},
        });
    }
    bj::array recipients;
    recipients.reserve(recipient_count);
    for (std::size_t r = 0; r < recipient_count; ++r) {
        const char* verification = r % 3 == 0 ? "sms" : "email";
        recipients.push_back(bj::object{
            {"email", email_of(r)},
            {"firstname", fmt::format("Firstname{}", r)},
            {"lastname", fmt::format("Lastname-{}", r)},
            {"phone", r % 3 == 0 ? "+33612345678" : ""},
            {"company", "Example SA"},
            {"role", "signer"},
            {"order", static_cast<std::int64_t>(r)},
            {"associatedContact", false},
            {"status", "pending"},
            {"language", "fr"},
            {"verificationType", verification},
            {"invitation",
             {
                 {"valid", true},
                 {"expirationDate", now + 30 * 86'400'000LL},
                 {"creationDate", now + 1000},
                 {"lastNotificationDate", nullptr},
                 {"medium", "email"},
                 {"verificationType", verification},
             }},
        });
    }
    return bj::object{
        {"uuid", uuid_of(1, 0)},
        {"title", "Contract of sale, 2026"},
        {"status", "signing"},
        {"creationDate", now},
        {"updateDate", now + 1000},
        {"sentDate", now + 1000},
        {"owner",
         {{"uuid", uuid_of(2, 0)}, {"email", "owner@example.com"}, {"firstname", "Olivia"}, {"lastname", nullptr}}},
        {"sender", {{"email", "owner@example.com"}, {"name", "Olivia"}}},
        {"documents", std::move(documents)},
        {"attachments", bj::array()},
        {"tags", bj::array{"sales", "2026"}},
        {"metrics",
         {{"signatureCount", 0},
          {"signatureRequiredCount", static_cast<std::int64_t>(recipient_count)},
          {"approvalCount", 0},
          {"approvalRequiredCount", 0}}},
        {"signatureOrder", false},
        {"customMessage", nullptr},
        {"useUserAsSenderName", false},
        {"timestampEnabled", false},
        {"expirationPeriod", 30},
        {"reminderFrequencyPeriod", 3},
        {"recipients", std::move(recipients)},
    };
}

const esign::envelope& envelope() {
    static const esign::envelope e = typed_envelope();
    return e;
}

// The two texts are the same bytes; else the benchmark is skipped.
bool same_text(benchmark::State& state) {
    const std::string esign_text = esign::json::write(envelope());
    const std::string boost_text = boost::json::serialize(hand_built());
    if (esign_text != boost_text) {
        state.SkipWithError("esign's text and the hand-built value's text differ");
        return false;
    }
    state.counters["bytes"] = static_cast<double>(esign_text.size());
    return true;
}

void envelope_esign_write(benchmark::State& state) {
    if (!same_text(state)) return;
    for (auto _ : state) {
        std::string text = esign::json::write(envelope());
        benchmark::DoNotOptimize(text);
    }
}

void envelope_esign_encode(benchmark::State& state) {
    if (!same_text(state)) return;
    for (auto _ : state) {
        boost::json::value v = esign::json::encode(envelope());
        benchmark::DoNotOptimize(v);
    }
}

void envelope_boost_serialize(benchmark::State& state) {
    if (!same_text(state)) return;
    const boost::json::value value = hand_built();
    for (auto _ : state) {
        std::string text = boost::json::serialize(value);
        benchmark::DoNotOptimize(text);
    }
}

void envelope_boost_build_serialize(benchmark::State& state) {
    if (!same_text(state)) return;
    for (auto _ : state) {
        std::string text = boost::json::serialize(hand_built());
        benchmark::DoNotOptimize(text);
    }
}

BENCHMARK(envelope_esign_write);
BENCHMARK(envelope_esign_encode);
BENCHMARK(envelope_boost_serialize);
BENCHMARK(envelope_boost_build_serialize);

}  // namespace
