// SPDX-License-Identifier: BSL-1.0
// A consumer of esign::client (include/esign/client/): its headers compile with the consumer's
// warnings and link with what the target brings (OpenSSL, threads). Built by the CMake consumer
// test of the installed package (find_package) beside main.cpp.
#include <esign/client/client.hpp>
#include <esign/client/webhook_receiver.hpp>

#include <chrono>
#include <cstdio>

int main() {
    const esign::client::client_options options;
    const esign::client::webhook_receiver receiver("secret");
    // A delivery signed with another secret is refused (the check ran: OpenSSL linked).
    const auto refused = receiver.verify(R"({"eventType":"ENVELOPE_SENT"})", "t=1,v1=00",
                                         std::chrono::system_clock::time_point(std::chrono::milliseconds(1)));
    if (refused || options.max_attempts == 0) {
        std::puts("client consumer: unexpected");
        return 1;
    }
    std::puts("client consumer: ok");
    return 0;
}
