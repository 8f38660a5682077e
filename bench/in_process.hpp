// SPDX-License-Identifier: BSL-1.0
#pragma once
// What the in-process benchmarks share: a backend whose clock stands still and whose journal is
// off (so that only the measured work is measured), a new team's API key, and a team of sent
// envelopes.
#include <cstdint>
#include <optional>
#include <string>

#include <boost/json.hpp>

#include <esign/reference/backend.hpp>

namespace esign_bench {

inline esign::reference::backend_options still_backend_options() {
    esign::reference::backend_options o;
    o.wall_clock = [] { return std::int64_t{1'800'000'000'000}; };
    o.journal_size = 0;
    return o;
}

// A new team of `b` (keyless /_control/team/create); its API key.
inline std::string new_team_key(esign::reference::backend& b) {
    return std::string(
        boost::json::parse(b.handle("/_control/team/create", std::nullopt, "{}").body).at("apiKey").as_string());
}

// A backend with one team of `count` sent envelopes (each with a recipient, so with logs and
// outbox e-mails), made after a team reset (the state a reset returns to stays empty).
struct team_of_sent_envelopes {
    esign::reference::backend backend{still_backend_options()};
    std::string key;
    bool built = false;  // every request answered 200

    explicit team_of_sent_envelopes(int count) {
        // (Credits and e-mails for every sending, twice.)
        const std::string quota = std::to_string(2 * count);
        key = boost::json::parse(backend
                                     .handle("/_control/team/create", std::nullopt,
                                             R"({"apiCredits":)" + quota + R"(,"emailQuota":)" + quota + "}")
                                     .body)
                  .at("apiKey")
                  .as_string();
        built = build(backend, key, count);
        backend.handle("/_control/team/reset", key, "{}");  // reset returns to the empty team...
        built = built && build(backend, key, count);        // ...so the state is built after it
    }

    // `count` envelopes of the team, sent; false when a request failed.
    static bool build(esign::reference::backend& b, const std::string& key, int count) {
        for (int i = 0; i < count; ++i) {
            auto made = b.handle("/_control/envelope/create", key,
                                 R"({"title":"Contract","documents":[{"title":"d","pageCount":2}]})");
            if (made.status != 200) return false;
            const std::string env(boost::json::parse(made.body).at("envelopeUuid").as_string());
            const std::string uuid = R"({"envelopeUuid":")" + env + '"';
            if (b.handle(
                     "/public/envelope/add-recipients", key,
                     uuid +
                         R"(,"recipients":[{"type":"manual","email":"s@example.com","firstname":"S","lastname":"T"}]})")
                    .status != 200)
                return false;
            if (b.handle("/public/envelope/send", key, uuid + "}").status != 200) return false;
        }
        return true;
    }
};

}  // namespace esign_bench
