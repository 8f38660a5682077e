// SPDX-License-Identifier: BSL-1.0
// The server's pieces that need no network: the command line, webhook URLs, form encoding,
// the address policy of the sender, HMAC signatures.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "../../examples/reference_server/cli.hpp"
#include "../../examples/reference_server/webhook_url.hpp"
#include "test_support.hpp"

#include <esign/rules/webhook_signature.hpp>
#include <esign/types/absolute_uri.hpp>

namespace test_server_units {

using namespace esign::server;
using esign::rules::hmac_sha256_hex;
using esign::rules::webhook_signature;
using esign::test::temp_file;

namespace {

std::variant<command_line, command_line_error> parse(std::vector<std::string_view> args) {
    return parse_command_line(args);
}

bool refused(std::vector<std::string_view> args) { return std::holds_alternative<command_line_error>(parse(args)); }

bool allowed(const char* address, bool public_only) {
    return may_connect_to(boost::asio::ip::make_address(address), public_only);
}

}  // namespace

TEST_CASE("server cli: defaults and every option", "[server][cli]") {
    auto defaults = std::get<command_line>(parse({}));
    CHECK(defaults.listen.host == "127.0.0.1");
    CHECK(defaults.listen.port == 8080);
    CHECK(defaults.max_body == 1048576);
    CHECK(defaults.effective_threads() >= 1);
    CHECK_FALSE(defaults.strict);
    CHECK_FALSE(defaults.seed);
    CHECK_FALSE(defaults.fixture_file);
    CHECK_FALSE(defaults.self_check);
    CHECK_FALSE(defaults.documentation_base);
    CHECK_FALSE(defaults.control_token);
    CHECK_FALSE(defaults.control_token_file);
    CHECK(defaults.max_teams == 10000);

    auto all = std::get<command_line>(parse({"--listen",
                                             "0.0.0.0:0",
                                             "--threads",
                                             "3",
                                             "--strict",
                                             "--public-webhooks-only",
                                             "--fixture",
                                             "f.json",
                                             "--max-body=10",
                                             "--seed",
                                             "18446744073709551615",
                                             "--webhook-threads",
                                             "4",
                                             "--self-check",
                                             "--verbose",
                                             "--documentation-url=https://docs.test/errors/",
                                             "--header-timeout",
                                             "1",
                                             "--body-timeout=3600000",
                                             "--write-timeout",
                                             "250",
                                             "--control-token-file",
                                             "token.txt",
                                             "--max-teams=0"}));
    CHECK(all.listen.host == "0.0.0.0");
    CHECK(all.listen.port == 0);
    CHECK(all.threads == 3);
    CHECK(all.strict);
    CHECK(all.public_webhooks_only);
    CHECK(all.fixture_file == "f.json");
    CHECK(all.max_body == 10);
    CHECK(all.seed == 18446744073709551615ull);
    CHECK(all.webhook_threads == 4);
    CHECK(all.self_check);
    CHECK(all.verbose);
    CHECK(all.documentation_base == "https://docs.test/errors/");
    CHECK(defaults.header_timeout == std::chrono::seconds(30));
    CHECK(defaults.body_timeout == std::chrono::seconds(60));
    CHECK(defaults.write_timeout == std::chrono::seconds(30));
    CHECK(all.header_timeout == std::chrono::milliseconds(1));
    CHECK(all.body_timeout == std::chrono::hours(1));
    CHECK(all.write_timeout == std::chrono::milliseconds(250));
    CHECK(all.control_token_file == "token.txt");
    CHECK(all.max_teams == 0);
    CHECK(std::get<command_line>(parse({"--max-teams", "1000000"})).max_teams == 1000000);
    CHECK(std::get<command_line>(parse({"--help"})).help);
}

TEST_CASE("server cli: listen addresses", "[server][cli]") {
    auto v6 = parse_listen_address("[::1]:9000");
    REQUIRE(v6);
    CHECK(v6->host == "::1");
    CHECK(v6->port == 9000);
    auto name = parse_listen_address("localhost:65535");
    REQUIRE(name);
    CHECK(name->host == "localhost");
    for (std::string_view bad : {"", "8080", ":8080", "host:", "host:65536", "host:-1", "host:+1", "host:0x10",
                                 "::1:80", "[::1]", "[::1]80", "[]:80", "a b:80", "host:80 "}) {
        INFO(bad);
        CHECK_FALSE(parse_listen_address(bad));
    }
}

TEST_CASE("server cli: refused command lines", "[server][cli]") {
    CHECK(refused({"--nope"}));
    CHECK(refused({"extra"}));
    CHECK(refused({"--threads"}));
    CHECK(refused({"--threads", "0"}));
    CHECK(refused({"--threads", "1025"}));
    CHECK(refused({"--max-body", "1e6"}));
    CHECK(refused({"--max-body", "1073741825"}));
    CHECK(refused({"--seed", "18446744073709551616"}));
    CHECK(refused({"--strict=yes"}));
    CHECK(refused({"--header-timeout", "0"}));
    CHECK(refused({"--body-timeout", "3600001"}));
    CHECK(refused({"--write-timeout", "1.5"}));
    CHECK(refused({"--write-timeout", "-1"}));
    CHECK(refused({"--header-timeout"}));
    CHECK(refused({"--self-check=1"}));
    CHECK(refused({"--fixture", ""}));
    CHECK(refused({"--documentation-url"}));
    CHECK(refused({"--documentation-url", ""}));
    CHECK(refused({"--documentation-url", "https://docs.test/a b"}));
    CHECK(refused({"--documentation-url", "https://docs.test/\x7f"}));
    CHECK(refused({"--documentation-url", "docs/errors#"}));  // not absolute
    CHECK(refused({"--documentation-url", "https://docs.test/" + std::string(2048, 'e')}));
    CHECK(refused({"--control-token-file"}));
    CHECK(refused({"--control-token-file", ""}));
    CHECK(refused({"--control-token", ""}));
    CHECK(refused({"--control-token", "a:b"}));
    CHECK(refused({"--control-token", "a\rb"}));
    CHECK(refused({"--max-teams"}));
    CHECK(refused({"--max-teams", "-1"}));
    CHECK(refused({"--max-teams", "1000001"}));
}

namespace {
std::string message_of(std::vector<std::string_view> args) {
    const auto r = parse(std::move(args));
    const auto* e = std::get_if<command_line_error>(&r);
    return e ? e->message : std::string("(accepted)");
}
}  // namespace

TEST_CASE("server cli: every switch and every file option, by the same rule", "[server][cli]") {
    const std::vector<std::pair<std::string_view, bool command_line::*>> switches = {
        {"--help", &command_line::help},
        {"-h", &command_line::help},
        {"--strict", &command_line::strict},
        {"--public-webhooks-only", &command_line::public_webhooks_only},
        {"--no-control", &command_line::no_control},
        {"--self-check", &command_line::self_check},
        {"--verbose", &command_line::verbose},
        {"-v", &command_line::verbose},
    };
    for (const auto& [name, member] : switches) {
        INFO(name);
        CHECK_FALSE(std::get<command_line>(parse({})).*member);
        CHECK(std::get<command_line>(parse({name})).*member);
        if (name.starts_with("--")) {
            const std::string with_value = std::string(name) + "=1";
            CHECK(message_of({with_value}) == std::string(name) + " takes no value");
        }
    }
    CHECK(message_of({"-v=1"}) == "unknown argument '-v=1'");  // a short switch has no '=' form

    const std::vector<std::pair<std::string_view, std::optional<std::string> command_line::*>> files = {
        {"--fixture", &command_line::fixture_file},  {"--control-token-file", &command_line::control_token_file},
        {"--tls-cert", &command_line::tls_cert},     {"--tls-key", &command_line::tls_key},
        {"--state-file", &command_line::state_file},
    };
    for (const auto& [name, member] : files) {
        INFO(name);
        CHECK(message_of({name}) == std::string(name) + " needs a value");
        CHECK(message_of({name, ""}) == std::string(name) + ": empty file name");
        const std::string inline_empty = std::string(name) + "=";
        CHECK(message_of({inline_empty}) == std::string(name) + ": empty file name");
        // --tls-cert and --tls-key go together: given both, each lands in its own member.
        std::vector<std::string_view> args = {name, "a b.json"};
        if (name == "--tls-cert") args.insert(args.end(), {"--tls-key", "k"});
        if (name == "--tls-key") args.insert(args.end(), {"--tls-cert", "c"});
        const auto cl = std::get<command_line>(parse(args));
        CHECK(cl.*member == "a b.json");
        const std::string inline_value = std::string(name) + "=x=y";
        args[0] = inline_value;
        args.erase(args.begin() + 1);
        CHECK(std::get<command_line>(parse(args)).*member == "x=y");
    }
}

namespace {

// The token control_token_of() picks, or the start's error message.
std::variant<std::optional<std::string>, command_line_error> token_of(std::vector<std::string_view> args,
                                                                      const char* environment = nullptr) {
    return control_token_of(std::get<command_line>(parse(std::move(args))), environment);
}

std::string error_of(const std::variant<std::optional<std::string>, command_line_error>& r) {
    const auto* e = std::get_if<command_line_error>(&r);
    return e ? e->message : std::string();
}
}  // namespace

TEST_CASE("server cli: the control token from one of its three sources", "[server][cli]") {
    using token = std::optional<std::string>;
    CHECK(std::get<token>(token_of({})) == std::nullopt);
    CHECK(std::get<token>(token_of({}, "")) == std::nullopt);  // set but empty: as not set
    CHECK(std::get<token>(token_of({"--control-token", "t1"})) == "t1");
    CHECK(std::get<token>(token_of({}, "t2")) == "t2");
    temp_file file("t3\n");
    CHECK(std::get<token>(token_of({"--control-token-file", file.path})) == "t3");
    temp_file no_newline("t4");
    CHECK(std::get<token>(token_of({"--control-token-file", no_newline.path})) == "t4");

    // More than one source, whichever two.
    CHECK(error_of(token_of({"--control-token", "t1"}, "t2")).find("more than one") != std::string::npos);
    CHECK(error_of(token_of({"--control-token-file", file.path}, "t2")).find("more than one") != std::string::npos);
    CHECK(error_of(token_of({"--control-token", "t1", "--control-token-file", file.path})).find("more than one") !=
          std::string::npos);
    // A file that cannot be read, or whose token is empty or unusable.
    CHECK(error_of(token_of({"--control-token-file", file.path + ".absent"})).find("cannot open") != std::string::npos);
    for (const char* content : {"", "\n", "\n\n", "a b\n", "a:b", "t5\r\n", "t6\n\n"}) {
        INFO(content);
        temp_file bad(content);
        const auto error = error_of(token_of({"--control-token-file", bad.path}));
        CHECK(error.find("--control-token-file " + bad.path) == 0);
    }
    CHECK_FALSE(error_of(token_of({}, "a b")).empty());
}

TEST_CASE("server cli: ESIGN_SELF_CHECK turns the self-check on", "[server][cli]") {
    CHECK_FALSE(self_check_from_environment(nullptr));  // not set
    CHECK_FALSE(self_check_from_environment(""));
    CHECK_FALSE(self_check_from_environment("0"));
    CHECK(self_check_from_environment("1"));
    CHECK(self_check_from_environment("yes"));
}

TEST_CASE("webhook urls", "[server][webhooks]") {
    auto u = parse_webhook_url("http://127.0.0.1:8081/hook?a=b#frag");
    REQUIRE(u);
    CHECK_FALSE(u->tls);
    CHECK(u->host == "127.0.0.1");
    CHECK(u->port == "8081");
    CHECK(u->host_header == "127.0.0.1:8081");
    CHECK(u->target == "/hook?a=b");
    CHECK(u->host_is_ip);

    auto s = parse_webhook_url("HTTPS://Hooks.Example.com");
    REQUIRE(s);
    CHECK(s->tls);
    CHECK(s->port == "443");
    CHECK(s->host_header == "hooks.example.com");
    CHECK(s->target == "/");
    CHECK_FALSE(s->host_is_ip);

    auto v6 = parse_webhook_url("http://[::1]:9/x");
    REQUIRE(v6);
    CHECK(v6->host == "::1");
    CHECK(v6->host_header == "[::1]:9");

    auto q = parse_webhook_url("http://example.com?x=1");
    REQUIRE(q);
    CHECK(q->target == "/?x=1");

    for (std::string_view bad :
         {"ftp://example.com/", "example.com/hook", "http://", "http://user@example.com/", "http://example.com:0/",
          "http://example.com:65536/", "http://example.com:80a/", "http://[::1/", "http://[zz]/",
          "http://exa mple.com/", "http://example.com/a b", "http://example.com/\r\nX: y",
          // contract.md §6.7: the one grammar (esign::parse_uri) decides, as the type does
          "http://example.com:99999/", "http://:80/", "http://[fe80::1%25eth0]/", "http://[1:2]/", "http://[v1.x]/",
          "HTTP://user:pw@Example.COM/", "http://@example.com/", "http:no-authority", "http://%00evil.example.com/",
          "http://exa%20mple.com/"}) {
        INFO(bad);
        CHECK_FALSE(parse_webhook_url(bad));
        if (esign::absolute_uri::matches(bad)) CHECK(esign::rules::is_refused_webhook_url(bad, false));
    }
}

TEST_CASE("webhook urls: the sender reads what the type and the rule read", "[server][webhooks]") {
    auto mixed = parse_webhook_url("HTTP://Example.COM/x?y#z");
    REQUIRE(mixed);
    CHECK_FALSE(mixed->tls);
    CHECK(mixed->host == "example.com");
    CHECK(mixed->port == "80");
    CHECK(mixed->host_header == "example.com");
    CHECK(mixed->target == "/x?y");

    auto zeros = parse_webhook_url("https://example.com:0443");
    REQUIRE(zeros);
    CHECK(zeros->port == "443");
    CHECK(zeros->host_header == "example.com");

    auto empty_port = parse_webhook_url("http://example.com:/a");
    REQUIRE(empty_port);
    CHECK(empty_port->port == "80");

    auto encoded = parse_webhook_url("http://%31%36%39.254.169.254:8080/");
    REQUIRE(encoded);
    CHECK(encoded->host == "169.254.169.254");  // what a resolver would see, and the rule does
    CHECK(encoded->host_is_ip);
    CHECK(esign::rules::is_refused_webhook_url("http://%31%36%39.254.169.254:8080/", false));

    auto hex = parse_webhook_url("http://0xa9fea9fe/");
    REQUIRE(hex);
    CHECK(hex->host_is_ip);

    // IPv4 in IPv6 clothing: the literals parse (they are URLs), the rule refuses them at create,
    // and the sender will not connect to the address they name.
    for (std::string_view url :
         {"http://[::169.254.169.254]/", "http://[64:ff9b::169.254.169.254]/", "http://[2002:a9fe:a9fe::1]/",
          "http://[::ffff:0:169.254.169.254]/", "http://[::ffff:169.254.169.254]/"}) {
        INFO(url);
        auto u = parse_webhook_url(url);
        REQUIRE(u);
        CHECK(u->host_is_ip);
        CHECK(u->host_header == "[" + u->host + "]");
        CHECK(esign::rules::is_refused_webhook_url(url, false));
        for (bool public_only : {false, true})
            CHECK_FALSE(may_connect_to(boost::asio::ip::make_address(u->host), public_only));
    }

    // The length limit is the type's (2048); the sender takes what was stored.
    const std::string base = "https://example.com/";
    const std::string longest = base + std::string(2048 - base.size(), 'a');
    CHECK(esign::absolute_uri::matches(longest));
    CHECK_FALSE(esign::absolute_uri::matches(longest + "a"));
    REQUIRE(parse_webhook_url(longest));
    CHECK(parse_webhook_url(longest)->target.size() == 2048 - base.size() + 1);
}

TEST_CASE("webhook form encoding", "[server][webhooks]") {
    CHECK(form_urlencode(R"({"a":"b c&d=é"})") == "%7B%22a%22%3A%22b+c%26d%3D%C3%A9%22%7D");
    CHECK(form_urlencode("AZaz09*-._~") == "AZaz09*-._%7E");
}

TEST_CASE("webhook target addresses", "[server][webhooks]") {
    for (bool public_only : {false, true}) {
        CHECK_FALSE(allowed("169.254.169.254", public_only));
        CHECK_FALSE(allowed("::ffff:169.254.169.254", public_only));
        CHECK_FALSE(allowed("fe80::1", public_only));
        CHECK(allowed("93.184.216.34", public_only));
        CHECK(allowed("2606:2800:220:1:248:1893:25c8:1946", public_only));
        // IPv4 embedded in IPv6 (contract.md §6.7), the metadata range in every form
        for (const char* a : {"::169.254.169.254", "::ffff:0:169.254.169.254", "64:ff9b::169.254.169.254",
                              "2002:a9fe:a9fe::1", "2002:a9fe:1::"}) {
            INFO(a);
            CHECK_FALSE(allowed(a, public_only));
        }
        for (const char* a :
             {"::93.184.216.34", "::ffff:0:93.184.216.34", "64:ff9b::93.184.216.34", "2002:5db8:d822::1"}) {
            INFO(a);
            CHECK(allowed(a, public_only));
        }
    }
    for (const char* a :
         {"::127.0.0.1", "::ffff:0:10.0.0.1", "64:ff9b::192.168.1.1", "2002:7f00:1::", "2002:ac10::1"}) {
        INFO(a);
        CHECK(allowed(a, false));
        CHECK_FALSE(allowed(a, true));
    }
    for (const char* a : {"127.0.0.1", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "100.64.0.1",
                          "0.0.0.0", "::1", "::", "fd00::1", "::ffff:127.0.0.1", "224.0.0.1"}) {
        INFO(a);
        CHECK(allowed(a, false));
        CHECK_FALSE(allowed(a, true));
    }
    CHECK(allowed("172.32.0.1", true));
}

TEST_CASE("webhook signatures: HMAC-SHA256", "[server][webhooks]") {
    // RFC 4231, test case 2.
    CHECK(hmac_sha256_hex("Jefe", "what do ya want for nothing?") ==
          "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    const auto sig = webhook_signature("secret", 1700000000123, "{}");
    CHECK(sig == "t=1700000000123,v1=" + hmac_sha256_hex("secret", "t:1700000000123:{}"));
    CHECK(hmac_sha256_hex("", "x").size() == 64);
}

}  // namespace test_server_units
