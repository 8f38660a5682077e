// SPDX-License-Identifier: BSL-1.0
// The memory bound of contract.md §6.7 for the journal: a journal/list request of a few bytes
// takes less than 32 times its body plus 1 MiB at its peak, reply included, whatever the team's
// journal holds (bodies up to 1 MiB shaped to take much more built than written: small numbers,
// many members, control bytes in text; and many entries just below the size listed whole), on
// every page from the first to the last; and recording those bodies keeps within the bound of the
// request that brought them. Counted bytes (fuzz/counting_allocator.hpp), as
// decode_memory_bound: a program of its own, exit status 0 when every measure is within.
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/parse.hpp>

#include <esign/reference/backend.hpp>

#include "../../fuzz/counting_allocator.hpp"

namespace {

struct shape {
    std::string name;
    std::string body;
};

std::string repeated(std::string_view head, std::string_view item, std::string_view sep, std::string_view tail,
                     std::size_t size) {
    std::string out(head);
    while (out.size() + item.size() + sep.size() + tail.size() < size) {
        if (out.size() > head.size()) out += sep;
        out += item;
    }
    out += tail;
    return out;
}

std::vector<shape> shapes(std::size_t size) {
    std::vector<shape> out;
    out.push_back({"control_bytes_text", std::string(size, '\x01')});
    out.push_back({"zeros_array", repeated("[", "0", ",", "]", size)});
    out.push_back({"doubles_array", repeated("[", "1.5", ",", "]", size)});
    out.push_back({"empty_arrays", repeated("[", "[]", ",", "]", size)});
    std::string members = "{";
    for (std::size_t i = 0; members.size() + 16 < size; ++i) members += (i ? ",\"" : "\"") + std::to_string(i) + "\":0";
    members += "}";
    out.push_back({"many_members", members});
    out.push_back({"escaped_string", "[\"" + repeated("", "\\u0001", "", "", size - 4) + "\"]"});
    return out;
}

struct team_backend {
    esign::reference::backend backend;
    std::string key;

    team_backend()
        : backend([] {
              esign::reference::backend_options o;
              o.seed = 7;
              o.wall_clock = [] { return std::int64_t{1'800'000'000'000}; };
              return o;
          }()) {
        auto r = backend.handle("/_control/team/create", std::nullopt, "{}");
        key = boost::json::parse(r.body).at("apiKey").as_string().c_str();
    }
};

int failures = 0;

void report(bool ok, const std::string& what, std::size_t bytes, std::size_t peak, std::size_t bound) {
    failures += ok ? 0 : 1;
    std::printf("%s %-48s %8zu bytes: peak %9zu, bound %9zu\n", ok ? "ok  " : "FAIL", what.c_str(), bytes, peak, bound);
}

// Lists the whole journal page by page; each page's peak within the bound of its body.
void list_all(team_backend& t, const std::string& what) {
    std::optional<std::int64_t> since;
    std::size_t pages = 0, entries = 0;
    while (true) {
        std::string body = R"({"limit":1000)" + (since ? ",\"since\":" + std::to_string(*since) : "") + "}";
        std::size_t peak = 0;
        std::string reply;
        {
            esign_memory::measure m;
            auto r = t.backend.handle("/_control/journal/list", t.key, body);
            peak = m.peak();
            if (r.status != 200) {
                report(false, what + " journal/list answered " + std::to_string(r.status), body.size(), 0, 0);
                return;
            }
            reply = std::move(r.body);
        }
        const auto listed = boost::json::parse(reply).at("entries").as_array();
        report(peak < esign_memory::bound_for(body.size()), what + " page " + std::to_string(pages + 1), body.size(),
               peak, esign_memory::bound_for(body.size()));
        if (listed.empty()) break;
        ++pages;
        entries += listed.size();
        since = listed.back().at("sequence").as_int64();
    }
    std::printf("     %s: %zu entries in %zu pages\n", what.c_str(), entries, pages);
}

}  // namespace

int main() {
    {
        // Bodies up to 1 MiB, each shape recorded several times.
        team_backend t;
        for (std::size_t size : {std::size_t(64) << 10, std::size_t(1) << 20})
            for (const auto& s : shapes(size))
                for (int i = 0; i < 3; ++i) {
                    esign_memory::measure m;
                    { auto r = t.backend.handle("/public/workspace/list", t.key, s.body); }
                    if (i == 0)
                        report(m.peak() < esign_memory::bound_for(s.body.size()), "record " + s.name, s.body.size(),
                               m.peak(), esign_memory::bound_for(s.body.size()));
                }
        list_all(t, "large bodies");
    }
    {
        // Many entries each just below what is listed whole: the page budget, not the body's.
        team_backend t;
        const std::string body = R"({"name":")" + std::string(60'000, 'x') + R"("})";
        for (int i = 0; i < 200; ++i) t.backend.handle("/public/workspace/create", t.key, body);
        list_all(t, "60 KB strings");
        const std::string numbers = repeated("[", "0", ",", "]", 2'500);
        for (int i = 0; i < 1000; ++i) t.backend.handle("/public/workspace/list", t.key, numbers);
        list_all(t, "1000 arrays of 1250 numbers");
    }
    std::printf("journal_memory_bound: %s\n", failures == 0 ? "all within the bound" : "some over the bound");
    return failures == 0 ? 0 : 1;
}
