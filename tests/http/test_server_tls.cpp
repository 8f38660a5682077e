// SPDX-License-Identifier: BSL-1.0
// The server over TLS (contract.md §7.4; --tls-cert/--tls-key, examples/reference_server/tls.hpp,
// session_stream.hpp): HTTPS answered, plain HTTP and TLS 1.1 refused, the header timeout
// covering the handshake, https signing URLs, and the command line's refusals (exit status 2).
// A throw-away CA and a certificate for localhost and 127.0.0.1 are made with the `openssl`
// command at the first test that needs them.
#include "test_support.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include <boost/json.hpp>

#include "https_client.hpp"

namespace test_server_tls {

using namespace esign::test;
using namespace std::chrono_literals;
namespace json = boost::json;

namespace {

// A CA, a server certificate it signed (localhost, 127.0.0.1) with its key, and a key of no
// certificate; in a temporary folder removed at exit.
struct test_pki {
    std::string dir;
    std::string ca_file, cert_file, key_file, other_key_file;

    test_pki() {
        std::string name = (std::filesystem::temp_directory_path() / "esign-tls-XXXXXX").string();
        if (::mkdtemp(name.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
        dir = name;
        ca_file = dir + "/ca.pem";
        cert_file = dir + "/server.pem";
        key_file = dir + "/server.key";
        other_key_file = dir + "/other.key";
        const std::string ec = " -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes";
        run("openssl req -x509" + ec + " -keyout ca.key -out ca.pem -days 2 -subj '/CN=esign test CA'");
        run("openssl req" + ec + " -keyout server.key -out server.csr -subj '/CN=localhost'");
        run("printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\\nbasicConstraints=CA:FALSE\\n"
            "keyUsage=digitalSignature\\nextendedKeyUsage=serverAuth\\n' > server.ext");
        run("openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -set_serial 1 -days 2 -extfile server.ext "
            "-out server.pem");
        run("openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:prime256v1 -out other.key");
    }
    test_pki(const test_pki&) = delete;
    test_pki& operator=(const test_pki&) = delete;
    ~test_pki() {
        std::error_code ignored;
        std::filesystem::remove_all(dir, ignored);
    }

    void run(const std::string& command) const {
        const std::string line = "cd '" + dir + "' && " + command + " >/dev/null 2>&1";
        if (std::system(line.c_str()) != 0) throw std::runtime_error("failed: " + command);
    }
};

const test_pki& pki() {
    static const test_pki p;
    return p;
}

std::vector<std::string> tls_args(std::vector<std::string> extra = {}) {
    std::vector<std::string> args{"--tls-cert", pki().cert_file, "--tls-key", pki().key_file};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

tls_client_settings trusting() { return {pki().ca_file, "localhost", false}; }

json::object ok(https_connection& c, const std::string& path, const json::object& body, const std::string& key = {}) {
    return success_body(c.post(path, json::serialize(body), key.empty() ? header_list{} : bearer(key)), path);
}

}  // namespace

TEST_CASE("tls: an HTTPS request is answered, and the first line says https", "[http][tls]") {
    test_server srv(tls_args());
    CHECK(srv.first_line() == "listening on https://127.0.0.1:" + std::to_string(srv.port()));

    https_connection c(srv.host(), srv.port(), trusting());
    INFO(c.protocol());
    CHECK((c.protocol() == "TLSv1.3" || c.protocol() == "TLSv1.2"));
    const auto team = ok(c, "/_control/team/create", {});
    const std::string key(team.at("apiKey").as_string());
    // The same connection again (keep-alive), with the team's key.
    const auto who = ok(c, "/public/utils/whoami", {}, key);
    CHECK(who.at("teamUuid") == team.at("teamUuid"));
    CHECK(c.is_open());
    // Errors are answered as over HTTP.
    const auto refused = c.post("/public/utils/whoami", "{}", bearer("not-a-key"));
    check_error(refused, 401, "AUTHENTICATION_ERROR", "/public/utils/whoami", details::none);

    // A client checking for another name refuses the certificate (the client checks what it should).
    CHECK_FALSE(tls_handshake_error(srv.host(), srv.port(), {pki().ca_file, "other.example", false}).empty());
    // SIGTERM with an idle TLS connection open: a clean exit.
    CHECK(srv.stop() == 0);
}

TEST_CASE("tls: a plain HTTP request to the HTTPS port gets no answer of the API", "[http][tls]") {
    test_server srv(tls_args());
    const std::string request =
        "POST /_control/clock/now HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
        "2\r\n\r\n{}";
    const auto start = std::chrono::steady_clock::now();
    const std::string reply = raw_exchange(srv.host(), srv.port(), request, false, 10s);
    INFO(reply);
    CHECK(reply.find("HTTP/1.1") == std::string::npos);
    CHECK(reply.find("now") == std::string::npos);
    // Closed by the server (a TLS alert at most), well before raw_exchange's wait.
    CHECK(std::chrono::steady_clock::now() - start < 8s);
    // And HTTPS still works.
    https_connection c(srv.host(), srv.port(), trusting());
    CHECK(c.post("/_control/clock/now", "{}").status == 200);
}

TEST_CASE("tls: TLS 1.1 is refused", "[http][tls]") {
    test_server srv(tls_args());
    if (!can_offer_tls11()) {
        WARN("this OpenSSL cannot offer TLS 1.1 (built without it): only TLS 1.2+ was tried");
    } else {
        tls_client_settings old = trusting();
        old.tls11_only = true;
        const std::string error = tls_handshake_error(srv.host(), srv.port(), old);
        INFO(error);
        CHECK_FALSE(error.empty());
    }
    https_connection c(srv.host(), srv.port(), trusting());
    CHECK(c.post("/_control/clock/now", "{}").status == 200);
}

TEST_CASE("tls: a client that connects and says nothing is closed after --header-timeout", "[http][tls][timeouts]") {
    test_server srv(tls_args({"--header-timeout", "500"}));
    raw_connection raw(srv.host(), srv.port());
    const auto connected = std::chrono::steady_clock::now();
    REQUIRE(raw.closed_by_peer_within(10s));
    CHECK(std::chrono::steady_clock::now() - connected >= 450ms);
}

TEST_CASE("tls: at --max-connections the longest-idle TLS connection makes room", "[http][tls]") {
    test_server srv(tls_args({"--max-connections", "2"}));
    https_connection first(srv.host(), srv.port(), trusting());
    CHECK(first.post("/_control/clock/now", "{}").status == 200);
    https_connection second(srv.host(), srv.port(), trusting());
    CHECK(second.post("/_control/clock/now", "{}").status == 200);
    // A third: its handshake is served once the first (idle the longest) was closed for it.
    https_connection third(srv.host(), srv.port(), trusting());
    CHECK(third.post("/_control/clock/now", "{}").status == 200);
    CHECK(second.post("/_control/clock/now", "{}").status == 200);
    CHECK_THROWS_AS(first.post("/_control/clock/now", "{}"), boost::system::system_error);
}

TEST_CASE("tls: e-mails' signingUrl use https", "[http][tls][embeds]") {
    test_server srv(tls_args());
    https_connection c(srv.host(), srv.port(), trusting());
    const std::string key(ok(c, "/_control/team/create", {}).at("apiKey").as_string());
    const auto created =
        ok(c, "/_control/envelope/create",
           {{"title", "Lease"}, {"documents", json::array{json::object{{"title", "Main"}, {"pageCount", 1}}}}}, key);
    const std::string env(created.at("envelopeUuid").as_string());
    ok(c, "/public/envelope/add-recipients",
       {{"envelopeUuid", env},
        {"recipients",
         json::array{
             json::object{{"type", "manual"}, {"email", "ada@example.com"}, {"firstname", "Ada"}, {"lastname", "L"}}}}},
       key);
    ok(c, "/public/envelope/send", {{"envelopeUuid", env}}, key);
    const auto outbox = ok(c, "/_control/outbox/list", {}, key);
    REQUIRE(outbox.at("emails").as_array().size() == 1);
    const std::string url(outbox.at("emails").as_array()[0].at("signingUrl").as_string());
    INFO(url);
    CHECK(url.starts_with("https://127.0.0.1:" + std::to_string(srv.port()) + "/embeds/sign#t="));
}

TEST_CASE("tls: --tls-cert and --tls-key go together, readable and matching, else exit 2", "[http][tls][cli]") {
    const auto& p = pki();
    auto run = [](std::vector<std::string> args) {
        args.insert(args.begin(), {"--listen", "127.0.0.1:0"});
        return run_to_exit(args);
    };
    SECTION("only one of the two") {
        for (const auto& args :
             {std::vector<std::string>{"--tls-cert", p.cert_file}, std::vector<std::string>{"--tls-key", p.key_file}}) {
            const auto r = run(args);
            INFO(r.err);
            CHECK(r.status == 2);
            CHECK(r.err.find("--tls-cert and --tls-key go together") != std::string::npos);
        }
    }
    SECTION("an unreadable file") {
        const auto r = run({"--tls-cert", p.dir + "/missing.pem", "--tls-key", p.key_file});
        INFO(r.err);
        CHECK(r.status == 2);
        CHECK(r.err.find("--tls-cert " + p.dir + "/missing.pem: ") != std::string::npos);
        CHECK(r.out.find("listening") == std::string::npos);
        const auto k = run({"--tls-cert", p.cert_file, "--tls-key", p.dir + "/ca.pem"});  // no key in it
        INFO(k.err);
        CHECK(k.status == 2);
        CHECK(k.err.find("--tls-key " + p.dir + "/ca.pem: ") != std::string::npos);
    }
    SECTION("a key that is not the certificate's") {
        const auto r = run({"--tls-cert", p.cert_file, "--tls-key", p.other_key_file});
        INFO(r.err);
        CHECK(r.status == 2);
        CHECK(r.err.find("does not match --tls-cert") != std::string::npos);
    }
}

}  // namespace test_server_tls
