// SPDX-License-Identifier: BSL-1.0
#pragma once
// Per-team bounds of the reference backend (contract.md §6.7: no team can stall the others, nor
// make the shared server hold without limit): every collection of a team that grows with its
// requests has a bound here and a behaviour beyond it. One place for the numbers; the handlers
// and the store (store/records.hpp) apply them.
//
//   collection               bound        beyond it
//   envelopes                1,000,000    INVALID_REQUEST_FORMAT at [] (envelope creation refused)
//   templates                10,000       INVALID_REQUEST_FORMAT at []
//   workspaces               1,000        INVALID_REQUEST_FORMAT at []
//   contacts                 100,000      INVALID_REQUEST_FORMAT at ["contacts"]
//   webhooks                 20           WEBHOOK_LIMIT_REACHED (contract.md §4; team/snapshot_state.hpp)
//   logs                     1,000,000    the oldest 125,000 dropped at once
//   outbox, delivery records 10,000       the oldest dropped (contract.md §6.7)
//   pending deliveries       10,000       recorded dropped: true, never attempted (§6.7)
//   tags of an envelope      100          INVALID_REQUEST_FORMAT at the request's `tags` (a name
//                                         longer than 255 characters: at the name)
//   recipients of an envelope 1,000       INVALID_REQUEST_FORMAT at ["recipients"]
//   blocks of a document     10,000       INVALID_REQUEST_FORMAT at ["blocks"]
//   iframe tokens            10,000       the oldest dropped; also once expired an hour (signer_access.hpp)
//   e-mail link tokens       100,000      the oldest dropped (its link then answers "unknown")
//   signer sessions          10,000       the oldest dropped (its page must open its link again)
//   journal (harness/journal.hpp)    --journal-size entries and 16 MiB; the oldest dropped
//   a journal/list page      256 KiB to build and write (estimated); the page stops, `since` goes on
//   a journaled body         128 KiB to build and write; kept cut, as text (32 KiB written and a note)
//
// Why INVALID_REQUEST_FORMAT for a full collection: interface.md and contract.md have no code for
// it but WEBHOOK_LIMIT_REACHED, which names webhooks; the *_LIMIT_EXCEEDED codes are the plan's
// quotas on sending. INVALID_REQUEST_FORMAT is what §6.7 answers for every other bound, and its
// problem (kind `size`, the bound as its limit, a message naming the collection) says which
// bound; nothing is stored. /_control/team/reset (or deleting contacts) makes room again.
// An envelope's collections grow by repeated updates of a draft (tags are added, never removed,
// by envelope/update; add-recipients and add-blocks add up to a request's worth each time):
// interface.md bounds only each request, so the envelope's own bounds are here.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <esign/types/bounded_string.hpp>
#include <esign/validation/problem.hpp>

namespace esign::reference {

// At least the 1,000,000 envelopes per team that a long run must be able to hold.
inline constexpr std::size_t max_envelopes_per_team = 1'000'000;
inline constexpr std::size_t max_templates_per_team = 10'000;
inline constexpr std::size_t max_workspaces_per_team = 1'000;
inline constexpr std::size_t max_contacts_per_team = 100'000;

// Logs are a history, not resources a request names: the oldest go, as the outbox's. Dropped a
// batch at a time (max_kept_logs / 8), so that their positions are indexed again once per batch
// rather than once per log: a team keeps between 875,000 and 1,000,000 of its latest logs.
inline constexpr std::size_t max_kept_logs = 1'000'000;
inline constexpr std::size_t dropped_logs_batch = max_kept_logs / 8;  // as state::add_log drops

// contract.md §6.7: deliveries waiting for an attempt, and the outbox and delivery records kept
// (the oldest go first).
inline constexpr std::size_t max_pending_deliveries = 10'000;
inline constexpr std::size_t max_kept_records = 10'000;

// contract.md §7.1: the signer's secrets a team holds at once (signer_access.hpp). An iframe token
// lasts an hour, so 10,000 is ~3 a second for an hour; link tokens are one per recipient e-mailed.
inline constexpr std::size_t max_iframe_tokens_per_team = 10'000;
inline constexpr std::size_t max_link_tokens_per_team = 100'000;
inline constexpr std::size_t max_signer_sessions_per_team = 10'000;

// An envelope's collections (see the table): a tag name is an envelope title's length at most.
inline constexpr std::size_t max_tags_per_envelope = 100;
using envelope_tag = bounded_string<0, 255>;
inline constexpr std::size_t max_recipients_per_envelope = 1'000;
inline constexpr std::size_t max_blocks_per_document = 10'000;

// Whether a team holding `held` of a collection bounded by `bound` can take `adding` more.
constexpr bool has_room(std::size_t held, std::size_t adding, std::size_t bound) noexcept {
    return held <= bound && adding <= bound - held;
}

// The problem that refuses a request that would take a collection beyond its bound.
// (`holder`: what holds the collection: the team, an envelope, a document.)
inline problem collection_full(problem_path path, std::string_view collection, std::size_t bound,
                               std::string_view holder = "team") {
    std::string message = "the ";
    message += holder;
    message += " would hold more than ";
    message += std::to_string(bound);
    message += ' ';
    message += collection;
    message += ", the most it may";
    return problem{std::move(path), problem_kind::size, static_cast<std::int64_t>(bound), std::move(message)};
}

}  // namespace esign::reference
