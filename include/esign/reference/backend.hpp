// SPDX-License-Identifier: BSL-1.0
#pragma once
// The reference backend: the whole API in memory, behind one entry point,
//   reply handle(path, credentials, body)
// usable in-process (no network) or behind esign-reference-server. Every request goes
// bytes → JSON → typed request → rules → state change → typed response → JSON.
//
// A shared test service (contract.md §6): every team lives in its own shard (team_shard.hpp)
// with its own lock, clock and identifier stream. A request finds its operation in the table
// (model/operations.hpp) and its team by its credentials (a short shared lock on the registry),
// once; its handler then runs under that team's lock only. Server-wide operations (the
// operator's) visit the teams one at a time and never hold two teams' locks; a server-wide
// reset swaps the registry rather than locking every team while requests run.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <esign/json/decode.hpp>
#include <esign/json/encode.hpp>
#include <esign/json/error_body.hpp>
#include <esign/rules/error_body.hpp>
#include <esign/model/model.hpp>
#include <esign/reference/context.hpp>
#include <esign/reference/delivery_queue.hpp>
#include <esign/reference/fixture.hpp>
#include <esign/reference/handlers/all.hpp>
#include <esign/reference/handlers/harness.hpp>
#include <esign/reference/ids.hpp>
#include <esign/reference/options.hpp>
#include <esign/reference/reply.hpp>
#include <esign/reference/self_check.hpp>
#include <esign/reference/state.hpp>
#include <esign/reference/team_shard.hpp>
#include <esign/reference/timeline.hpp>
#include <esign/reference/typed_reply.hpp>
#include <esign/reference/webhook_job.hpp>

