// SPDX-License-Identifier: BSL-1.0
// Uses the installed esign as any other project would: one umbrella header, one decode.
#include <esign/esign.hpp>

#include <cstdio>
#include <string_view>

int main() {
#ifdef ESIGN_EXPECTED_VERSION  // the version the package manager reported
    if (std::string_view(ESIGN_VERSION_STRING) != ESIGN_EXPECTED_VERSION) {
        std::printf("consumer: the headers say %s, the package %s\n", ESIGN_VERSION_STRING, ESIGN_EXPECTED_VERSION);
        return 1;
    }
#endif
    auto good = esign::json::read<esign::workspace_create_request>(R"({"name":"Legal"})");
    if (!good) {
        std::puts("consumer: a valid workspace/create request was rejected");
        return 1;
    }
    auto bad = esign::json::read<esign::workspace_create_request>(R"({"name":""})");
    if (bad || bad.problems().empty()) {
        std::puts("consumer: an empty workspace name was accepted");
        return 1;
    }
    std::puts("consumer: ok");
    return 0;
}
