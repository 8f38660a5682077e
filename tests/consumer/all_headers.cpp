// SPDX-License-Identifier: BSL-1.0
// Every public header and the reference backend in one translation unit, used as a consumer
// would: clang-tidy's input (.clang-tidy, .ci/run's lint step, with clang's -Wall -Wextra
// -Wpedantic as errors). g++'s flow-based warnings are the gcc step's: it compiles the backend's
// operations at -O3 with -Werror (ESIGN_OPTIMIZE_BACKEND).
#include <esign/client/client.hpp>  // the caller's side too (not in esign.hpp: Asio, Beast, OpenSSL)
#include <esign/client/webhook_receiver.hpp>
#include <esign/esign.hpp>
#include <esign/reference/backend.hpp>

#include <cstdio>
#include <string>

// A typed call, instantiated for clang-tidy's eyes (never run: there is no server here).
[[maybe_unused]] static bool whoami_through_the_client(esign::client::client& api) {
    auto answer = api.call(esign::utils_whoami_request{});
    return answer && !answer->teamUuid.empty();
}

int main() {
    esign::reference::backend_options options;
    options.seed = 1;
    esign::reference::backend backend(options);
    auto team = backend.handle("/_control/team/create", std::nullopt, "{}");
    auto parsed = boost::json::parse(team.body);
    const std::string key(parsed.at("apiKey").as_string());
    auto created =
        backend.handle("/_control/envelope/create", key, R"({"title":"t","documents":[{"title":"d","pageCount":1}]})");
    auto listed = backend.handle("/public/envelope/list", key, "{}");
    auto request = esign::json::read<esign::workspace_create_request>(R"({"name":"Legal"})");
    const bool checked = request && esign::check(*request) && esign::uuid36::make(std::string(36, 'u')) &&
                         !esign::check(esign::envelope_add_recipients_request{});
    if (team.status != 200 || created.status != 200 || listed.status != 200 || !request || !checked) {
        std::puts("all_headers: unexpected answer");
        return 1;
    }
    std::printf("all_headers: ok (esign %s)\n", ESIGN_VERSION_STRING);
    return 0;
}
