// SPDX-License-Identifier: BSL-1.0
// Fuzzing the request decoder: esign::json::read<T> for every request type of the operation
// table (model/operations.hpp).
//
// Input: byte 0 picks the operation (mod operation_count, in table order), bit 0 of byte 1
// turns strict mode on, the rest is the request body.
// Checks:
//  - esign's JSON scanner gives the verdict and the events of boost::json::basic_parser
//    (json_events_oracle.hpp);
//  - the memory bound of decoding (contract.md §6.7), with a counting operator new
//    (counting_allocator.hpp, which replaces the global operator new and delete of this
//    program): read<T>(body), the server's path, and decode<T> of parse_body's value (the value
//    itself is the caller's and not counted: boost::json takes 16 bytes and more per value) each
//    peak below 32 × S + 1 MiB for a body of S bytes, and keep at most max_reported_problems
//    problems (parse_body's duplicates too). The shapes of tests/memory/hostile_bodies.hpp are
//    seeds (fuzz/corpus/decode/bounds_*.bin);
//  - read<T> never crashes (ASan/UBSan watch it) and refuses with at least one problem;
//  - its first try, the direct reader (json/detail/direct_reader.hpp), accepts only a body the
//    decoder's events accept, and reads the value they read;
//  - read<T> (checks while it parses) and decode<T> of parse_body's DOM agree: both accept,
//    or both refuse with the same problems (the DOM's duplicates come from parse_body); when
//    either holds max_reported_problems (contract.md §6.7: which ones is unspecified), only
//    that both refuse with at most that many;
//  - read_into, into the value the previous input of the same type left, gives read<T>'s
//    outcome: the same value (its JSON text), or the same problems;
//  - accepted: write() then read() again accepts, and both values encode to the same JSON;
//  - refused: when the body is not a JSON object that boost::json parses with the same limits
//    (depth 64, strict UTF-8), exactly one problem, kind syntax, path []; otherwise no problem
//    of kind syntax, and every problem's path leads through the parsed input (object members,
//    array indices in range), except that its last segment may name an absent member when the
//    kind is `missing` (which must then really be absent) or `invalid` (a rule across members,
//    e.g. sms verification without a phone). A member name in a path may be cut (path_name):
//    it then leads through the member whose name cuts to it.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <esign/json/decode.hpp>
#include <esign/json/encode.hpp>
#include <esign/model/operations.hpp>

#include "check.hpp"
#include "counting_allocator.hpp"
#include "json_events_oracle.hpp"
#include "request_input.hpp"

