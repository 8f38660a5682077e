// SPDX-License-Identifier: BSL-1.0
#pragma once
// HTTPS for esign-reference-server (contract.md §7.4): the TLS settings of every connection,
// made once from --tls-cert and --tls-key (PEM) before the server listens.
//
//   protocols  TLS 1.2 and 1.3 only (SSLv3, TLS 1.0 and 1.1 are refused);
//   ciphers    OpenSSL's defaults at security level 2 (at least 112-bit security: no RC4, no
//              3DES, RSA and DH keys of at least 2048 bits); no compression, no renegotiation;
//   files      the certificate file may hold the chain after the server's certificate; a key
//              protected by a passphrase is refused (the server never prompts);
//   memory     idle connections give their TLS read and write buffers back (RELEASE_BUFFERS).
//
// Failures are values: the flag and OpenSSL's reason, for main.cpp's message (exit status 2).
#include <cstring>
#include <memory>
#include <string>
#include <variant>

#include <boost/asio/ssl/context.hpp>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

namespace esign::server {

namespace detail {

// OpenSSL's queued errors, oldest first, as "reason: reason" (the queue is emptied). A system
// error is its errno's text; the "system lib" that each layer above it adds is left out.
inline std::string openssl_errors() {
    std::string out;
    bool system = false;
    while (const unsigned long e = ERR_get_error()) {
        std::string reason;
        if (ERR_SYSTEM_ERROR(e)) {
            reason = std::strerror(ERR_GET_REASON(e));
            system = true;
        } else if (const char* text = ERR_reason_error_string(e)) {
            reason = text;
            if (system && ERR_GET_REASON(e) == ERR_R_SYS_LIB) continue;
        } else {
            char buffer[256];
            ERR_error_string_n(e, buffer, sizeof buffer);
            reason = buffer;
        }
        if (!out.empty()) out += ": ";
        out += reason;
    }
    return out.empty() ? "unknown OpenSSL error" : out;
}

}  // namespace detail

// What went wrong loading the certificate or the key, as "--tls-key FILE: <OpenSSL's reason>".
struct tls_setup_error {
    std::string message;
};

// The server's TLS context from a PEM certificate (chain) file and a PEM private key file.
inline std::variant<std::shared_ptr<boost::asio::ssl::context>, tls_setup_error> make_tls_context(
    const std::string& cert_file, const std::string& key_file) {
    namespace ssl = boost::asio::ssl;
    ERR_clear_error();
    auto context = std::make_shared<ssl::context>(ssl::context::tls_server);
    SSL_CTX* ctx = context->native_handle();
    if (SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION) != 1)
        return tls_setup_error{"TLS 1.2: " + detail::openssl_errors()};
    SSL_CTX_set_security_level(ctx, 2);
    SSL_CTX_set_options(ctx, SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE);
    SSL_CTX_set_mode(ctx, SSL_MODE_RELEASE_BUFFERS);
    // An encrypted key would make OpenSSL prompt on the terminal: answer "no passphrase".
    SSL_CTX_set_default_passwd_cb(ctx, [](char*, int, int, void*) { return 0; });

    if (SSL_CTX_use_certificate_chain_file(ctx, cert_file.c_str()) != 1)
        return tls_setup_error{"--tls-cert " + cert_file + ": " + detail::openssl_errors()};
    if (SSL_CTX_use_PrivateKey_file(ctx, key_file.c_str(), SSL_FILETYPE_PEM) != 1) {
        // OpenSSL compares the key with the certificate as it loads it.
        const unsigned long first = ERR_peek_error();
        if (ERR_GET_LIB(first) == ERR_LIB_X509 && ERR_GET_REASON(first) == X509_R_KEY_VALUES_MISMATCH)
            return tls_setup_error{"--tls-key " + key_file + " does not match --tls-cert " + cert_file + ": " +
                                   detail::openssl_errors()};
        return tls_setup_error{"--tls-key " + key_file + ": " + detail::openssl_errors()};
    }
    if (SSL_CTX_check_private_key(ctx) != 1)
        return tls_setup_error{"--tls-key " + key_file + " does not match --tls-cert " + cert_file + ": " +
                               detail::openssl_errors()};
    return context;
}

}  // namespace esign::server
