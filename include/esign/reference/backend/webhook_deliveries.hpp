// SPDX-License-Identifier: BSL-1.0
#pragma once
// Webhook deliveries for the server's sender threads: the next attempt (teams in turn, a job of a
// deleted, deactivated or reset webhook dropped, a fault rule of the webhook applied), and an
// attempt's outcome recorded in its team, with the retry of a failed one on the team's clock.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <utility>

#include <esign/reference/backend.hpp>
#include <esign/reference/detail/backend_inline.hpp>

namespace esign::reference {

ESIGN_DETAIL_BACKEND_INLINE std::optional<webhook_attempt> backend::next_webhook_attempt(
    std::chrono::milliseconds wait) {
    const auto deadline = delivery_queue::clock::now() + wait;
    for (;;) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - delivery_queue::clock::now());
        auto next = deliveries_.pop(std::max(left, std::chrono::milliseconds(0)));
        if (!next) return std::nullopt;
        if (auto attempt = prepare_attempt(*next)) return attempt;
        if (left.count() <= 0) return std::nullopt;
    }
}

ESIGN_DETAIL_BACKEND_INLINE bool backend::webhook_attempt_current(const webhook_attempt& attempt) {
    auto team = attempt.team.lock();
    return team && team->generation.load() == attempt.generation;  // (a retired team's moved on too)
}

ESIGN_DETAIL_BACKEND_INLINE void backend::record_webhook_attempt(const webhook_attempt& attempt, unsigned http_status,
                                                                 bool delivered) {
    auto team = attempt.team.lock();
    if (!team) return;
    std::int64_t due = 0;  // of the retry, on the team's clock
    {
        std::unique_lock lock(team->mutex);
        if (team->retired || team->generation != attempt.generation) return;
        due = team->now(options_.wall_clock()) + retry_delay(attempt.job.attempt).count();
        auto& records = team->st.deliveries;
        for (auto d = records.rbegin(); d != records.rend(); ++d)
            if (d->event_uuid == attempt.job.event_uuid && d->webhook_uuid == attempt.job.webhook_uuid) {
                ++d->attempts;
                d->delivered = delivered;
                if (http_status != 0) d->last_status = http_status;
                break;
            }
    }
    if (delivered || attempt.job.attempt >= max_webhook_attempts) return;
    webhook_job retry = attempt.job;
    ++retry.attempt;
    deliveries_.push(std::move(team), std::move(retry), attempt.generation, due);
}

ESIGN_DETAIL_BACKEND_INLINE std::optional<webhook_attempt> backend::prepare_attempt(delivery_queue::entry& next) {
    team_shard& shard = *next.team;
    std::shared_lock lock(shard.mutex);
    if (shard.retired || shard.generation != next.generation) return std::nullopt;
    auto hook = shard.st.webhooks.find(next.job.webhook_uuid);
    if (hook == shard.st.webhooks.end() || !hook->second.data.active) return std::nullopt;
    std::optional<fault_action> fault;
    {
        std::lock_guard harness_lock(shard.harness_mutex);
        if (!shard.harness.faults.empty())
            fault = shard.harness.faults.fire_for_webhook(next.job.webhook_uuid, shard.ids);
    }
    webhook_attempt a;
    a.url = hook->second.url;
    a.secret = hook->second.secret;
    a.form_encoded = hook->second.data.contentType == webhook_content_type::application_x_www_form_urlencoded;
    a.ssl_verify = hook->second.data.sslVerify;
    a.now_ms = shard.now(options_.wall_clock());
    a.team = next.team;
    a.generation = next.generation;
    a.job = std::move(next.job);
    if (!fault) return a;
    // A fault rule of the webhook: the attempt fails (503) or times out without connecting.
    lock.unlock();
    record_webhook_attempt(a, *fault == fault_action::fail ? 503 : 0, false);
    return std::nullopt;
}

}  // namespace esign::reference
