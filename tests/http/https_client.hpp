// SPDX-License-Identifier: BSL-1.0
#pragma once
// An HTTPS client for the black-box tests of the server over TLS (contract.md §7.4,
// test_server_tls.cpp): one connection, the server's certificate checked against a given CA
// file and host name, a deadline on every operation.
//
//   esign::test::https_connection c(srv.host(), srv.port(), {pki.ca_file, "localhost"});
//   auto r = c.post("/public/utils/whoami", "{}", bearer(key));     // http_response, as http_client.hpp
//
// Only declarations here: the Asio/Beast/OpenSSL code is compiled once, in https_client.cpp.
#include <chrono>
#include <memory>
#include <string>

#include "http_client.hpp"

namespace esign::test {

struct tls_client_settings {
    std::string ca_file;                    // the CA (PEM) the server's certificate must chain to
    std::string server_name = "localhost";  // sent as SNI, and the name the certificate must carry
    // Offer TLS 1.1 only (security level 0, as OpenSSL 3 needs for it): for the test that the
    // server refuses it.
    bool tls11_only = false;
};

// Whether this OpenSSL can offer TLS 1.1 at all (built without `no-tls1_1`).
bool can_offer_tls11();

// One TLS connection; requests on it reuse it while the server keeps it open (keep-alive).
class https_connection {
public:
    // Connects and completes the handshake; throws boost::system::system_error on a failure
    // (certificate refused, protocol refused, timeout...).
    https_connection(const std::string& host, unsigned short port, const tls_client_settings& settings,
                     std::chrono::milliseconds timeout = std::chrono::seconds(15));
    https_connection(https_connection&&) noexcept;
    https_connection& operator=(https_connection&&) noexcept;
    ~https_connection();

    // `Content-Type: application/json` is added for a POST. Throws boost::system::system_error
    // on a network failure or timeout.
    http_response request(http::verb method, std::string target, std::string body = {},
                          const header_list& headers = {});
    http_response post(std::string target, std::string body, const header_list& headers = {}) {
        return request(http::verb::post, std::move(target), std::move(body), headers);
    }

    // The TLS version agreed ("TLSv1.3", ...).
    std::string protocol() const;
    bool is_open() const;

private:
    struct impl;
    std::unique_ptr<impl> impl_;
};

// The message of the error that ended a connection attempt and its handshake; empty when the
// handshake succeeded.
std::string tls_handshake_error(const std::string& host, unsigned short port, const tls_client_settings& settings,
                                std::chrono::milliseconds timeout = std::chrono::seconds(10));

}  // namespace esign::test