namespace {

std::string path_text(const esign::problem_path& path) {
    std::string out = "[";
    for (std::size_t i = 0; i < path.size(); ++i) {
        if (i) out += ",";
        out += boost::json::serialize(boost::json::value(boost::json::string_view(path[i])));
    }
    return out + "]";
}

const char* kind_name(esign::problem_kind k) {
    auto s = esign::enum_to_wire(k);
    return s.data();
}

enum class walk { ok, missing_last, bad };

// Follows `path` from `root`; missing_last when all but the last segment exist and the last
// names a member absent from an object.
walk follow(const boost::json::value& root, const esign::problem_path& path) {
    const boost::json::value* cur = &root;
    for (std::size_t i = 0; i < path.size(); ++i) {
        const std::string& seg = path[i];
        const bool last = i + 1 == path.size();
        if (cur->is_object()) {
            const boost::json::value* next = cur->get_object().if_contains(seg);
            if (!next)  // a name cut in the path
                for (const auto& member : cur->get_object())
                    if (esign::path_name(std::string_view(member.key().data(), member.key().size()), i) == seg &&
                        member.key().size() > seg.size())
                        next = &member.value();
            if (!next) return last ? walk::missing_last : walk::bad;
            cur = next;
        } else if (cur->is_array()) {
            if (seg.empty() || seg.size() > 9 || seg.find_first_not_of("0123456789") != std::string::npos)
                return walk::bad;
            if (seg.size() > 1 && seg[0] == '0') return walk::bad;  // indices are written canonically
            std::size_t index = std::stoul(seg);
            if (index >= cur->get_array().size()) return walk::bad;
            cur = &cur->get_array()[index];
        } else {
            return walk::bad;
        }
    }
    return walk::ok;
}

// The DOM path: parse_body, then decode<T> of its value; its problems, with the duplicates
// parse_body found, are those of read<T>, in any order.
template <class T>
void check_same_problems(const esign::problem_list& streamed, const esign::json::parsed_body& dom,
                         const esign::json::decode_options& options, std::string_view op_path) {
    auto decoded = esign::json::decode<T>(dom.value, options);
    esign::problem_list expected = dom.duplicates;
    if (!decoded) expected.insert(expected.end(), decoded.problems().begin(), decoded.problems().end());
    esign::problem_list got = streamed;
    const std::size_t cap = esign::max_reported_problems;
    if (got.size() >= cap || expected.size() >= cap || dom.duplicates.size() >= cap ||
        (!decoded && decoded.problems().size() >= cap)) {
        ESIGN_FUZZ_CHECK(
            !got.empty() && !expected.empty() && got.size() <= cap && dom.duplicates.size() <= cap &&
                (decoded || decoded.problems().size() <= cap),
            "%.*s: at the cap of %zu problems, read<T> found %zu, parse_body %zu duplicate(s), decode<T> %zu",
            int(op_path.size()), op_path.data(), cap, got.size(), dom.duplicates.size(),
            decoded ? std::size_t(0) : decoded.problems().size());
        return;
    }
    auto order = [](const esign::problem& a, const esign::problem& b) {
        return std::tie(a.path, a.kind, a.message) < std::tie(b.path, b.kind, b.message);
    };
    std::sort(expected.begin(), expected.end(), order);
    std::sort(got.begin(), got.end(), order);
    if (got == expected) return;
    auto first_difference = std::mismatch(got.begin(), got.end(), expected.begin(), expected.end());
    const esign::problem* g = first_difference.first == got.end() ? nullptr : &*first_difference.first;
    const esign::problem* e = first_difference.second == expected.end() ? nullptr : &*first_difference.second;
    ESIGN_FUZZ_CHECK(
        false, "%.*s: read<T> found %zu problem(s), decode<T>(parse_body) %zu; first difference: %s at %s vs %s at %s",
        int(op_path.size()), op_path.data(), got.size(), expected.size(), g ? g->message.c_str() : "-",
        g ? path_text(g->path).c_str() : "-", e ? e->message.c_str() : "-", e ? path_text(e->path).c_str() : "-");
}

// The memory bound: each decoding path of a body of S bytes peaks below 32 × S + 1 MiB.
template <class T>
void check_memory_bound(std::string_view body, const esign::json::decode_options& options, std::string_view op_path) {
    const std::size_t bound = esign_memory::bound_for(body.size());
    {
        std::size_t problems = 0;
        esign_memory::measure m;
        {
            auto r = esign::json::read<T>(body, options);
            if (!r) problems = r.problems().size();
        }
        ESIGN_FUZZ_CHECK(m.peak() < bound, "%.*s: read<T> of %zu bytes peaked at %zu bytes (bound %zu)",
                         int(op_path.size()), op_path.data(), body.size(), m.peak(), bound);
        ESIGN_FUZZ_CHECK(problems <= esign::max_reported_problems, "%.*s: read<T> kept %zu problems",
                         int(op_path.size()), op_path.data(), problems);
    }
    auto dom = esign::json::parse_body(body);
    if (!dom) return;
    ESIGN_FUZZ_CHECK(dom->duplicates.size() <= esign::max_reported_problems, "%.*s: parse_body kept %zu duplicates",
                     int(op_path.size()), op_path.data(), dom->duplicates.size());
    std::size_t problems = 0;
    esign_memory::measure m;
    {
        auto r = esign::json::decode<T>(dom->value, options);
        if (!r) problems = r.problems().size();
    }
    ESIGN_FUZZ_CHECK(m.peak() < bound, "%.*s: decode<T> of a %zu-byte body peaked at %zu bytes (bound %zu)",
                     int(op_path.size()), op_path.data(), body.size(), m.peak(), bound);
    ESIGN_FUZZ_CHECK(problems <= esign::max_reported_problems, "%.*s: decode<T> kept %zu problems", int(op_path.size()),
                     op_path.data(), problems);
}

template <class T>
void check_request(std::string_view body, bool strict, std::string_view op_path) {
    const std::string scanned_differently = esign_fuzz::first_difference(body);
    ESIGN_FUZZ_CHECK(scanned_differently.empty(), "%.*s: esign's scanner and boost::json::basic_parser differ: %s",
                     int(op_path.size()), op_path.data(), scanned_differently.c_str());

    esign::json::decode_options options;
    options.strict = strict;
    check_memory_bound<T>(body, options, op_path);

    auto first = esign::json::read<T>(body, options);

    // read's first try, the direct reader, alone: it reads only a body the decoder's events accept,
    // into the value they give (read falls back to the events where it gives up).
    {
        T direct{}, by_events{};
        const bool read_directly = esign::json::detail::read_direct(body, direct, options, {});
        const bool events_accept = bool(esign::json::detail::read_events(body, by_events, options, {}));
        ESIGN_FUZZ_CHECK(!read_directly || events_accept, "%.*s: the direct reader accepts, the events refuse",
                         int(op_path.size()), op_path.data());
        if (read_directly && events_accept) {
            const std::string direct_text = esign::json::write(direct), events_text = esign::json::write(by_events);
            ESIGN_FUZZ_CHECK(direct_text == events_text, "%.*s: the direct reader gives %s, the events %s",
                             int(op_path.size()), op_path.data(), direct_text.c_str(), events_text.c_str());
        }
    }

    // read_into, into the value the previous input of this type left: read's outcome exactly (the
    // value's text and the problems are compared below).
    static T kept{};
    const auto again = esign::json::read_into(body, kept, options);
    ESIGN_FUZZ_CHECK(bool(again) == first.has_value(), "%.*s: read<T> %s, read_into %s", int(op_path.size()),
                     op_path.data(), first ? "accepts" : "refuses", again ? "accepts" : "refuses");

    if (first) {
        auto dom = esign::json::parse_body(body);
        ESIGN_FUZZ_CHECK(dom && dom->duplicates.empty() && esign::json::decode<T>(dom->value, options).has_value(),
                         "%.*s: read<T> accepts, decode<T>(parse_body) refuses", int(op_path.size()), op_path.data());
        const boost::json::value encoded = esign::json::encode(*first);
        const std::string written = esign::json::write(*first);
        const std::string written_kept = esign::json::write(kept);
        ESIGN_FUZZ_CHECK(written_kept == written, "%.*s: read_into gives %s, read<T> %s", int(op_path.size()),
                         op_path.data(), written_kept.c_str(), written.c_str());
        auto second = esign::json::read<T>(written, options);
        if (!second) {
            const auto& p = second.problems().front();
            ESIGN_FUZZ_CHECK(second.has_value(), "%.*s: written form refused: %s at %s (%s); written: %s",
                             int(op_path.size()), op_path.data(), kind_name(p.kind), path_text(p.path).c_str(),
                             p.message.c_str(), written.c_str());
        }
        const boost::json::value reencoded = esign::json::encode(*second);
        ESIGN_FUZZ_CHECK(esign_fuzz::near_equal(encoded, reencoded), "%.*s: round trip changed the value: %s then %s",
                         int(op_path.size()), op_path.data(), boost::json::serialize(encoded).c_str(),
                         boost::json::serialize(reencoded).c_str());
        return;
    }

    const esign::problem_list& problems = first.problems();
    ESIGN_FUZZ_CHECK(!problems.empty(), "%.*s: refused with no problem", int(op_path.size()), op_path.data());
    ESIGN_FUZZ_CHECK(again.problems() == problems, "%.*s: read_into's problems are not read<T>'s", int(op_path.size()),
                     op_path.data());

    // The same parse, independently: boost::json with the limits of the contract.
    boost::json::parse_options popts;
    popts.max_depth = 64;
    boost::json::error_code ec;
    boost::json::value parsed = boost::json::parse(body, ec, {}, popts);
    // Boost.JSON 1.81 refuses an exponent past INT_MAX; RFC 8259 does not, nor does esign (the
    // number is ±infinity or 0, judged by the member's rules): nothing to compare with.
    if (ec == boost::json::error::exponent_overflow) return;
    if (ec || !parsed.is_object()) {
        const auto& p = problems.front();
        ESIGN_FUZZ_CHECK(problems.size() == 1 && p.kind == esign::problem_kind::syntax && p.path.empty(),
                         "%.*s: unparseable body (%s) but %zu problem(s), first %s at %s: %s", int(op_path.size()),
                         op_path.data(), ec ? ec.message().c_str() : "not an object", problems.size(),
                         kind_name(p.kind), path_text(p.path).c_str(), p.message.c_str());
        return;
    }
    // boost::json keeps one copy of a duplicated member, esign's builder the first: when the
    // body has duplicates, a path may lead through either.
    auto esign_parsed = esign::json::parse_body(body);
    ESIGN_FUZZ_CHECK(esign_parsed.has_value(), "%.*s: boost::json parses the body, esign's parse_body refuses it: %s",
                     int(op_path.size()), op_path.data(),
                     esign_parsed ? "" : esign_parsed.problems().front().message.c_str());
    check_same_problems<T>(problems, *esign_parsed, options, op_path);

    for (const auto& p : problems) {
        ESIGN_FUZZ_CHECK(p.kind != esign::problem_kind::syntax, "%.*s: syntax problem at %s (%s) for a parseable body",
                         int(op_path.size()), op_path.data(), path_text(p.path).c_str(), p.message.c_str());
        // Judged against both copies: with a duplicated member, boost::json keeps the last
        // copy and esign's builder the first, and the problems come from the first.
        const walk a = follow(parsed, p.path);
        const walk b = follow(esign_parsed->value, p.path);
        const bool may_be_absent = p.kind == esign::problem_kind::missing || p.kind == esign::problem_kind::rule;
        auto fits = [&](walk w) { return w == walk::ok || (w == walk::missing_last && may_be_absent); };
        // A duplicate inside a copy of a member that is itself duplicated (neither parser keeps
        // the middle copies of a member given three times): it is enough that an ancestor is
        // reported duplicated.
        auto inside_duplicate = [&] {
            if (p.kind != esign::problem_kind::duplicate_member) return false;
            for (const auto& q : problems)
                if (q.kind == esign::problem_kind::duplicate_member && q.path.size() < p.path.size() &&
                    std::equal(q.path.begin(), q.path.end(), p.path.begin()))
                    return true;
            return false;
        };
        ESIGN_FUZZ_CHECK(fits(a) || fits(b) || inside_duplicate(),
                         "%.*s: problem %s at %s (%s): the path is not in the input", int(op_path.size()),
                         op_path.data(), kind_name(p.kind), path_text(p.path).c_str(), p.message.c_str());
        if (p.kind == esign::problem_kind::missing)
            ESIGN_FUZZ_CHECK(a == walk::missing_last || b == walk::missing_last,
                             "%.*s: member reported missing at %s but it is present", int(op_path.size()),
                             op_path.data(), path_text(p.path).c_str());
        if (p.kind == esign::problem_kind::unknown_member)
            ESIGN_FUZZ_CHECK(strict, "%.*s: unknown member at %s outside strict mode", int(op_path.size()),
                             op_path.data(), path_text(p.path).c_str());
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return esign::fuzz::with_request_input(data, size, [](const auto& op, std::string_view body, bool strict) {
        using request = typename std::remove_cvref_t<decltype(op)>::request_type;
        check_request<request>(body, strict, op.path);
    });
}

#include "replay_main.hpp"
