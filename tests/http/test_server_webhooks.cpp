// SPDX-License-Identifier: BSL-1.0
// Black-box tests of esign-reference-server's webhook deliveries (contract.md §3 "Webhooks"):
// a receiver in the test records what the server POSTs.
#include "test_support.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <regex>
#include <openssl/evp.h>
#include <openssl/hmac.h>

namespace test_server_webhooks {

using namespace esign::test;
using namespace std::chrono_literals;

namespace asio = boost::asio;
namespace beast = boost::beast;
using tcp = asio::ip::tcp;

namespace {

// ---- a webhook receiver -------------------------------------------------------------------

struct received_request {
    std::string method;
    std::string target;
    header_list headers;
    std::string body;

    std::optional<std::string> header(std::string_view name) const {
        for (const auto& [n, v] : headers)
            if (beast::iequals(n, name)) return v;
        return std::nullopt;
    }
};

// An HTTP server on 127.0.0.1:<ephemeral> that records every request. It answers `status`
// (after the first `fail_first` requests, which get 500), or never answers when `hang`.
struct receiver_behaviour {
    unsigned status = 200;
    int fail_first = 0;
    bool hang = false;
};

class hook_receiver {
public:
    using behaviour = receiver_behaviour;

    explicit hook_receiver(behaviour b = {}) : behaviour_(b) {
        tcp::endpoint ep(asio::ip::make_address("127.0.0.1"), 0);
        acceptor_.open(ep.protocol());
        acceptor_.set_option(asio::socket_base::reuse_address(true));
        acceptor_.bind(ep);
        acceptor_.listen();
        port_ = acceptor_.local_endpoint().port();
        accept();
        thread_ = std::thread([this] { ioc_.run(); });
    }

    hook_receiver(const hook_receiver&) = delete;
    hook_receiver& operator=(const hook_receiver&) = delete;

    ~hook_receiver() {
        asio::post(ioc_, [this] {
            beast::error_code ignored;
            acceptor_.close(ignored);
            for (auto& s : held_) s->close();
            held_.clear();
            ioc_.stop();  // connections still reading are dropped with the io_context
        });
        thread_.join();
    }

    unsigned short port() const noexcept { return port_; }
    std::string url(std::string_view path = "/hook") const {
        return "http://127.0.0.1:" + std::to_string(port_) + std::string(path);
    }

    std::vector<received_request> requests() const {
        std::lock_guard lock(mutex_);
        return requests_;
    }

    // Waits until at least `n` requests arrived (false after `timeout`).
    bool wait_for(std::size_t n, std::chrono::milliseconds timeout) {
        std::unique_lock lock(mutex_);
        return cv_.wait_for(lock, timeout, [&] { return requests_.size() >= n; });
    }

private:
    struct connection {
        explicit connection(tcp::socket s) : stream(std::move(s)) {}
        beast::tcp_stream stream;
        beast::flat_buffer buffer;
        http::request<http::string_body> request;
        http::response<http::string_body> response;
        void close() {
            beast::error_code ignored;
            stream.socket().close(ignored);
        }
    };

    void accept() {
        acceptor_.async_accept([this](beast::error_code ec, tcp::socket socket) {
            if (ec) return;
            auto c = std::make_shared<connection>(std::move(socket));
            c->stream.expires_after(30s);
            http::async_read(c->stream, c->buffer, c->request, [this, c](beast::error_code e, std::size_t) {
                if (e) return;
                on_request(c);
            });
            accept();
        });
    }

