// SPDX-License-Identifier: BSL-1.0
#pragma once
// How a backend is set up. Everything has a default, so `backend b;` just works.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <esign/rules/error_codes.hpp>

namespace esign::reference {

struct backend_options {
    bool strict = false;                // unknown members are problems (--strict)
    bool public_webhooks_only = false;  // refuse loopback and private webhook targets
    // Reproducible identifiers: a team made without its own seed gets one derived from this and
    // the number of teams made before it. Never used for API keys or secrets.
    std::optional<std::uint64_t> seed;
    // §6.2: with a token, a server-wide control operation needs `Authorization: Bearer <token>`
    // (--control-token); without /_control/ operations, none of those paths exists (--no-control).
    std::optional<std::string> control_token;
    bool control_enabled = true;
    // Wall time in unix milliseconds; a team's clock is this plus the offset that clock/advance
    // adds (or its frozen start time plus that offset). Tests may inject a fixed clock.
    std::function<std::int64_t()> wall_clock;
    std::optional<std::string> fixture_json;  // loaded at start and on reset (--fixture)
    // §6.9: teams at once, the fixture's included (--max-teams); /_control/team/create beyond is
    // 429 TEAM_LIMIT_REACHED, and a server-wide reset frees the places.
    std::size_t max_teams = 10'000;
    // §6.4: the public requests each team's journal keeps (--journal-size; 0: none).
    std::size_t journal_size = 1000;
    // The document served at GET /openapi.json (the server sets esign::schema::openapi_json();
    // kept out of the backend's headers, so that users of the backend do not compile it).
    std::optional<std::string> openapi_json;
    // Every response (errors too) is judged by esign::check against its type before it is
    // sent; one that breaks the model is reported to self_check_log (stderr without one) and
    // answered with INTERNAL_SERVER_ERROR instead (--self-check; self_check.hpp).
    bool self_check = false;
    std::function<void(std::string_view)> self_check_log;
    // error.documentationUrl is this followed by the code (--documentation-url).
    std::string documentation_base{rules::default_documentation_base};
    // contract.md §7.1: the base of the URLs the server writes (an e-mail's signingUrl is this
    // followed by /embeds/sign#t=...): --public-url, else the server's listening address. Empty
    // in process: the URL is then the path alone.
    std::string public_url;
    // §6.7: an answer that may be as long as a team is large (its snapshot) goes to an unnamed
    // file in this folder beyond its first spool_at bytes, and the reply carries the file
    // (reply::spooled) instead of the text. Empty (in process): answers are held whole.
    std::string spool_directory;
    std::size_t spool_at = std::size_t(256) << 10;
};

}  // namespace esign::reference