namespace esign::reference {

namespace detail {
template <class Request>
concept has_handler = requires(context& c, const Request& r) {
    handlers::handle(c, r);
};
template <class Request>
concept has_harness_handler = requires(harness_context& c, const Request& r) {
    handlers::handle(c, r);
};

// Compares a secret in time independent of where it differs (only its length shows).
inline bool same_secret(std::string_view given, std::string_view secret) noexcept {
    if (given.size() != secret.size() || secret.empty()) return false;
    unsigned char diff = 0;
    for (std::size_t i = 0; i < secret.size(); ++i) diff |= static_cast<unsigned char>(given[i] ^ secret[i]);
    return diff == 0;
}

// splitmix64: the seed of the n-th team made without one, under --seed.
constexpr std::uint64_t derived_seed(std::uint64_t seed, std::uint64_t n) noexcept {
    std::uint64_t z = seed + 0x9e3779b97f4a7c15ull * (n + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
}  // namespace detail

class backend {
public:
    // Webhook retries: attempts in all, and the delay before the first retry (doubling after),
    // on the team's clock.
    static constexpr int max_webhook_attempts = 5;
    static constexpr std::chrono::milliseconds first_retry_delay{500};

    // Who makes a request: a team, or (team == nullptr) the operator.
    struct caller {
        std::shared_ptr<team_shard> team;
    };

    // (Defined in detail/backend_definitions.hpp with the routes: it loads the fixture, which
    // reads every record type.)
    explicit backend(backend_options options = {});

    backend(const backend&) = delete;
    backend& operator=(const backend&) = delete;
    ~backend() { stop(); }

    // Problems of the fixture given in the options (empty when it loaded, or when none was given).
    const problem_list& fixture_problems() const noexcept { return fixture_problems_; }

    const backend_options& options() const noexcept { return options_; }

    bool knows_path(std::string_view path) const noexcept { return find_route(path) != nullptr; }

    // The caller that `credentials` (the token of `Authorization: Bearer`) make for `path`, or
    // nullopt when they may not call it (401). A team's API key, or `<accessKey>:<secretKey>`,
    // is that team; the operator is the control token (or, without --control-token, no
    // credentials; a team's key is never the operator). Unknown paths have no caller.
    std::optional<caller> authenticate(std::string_view path, std::optional<std::string_view> credentials) const {
        const route* r = find_route(path);
        if (!r) return std::nullopt;
        auto team = credentials ? team_by_credentials(*credentials) : nullptr;
        switch (r->access) {
            case operation_access::team:
            case operation_access::team_control:
                if (team) return caller{std::move(team)};
                return std::nullopt;
            case operation_access::team_or_server:
                if (team) return caller{std::move(team)};
                // A key that is no team's (one from before a reset) must not act on every team.
                if (is_operator(credentials, false)) return caller{};
                return std::nullopt;
            case operation_access::server:
                if (!team && is_operator(credentials, true)) return caller{};
                return std::nullopt;
        }
        return std::nullopt;
    }

    reply handle(std::string_view path, std::optional<std::string_view> credentials, std::string_view body) {
        if (!knows_path(path)) return handle(path, caller{}, body);  // 404
        auto who = authenticate(path, credentials);
        if (!who) return unauthenticated(path, credentials.has_value());
        return handle(path, *who, body);
    }

    // For a caller found by authenticate(path, ...) (the server resolves it once, before the body).
    // A fault rule of the team may answer instead (§6.5): an error, or a dropped connection
    // (reply::dropped); a delay rule makes this call wait, then run the request.
    reply handle(std::string_view path, const caller& who, std::string_view body) {
        if (auto fault = take_fault(path, who)) {
            if (fault->action != fault_action::delay) return answer_fault(path, who, body, *fault);
            std::this_thread::sleep_for(fault->delay);
        }
        return process(path, who, body);
    }

    // Any operation called with C++ values: the request is written as JSON and goes through
    // handle() like a client's (so the journal and fault rules see it), and the answer is read
    // back as the operation's response type, or as an error body.
    //   auto r = backend.call(key, esign::control_faults_list_request{});
    //   if (r) for (const auto& rule : r.response->faults) ...
    template <class Request>
    typed_reply<response_of<operation_of<Request>>> call(std::optional<std::string_view> credentials,
                                                         const Request& request) {
        using response = response_of<operation_of<Request>>;
        typed_reply<response> out;
        out.raw =
            handle(std::get<operation_index_of<Request>()>(all_operations).path, credentials, json::write(request));
        if (out.raw.status == 200) {
            if (auto r = json::read<response>(out.raw.body)) out.response = std::move(*r);
        } else if (!out.raw.dropped) {
            if (auto e = json::read<error_body>(out.raw.body)) out.error = std::move(*e);
        }
        return out;
    }

    // The steps of handle(), for a server that waits out a delay without holding a thread:
    // take_fault, then answer_fault for an error or drop rule, or process (after the delay).

    // The fault rule of the caller's team that fires for this request (public operations only);
    // it uses up one of the rule's times.
    std::optional<fault_decision> take_fault(std::string_view path, const caller& who) {
        const route* r = find_route(path);
        if (!r || !r->is_public || !who.team) return std::nullopt;
        std::lock_guard lock(who.team->harness_mutex);
        if (who.team->harness.faults.empty()) return std::nullopt;
        return who.team->harness.faults.fire_for_operation(path, who.team->ids);
    }

    // What an error or drop rule answers: the operation does not run, nothing changes.
    reply answer_fault(std::string_view path, const caller& who, std::string_view body, const fault_decision& fault) {
        const std::int64_t time = team_clock(*who.team);
        reply out;
        if (fault.action == fault_action::error)
            out = team_error(*who.team, path, failure{*fault.error});
        else {
            out.dropped = true;
            out.status = 0;
        }
        out.fault_uuid = fault.fault_uuid;
        record_in_journal(*who.team, time, path, body, out);
        return out;
    }

    // The request itself: the operation runs (a team's public requests go to its journal).
    reply process(std::string_view path, const caller& who, std::string_view body) {
        const route* r = find_route(path);
        if (!r) return transport_error(path, rules::transport_status::not_found, "No operation has this path.");
        if (!who.team || !r->is_public) return r->run(*this, path, who, body, r->read_only);
        const std::int64_t time = team_clock(*who.team);
        reply out = r->run(*this, path, who, body, r->read_only);
        record_in_journal(*who.team, time, path, body, out);
        return out;
    }

    // The error body of a failure found by the transport (rules::transport_status: 400, 404,
    // 405, 413, 415, 431): INVALID_REQUEST_FORMAT with that status (contract.md §1).
    reply transport_error(std::string_view path, unsigned status, std::string_view message) {
        return make_error(server_ids_, path, error_code::INVALID_REQUEST_FORMAT, {}, message, status, now_ms());
    }

    // 500 INTERNAL_SERVER_ERROR for a request whose handling failed inside the server (the HTTP
    // layer caught an exception).
    reply internal_error(std::string_view path, std::string_view message) {
        return make_error(server_ids_, path, error_code::INTERNAL_SERVER_ERROR, {}, message, 0, now_ms());
    }

    // 401 AUTHENTICATION_ERROR.
    reply unauthenticated(std::string_view path, bool had_credentials) {
        return make_error(server_ids_, path, error_code::AUTHENTICATION_ERROR, {},
                          had_credentials ? "These credentials may not call this operation."
                                          : "Authorization: Bearer <API key> is required.",
                          0, now_ms());
    }

    // The server's clock: wall time plus what server-wide clock advances added.
    std::int64_t now_ms() const { return options_.wall_clock() + global_offset_.load(); }

    // The OpenAPI document (GET /openapi.json), when the options carry one.
    const std::optional<std::string>& openapi_json() const noexcept { return options_.openapi_json; }

    // For in-process tests: f(const state&) over a copy of every team's store, merged (a team at
    // a time, so it is consistent per team, not across teams).
    template <class F>
    decltype(auto) inspect(F&& f) const {
        state all;
        for (const auto& shard : teams_in_order()) {
            std::shared_lock lock(shard->mutex);
            merge_into(all, shard->st);
        }
        all.clock_offset = global_offset_.load();
        return f(std::as_const(all));
    }

    // --- webhook deliveries, for the server's sender threads -------------------------------

    // The next attempt to make, teams in turn, with its webhook as it is now; waits up to `wait`.
    // Jobs whose webhook was deleted or deactivated, or whose team was reset, are dropped here.
    std::optional<webhook_attempt> next_webhook_attempt(std::chrono::milliseconds wait) {
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

    // Records an attempt's outcome in its team, and queues the retry of a failed one.
    void record_webhook_attempt(const webhook_attempt& attempt, unsigned http_status, bool delivered) {
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

    // The wait after failed attempt `attempt` (1 for the first): 500 ms, then doubling.
    static constexpr std::chrono::milliseconds retry_delay(int attempt) {
        return first_retry_delay * (std::int64_t{1} << (attempt - 1));
    }

    void stop() { deliveries_.stop(); }

private:
    using runner = reply (*)(backend&, std::string_view, const caller&, std::string_view, bool);
    struct route {
        operation_access access = operation_access::team;
        bool read_only = false;
        bool is_public = false;  // journaled, and subject to fault rules
        runner run = nullptr;
    };

    // Teams by their credentials and uuids, and in the order they were made.
    struct registry {
        std::unordered_map<std::string, std::shared_ptr<team_shard>> by_api_key;
        std::unordered_map<std::string, std::shared_ptr<team_shard>> by_access_key;
        std::multimap<std::string, std::shared_ptr<team_shard>> by_uuid;  // seeded teams may share one
        std::vector<std::shared_ptr<team_shard>> in_order;

        void add(std::shared_ptr<team_shard> shard) {
            by_api_key.emplace(shard->api_key, shard);
            by_access_key.emplace(shard->access_key, shard);
            by_uuid.emplace(shard->uuid, shard);
            in_order.push_back(std::move(shard));
        }
    };

    // ---- routing and credentials ----------------------------------------------------------

    // A runner per operation of the table: every operation's decoding, handler and encoding
    // are instantiated here (detail/backend_definitions.hpp).
    void build_routes();

    const route* find_route(std::string_view path) const noexcept {
        auto it = routes_.find(path);
        return it == routes_.end() ? nullptr : &it->second;
    }

    std::shared_ptr<team_shard> team_by_credentials(std::string_view credentials) const {
        std::shared_lock lock(registry_mutex_);
        if (auto colon = credentials.find(':'); colon != std::string_view::npos) {
            auto it = registry_.by_access_key.find(std::string(credentials.substr(0, colon)));
            if (it == registry_.by_access_key.end()) return nullptr;
            if (!detail::same_secret(credentials.substr(colon + 1), it->second->secret_key)) return nullptr;
            return it->second;
        }
        auto it = registry_.by_api_key.find(std::string(credentials));
        return it == registry_.by_api_key.end() ? nullptr : it->second;
    }

    // Whether credentials that are no team's make the operator. With a control token: exactly
    // that token. Without: no credentials, or (for server-only operations, where a key cannot
    // mean a team) any.
    bool is_operator(std::optional<std::string_view> credentials, bool any_without_token) const {
        if (options_.control_token) return credentials && detail::same_secret(*credentials, *options_.control_token);
        return !credentials || any_without_token;
    }

    std::vector<std::shared_ptr<team_shard>> teams_in_order() const {
        std::shared_lock lock(registry_mutex_);
        return registry_.in_order;
    }

    // ---- running an operation -------------------------------------------------------------

    template <class Request>
    reply run(std::string_view path, const caller& who, std::string_view body, bool read_only) {
        if constexpr (std::is_same_v<Request, control_team_restore_request>) {
            // The team object is read straight into the backend's types (one pass, no JSON
            // tree in between), always strictly: a typo in a snapshot is not ignored. Members
            // beside "team" are ignored unless --strict, as in every request: when one was
            // refused, the body is read again without them.
            if (!who.team) return unauthenticated(path, false);  // not reached: a team's operation
            auto doc = json::read<restore_document>(body, json::decode_options{true});
            if (!doc && !options_.strict && has_unknown_top_level_member(doc.problems())) doc = read_team_alone(body);
            if (!doc)
                return team_error(*who.team, path,
                                  failure{error_code::INVALID_REQUEST_FORMAT, std::move(doc).take_problems()});
            return restore_team(*who.team, who.team, path, std::move(doc->team));
        } else {
            auto request = json::read<Request>(body, json::decode_options{options_.strict});
            if (who.team) {
                if (!request)
                    return team_error(*who.team, path,
                                      failure{error_code::INVALID_REQUEST_FORMAT, std::move(request).take_problems()});
                return run_for_team(*who.team, who.team, path, *request, read_only);
            }
            if (!request)
                return make_error(server_ids_, path, error_code::INVALID_REQUEST_FORMAT,
                                  std::move(request).take_problems(), {}, 0, now_ms());
            return run_as_operator(path, *request);
        }
    }

    // An operation of one team, under that team's lock.
    template <class Request>
    reply run_for_team(team_shard& shard, const std::shared_ptr<team_shard>& owner, std::string_view path,
                       const Request& request, bool read_only) {
        if constexpr (std::is_same_v<Request, control_team_reset_request>) {
            reply out{200, json::write(empty_response{}), {}};
            {
                std::unique_lock lock(shard.mutex);
                if (shard.retired) return unauthenticated(path, true);
                out.request_id = shard.ids.uuid();  // drawn before the stream restarts
                shard.reset();
            }
            deliveries_.drop(shard);
            return out;
        } else if constexpr (std::is_same_v<Request, control_team_snapshot_request>) {
            return snapshot_team(shard, path);
        } else if constexpr (detail::has_harness_handler<Request>) {
            std::shared_lock lock(shard.mutex);  // the store is read (its webhooks), not changed
            if (shard.retired) return unauthenticated(path, true);
            const std::int64_t now = shard.now(options_.wall_clock());
            std::lock_guard harness_lock(shard.harness_mutex);
            harness_context ctx{shard.harness, shard.st, shard.ids};
            auto result = handlers::handle(ctx, request);
            if (auto* f = std::get_if<failure>(&result))
                return make_error(shard.ids, path, f->code, std::move(f->details), f->message, 0, now);
            return respond(shard.ids, path, std::get<0>(result), now);
        } else if constexpr (!detail::has_handler<Request>) {
            return team_error(shard, path,
                              failure{error_code::INTERNAL_SERVER_ERROR, {}, "Not an operation of a team."});
        } else {
            std::vector<webhook_job> jobs;
            std::uint64_t generation = 0;
            std::int64_t team_now = 0;
            bool clock_moved = false;
            reply out;
            {
                std::unique_lock write_lock(shard.mutex, std::defer_lock);
                std::shared_lock read_lock(shard.mutex, std::defer_lock);
                const std::int64_t wall = options_.wall_clock();
                if (read_only) {
                    read_lock.lock();
                    if (is_due(shard, wall)) {
                        read_lock.unlock();
                        write_lock.lock();
                    }
                } else {
                    write_lock.lock();
                }
                if (shard.retired) return unauthenticated(path, true);
                generation = shard.generation;
                context ctx{shard.st, &shard.team(), shard.now(wall), shard.ids, options_, jobs, shard.pending};
                if (write_lock.owns_lock()) timeline::apply_due(ctx);
                auto result = handlers::handle(ctx, request);
                if (auto* f = std::get_if<failure>(&result)) {
                    jobs.clear();  // a failing request changes nothing, emits nothing
                    out = make_error(shard.ids, path, f->code, std::move(f->details), f->message, 0, ctx.now);
                } else {
                    out = respond(shard.ids, path, std::get<0>(result), ctx.now);
                }
                team_now = ctx.now;
                if (write_lock.owns_lock() && shard.published_offset.load() != shard.st.clock_offset) {
                    shard.publish_clock();  // the team's clock/advance
                    clock_moved = true;
                }
            }
            for (auto& job : jobs) deliveries_.push(owner, std::move(job), generation, team_now);
            if (clock_moved) deliveries_.clock_moved();
            return out;
        }
    }

    // The team's clock now.
    std::int64_t team_clock(const team_shard& shard) const {
        std::shared_lock lock(shard.mutex);
        return shard.now(options_.wall_clock());
    }

    // A public request of the team and its answer, in the team's journal (§6.4).
    static void record_in_journal(team_shard& shard, std::int64_t time, std::string_view path, std::string_view body,
                                  const reply& out) {
        std::lock_guard lock(shard.harness_mutex);
        shard.harness.journal.record(time, path, out.status, body, out.dropped ? std::string_view{} : out.body);
    }

    // ---- snapshots (§6.6) -----------------------------------------------------------------

    // The team as one team object of the --fixture format, its whole state included. The
    // answer's request id is the server's, so that the team's stream stays where the snapshot
    // says it is (snapshot, restore, snapshot: the same bytes).
    reply snapshot_team(team_shard& shard, std::string_view path) {
        fixture_team t;
        {
            std::shared_lock lock(shard.mutex);
            if (shard.retired) return unauthenticated(path, true);
            t = fixture_team_of(shard.team());
            t.state = capture_state(shard.st, shard.ids, deliveries_.jobs_of(shard, shard.generation));
        }
        // {"team": ...} written around the team's text: the same bytes as encoding a
        // control_team_snapshot_response, without a second copy of the tree.
        std::string request_id = server_ids_.uuid();
        // (The problems' paths start inside "team".)
        if (auto instead = failed_self_check(t, rules::error_context{path, request_id, now_ms()})) return *instead;
        return reply{200, "{\"team\":" + json::write(t) + "}", std::move(request_id)};
    }

    static fixture_team fixture_team_of(const team_record& team) {
        auto count = [](std::int64_t n) {
            return ranged<0>(static_cast<std::int32_t>(std::clamp<std::int64_t>(n, 0, INT32_MAX)));
        };
        fixture_team t;
        t.uuid = uuid36(team.uuid);
        t.apiKey = fixture_api_key(team.api_key);
        t.defaultWorkspaceUuid = uuid36(team.default_workspace_uuid);
        t.name = team.name;
        t.ownerEmail = email_address(team.owner_email);
        t.ownerFirstname = team.owner_firstname;
        t.ownerLastname = team.owner_lastname;
        t.apiCredits = count(team.api_credits);
        t.emailQuota = count(team.email_quota);
        t.subscription = team.subscription;
        t.features = std::vector<plan_feature>(team.features.begin(), team.features.end());
        return t;
    }

    static bool has_unknown_top_level_member(const problem_list& problems) {
        return std::any_of(problems.begin(), problems.end(), [](const problem& p) {
            return p.kind == problem_kind::unknown_member && p.path.size() == 1;
        });
    }

    // A restore body read with its members other than "team" left out (it is well-formed JSON:
    // it was read once already).
    static result<restore_document> read_team_alone(std::string_view body) {
        auto parsed = json::parse_body(body);
        if (!parsed) return std::move(parsed).take_problems();
        if (!parsed->duplicates.empty()) return std::move(parsed->duplicates);  // refused wherever they are
        boost::json::object alone;
        if (auto* team = parsed->value.as_object().if_contains("team")) alone["team"] = std::move(*team);
        return json::decode<restore_document>(boost::json::value(std::move(alone)), json::decode_options{true});
    }

    // Replaces the team's state by a snapshot's (its uuid and credentials stay; those of the
    // snapshot are ignored). Checked whole first: a malformed snapshot changes nothing.
    reply restore_team(team_shard& shard, const std::shared_ptr<team_shard>& owner, std::string_view path,
                       fixture_team t) {
        problem_list problems = fixture_detail::build_members_beside_state(t, {"team"});
        if (!t.state)
            problems.push_back(problem{{"team", "state"}, problem_kind::missing, std::nullopt, "is required"});
        std::vector<webhook_job> pending;
        std::uint64_t generation = 0;
        std::int64_t now = 0;
        {
            std::unique_lock lock(shard.mutex);
            if (shard.retired) return unauthenticated(path, true);
            team_record& team = shard.team();
            const std::string default_ws =
                t.defaultWorkspaceUuid ? t.defaultWorkspaceUuid->str() : team.default_workspace_uuid;
            if (t.state) {
                auto found = check_state(*t.state, default_ws, {"team", "state"});
                problems.insert(problems.end(), std::make_move_iterator(found.begin()),
                                std::make_move_iterator(found.end()));
            }
            if (!problems.empty())
                return make_error(shard.ids, path, error_code::INVALID_REQUEST_FORMAT, std::move(problems), {}, 0,
                                  shard.now(options_.wall_clock()));
            fixture_detail::apply_team_members(team, t);
            team.default_workspace_uuid = default_ws;
            pending = std::move(t.state->pending_deliveries);
            install_state(shard.st, std::move(*t.state), shard.ids);
            shard.publish_clock();
            generation = ++shard.generation;
            now = shard.now(options_.wall_clock());
        }
        deliveries_.drop(shard);
        // Pending deliveries of the snapshot are due at once (their backoff is not kept).
        for (auto& job : pending) deliveries_.push(owner, std::move(job), generation, now);
        return respond(server_ids_, path, empty_response{}, now);
    }

    // Whether expiries or reminders of the team are due (under its lock).
    static bool is_due(const team_shard& shard, std::int64_t wall) {
        auto due = timeline::next_due(shard.st);
        return due && *due <= shard.now(wall);
    }

    // A failure of the team's request (its clock, its identifier stream).
    reply team_error(team_shard& shard, std::string_view path, failure f) {
        std::int64_t now = 0;
        {
            std::shared_lock lock(shard.mutex);
            now = shard.now(options_.wall_clock());
        }
        return make_error(shard.ids, path, f.code, std::move(f.details), f.message, 0, now);
    }

    reply operator_error(std::string_view path, failure f) {
        return make_error(server_ids_, path, f.code, std::move(f.details), f.message, 0, now_ms());
    }

    // The §5 meaning of a control operation called without a team's key: every team.
    template <class Request>
    reply run_as_operator(std::string_view path, const Request& request) {
        if constexpr (std::is_same_v<Request, control_reset_request>) {
            reset_all();
            return respond(server_ids_, path, empty_response{}, now_ms());
        } else if constexpr (std::is_same_v<Request, control_team_create_request>) {
            return create_team_shard(path, request);
        } else if constexpr (std::is_same_v<Request, control_team_update_request>) {
            if (!request.teamUuid)
                return operator_error(path, invalid_at({"teamUuid"}, problem_kind::missing, "is required"));
            auto shard = first_team_with_uuid(request.teamUuid->str());
            if (!shard) return operator_error(path, invalid_at({"teamUuid"}, problem_kind::invalid, "is not a team"));
            return run_for_team(*shard, shard, path, request, false);
        } else if constexpr (std::is_same_v<Request, control_recipient_act_request> ||
                             std::is_same_v<Request, control_envelope_cancel_request>) {
            auto shard = team_with_envelope(request.envelopeUuid.str());
            if (!shard) return operator_error(path, failure{error_code::ENVELOPE_NOT_FOUND});
            return run_for_team(*shard, shard, path, request, false);
        } else if constexpr (std::is_same_v<Request, control_clock_advance_request>) {
            return advance_every_clock(path, request);
        } else if constexpr (std::is_same_v<Request, control_clock_now_request>) {
            const std::int64_t now = now_ms();
            return respond(server_ids_, path, control_clock_now_response{now}, now);
        } else if constexpr (std::is_same_v<Request, control_outbox_list_request>) {
            control_outbox_list_response all;
            for_each_team_response(request, [&](control_outbox_list_response&& one) {
                for (auto& e : one.emails) all.emails.push_back(std::move(e));
            });
            std::stable_sort(all.emails.begin(), all.emails.end(),
                             [](const outbox_email& a, const outbox_email& b) { return a.timestamp < b.timestamp; });
            return respond(server_ids_, path, all, now_ms());
        } else if constexpr (std::is_same_v<Request, control_webhook_deliveries_request>) {
            control_webhook_deliveries_response all;
            for_each_team_response(request, [&](control_webhook_deliveries_response&& one) {
                for (auto& d : one.deliveries) all.deliveries.push_back(std::move(d));
            });
            return respond(server_ids_, path, all, now_ms());
        } else {
            // Not reached: authenticate() gives the operator only server and team_or_server operations.
            return operator_error(path, failure{error_code::AUTHENTICATION_ERROR});
        }
    }

    // Runs a read-only handler in every team, one team at a time, and hands each response on.
    template <class Request, class Sink>
    void for_each_team_response(const Request& request, Sink&& sink) {
        for (const auto& shard : teams_in_order()) {
            std::vector<webhook_job> none;
            std::shared_lock lock(shard->mutex);
            if (shard->retired) continue;
            context ctx{shard->st, &shard->team(), shard->now(options_.wall_clock()), shard->ids, options_, none};
            auto result = handlers::handle(ctx, request);
            if (auto* response = std::get_if<0>(&result)) sink(std::move(*response));
        }
    }

    // Every team's clock moves (frozen ones too) and its due work is applied; so does the
    // server's, which teams made later start from.
    reply advance_every_clock(std::string_view path, const control_clock_advance_request& request) {
        if (request.milliseconds < 0)
            return operator_error(path, invalid_at({"milliseconds"}, problem_kind::range, "must be at least 0"));
        const auto teams = teams_in_order();
        std::int64_t latest = now_ms();
        for (const auto& shard : teams) {
            std::shared_lock lock(shard->mutex);
            latest = std::max(latest, shard->now(options_.wall_clock()));
        }
        if (request.milliseconds > handlers::latest_clock_ms - latest)
            return operator_error(path,
                                  invalid_at({"milliseconds"}, problem_kind::range,
                                             "would move a clock past " + std::to_string(handlers::latest_clock_ms)));
        global_offset_ += request.milliseconds;
        for (const auto& shard : teams) {
            // No reply per team: the operator's request draws nothing from a team's stream
            // but the identifiers of what falls due. A team whose own advance raced this one
            // past the limit keeps its clock (the handler refuses).
            std::vector<webhook_job> jobs;
            std::uint64_t generation = 0;
            std::int64_t team_now = 0;
            {
                std::unique_lock lock(shard->mutex);
                if (shard->retired) continue;
                generation = shard->generation;
                context ctx{shard->st, &shard->team(), shard->now(options_.wall_clock()), shard->ids, options_,
                            jobs,      shard->pending};
                if (std::holds_alternative<failure>(handlers::handle(ctx, request))) jobs.clear();
                shard->publish_clock();
                team_now = ctx.now;
            }
            for (auto& job : jobs) deliveries_.push(shard, std::move(job), generation, team_now);
        }
        deliveries_.clock_moved();
        const std::int64_t now = now_ms();
        return respond(server_ids_, path, control_clock_advance_response{now}, now);
    }

    std::shared_ptr<team_shard> first_team_with_uuid(const std::string& uuid) const {
        std::shared_lock lock(registry_mutex_);
        auto it = registry_.by_uuid.find(uuid);
        return it == registry_.by_uuid.end() ? nullptr : it->second;
    }

    // The first team (in creation order) that has this envelope: one lookup per team.
    std::shared_ptr<team_shard> team_with_envelope(const std::string& uuid) const {
        for (const auto& shard : teams_in_order()) {
            std::shared_lock lock(shard->mutex);
            if (!shard->retired && shard->st.envelopes.count(uuid)) return shard;
        }
        return nullptr;
    }

    // ---- making and resetting teams -------------------------------------------------------

    reply create_team_shard(std::string_view path, const control_team_create_request& request) {
        if (request.startTime && (*request.startTime < 0 || *request.startTime > handlers::latest_clock_ms))
            return operator_error(path, invalid_at({"startTime"}, problem_kind::range,
                                                   "must be from 0 to " + std::to_string(handlers::latest_clock_ms)));
        auto shard = new_shard();
        team_identity identity;
        {
            std::lock_guard lock(create_mutex_);
            const std::uint64_t n = teams_made_++;
            if (request.seed)
                shard->ids.reseed(static_cast<std::uint64_t>(*request.seed));
            else if (options_.seed)
                shard->ids.reseed(detail::derived_seed(*options_.seed, n));
            // The default name counts the teams; a seeded team's does not depend on the others.
            if (!request.seed) identity.default_name = "Team " + std::to_string(n + 1);
            issue_keys(*shard);
        }
        identity.api_key = shard->api_key;
        shard->start_time = request.startTime;
        shard->st.clock_offset = request.startTime ? 0 : global_offset_.load();
        shard->publish_clock();
        std::vector<webhook_job> none;
        context ctx{shard->st, nullptr, shard->now(options_.wall_clock()), shard->ids, options_, none};
        const team_record& team = create_team(ctx, request, identity);
        shard->uuid = team.uuid;
        shard->mark_initial();

        control_team_create_response out{team.uuid,        team.api_key,     team.default_workspace_uuid,
                                         team.owner_uuid,  team.owner_email, shard->access_key,
                                         shard->secret_key};
        {
            std::unique_lock lock(registry_mutex_);
            registry_.add(shard);
        }
        return respond(server_ids_, path, out, now_ms());
    }

    std::shared_ptr<team_shard> new_shard() const {
        auto shard = std::make_shared<team_shard>();
        shard->harness = team_harness(options_.journal_size);
        return shard;
    }

    // New credentials, drawn from the operating system's secure source (never from a seed), and
    // never issued before in this process (240 and 192 random bits, checked against every key
    // handed out). Under create_mutex_.
    void issue_keys(team_shard& shard) {
        auto fresh = [&](std::string_view prefix, std::size_t length) {
            for (;;) {
                std::string key = std::string(prefix) + key_source_.url_safe(length);
                if (issued_.insert(key).second) return key;
            }
        };
        shard.api_key = fresh("esk_", 40);
        shard.access_key = fresh("esa_", 32);
        shard.secret_key = key_source_.url_safe(48);
    }

    registry fixture_registry(loaded_fixture loaded) {
        registry out;
        std::lock_guard lock(create_mutex_);
        for (auto& st : loaded.teams) {
            auto shard = new_shard();
            const std::uint64_t n = teams_made_++;
            if (options_.seed) shard->ids.reseed(detail::derived_seed(*options_.seed, n));
            if (auto stream = loaded.streams.find(st.teams.begin()->first); stream != loaded.streams.end())
                shard->ids.load(stream->second);
            shard->st = std::move(st);
            shard->uuid = shard->team().uuid;
            shard->api_key = shard->team().api_key;
            issued_.insert(shard->api_key);
            shard->access_key = "esa_" + key_source_.url_safe(32);
            shard->secret_key = key_source_.url_safe(48);
            shard->mark_initial();
            out.add(std::move(shard));
        }
        return out;
    }

    // Back to the state at start (empty, or the fixture), for every team: a new registry, and
    // the old teams retired (their keys answer 401, their queued deliveries are dropped).
    void reset_all() {
        registry fresh;
        {
            std::lock_guard lock(create_mutex_);
            teams_made_ = 0;
        }
        if (options_.fixture_json) {
            auto loaded = load_fixture(*options_.fixture_json, options_, options_.wall_clock());
            if (loaded.problems.empty()) fresh = fixture_registry(std::move(loaded));
        }
        std::vector<std::shared_ptr<team_shard>> old;
        {
            std::unique_lock lock(registry_mutex_);
            std::swap(registry_, fresh);
            old = std::move(fresh.in_order);
            global_offset_ = 0;
        }
        for (const auto& shard : old) {
            {
                std::unique_lock lock(shard->mutex);
                shard->retired = true;
                ++shard->generation;
            }
            deliveries_.drop(*shard);
        }
    }

    static void merge_into(state& all, const state& one) {
        for (const auto& [k, v] : one.teams) all.teams.emplace(k, v);
        for (const auto& [k, v] : one.team_by_api_key) all.team_by_api_key.emplace(k, v);
        for (const auto& [k, v] : one.workspaces) all.workspaces.emplace(k, v);
        for (const auto& [k, v] : one.envelopes) all.envelopes.emplace(k, v);
        for (const auto& [k, v] : one.templates) all.templates.emplace(k, v);
        all.contacts.insert(all.contacts.end(), one.contacts.begin(), one.contacts.end());
        for (const auto& [k, v] : one.webhooks) all.webhooks.emplace(k, v);
        all.logs.insert(all.logs.end(), one.logs.begin(), one.logs.end());
        all.outbox.insert(all.outbox.end(), one.outbox.begin(), one.outbox.end());
        all.deliveries.insert(all.deliveries.end(), one.deliveries.begin(), one.deliveries.end());
        for (const auto& [k, v] : one.iframe_tokens) all.iframe_tokens.emplace(k, v);
        all.next_seq = std::max(all.next_seq, one.next_seq);
    }

    // ---- deliveries -----------------------------------------------------------------------

    std::optional<webhook_attempt> prepare_attempt(delivery_queue::entry& next) {
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

    // ---- replies --------------------------------------------------------------------------

    // A success: `response` as JSON, unless the self-check finds that it breaks its type.
    // `now` is the clock of whoever the request is for (a team's, or the server's).
    template <class Response>
    reply respond(id_source& ids, std::string_view path, const Response& response, std::int64_t now) {
        std::string request_id = ids.uuid();
        if (auto instead = failed_self_check(response, rules::error_context{path, request_id, now})) return *instead;
        return reply{200, json::write(response), std::move(request_id)};
    }

    reply make_error(id_source& ids, std::string_view path, error_code code, problem_list problems,
                     std::string_view message, unsigned status, std::int64_t now) {
        rules::error_context ctx{path, ids.uuid(), now};
        auto body = rules::make_error_body(code, ctx, std::move(problems), message, status);
        if (auto instead = failed_self_check(body, ctx)) return *instead;
        return error_reply(body);
    }

    // With the self-check on, the 500 to send instead of `response` when it breaks its type.
    template <class Response>
    std::optional<reply> failed_self_check(const Response& response, const rules::error_context& ctx) const {
        if (!options_.self_check) return std::nullopt;
        auto instead = self_check(response, ctx, options_.self_check_log);
        if (!instead) return std::nullopt;
        return error_reply(*instead);
    }

    static reply error_reply(const error_body& body) {
        return reply{static_cast<unsigned>(body.statusCode), json::write_error_body(body), body.requestId};
    }

    backend_options options_;
    std::unordered_map<std::string_view, route> routes_;
    problem_list fixture_problems_;

    id_source server_ids_;  // request ids of the operator's requests and of transport errors
    id_source key_source_;  // credentials: always the secure source

    mutable std::shared_mutex registry_mutex_;
    registry registry_;
    std::atomic<std::int64_t> global_offset_{0};

    std::mutex create_mutex_;                 // guards the three below
    std::uint64_t teams_made_ = 0;            // since start or the last server-wide reset
    std::unordered_set<std::string> issued_;  // every key handed out (never twice)

    delivery_queue deliveries_;
};

}  // namespace esign::reference

// The definitions that instantiate every operation: here, unless the program compiles them once
// in a source file of its own (<esign/reference/src.hpp>, ESIGN_SEPARATE_COMPILATION).
#ifndef ESIGN_SEPARATE_COMPILATION
#include <esign/reference/detail/backend_definitions.hpp>
#endif