    void on_request(const std::shared_ptr<connection>& c) {
        received_request r;
        r.method = std::string(c->request.method_string());
        r.target = std::string(c->request.target());
        for (const auto& f : c->request) r.headers.emplace_back(std::string(f.name_string()), std::string(f.value()));
        r.body = c->request.body();
        std::size_t count;
        {
            std::lock_guard lock(mutex_);
            requests_.push_back(std::move(r));
            count = requests_.size();
        }
        cv_.notify_all();
        if (behaviour_.hang) {
            c->stream.expires_never();
            held_.push_back(c);  // never answered, closed when the receiver goes
            return;
        }
        const unsigned status = static_cast<int>(count) <= behaviour_.fail_first ? 500 : behaviour_.status;
        c->response = http::response<http::string_body>{static_cast<http::status>(status), 11};
        if (status >= 200 && status != 204 && status != 304) {
            c->response.set(http::field::content_type, "text/plain");
            c->response.body() = "ok";
        }
        c->response.keep_alive(false);
        c->response.prepare_payload();
        http::async_write(c->stream, c->response, [c](beast::error_code, std::size_t) { c->close(); });
    }

    behaviour behaviour_;
    asio::io_context ioc_;
    std::optional<asio::executor_work_guard<asio::io_context::executor_type>> work_{ioc_.get_executor()};
    tcp::acceptor acceptor_{ioc_};
    unsigned short port_ = 0;
    std::thread thread_;
    std::vector<std::shared_ptr<connection>> held_;  // on the receiver's thread only

    mutable std::mutex mutex_;
    std::condition_variable cv_;
    std::vector<received_request> requests_;
};

// ---- helpers ------------------------------------------------------------------------------

std::string hmac_sha256_hex(std::string_view key, std::string_view message) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(message.data()),
         message.size(), digest, &length);
    static constexpr char hex[] = "0123456789abcdef";
    std::string out;
    for (unsigned int i = 0; i < length; ++i) {
        out += hex[digest[i] >> 4];
        out += hex[digest[i] & 0x0F];
    }
    return out;
}

std::string form_urldecode(std::string_view s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '+') {
            out += ' ';
        } else if (s[i] == '%' && i + 2 < s.size()) {
            out += static_cast<char>(std::stoi(std::string(s.substr(i + 1, 2)), nullptr, 16));
            i += 2;
        } else {
            out += s[i];
        }
    }
    return out;
}

std::int64_t unix_ms_now() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

template <class F>
bool eventually(F condition, std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
        if (condition()) return true;
        if (std::chrono::steady_clock::now() >= deadline) return false;
        std::this_thread::sleep_for(50ms);
    }
}

// A server, a team, and calls on its behalf.
struct setup {
    test_server srv;
    team t;
    std::int64_t clock_offset = 0;  // how far the team's clock was advanced (advance_clock)

    setup() : srv(), t(srv.new_team()) {}

    // Moves the team's clock forward (contract.md §2: every timestamp comes from it).
    void advance_clock(std::int64_t milliseconds) {
        auto r = call("/_control/clock/advance", boost::json::object{{"milliseconds", milliseconds}});
        INFO(r.body);
        REQUIRE(r.status == 200);
        clock_offset += milliseconds;
    }

    http_response call(const std::string& path, const boost::json::value& body) {
        return srv.post(path, boost::json::serialize(body), bearer(t.api_key));
    }

    // Creates a webhook; returns its uuid.
    std::string create_webhook(const std::string& url, boost::json::value secret,
                               std::string content_type = "application/json",
                               boost::json::array events = {"ENVELOPE_CREATED"}) {
        boost::json::object body{{"url", url},         {"contentType", content_type},
                                 {"sslVerify", false}, {"active", true},
                                 {"secret", secret},   {"events", events}};
        auto r = call("/public/webhook/create", body);
        INFO(r.body);
        REQUIRE(r.status == 200);
        auto uuid = string_member(r.json().as_object().at("webhook"), "uuid");
        REQUIRE(is_lowercase_uuid(uuid));
        return uuid;
    }

    std::string create_envelope() {
        auto r = call("/_control/envelope/create",
                      boost::json::object{{"title", "Contract"},
                                          {"documents", boost::json::array{{{"title", "d"}, {"pageCount", 1}}}}});
        INFO(r.body);
        REQUIRE(r.status == 200);
        return string_member(r.json(), "envelopeUuid");
    }

