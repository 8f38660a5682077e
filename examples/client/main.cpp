// SPDX-License-Identifier: BSL-1.0
// esign-client-example: the typed client (include/esign/client/) against a server given by URL.
// It makes a team (unless an API key is given), creates an envelope, adds a recipient and a
// block, sends it, and prints what the server's outbox and webhook deliveries hold.
//
//   esign-client-example http://127.0.0.1:8080 [API_KEY]
#include <cstdio>
#include <exception>
#include <string>

#include <esign/client/client.hpp>

namespace {

// The response, or the error on stderr and nullptr.
template <class Response>
const Response* ok(const esign::client::call_result<Response>& r, const char* what) {
    if (r) return &*r;
    std::fprintf(stderr, "%s: %s\n", what, esign::client::describe(r.error()).c_str());
    return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2 || argc > 3) {
        std::fprintf(stderr, "usage: %s BASE_URL [API_KEY]\n", argv[0]);
        return 2;
    }
    namespace ec = esign::client;
    try {
        std::string key = argc == 3 ? argv[2] : "";
        if (key.empty()) {  // a team of the reference server's control plane
            ec::client operator_client(argv[1]);
            esign::control_team_create_request team;
            team.profile.name = "Example";
            auto made = operator_client.call(team);
            if (!ok(made, "team/create")) return 1;
            key = made->apiKey;
        }
        ec::client api(argv[1], ec::credentials::api_key(key));

        esign::control_envelope_create_request create;
        create.content.title = "Contract";
        create.content.documents.push_back({"contract.pdf", 2});
        auto envelope = api.call(create);
        if (!ok(envelope, "envelope/create")) return 1;

        esign::envelope_add_recipients_request recipients;
        recipients.envelopeUuid = envelope->envelopeUuid;
        esign::add_recipients_item signer;
        signer.email = "sam@example.com";
        signer.firstname = "Sam";
        signer.lastname = "Signer";
        recipients.recipients.push_back(signer);
        if (!ok(api.call(recipients), "envelope/add-recipients")) return 1;

        esign::envelope_add_blocks_request blocks;
        blocks.envelopeUuid = envelope->envelopeUuid;
        blocks.documentUuid = envelope->documentUuids.at(0);
        esign::add_blocks_item name;
        name.page = "1";
        name.x = 100;
        name.y = 600;
        name.text = "Name";
        name.recipientEmail = "sam@example.com";
        blocks.blocks.push_back(name);
        if (!ok(api.call(blocks), "envelope/add-blocks")) return 1;

        esign::envelope_send_request send;
        send.envelopeUuid = envelope->envelopeUuid;
        auto sent = api.call(send);
        if (!ok(sent, "envelope/send")) return 1;

        auto outbox = api.call(esign::control_outbox_list_request{});
        auto deliveries = api.call(esign::control_webhook_deliveries_request{});
        if (!ok(outbox, "outbox/list") || !ok(deliveries, "webhook/deliveries")) return 1;
        std::printf("envelope %s sent: %zu e-mail(s) in the outbox, %zu webhook deliveries\n",
                    envelope->envelopeUuid.c_str(), outbox->emails.size(), deliveries->deliveries.size());
        return 0;
    } catch (const std::exception& e) {  // a base URL the client cannot use
        std::fprintf(stderr, "%s\n", e.what());
        return 2;
    }
}
