#pragma once
// How a backend is set up. Everything has a default, so `backend b;` just works.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace esign::reference {

struct backend_options {
    bool strict = false;                 // unknown members are problems (--strict)
    bool public_webhooks_only = false;   // refuse loopback and private webhook targets
    std::size_t max_body = 1 << 20;      // bytes (--max-body); the server enforces it before handle()
    std::optional<std::uint64_t> seed;   // reproducible uuids and tokens; a secure source when absent
    // Wall time in unix milliseconds; the backend's clock is this plus the offset that
    // clock/advance adds. Tests may inject a fixed clock.
    std::function<std::int64_t()> wall_clock;
    std::optional<std::string> fixture_json;  // loaded at start and on reset (--fixture)
    // The document served at GET /openapi.json (the server sets esign::schema::openapi_json();
    // kept out of the backend's headers, so that users of the backend do not compile it).
    std::optional<std::string> openapi_json;
};

} // namespace esign::reference