    // The delivery records of a webhook.
    boost::json::array deliveries(const std::string& webhook_uuid) {
        auto r = srv.post("/_control/webhook/deliveries",
                          boost::json::serialize(boost::json::object{{"webhookUuid", webhook_uuid}}));
        if (r.status != 200) return {};
        return r.json().as_object().at("deliveries").as_array();
    }

    std::int64_t attempts(const std::string& webhook_uuid) {
        std::int64_t n = 0;
        for (const auto& d : deliveries(webhook_uuid)) n += d.as_object().at("attempts").to_number<std::int64_t>();
        return n;
    }
};

// The event delivered for envelope creation.
void check_payload(const boost::json::value& payload, const setup& s, const std::string& webhook_uuid,
                   const std::string& envelope_uuid) {
    INFO("payload " << boost::json::serialize(payload));
    REQUIRE(payload.is_object());
    const auto& o = payload.as_object();
    CHECK(is_lowercase_uuid(string_member(o, "eventUuid")));
    CHECK(string_member(o, "eventType") == "ENVELOPE_CREATED");
    REQUIRE(o.contains("eventTime"));
    CHECK(o.at("eventTime").is_int64());
    if (o.at("eventTime").is_int64())
        CHECK(std::abs(o.at("eventTime").as_int64() - (unix_ms_now() + s.clock_offset)) < 60'000);
    CHECK(string_member(o, "webhookUuid") == webhook_uuid);
    CHECK(string_member(o, "teamUuid") == s.t.team_uuid);
    REQUIRE(o.contains("data"));
    REQUIRE(o.at("data").is_object());
    CHECK(string_member(o.at("data"), "envelopeUuid") == envelope_uuid);
    CHECK(string_member(o.at("data"), "workspaceUuid") == s.t.default_workspace_uuid);
}

// `clock_offset`: how far the team's clock is ahead of the system clock.
void check_signature(const received_request& r, const std::string& secret, std::int64_t clock_offset = 0) {
    const auto header = r.header("X-Webhook-Signature");
    REQUIRE(header);
    INFO("X-Webhook-Signature: " << *header);
    static const std::regex form("^t=([0-9]+),v1=([0-9a-f]{64})$");
    std::smatch m;
    REQUIRE(std::regex_match(*header, m, form));
    const std::string t = m[1].str();
    CHECK(std::abs(std::stoll(t) - (unix_ms_now() + clock_offset)) < 60'000);
    CHECK(m[2].str() == hmac_sha256_hex(secret, "t:" + t + ":" + r.body));
}

}  // namespace

TEST_CASE("webhooks: a JSON delivery, signed", "[http][webhooks]") {
    hook_receiver receiver;
    setup s;
    const auto webhook = s.create_webhook(receiver.url("/hook?x=1"), "s3cr3t");
    const auto envelope = s.create_envelope();
    REQUIRE(receiver.wait_for(1, 10s));

    const auto r = receiver.requests().front();
    CHECK(r.method == "POST");
    CHECK(r.target == "/hook?x=1");
    CHECK(r.header("Content-Type").value_or("") == "application/json");
    CHECK(r.header("X-Webhook-Id").value_or("") == webhook);
    CHECK(r.header("Host").value_or("") == "127.0.0.1:" + std::to_string(receiver.port()));
    check_signature(r, "s3cr3t");
    boost::json::value payload;
    REQUIRE_NOTHROW(payload = boost::json::parse(r.body));
    check_payload(payload, s, webhook, envelope);

    // The attempt is recorded as delivered.
    REQUIRE(eventually([&] { return s.attempts(webhook) >= 1; }, 5s));
    const auto d = s.deliveries(webhook);
    REQUIRE(d.size() == 1);
    const auto& rec = d[0].as_object();
    CHECK(string_member(rec, "eventUuid") == string_member(payload, "eventUuid"));
    CHECK(string_member(rec, "webhookUuid") == webhook);
    CHECK(string_member(rec, "eventType") == "ENVELOPE_CREATED");
    CHECK(rec.at("attempts") == boost::json::value(1));
    CHECK(rec.at("delivered") == boost::json::value(true));
    CHECK(rec.at("lastStatus") == boost::json::value(200));

    // Exactly one delivery: the record says delivered, so no retry follows, and the receiver
    // (which answers before the server records the attempt) saw one request.
    CHECK(receiver.requests().size() == 1);
}

TEST_CASE("webhooks: signature time and eventTime come from the team's clock", "[http][webhooks][clock]") {
    hook_receiver receiver;
    setup s;
    s.advance_clock(30LL * 24 * 3600 * 1000);  // 30 days: far outside the 60 s tolerance
    const auto webhook = s.create_webhook(receiver.url(), "k");
    const auto envelope = s.create_envelope();
    REQUIRE(receiver.wait_for(1, 10s));
    const auto r = receiver.requests().front();
    check_signature(r, "k", s.clock_offset);
    check_payload(boost::json::parse(r.body), s, webhook, envelope);
}

TEST_CASE("webhooks: a form-encoded delivery, unsigned without a secret", "[http][webhooks]") {
    hook_receiver receiver;
    setup s;
    const auto signed_hook =
        s.create_webhook(receiver.url("/signed"), "k\xc3\xa9y with spaces", "application/x-www-form-urlencoded");
    const auto unsigned_hook =
        s.create_webhook(receiver.url("/unsigned"), nullptr, "application/x-www-form-urlencoded");
    const auto envelope = s.create_envelope();
    REQUIRE(receiver.wait_for(2, 10s));

    for (const auto& r : receiver.requests()) {
        INFO(r.target << " " << r.body);
        CHECK(r.header("Content-Type").value_or("").starts_with("application/x-www-form-urlencoded"));
        REQUIRE(r.body.starts_with("payload="));
        CHECK(r.body.find('&') == std::string::npos);
        CHECK(r.body.find('{') == std::string::npos);  // encoded
        boost::json::value payload;
        REQUIRE_NOTHROW(payload = boost::json::parse(form_urldecode(r.body.substr(8))));
        if (r.target == "/signed") {
            CHECK(r.header("X-Webhook-Id").value_or("") == signed_hook);
            check_signature(r, "k\xc3\xa9y with spaces");
            check_payload(payload, s, signed_hook, envelope);
        } else {
            CHECK(r.target == "/unsigned");
            CHECK(r.header("X-Webhook-Id").value_or("") == unsigned_hook);
            CHECK_FALSE(r.header("X-Webhook-Signature"));
            check_payload(payload, s, unsigned_hook, envelope);
        }
    }
}

TEST_CASE("webhooks: a failing receiver gets retried", "[http][webhooks]") {
    SECTION("always 500: several attempts, not delivered") {
        hook_receiver receiver({500, 0, false});
        setup s;
        const auto webhook = s.create_webhook(receiver.url(), "x");
        s.create_envelope();
        REQUIRE(receiver.wait_for(3, 10s));
        REQUIRE(eventually([&] { return s.attempts(webhook) >= 3; }, 5s));
        const auto d = s.deliveries(webhook);
        REQUIRE(d.size() == 1);
        CHECK(d[0].as_object().at("delivered") == boost::json::value(false));
        CHECK(d[0].as_object().at("lastStatus") == boost::json::value(500));
        // The same event every time.
        const auto requests = receiver.requests();
        const auto first = string_member(boost::json::parse(requests[0].body), "eventUuid");
        for (const auto& r : requests) CHECK(string_member(boost::json::parse(r.body), "eventUuid") == first);
    }
    SECTION("500, then 204: delivered on the second attempt") {
        hook_receiver receiver({204, 1, false});
        setup s;
        const auto webhook = s.create_webhook(receiver.url(), "x");
        s.create_envelope();
        REQUIRE(receiver.wait_for(2, 10s));
        REQUIRE(eventually(
            [&] {
                auto d = s.deliveries(webhook);
                return d.size() == 1 && d[0].as_object().at("delivered") == boost::json::value(true);
            },
            5s));
        const auto d = s.deliveries(webhook);
        CHECK(d[0].as_object().at("attempts") == boost::json::value(2));
        CHECK(d[0].as_object().at("lastStatus") == boost::json::value(204));
        CHECK(receiver.requests().size() == 2);  // delivered: no attempt after the second
    }
}

TEST_CASE("webhooks: a dead port is recorded as failed attempts", "[http][webhooks]") {
    // A socket bound to a port and not listening: connections to it are refused, and no other
    // test's server can take the port while it is held.
    asio::io_context ioc;
    tcp::socket holder(ioc);
    holder.open(tcp::v4());
    holder.bind(tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
    const unsigned short dead_port = holder.local_endpoint().port();
    setup s;
    const auto webhook = s.create_webhook("http://127.0.0.1:" + std::to_string(dead_port) + "/hook", "x");
    s.create_envelope();
    REQUIRE(eventually([&] { return s.attempts(webhook) >= 2; }, 10s));
    const auto d = s.deliveries(webhook);
    REQUIRE(d.size() == 1);
    const auto& rec = d[0].as_object();
    CHECK(rec.at("delivered") == boost::json::value(false));
    // No response, no status: lastStatus is there, and null.
    REQUIRE(rec.contains("lastStatus"));
    CHECK(rec.at("lastStatus").is_null());
}

TEST_CASE("webhooks: a receiver that never answers does not block the API", "[http][webhooks]") {
    hook_receiver receiver({200, 0, true});
    auto s = std::make_unique<setup>();
    // More hanging deliveries than sender threads.
    std::vector<std::string> hooks;
    for (int i = 0; i < 3; ++i) hooks.push_back(s->create_webhook(receiver.url("/slow" + std::to_string(i)), "x"));
    s->create_envelope();
    REQUIRE(receiver.wait_for(2, 10s));  // the deliveries are hanging now

    // Requests are answered while the attempts hang: none of them is recorded yet (an attempt is
    // recorded when it ends, after 5 s), so no answer waited for one.
    auto c = s->srv.connect();
    for (int i = 0; i < 20; ++i) CHECK(c.post("/public/workspace/list", "{}", bearer(s->t.api_key)).status == 200);
    s->create_envelope();
    CHECK(s->attempts(hooks[0]) + s->attempts(hooks[1]) + s->attempts(hooks[2]) == 0);

    // The hanging attempts time out (5 s) and are recorded as failed.
    REQUIRE(eventually([&] { return s->attempts(hooks[0]) >= 1 && s->attempts(hooks[1]) >= 1; }, 15s));
    for (const auto& d : s->deliveries(hooks[0])) CHECK(d.as_object().at("delivered") == boost::json::value(false));

    // Stopping does not wait for deliveries under way: new attempts hang now (the second
    // envelope's), each until the 5 s answer timeout, which began at most moments ago. A server
    // that waited for them would still be running when stop() gives up at 2.5 s and kills it
    // (the exit status would not be 0); one that does not wait exits in milliseconds.
    REQUIRE(receiver.wait_for(4, 10s));
    CHECK(s->srv.stop(SIGTERM, 2500ms) == 0);
    s.reset();
}

// ---- per team (contract.md §6.3, §6.7) ----------------------------------------------------

TEST_CASE("webhooks: a team whose receiver never answers does not hold up another team", "[http][webhooks][tenancy]") {
    hook_receiver dead({200, 0, true});  // accepts, reads, never answers: 5 s per attempt
    hook_receiver alive;
    setup slow;
    slow.create_webhook(dead.url(), nullptr);
    for (int i = 0; i < 6; ++i) slow.create_envelope();  // 6 attempts of 5 s ahead, for 2 sender threads
    REQUIRE(dead.wait_for(1, 10s));

    const team other = slow.srv.new_team();
    auto hook = slow.srv.post(
        "/public/webhook/create",
        boost::json::serialize(boost::json::object{
            {"url", alive.url()}, {"contentType", "application/json"}, {"sslVerify", false}, {"active", true}}),
        bearer(other.api_key));
    REQUIRE(hook.status == 200);
    const auto sent = std::chrono::steady_clock::now();
    auto env = slow.srv.post("/_control/envelope/create", R"({"title":"t","documents":[{"title":"d","pageCount":1}]})",
                             bearer(other.api_key));
    REQUIRE(env.status == 200);
    // Served in turn: at most one attempt of the slow team (5 s) before it; in arrival order
    // it would wait for all six (15 s with two threads).
    REQUIRE(alive.wait_for(1, 12s));
    CHECK(std::chrono::steady_clock::now() - sent < 7s);
}

TEST_CASE("webhooks: a team reset or a deleted webhook drops the retries queued before", "[http][webhooks][tenancy]") {
    for (const bool by_reset : {true, false}) {
        DYNAMIC_SECTION((by_reset ? "team reset" : "webhook deleted")) {
            hook_receiver failing({500, 0, false});  // every attempt fails: retried after 0.5 s, 1 s, 2 s, ...
            setup s;
            const auto webhook = s.create_webhook(failing.url(), nullptr);
            s.create_envelope();
            REQUIRE(failing.wait_for(1, 10s));
            if (by_reset) {
                REQUIRE(s.call("/_control/team/reset", boost::json::object{}).status == 200);
            } else {
                REQUIRE(s.call("/public/webhook/delete", boost::json::object{{"uuid", webhook}}).status == 200);
            }
            const auto seen = failing.requests().size();
            std::this_thread::sleep_for(2500ms);  // the first two retries would have come
            CHECK(failing.requests().size() == seen);
            if (by_reset) CHECK(s.deliveries(webhook).empty());
        }
    }
}

TEST_CASE("webhooks: a fault rule fails or times out the next attempts without connecting (§6.5)", "[http][webhooks]") {
    hook_receiver receiver;
    setup s;
    const auto webhook = s.create_webhook(receiver.url("/hook"), "k");
    auto add = s.call("/_control/faults/add", boost::json::object{{"webhookUuid", webhook}, {"action", "fail"}});
    INFO(add.body);
    REQUIRE(add.status == 200);
    s.create_envelope();
    // The first attempt fails without reaching the receiver; the retry (0.5 s later) delivers.
    REQUIRE(receiver.wait_for(1, 10s));
    REQUIRE(eventually([&] { return s.attempts(webhook) == 2; }, 10s));
    auto d = s.deliveries(webhook).at(0).as_object();
    CHECK(d.at("delivered") == true);
    CHECK(d.at("lastStatus") == 200);
    CHECK(receiver.requests().size() == 1);
    // The rule is used up.
    CHECK(s.call("/_control/faults/list", boost::json::object{}).json().at("faults").as_array().empty());

    // Two timeouts: three attempts, the last one delivered; no status recorded by the faulted ones.
    const auto second = s.create_webhook(receiver.url("/second"), "k");
    REQUIRE(s.call("/_control/faults/add",
                   boost::json::object{{"webhookUuid", second}, {"action", "timeout"}, {"times", 2}})
                .status == 200);
    s.create_envelope();
    REQUIRE(eventually([&] { return s.attempts(second) == 3; }, 15s));
    d = s.deliveries(second).at(0).as_object();
    CHECK(d.at("delivered") == true);
    CHECK(d.at("lastStatus") == 200);
    // The first envelope's to the first webhook, and this envelope's to both.
    CHECK(eventually([&] { return receiver.requests().size() == 3; }, 10s));
}

}  // namespace test_server_webhooks
