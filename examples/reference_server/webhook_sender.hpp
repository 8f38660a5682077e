// SPDX-License-Identifier: BSL-1.0
#pragma once
// Webhook deliveries (contract.md §3 "Webhooks"): worker threads take the jobs the backend hands
// out, POST them, and report each attempt back; the backend decides about retries.
//
// One attempt:
//   body     job.payload (application/json), or `payload=<form-urlencoded JSON>` when the webhook
//            is application/x-www-form-urlencoded;
//   headers  X-Webhook-Id: <webhook uuid>; X-Webhook-Signature: t=<ms>,v1=<hex> when a secret is
//            set (ms = the backend's clock at signing, v1 = HMAC-SHA256(secret, "t:<ms>:<body>"));
//   transport plain TCP for http://, TLS for https:// (certificate and host name checked unless
//            the webhook has sslVerify false); 2 s to resolve and connect, then 5 s for TLS,
//            writing and the response header (contract.md §6.7); redirects are not followed;
//   outcome  delivered = a 2xx status; the status is reported (0 when there was no response);
//   dropped  a job whose team was reset (or restored) after the sender took it: checked again
//            once connected, just before the request is written, and then nothing is sent or
//            recorded (contract.md §6.3: no delivery queued before a reset is attempted).
//
// The workers are separate from the HTTP threads: a slow or dead receiver never delays the API.
// They take jobs from the backend's per-team queues in turn (round-robin), so one team's dead
// receivers delay another team's deliveries by at most one attempt per worker.
// Addresses a name resolves to are checked again when connecting (a name may point anywhere):
// link-local addresses (169.254.0.0/16, fe80::/10, cloud metadata) are never connected to, and
// with --public-webhooks-only neither are loopback, private, unspecified or multicast ones.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <boost/beast/http.hpp>
#include <fmt/format.h>

#include <esign/reference/backend.hpp>
#include <esign/rules/webhook_signature.hpp>

#include "log.hpp"
#include "webhook_client.hpp"
#include "webhook_url.hpp"

namespace esign::server {

// ---- the sender ---------------------------------------------------------------------------

class webhook_sender {
public:
    webhook_sender(reference::backend& backend, unsigned threads, bool public_only, logger& log,
                   std::chrono::milliseconds connect_timeout = std::chrono::seconds(2),
                   std::chrono::milliseconds answer_timeout = std::chrono::seconds(5))
        : backend_(backend),
          threads_(threads == 0 ? 1 : threads),
          public_only_(public_only),
          log_(log),
          connect_timeout_(connect_timeout),
          answer_timeout_(answer_timeout) {}

    webhook_sender(const webhook_sender&) = delete;
    webhook_sender& operator=(const webhook_sender&) = delete;
    ~webhook_sender() { stop(); }

    void start() {
        for (unsigned i = 0; i < threads_; ++i) workers_.emplace_back([this] { work(); });
    }

    // Ends the deliveries under way (not recorded as attempts) and the workers; idempotent.
    void stop() {
        stopping_ = true;
        backend_.stop();
        for (auto& t : workers_)
            if (t.joinable()) t.join();
        workers_.clear();
    }

    // The bytes, headers and target of one attempt (exposed for tests).
    static http::request<http::string_body> make_request(const reference::webhook_attempt& a, const webhook_url& url) {
        http::request<http::string_body> req{http::verb::post, url.target, 11};
        req.set(http::field::host, url.host_header);
        req.set(http::field::user_agent, "esign-reference-server");
        req.set(http::field::content_type, a.form_encoded ? "application/x-www-form-urlencoded" : "application/json");
        req.set("X-Webhook-Id", a.job.webhook_uuid);
        req.body() = a.form_encoded ? "payload=" + form_urlencode(a.job.payload) : a.job.payload;
        if (a.secret)
            req.set(rules::webhook_signature_header, rules::webhook_signature(*a.secret, a.now_ms, req.body()));
        req.set(http::field::connection, "close");
        req.prepare_payload();
        return req;
    }

private:
    void work() {
        webhook_client client;
        while (!stopping_) {
            std::optional<reference::webhook_attempt> job;
            try {
                job = backend_.next_webhook_attempt(std::chrono::milliseconds(500));
            } catch (const std::exception& e) {
                log_.error(fmt::format("webhook queue: {}", e.what()));
                std::this_thread::sleep_for(std::chrono::milliseconds(100));
                continue;
            }
            if (!job) continue;
            try {
                deliver(client, *job);
            } catch (const std::exception& e) {
                log_.error(fmt::format("webhook {}: {}", job->job.webhook_uuid, e.what()));
            }
        }
    }

    void deliver(webhook_client& client, const reference::webhook_attempt& a) {
        attempt_result result;
        if (auto url = parse_webhook_url(a.url)) {
            const auto request = make_request(a, *url);
            result = client.post(*url, request, a.ssl_verify, connect_timeout_, answer_timeout_, stopping_,
                                 public_only_, [&a] { return reference::backend::webhook_attempt_current(a); });
        } else {
            result.error = "not an http(s) URL";
        }
        if (result.aborted) return;
        if (result.dropped) {
            log_.info(fmt::format("webhook {} {} attempt {} dropped: its team was reset", a.job.webhook_uuid,
                                  a.job.event_type, a.job.attempt));
            return;
        }
        const bool delivered = result.status >= 200 && result.status < 300;
        backend_.record_webhook_attempt(a, result.status, delivered);
        log_.info(fmt::format("webhook {} {} attempt {} -> {}", a.job.webhook_uuid, a.job.event_type, a.job.attempt,
                              result.status != 0 ? std::to_string(result.status) : result.error));
    }

    reference::backend& backend_;
    unsigned threads_;
    bool public_only_;
    logger& log_;
    std::chrono::milliseconds connect_timeout_;
    std::chrono::milliseconds answer_timeout_;
    std::atomic<bool> stopping_{false};
    std::vector<std::thread> workers_;
};

}  // namespace esign::server
