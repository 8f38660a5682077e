// SPDX-License-Identifier: BSL-1.0
// The typed C++ client (include/esign/client/, issue 38) against the real server: every row of
// the operation table with both credential forms, error bodies decoded, requests with problems
// refused before sending, answers that break the model, retries, timeouts, HTTPS against the
// server's --tls-cert. (The asynchronous forms and threads: test_client_threads.cpp.)
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/describe/enumerators.hpp>
#include <boost/json.hpp>
#include <boost/mp11/algorithm.hpp>
#include <fmt/core.h>

#include <esign/client/client.hpp>
#include <esign/rules/error_codes.hpp>

#include "client_support.hpp"
#include "test_support.hpp"

namespace test_client {

using namespace esign::test;
using namespace std::chrono_literals;
namespace ec = esign::client;
namespace asio = boost::asio;

namespace {

ec::credentials credentials_of(const esign::control_team_create_response& t, bool proxy_form) {
    return proxy_form ? ec::credentials::access_key(t.accessKey, t.secretKey) : ec::credentials::api_key(t.apiKey);
}

// ---- every row through the client: a script of requests as JSON, decoded with the row's type --

using captures = std::vector<std::pair<std::string, std::string>>;  // name → JSON pointer

struct step {
    char who;          // 'T': the team's client; 'O': no credentials (the operator, the signer's page)
    std::string path;  // the row
    std::string body;  // the request as JSON, with {NAME} placeholders
    captures capture;
    std::string code;  // an error code expected instead of a success
};

const std::string sam = R"({"type":"manual","email":"sam@client.example.com","firstname":"Sam","lastname":"Signer"})";
const std::string vic = R"({"type":"manual","email":"vic@client.example.com","firstname":"Vic","lastname":"Verified",)"
                        R"("phone":"+1 555 0100","verificationType":"email"})";

std::vector<step> script() {
    return {
        {'T', "/_control/team/update", R"({"apiCredits":50})", {}, {}},
        {'T',
         "/_control/envelope/create",
         R"({"title":"Deal","documents":[{"title":"deal.pdf","pageCount":2}],"attachments":[{"title":"annex.pdf"}]})",
         {{"ENV", "/envelopeUuid"}, {"DOC", "/documentUuids/0"}, {"ATT", "/attachmentUuids/0"}},
         {}},
        {'T',
         "/_control/envelope/create",
         R"({"title":"Approval","documents":[{"title":"a.pdf","pageCount":1}]})",
         {{"ENV1", "/envelopeUuid"}},
         {}},
        {'T',
         "/_control/template/create",
         R"({"title":"NDA","recipientLabels":["Client","Company"],"documents":[{"title":"nda.pdf","pageCount":1}]})",
         {{"TPL", "/templateUuid"}},
         {}},
        {'T', "/public/workspace/create", R"({"name":"Trials","colorHex":"#abc"})", {{"WS2", "/workspace/uuid"}}, {}},
        {'T', "/public/workspace/update", R"({"workspaceUuid":"{WS2}","sandbox":true})", {}, {}},
        {'T', "/public/workspace/list", "{}", {}, {}},
        {'T', "/public/workspace/get", R"({"workspaceUuid":"{WS2}"})", {}, {}},
        {'T',
         "/public/contact/create",
         R"({"contacts":[{"email":"bob@client.example.com","firstname":"Bob","lastname":"Durand"}]})",
         {},
         {}},
        {'T',
         "/public/contact/update",
         R"({"contact":{"email":"bob@client.example.com","firstname":"Robert","lastname":"Durand","phone":null}})",
         {},
         {}},
        {'T', "/public/contact/list", "{}", {}, {}},
        {'T',
         "/public/webhook/create",
         R"({"url":"http://127.0.0.1:9/hook","contentType":"application/json","sslVerify":false,"active":false})",
         {{"HOOK", "/webhook/uuid"}},
         {}},
        {'T', "/public/webhook/update", R"({"uuid":"{HOOK}","title":"Audit","events":["ENVELOPE_SENT"]})", {}, {}},
        {'T', "/public/webhook/list", "{}", {}, {}},
        {'T',
         "/public/envelope/add-recipients",
         R"({"envelopeUuid":"{ENV}","recipients":[)" + sam + "," + vic + "]}",
         {},
         {}},
        {'T',
         "/public/envelope/add-recipients",
         R"({"envelopeUuid":"{ENV1}","recipients":[{"type":"manual","email":"ann@client.example.com","firstname":"Ann","lastname":"Approver"}]})",
         {},
         {}},
        {'T',
         "/public/envelope/update-recipient",
         R"({"envelopeUuid":"{ENV1}","email":"ann@client.example.com","role":"signer","updates":{"role":"approver"}})",
         {},
         {}},
        {'T',
         "/public/envelope/add-blocks",
         R"({"envelopeUuid":"{ENV}","documentUuid":"{DOC}","blocks":[{"page":"1","x":10,"y":20,"type":"text",)"
         R"("text":"Name","recipientEmail":"sam@client.example.com"},{"page":"02","x":1,"y":2,"type":"text","text":"Date"}]})",
         {},
         {}},
        {'T', "/public/envelope/get", R"({"envelopeUuid":"{ENV}"})", {{"BLOCK", "/documents/0/blocks/2/0/uuid"}}, {}},
        {'T',
         "/public/envelope/delete-blocks",
         R"({"envelopeUuid":"{ENV}","documentUuid":"{DOC}","blockUuids":["{BLOCK}"]})",
         {},
         {}},
        {'T', "/public/envelope/update", R"({"envelopeUuid":"{ENV}","update":{"title":"Deal 2026"}})", {}, {}},
        {'T', "/public/envelope/list", "{}", {}, {}},
        {'T',
         "/public/envelope/create-from-template",
         R"({"templateUuid":"{TPL}","recipients":[{"type":"manual","label":"Company","email":"co@acme.example.com",)"
         R"("firstname":"Co","lastname":"Pany"},{"type":"manual","label":"Client","email":"cl@client.example.com",)"
         R"("firstname":"Cli","lastname":"Ent"}]})",
         {{"ENV2", "/envelopeUuid"}},
         {}},
        {'T',
         "/public/envelope/delete-recipients",
         R"({"envelopeUuid":"{ENV2}","recipients":[{"email":"co@acme.example.com"}]})",
         {},
         {}},
        {'T', "/public/template/list", "{}", {}, {}},
        {'T', "/public/logs/list", R"({"category":"team"})", {}, {}},
        {'T', "/public/utils/whoami", "{}", {}, {}},
        {'T', "/public/envelope/delete-attachment", R"({"envelopeUuid":"{ENV}","documentUuid":"{ATT}"})", {}, {}},
        {'T', "/public/envelope/send", R"({"envelopeUuid":"{ENV1}"})", {}, "NO_SIGNERS"},
        {'T', "/public/envelope/send", R"({"envelopeUuid":"{ENV}"})", {}, {}},
        {'T',
         "/public/authentication/create-iframe-token",
         R"({"envelopeUuid":"{ENV}","signerEmail":"vic@client.example.com"})",
         {{"TOKEN", "/iframeToken"}},
         {}},
        {'O', "/embeds/session/start", R"({"token":"{TOKEN}"})", {{"SESSION", "/session"}}, {}},
        {'O', "/embeds/session/start", R"({"token":"{TOKEN}"})", {}, "SIGNING_TOKEN_USED"},
        {'O', "/embeds/envelope/get", R"({"session":"{SESSION}"})", {}, {}},
        {'O', "/embeds/recipient/act", R"({"session":"{SESSION}","action":"open"})", {}, {}},
        {'T',
         "/_control/recipient/act",
         R"({"envelopeUuid":"{ENV}","email":"sam@client.example.com","action":"sign"})",
         {},
         {}},
        {'T', "/_control/envelope/cancel", R"({"envelopeUuid":"{ENV1}","reason":"not needed"})", {}, {}},
        {'T', "/_control/clock/advance", R"({"milliseconds":1000})", {}, {}},
        {'T', "/_control/clock/now", "{}", {}, {}},
        {'T', "/_control/outbox/list", "{}", {}, {}},
        {'T', "/_control/webhook/deliveries", "{}", {}, {}},
        {'T',
         "/_control/faults/add",
         R"({"operation":"/public/workspace/list","action":"error","error":"SES_LIMIT_EXCEEDED"})",
         {},
         {}},
        {'T', "/_control/faults/list", "{}", {}, {}},
        {'T', "/public/workspace/list", "{}", {}, "SES_LIMIT_EXCEEDED"},
        {'T', "/_control/faults/clear", "{}", {}, {}},
        {'T', "/_control/journal/list", R"({"limit":1})", {}, {}},
        {'T', "/_control/journal/clear", "{}", {}, {}},
        {'T', "/_control/team/snapshot", "{}", {{"SNAPSHOT", "/team"}}, {}},
        {'T', "/_control/team/restore", R"({"team":{SNAPSHOT}})", {}, {}},
        {'T', "/public/contact/delete", R"({"emails":["bob@client.example.com"]})", {}, {}},
        {'T', "/public/webhook/delete", R"({"uuid":"{HOOK}"})", {}, {}},
        {'T', "/_control/team/reset", "{}", {}, {}},
        {'O', "/_control/reset", "{}", {}, {}},
    };
}

// What one call gave, the same for every row (the assertions stay out of the per-row code).
struct outcome {
    bool known = false;  // the path is a row
    bool decoded = false;
    std::string failure;  // describe() of the error, empty for a success
    std::string code;     // the server's error code
    unsigned status = 0;  // its HTTP status
    boost::json::value response;
};

outcome call_row(ec::client& c, const std::string& path, const std::string& body) {
    outcome out;
    out.known = esign::visit_operation(path, [&](const auto& row) {
        auto request = esign::json::read<typename std::remove_cvref_t<decltype(row)>::request_type>(body);
        if (!request) return;
        out.decoded = true;
        auto r = c.call(row, *request);
        if (r) {
            out.response = esign::json::encode(*r);
            return;
        }
        out.failure = ec::describe(r.error());
        if (auto* e = r.template error_if<ec::server_error>()) {
            out.code = std::string(esign::enum_to_wire(e->body.error.code));
            out.status = e->http_status;
        }
    });
    return out;
}

std::string expand(std::string text, const std::map<std::string, std::string>& vars) {
    for (const auto& [name, value] : vars) {
        const std::string key = "{" + name + "}";
        for (auto at = text.find(key); at != std::string::npos; at = text.find(key, at + value.size()))
            text.replace(at, key.size(), value);
    }
    return text;
}

// ---- a tiny server of canned answers (for answers the reference server never gives) -----------

std::string answer(unsigned status, const std::string& body, const std::string& extra_headers = {}) {
    return "HTTP/1.1 " + std::to_string(status) +
           " X\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
           "\r\nConnection: close\r\n" + extra_headers + "\r\n" + body;
}

// Answers one connection after another with the given answers, each after reading a request
// (over TLS when given a certificate and key: a connection whose handshake fails uses up its
// answer); gives up waiting for a connection after 10 s.
class canned_server {
public:
    explicit canned_server(std::vector<std::string> answers, const std::string& cert = {}, const std::string& key = {})
        : acceptor_(io_, {asio::ip::make_address("127.0.0.1"), 0}) {
        if (!cert.empty()) {
            tls_.emplace(asio::ssl::context::tls_server);
            tls_->use_certificate_chain_file(cert);
            tls_->use_private_key_file(key, asio::ssl::context::pem);
        }
        acceptor_.non_blocking(true);
        thread_ = std::thread([this, answers = std::move(answers)] {
            for (const auto& a : answers) {
                boost::system::error_code error;
                asio::ip::tcp::socket socket(io_);
                const auto give_up = std::chrono::steady_clock::now() + 10s;
                do {
                    acceptor_.accept(socket, error);
                    if (error == asio::error::would_block) std::this_thread::sleep_for(2ms);  // a bounded poll
                } while (error == asio::error::would_block && std::chrono::steady_clock::now() < give_up);
                if (error) return;
                socket.non_blocking(false);
                if (tls_) {
                    asio::ssl::stream<asio::ip::tcp::socket&> stream(socket, *tls_);
                    stream.handshake(asio::ssl::stream_base::server, error);
                    if (!error) serve(stream, a);
                } else {
                    serve(socket, a);
                }
                socket.shutdown(asio::ip::tcp::socket::shutdown_both, error);
            }
        });
    }
    ~canned_server() { thread_.join(); }
    std::string url(const std::string& host = "127.0.0.1") const {
        return (tls_ ? "https://" : "http://") + host + ":" + std::to_string(acceptor_.local_endpoint().port());
    }

    std::atomic<int> served{0};

private:
    template <class Stream>
    void serve(Stream& stream, const std::string& answer) {
        boost::system::error_code error;
        boost::beast::flat_buffer buffer;
        boost::beast::http::request<boost::beast::http::string_body> request;
        boost::beast::http::read(stream, buffer, request, error);
        if (error) return;
        ++served;
        asio::write(stream, asio::buffer(answer), error);
    }

    asio::io_context io_;
    asio::ip::tcp::acceptor acceptor_;
    std::optional<asio::ssl::context> tls_;
    std::thread thread_;
};

// A listener that never accepts, with its accept queue full: Linux then drops further SYNs,
// so a new connection neither completes nor is refused (a connect timeout, with no blackholed
// address needed). `listen(0)` queues one connection; the queue is filled until a connection
// does not complete within 200 ms. (Plain descriptors: Asio's connect waits for completion even
// on a non-blocking socket.)
class unaccepting_listener {
public:
    unaccepting_listener() : acceptor_(io_) {
        acceptor_.open(asio::ip::tcp::v4());
        acceptor_.bind({asio::ip::make_address("127.0.0.1"), 0});
        acceptor_.listen(0);
        sockaddr_in to{};
        to.sin_family = AF_INET;
        to.sin_port = htons(acceptor_.local_endpoint().port());
        to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        for (int i = 0; i < 16 && !full_; ++i) {
            const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
            REQUIRE(fd >= 0);
            fillers_.push_back(fd);
            if (::connect(fd, reinterpret_cast<const sockaddr*>(&to), sizeof to) == 0) continue;  // queued
            REQUIRE(errno == EINPROGRESS);
            pollfd p{fd, POLLOUT, 0};
            full_ = ::poll(&p, 1, 200) == 0;  // still waiting: its SYN was dropped
        }
        REQUIRE(full_);
    }
    ~unaccepting_listener() {
        for (const int fd : fillers_) ::close(fd);
    }
    unaccepting_listener(const unaccepting_listener&) = delete;
    unaccepting_listener& operator=(const unaccepting_listener&) = delete;
    std::string url() const { return "http://127.0.0.1:" + std::to_string(acceptor_.local_endpoint().port()); }

private:
    asio::io_context io_;
    asio::ip::tcp::acceptor acceptor_;
    std::vector<int> fillers_;
    bool full_ = false;
};

// A throw-away self-signed certificate (its own CA) for `names` (a subjectAltName list).
struct certificate {
    temp_file cert{""};
    temp_file key{""};
    explicit certificate(const std::string& names) {
        const std::string command =
            "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 "
            "-subj /CN=esign-test -addext subjectAltName=" +
            names + " -keyout " + key.path + " -out " + cert.path + " 2>/dev/null";
        REQUIRE(std::system(command.c_str()) == 0);
    }
};

std::vector<unsigned> statuses(const std::vector<ec::attempt>& attempts) {
    std::vector<unsigned> out;
    for (const auto& a : attempts) out.push_back(a.http_status);
    return out;
}

}  // namespace

namespace {
// Each error code the row at `path` may answer (its own and the common ones), made by a fault
// rule of the team (contract.md §6.5), comes back decoded as that code with its HTTP status. The
// rule covers every attempt the client makes (a read-only row retries a 500), then is cleared.
void every_code_through_a_fault(ec::client& team, const std::string& path, const std::string& body) {
    std::size_t codes = 0;
    boost::mp11::mp_for_each<boost::describe::describe_enumerators<esign::error_code>>([&](auto e) {
        if (!esign::operation_may_answer(path, e.value)) return;
        ++codes;
        const std::string code(esign::enum_to_wire(e.value));
        INFO(path << " answering " << code << " by a fault rule");
        const auto added =
            call_row(team, "/_control/faults/add",
                     R"({"operation":")" + path + R"(","action":"error","times":3,"error":")" + code + R"("})");
        REQUIRE(added.failure.empty());
        const auto got = call_row(team, path, body);
        CHECK(got.code == code);
        CHECK(got.status == esign::rules::http_status(e.value));
        REQUIRE(call_row(team, "/_control/faults/clear", "{}").failure.empty());
    });
    CHECK(codes >= 3);  // the common codes at least
}

// The script of every row through clients of `url` made with `options`, with the API key and with
// ACCESS:SECRET: each row's answer decoded with its type, each row called. With `faults`, every
// error code of each /public/ row too (every_code_through_a_fault), with the API key.
void call_every_row(const std::string& url, const ec::client_options& options, bool faults) {
    ec::client op(url, {}, options);
    const auto steps = script();
    for (const bool proxy_form : {false, true}) {
        INFO((proxy_form ? "Bearer ACCESS:SECRET" : "Bearer API_KEY"));
        const auto t = new_team(op);
        ec::client team(url, credentials_of(t, proxy_form), options);
        std::set<std::string> called{"/_control/team/create"};  // new_team, through the client
        std::map<std::string, std::string> vars;
        for (const auto& s : steps) {
            const auto body = expand(s.body, vars);
            INFO(s.path << " " << body);
            if (faults && !proxy_form && s.who == 'T' && s.code.empty() && s.path.starts_with("/public/"))
                every_code_through_a_fault(team, s.path, body);
            const auto got = call_row(s.who == 'T' ? team : op, s.path, body);
            REQUIRE(got.known);
            REQUIRE(got.decoded);
            INFO(got.failure);
            if (!s.code.empty()) {
                CHECK(got.code == s.code);
                continue;
            }
            REQUIRE(got.failure.empty());
            called.insert(s.path);
            for (const auto& [name, pointer] : s.capture) {
                const auto v = at(got.response, pointer);
                REQUIRE(!v.is_null());
                vars[name] = v.is_string() ? std::string(v.as_string()) : boost::json::serialize(v);
            }
        }
        CHECK(called == std::set<std::string>(esign::operation_paths.begin(), esign::operation_paths.end()));
    }
}
}  // namespace

TEST_CASE("client: every operation of the table, with the API key and with ACCESS:SECRET, and every error code of each",
          "[http][client]") {
    test_server srv;
    call_every_row(base_url(srv), quick(), true);
}

TEST_CASE("client: every operation over HTTPS against the server's --tls-cert", "[http][client][tls]") {
    certificate mine("IP:127.0.0.1,DNS:localhost");
    test_server srv({"--tls-cert", mine.cert.path, "--tls-key", mine.key.path});
    const std::string port = std::to_string(srv.port());
    auto trusting = quick();
    trusting.ca_file = mine.cert.path;
    call_every_row("https://" + srv.host() + ":" + port, trusting, false);

    // By name too; a certificate the client cannot trust (the system's trust store, another CA
    // file) is refused before anything is sent.
    ec::client by_name("https://localhost:" + port, {}, trusting);
    const auto t = new_team(by_name);
    CHECK_FALSE(t.apiKey.empty());
    const auto refused = [&](const std::string& url, const ec::client_options& options) {
        ec::client c(url, ec::credentials::api_key(t.apiKey), options);
        auto r = c.call(esign::utils_whoami_request{});
        const auto* e = r.error_if<ec::transport_error>();
        REQUIRE(e);
        CHECK(e->what == ec::transport_error::kind::tls);
        CHECK_FALSE(e->sent);
    };
    auto untrusting = quick(1);
    refused("https://localhost:" + port, untrusting);
    certificate other("DNS:other.example");
    auto wrong_ca = quick(1);
    wrong_ca.ca_file = other.cert.path;
    refused("https://localhost:" + port, wrong_ca);
}

TEST_CASE("client: the server's errors come back decoded, with their details and request ids", "[http][client]") {
    test_server srv;
    ec::client op(base_url(srv), {}, quick());
    const auto t = new_team(op);
    const auto other = new_team(op);
    ec::client team(base_url(srv), ec::credentials::api_key(t.apiKey), quick());

    esign::envelope_get_request get;
    get.envelopeUuid = "0b5c2a1e-9a7e-4c5b-8a3d-2f6e1d4c3b2a";
    auto missing = team.call(get);
    const auto* e = missing.error_if<ec::server_error>();
    REQUIRE(e);
    CHECK(e->http_status == 400);
    CHECK(e->body.error.code == esign::error_code::ENVELOPE_NOT_FOUND);
    CHECK(!e->body.error.message.empty());
    CHECK(is_lowercase_uuid(e->body.requestId));
    CHECK(is_iso8601_ms(e->body.timestamp));
    REQUIRE(missing.attempts().size() == 1);
    CHECK(missing.attempts()[0].request_id == e->body.requestId);

    // A rule only the server knows (another team's uuid): INVALID_REQUEST_FORMAT at its path.
    esign::control_team_update_request update;
    update.teamUuid = other.teamUuid;
    auto refused = team.call(update);
    e = refused.error_if<ec::server_error>();
    REQUIRE(e);
    CHECK(e->body.error.code == esign::error_code::INVALID_REQUEST_FORMAT);
    REQUIRE(e->body.error.details);
    REQUIRE(e->body.error.details->size() == 1);
    CHECK(e->body.error.details->front().path == std::vector<std::string>{"teamUuid"});

    // A wrong secret in the proxy's form: 401.
    ec::client wrong(base_url(srv), ec::credentials::access_key(t.accessKey, t.secretKey + "x"), quick());
    auto denied = wrong.call(esign::utils_whoami_request{});
    e = denied.error_if<ec::server_error>();
    REQUIRE(e);
    CHECK(e->http_status == 401);
    CHECK(e->body.error.code == esign::error_code::AUTHENTICATION_ERROR);
}

// The example of README.md, "Calling the service from C++": one envelope's title and status, or
// why not.
std::string envelope_line(const std::string& base_url, const std::string& key, const std::string& uuid) {
    // README snippet: client
    namespace ec = esign::client;
    ec::client api(base_url, ec::credentials::api_key(key));  // or credentials::access_key(access, secret)
    esign::envelope_get_request get;
    get.envelopeUuid = uuid;
    auto r = api.call(get);  // call_result<esign::envelope_get_response>
    if (r) return fmt::format("{}: {}", r->title, esign::enum_to_wire(r->status));
    if (const auto* e = r.error_if<ec::server_error>())  // the server's error body
        return fmt::format("{} {}", esign::enum_to_wire(e->body.error.code), e->body.error.message);
    return ec::describe(r.error());  // request_error (nothing sent), transport_error, response_error
    // README snippet end
}

TEST_CASE("client: the README's example", "[http][client]") {
    test_server srv;
    ec::client op(base_url(srv), {}, quick());
    const auto t = new_team(op);
    api_caller team{srv, t.apiKey};
    const std::string uuid(team.ok("/_control/envelope/create",
                                   boost::json::parse(R"({"title":"Lease","documents":[{"title":"d","pageCount":1}]})"))
                               .at("envelopeUuid")
                               .as_string());
    CHECK(envelope_line(base_url(srv), t.apiKey, uuid) == "Lease: draft");
    CHECK(envelope_line(base_url(srv), t.apiKey, "0b5c2a1e-9a7e-4c5b-8a3d-2f6e1d4c3b2a")
              .starts_with("ENVELOPE_NOT_FOUND "));
    CHECK(envelope_line(base_url(srv), t.apiKey, "not-a-uuid").find("envelopeUuid") != std::string::npos);
}

TEST_CASE("client: a request with problems is refused before any byte is sent", "[http][client]") {
    test_server srv;
    ec::client op(base_url(srv), {}, quick());
    const auto t = new_team(op);
    ec::client team(base_url(srv), ec::credentials::api_key(t.apiKey), quick());

    esign::envelope_get_request get;
    get.envelopeUuid = "short";
    auto r = team.call(get);
    const auto* e = r.error_if<ec::request_error>();
    REQUIRE(e);
    REQUIRE(e->problems.size() == 1);
    CHECK(e->problems[0].path == esign::problem_path{"envelopeUuid"});
    CHECK(r.attempts().empty());
    CHECK(team.idle_connections() == 0);  // not even a connection was made

    auto journal = team.call(esign::control_journal_list_request{});
    REQUIRE(journal);
    CHECK(journal->entries.empty());
}

TEST_CASE("client: an answer that breaks the model is reported with its path", "[http][client]") {
    canned_server bad({answer(200, R"({"teamUuid":5,"teamName":"A","ownerEmail":"a@b.example","ownerUuid":"u"})"),
                       answer(502, "<html>bad gateway</html>")});
    ec::client c(bad.url(), ec::credentials::api_key("k"), quick(1));
    auto r = c.call(esign::utils_whoami_request{});
    const auto* e = r.error_if<ec::response_error>();
    REQUIRE(e);
    CHECK(e->http_status == 200);
    REQUIRE(!e->problems.empty());
    CHECK(e->problems[0].path == esign::problem_path{"teamUuid"});
    CHECK(e->problems[0].kind == esign::problem_kind::type);

    auto gateway = c.call(esign::workspace_list_request{});  // not an error body either
    e = gateway.error_if<ec::response_error>();
    REQUIRE(e);
    CHECK(e->http_status == 502);
    CHECK(e->body == "<html>bad gateway</html>");
}

TEST_CASE("client: HTTPS checks the certificate and the host name", "[http][client]") {
    const std::string whoami = R"({"teamUuid":"t","teamName":"A","ownerEmail":"a@b.example","ownerUuid":"u"})";
    certificate mine("IP:127.0.0.1,DNS:localhost");
    certificate elsewhere("DNS:other.example");
    auto options = quick(1);
    options.ca_file = mine.cert.path;

    SECTION("the CA file given: accepted, by address and by name") {
        canned_server srv({answer(200, whoami), answer(200, whoami)}, mine.cert.path, mine.key.path);
        ec::client by_address(srv.url(), ec::credentials::api_key("k"), options);
        auto r = by_address.call(esign::utils_whoami_request{});
        INFO((r ? std::string("ok") : ec::describe(r.error())));
        CHECK(r);
        ec::client by_name(srv.url("localhost"), ec::credentials::api_key("k"), options);
        auto n = by_name.call(esign::utils_whoami_request{});
        INFO((n ? std::string("ok") : ec::describe(n.error())));
        CHECK(n);
        CHECK(srv.served == 2);
    }
    SECTION("an unknown CA (the system's trust store): refused, nothing sent") {
        canned_server srv({answer(200, whoami)}, mine.cert.path, mine.key.path);
        ec::client c(srv.url(), ec::credentials::api_key("k"), quick());
        auto r = c.call(esign::utils_whoami_request{});
        const auto* e = r.error_if<ec::transport_error>();
        REQUIRE(e);
        CHECK(e->what == ec::transport_error::kind::tls);
        CHECK_FALSE(e->sent);
        CHECK(r.attempts().size() == 1);  // a certificate that fails fails again: not retried
        CHECK(srv.served == 0);
    }
    SECTION("a certificate for another name: refused") {
        canned_server srv({answer(200, whoami)}, elsewhere.cert.path, elsewhere.key.path);
        auto other = options;
        other.ca_file = elsewhere.cert.path;
        ec::client c(srv.url("localhost"), ec::credentials::api_key("k"), other);
        auto r = c.call(esign::utils_whoami_request{});
        const auto* e = r.error_if<ec::transport_error>();
        REQUIRE(e);
        CHECK(e->what == ec::transport_error::kind::tls);
        CHECK(srv.served == 0);
    }
}

TEST_CASE("client: Retry-After replaces the backoff", "[http][client]") {
    const std::string busy = R"({"statusCode":503,"error":{"code":"INTERNAL_SERVER_ERROR","message":"busy",)"
                             R"("suggestion":"","documentationUrl":""},"requestId":"r1","timestamp":"t","path":"/"})";
    canned_server srv(
        {answer(503, busy, "Retry-After: 1\r\nX-Request-Id: r1\r\n"), answer(200, "{}", "X-Request-Id: r2\r\n")});
    ec::client c(srv.url(), ec::credentials::api_key("k"), quick());
    const auto started = std::chrono::steady_clock::now();
    auto r = c.call(esign::control_journal_clear_request{});  // 503: even a row that changes state
    const auto took = std::chrono::steady_clock::now() - started;
    INFO((r ? std::string("ok") : ec::describe(r.error())));
    CHECK(srv.served == 2);
    REQUIRE(r.attempts().size() == 2);
    CHECK(r.attempts()[0].request_id == "r1");
    CHECK(r.attempts()[1].request_id == "r2");
    CHECK(took >= 1s);  // the backoff alone is at most 20 ms
}

TEST_CASE("client: retries, and no retry where the request may have done something", "[http][client]") {
    test_server srv;
    ec::client op(base_url(srv), {}, quick());
    const auto t = new_team(op);
    ec::client team(base_url(srv), ec::credentials::api_key(t.apiKey), quick());
    auto fault = [&](const std::string& path, esign::fault_action action, std::optional<esign::error_code> code,
                     int times = 1, std::optional<int> delay = std::nullopt) {
        esign::control_faults_add_request rule;
        rule.operation = path;
        rule.action = action;
        rule.error = code;
        rule.times = times;
        if (delay) rule.delayMs = *delay;
        REQUIRE(team.call(rule));
    };
    using esign::error_code;
    using esign::fault_action;

    SECTION("a read-only row: 500 twice, then the answer (three attempts, three request ids)") {
        fault("/public/utils/whoami", fault_action::error, error_code::INTERNAL_SERVER_ERROR, 2);
        auto r = team.call(esign::utils_whoami_request{});
        REQUIRE(r);
        CHECK(r->teamUuid == t.teamUuid);
        CHECK(statuses(r.attempts()) == std::vector<unsigned>{500, 500, 200});
        std::set<std::string> ids;
        for (const auto& a : r.attempts()) ids.insert(a.request_id);
        CHECK(ids.size() == 3);
        CHECK_FALSE(ids.contains(""));
    }
    SECTION("a creating row: 429 twice, then created once") {
        fault("/public/workspace/create", fault_action::error, error_code::TEAM_LIMIT_REACHED, 2);
        auto r = team.call(esign::workspace_create_request{"Trials", std::nullopt});
        REQUIRE(r);
        CHECK(statuses(r.attempts()) == std::vector<unsigned>{429, 429, 200});
        auto list = team.call(esign::workspace_list_request{});
        REQUIRE(list);
        CHECK(list->workspaces.size() == 2);  // the default one and this one
    }
    SECTION("a creating row: a 500 is final") {
        fault("/public/workspace/create", fault_action::error, error_code::INTERNAL_SERVER_ERROR);
        auto r = team.call(esign::workspace_create_request{"Trials", std::nullopt});
        const auto* e = r.error_if<ec::server_error>();
        REQUIRE(e);
        CHECK(e->body.error.code == error_code::INTERNAL_SERVER_ERROR);
        CHECK(r.attempts().size() == 1);
    }
    SECTION("a creating row: a connection dropped before the answer is not retried") {
        fault("/public/workspace/create", fault_action::drop, std::nullopt);
        auto r = team.call(esign::workspace_create_request{"Trials", std::nullopt});
        const auto* e = r.error_if<ec::transport_error>();
        REQUIRE(e);
        CHECK(e->what == ec::transport_error::kind::closed);
        CHECK(e->sent);
        CHECK(r.attempts().size() == 1);
        esign::control_journal_list_request query;
        query.path = "/public/workspace/create";
        auto journal = team.call(query);
        REQUIRE(journal);
        CHECK(journal->entries.size() == 1);
    }
    SECTION("a read-only row: a dropped connection is tried again") {
        fault("/public/utils/whoami", fault_action::drop, std::nullopt);
        auto r = team.call(esign::utils_whoami_request{});
        REQUIRE(r);
        CHECK(statuses(r.attempts()) == std::vector<unsigned>{0, 200});
    }
    SECTION("an answer later than the read timeout: a timeout error, no hang") {
        fault("/public/workspace/create", fault_action::delay, std::nullopt, 1, 5000);
        auto options = quick();
        options.read_timeout = 300ms;
        ec::client impatient(base_url(srv), ec::credentials::api_key(t.apiKey), options);
        const auto started = std::chrono::steady_clock::now();
        auto r = impatient.call(esign::workspace_create_request{"Late", std::nullopt});
        const auto took = std::chrono::steady_clock::now() - started;
        const auto* e = r.error_if<ec::transport_error>();
        REQUIRE(e);
        CHECK(e->what == ec::transport_error::kind::timeout);
        CHECK(r.attempts().size() == 1);
        CHECK(took >= 300ms);
        CHECK(took < 4s);
    }
}

TEST_CASE("client: a server that does not accept within connect_timeout: a timeout, nothing sent", "[http][client]") {
    unaccepting_listener listener;
    auto options = quick(1);
    options.connect_timeout = 300ms;
    ec::client c(listener.url(), ec::credentials::api_key("key"), options);
    const auto check = [](const ec::call_result<esign::utils_whoami_response>& r,
                          std::chrono::steady_clock::duration took) {
        const auto* e = r.error_if<ec::transport_error>();
        REQUIRE(e);
        CHECK(e->what == ec::transport_error::kind::timeout);
        CHECK_FALSE(e->sent);
        CHECK(r.attempts().size() == 1);
        CHECK(took >= 300ms);
        CHECK(took < 4s);
    };
    SECTION("synchronous") {
        const auto started = std::chrono::steady_clock::now();
        auto r = c.call(esign::utils_whoami_request{});
        check(r, std::chrono::steady_clock::now() - started);
    }
    SECTION("asynchronous") {
        const auto started = std::chrono::steady_clock::now();
        auto r = c.async_call(esign::utils_whoami_request{}, asio::use_future).get();
        check(r, std::chrono::steady_clock::now() - started);
    }
}

}  // namespace test_client
