// SPDX-License-Identifier: BSL-1.0
#pragma once
// The reference backend: the whole API in memory, behind one entry point,
//   reply handle(path, credentials, body)
// usable in-process (no network) or behind esign-reference-server. Every request goes
// bytes → JSON → typed request → rules → state change → typed response → JSON.
//
// A shared test service (contract.md §6): every team lives in its own shard (team/shard.hpp)
// with its own lock, clock and identifier stream. A request finds its operation in the table
// (model/operations.hpp) and its team by its credentials (a short shared lock on the registry),
// once; its handler then runs under that team's lock only. Server-wide operations (the
// operator's) visit the teams one at a time and never hold two teams' locks; a server-wide
// reset swaps the registry rather than locking every team while requests run.
//
// This header declares the backend; its members are defined one idea per header, in backend/
// (included at the end, unless the program compiles them once: ESIGN_SEPARATE_COMPILATION):
// routing.hpp (routes, paths, credentials, the steps of handle), runners.hpp (each row's runner,
// in parts), dispatch.hpp (a row's request to the entry its kind names), team_operations.hpp and
// run_for_team.hpp (an operation under its team's lock), run_as_signer.hpp (a signer's),
// operator_operations.hpp (the operator's, over every team),
// snapshots.hpp (§6.6), teams.hpp (making and resetting teams), webhook_deliveries.hpp (the
// sender threads' jobs), replies.hpp (error bodies) and respond.hpp (successes).
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
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <esign/json/decode.hpp>
#include <esign/json/encode.hpp>
#include <esign/json/error_body_text.hpp>
#include <esign/model/model.hpp>
#include <esign/reference/context.hpp>
#include <esign/reference/delivery/queue.hpp>
#include <esign/reference/delivery/webhook_job.hpp>
#include <esign/reference/options.hpp>
#include <esign/reference/reply.hpp>
#include <esign/reference/self_check.hpp>
#include <esign/reference/store/ids.hpp>
#include <esign/reference/store/records.hpp>
#include <esign/reference/team/shard.hpp>
#include <esign/reference/team/timeline.hpp>
#include <esign/reference/typed_reply.hpp>
#include <esign/rules/make_error_body.hpp>

namespace esign::reference {

struct state_file_document;  // hook for the state file (state_file.hpp)

// Named by the backend's declarations only: defined by the headers of its definitions (the
// fixture's types, fixture/; the harness's handlers, handlers/harness.hpp), which a source file
// that only calls the backend need not read (ESIGN_SEPARATE_COMPILATION, src.hpp).
struct fixture_team;
struct loaded_fixture;
struct restore_document;
struct harness_context;

namespace detail {
// Whether Context has a handler of Request (defined in handlers/has_handler.hpp).
template <class Context, class Request>
struct has_handler;

template <class Request, class Context>
concept handled_in = has_handler<Context, Request>::value;
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

    // (Defined in backend/teams.hpp: it loads the fixture, which reads every record type.)
    explicit backend(backend_options options = {});

    backend(const backend&) = delete;
    backend& operator=(const backend&) = delete;
    ~backend() { stop(); }

    // Problems of the fixture given in the options (empty when it loaded, or when none was given).
    const problem_list& fixture_problems() const noexcept { return fixture_problems_; }

    const backend_options& options() const noexcept { return options_; }

    // The base of the URLs the backend writes (backend_options::public_url),
    // for a server that knows its address once listening. Before any request runs only.
    void set_public_url(std::string base) { options_.public_url = std::move(base); }

    // An operation of the table as the backend runs it: what its row says, and its runner. The
    // server finds it once per request (find_route) and passes it on with the caller.
    using runner = reply (*)(backend&, const caller&, std::string_view body);
    struct route {
        std::string_view path;  // the row's (static storage)
        operation_access access = operation_access::team;
        bool read_only = false;
        bool is_public = false;  // journaled, and subject to fault rules
        runner run = nullptr;
    };

    // The route of `path` (exact match), or nullptr when it is no operation (or a control one
    // while control operations are off). Routes live as long as the backend.
    const route* find_route(std::string_view path) const noexcept;

    bool knows_path(std::string_view path) const noexcept { return find_route(path) != nullptr; }

    // The caller that `credentials` (the token of `Authorization: Bearer`) make for the route, or
    // nullopt when they may not call it (401). A team's API key, or `<accessKey>:<secretKey>`,
    // is that team; the operator is the control token (or, without --control-token, no
    // credentials; a team's key is never the operator). A signer's operation has no credentials
    // of its own (its body names the signer): its caller is nobody's (team == nullptr).
    std::optional<caller> authenticate(const route& r, std::optional<std::string_view> credentials) const;

    // The same for a path; unknown paths have no caller.
    std::optional<caller> authenticate(std::string_view path, std::optional<std::string_view> credentials) const {
        const route* r = find_route(path);
        return r ? authenticate(*r, credentials) : std::nullopt;
    }

    reply handle(std::string_view path, std::optional<std::string_view> credentials, std::string_view body) {
        const route* r = find_route(path);
        if (!r) return no_route(path);
        auto who = authenticate(*r, credentials);
        if (!who) return unauthenticated(path, credentials.has_value());
        return handle(*r, *who, body);
    }

    // For a caller found by authenticate(path, ...).
    reply handle(std::string_view path, const caller& who, std::string_view body) {
        const route* r = find_route(path);
        return r ? handle(*r, who, body) : no_route(path);
    }

    // For a route and its caller resolved once (the server does so before the body is read).
    // A fault rule of the team may answer instead (§6.5): an error, or a dropped connection
    // (reply::dropped); a delay rule makes this call wait, then run the request.
    reply handle(const route& r, const caller& who, std::string_view body) {
        if (auto fault = take_fault(r, who)) {
            if (fault->action != fault_action::delay) return answer_fault(r, who, body, *fault);
            std::this_thread::sleep_for(fault->delay);
        }
        return process(r, who, body);
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
        out.raw = handle(all_operations.get<operation_index_of<Request>()>().path, credentials, json::write(request));
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
    std::optional<fault_decision> take_fault(const route& r, const caller& who);

    // What an error or drop rule answers: the operation does not run, nothing changes.
    reply answer_fault(const route& r, const caller& who, std::string_view body, const fault_decision& fault);

    // The request itself: the operation runs (a team's public requests go to its journal).
    reply process(const route& r, const caller& who, std::string_view body);

    // The error body of a failure found by the transport (rules::transport_status: 400, 404,
    // 405, 413, 415, 431): INVALID_REQUEST_FORMAT with that status (contract.md §1).
    reply transport_error(std::string_view path, unsigned status, std::string_view message);

    // 500 INTERNAL_SERVER_ERROR for a request whose handling failed inside the server (the HTTP
    // layer caught an exception).
    reply internal_error(std::string_view path, std::string_view message);

    // 401 AUTHENTICATION_ERROR.
    reply unauthenticated(std::string_view path, bool had_credentials);

    // 404 INVALID_REQUEST_FORMAT: no operation has this path.
    reply no_route(std::string_view path) {
        return transport_error(path, rules::transport_status::not_found, "No operation has this path.");
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

    // --- the state file (contract.md §7.3), defined in <esign/reference/state_file.hpp> ------

    // Every team as the state file holds it; each team copied under its own lock, one at a time.
    state_file_document export_state();

    // Replaces every team by the file's, checked whole first: its problems, and then nothing
    // changed. The teams in place before are retired, as by a server-wide reset.
    problem_list import_state(state_file_document doc);

    // --- webhook deliveries, for the server's sender threads -------------------------------

    // The next attempt to make, teams in turn, with its webhook as it is now; waits up to `wait`.
    // Jobs whose webhook was deleted or deactivated, or whose team was reset, are dropped here.
    std::optional<webhook_attempt> next_webhook_attempt(std::chrono::milliseconds wait);

    // Whether an attempt handed out is still to be made: its team was not reset, restored or
    // retired since the job was queued (contract.md §6.3: no delivery queued before a reset is
    // attempted). Read without the team's lock; the sender asks just before writing the request.
    static bool webhook_attempt_current(const webhook_attempt& attempt);

    // Records an attempt's outcome in its team, and queues the retry of a failed one.
    void record_webhook_attempt(const webhook_attempt& attempt, unsigned http_status, bool delivered);

    // The wait after failed attempt `attempt` (1 for the first): 500 ms, then doubling.
    static constexpr std::chrono::milliseconds retry_delay(int attempt) {
        return first_retry_delay * (std::int64_t{1} << (attempt - 1));
    }

    void stop() { deliveries_.stop(); }

private:
    // Teams by their credentials and uuids, and in the order they were made.
    struct registry {
        std::unordered_map<std::string, std::shared_ptr<team_shard>> by_api_key;
        std::unordered_map<std::string, std::shared_ptr<team_shard>> by_access_key;
        std::multimap<std::string, std::shared_ptr<team_shard>> by_uuid;  // seeded teams may share one
        std::vector<std::shared_ptr<team_shard>> in_order;
        // hook for signer rows: teams by the key in their signer secrets (signer_access.hpp)
        std::unordered_map<std::string, std::shared_ptr<team_shard>> by_signer_key;

        void add(std::shared_ptr<team_shard> shard) {
            by_signer_key.emplace(shard->signer_key, shard);  // hook for signer rows
            by_api_key.emplace(shard->api_key, shard);
            by_access_key.emplace(shard->access_key, shard);
            by_uuid.emplace(shard->uuid, shard);
            in_order.push_back(std::move(shard));
        }
    };

    // ---- routing and credentials (backend/routing.hpp) ------------------------------------------

    // A route per operation of the table (backend/routing.hpp), with the runners of add_runners.
    void build_routes();

    // The runners of part Part of the rows (runner_parts parts in table order), each at its
    // row's index (backend/runners.hpp). Instantiating run<Row> is most of what compiling the
    // backend costs; in parts, a program may compile them in several source files (src.hpp).
    static constexpr std::size_t runner_parts = 9;
    template <std::size_t Part>
    static void add_runners(std::span<runner> by_row);

    std::shared_ptr<team_shard> team_by_credentials(std::string_view credentials) const;

    // Whether credentials that are no team's make the operator. With a control token: exactly
    // that token. Without: no credentials, or (for server-only operations, where a key cannot
    // mean a team) any.
    bool is_operator(std::optional<std::string_view> credentials, bool any_without_token) const;

    // ---- dispatch: a row's request read, then its entry (backend/dispatch.hpp) -------------------

    // The runner of row Row: its request read from the body, then run_for_team (a team's caller),
    // run_as_operator (the operator) or run_as_signer (a signer's row), as the row's kind allows.
    template <std::size_t Row>
    reply run(const caller& who, std::string_view body);

    // The body read as the request its entry takes (members unknown refused with --strict).
    template <class Request>
    result<Request> read_request(std::string_view body, std::type_identity<Request>) const;

    // §6.6: a restore's team object is read straight into the backend's types (one pass, no JSON
    // tree in between), always strictly: a typo in a snapshot is not ignored. Members beside
    // "team" are ignored unless --strict, as in every request.
    result<restore_document> read_request(std::string_view body,
                                          std::type_identity<control_team_restore_request>) const;

    // ---- a team's entries, under its lock (backend/team_operations.hpp) -------------------------
    // One overload per kind of handler, found by the request's type: a handler of the team's
    // store (handlers::handle(context&, ...)), of its harness (handlers::handle(harness_context&,
    // ...)), and the three that need the backend itself (reset, snapshot, restore).

    template <detail::handled_in<context> Request>
    reply run_for_team(team_shard& shard, const std::shared_ptr<team_shard>& owner, std::string_view path,
                       const Request& request, bool read_only);

    template <detail::handled_in<harness_context> Request>
    reply run_for_team(team_shard& shard, const std::shared_ptr<team_shard>& owner, std::string_view path,
                       const Request& request, bool read_only);

    reply run_for_team(team_shard& shard, const std::shared_ptr<team_shard>& owner, std::string_view path,
                       const control_team_reset_request& request, bool read_only);

    reply run_for_team(team_shard& shard, const std::shared_ptr<team_shard>& owner, std::string_view path,
                       const control_team_snapshot_request& request, bool read_only);

    reply run_for_team(team_shard& shard, const std::shared_ptr<team_shard>& owner, std::string_view path,
                       restore_document request, bool read_only);

    // The team as right after its creation (§6.3); its queued deliveries are dropped.
    reply reset_team(team_shard& shard, std::string_view path);

    // The stream a team's reply to Request draws its requestId from: the team's, but for
    // observing the team (a read-only control row: its clock, journal, outbox, deliveries, fault
    // rules), the server's, so that an inspector or a test that polls leaves the team's seeded
    // identifiers as they would be without it (§6.3; the snapshot does the same).
    template <class Request>
    id_source& reply_ids(team_shard& shard);

    // The team's clock now.
    std::int64_t team_clock(const team_shard& shard) const;

    // A public request of the team and its answer, in the team's journal (§6.4).
    static void record_in_journal(team_shard& shard, std::int64_t time, std::string_view path, std::string_view body,
                                  const reply& out);

    // Whether expiries or reminders of the team are due (under its lock).
    static bool is_due(const team_shard& shard, std::int64_t wall);

    // A failure of the team's request, on its clock; its requestId from `ids` (reply_ids).
    reply team_error(team_shard& shard, id_source& ids, std::string_view path, failure f);

    // ---- the operator's entries, over every team (backend/operator_operations.hpp) ---------------
    // The §5 meaning of a server or team_or_server row called without a team's key: one overload
    // per operation.

    reply run_as_operator(std::string_view path, const control_reset_request& request);
    reply run_as_operator(std::string_view path, const control_team_create_request& request);
    reply run_as_operator(std::string_view path, const control_team_update_request& request);
    reply run_as_operator(std::string_view path, const control_recipient_act_request& request);
    reply run_as_operator(std::string_view path, const control_envelope_cancel_request& request);
    reply run_as_operator(std::string_view path, const control_clock_advance_request& request);
    reply run_as_operator(std::string_view path, const control_clock_now_request& request);
    reply run_as_operator(std::string_view path, const control_outbox_list_request& request);
    reply run_as_operator(std::string_view path, const control_webhook_deliveries_request& request);

    // §6.9: runs the request in the team that holds its envelope (among those its teamUuid names).
    template <class Request>
    reply run_in_team_holding_envelope(std::string_view path, const Request& request);

    // Runs a read-only handler in every team, one team at a time, and hands each response on.
    template <class Request, class Sink>
    void for_each_team_response(const Request& request, Sink&& sink);

    reply operator_error(std::string_view path, failure f);

    std::shared_ptr<team_shard> first_team_with_uuid(const std::string& uuid) const;

    // ---- a signer's entry (backend/signer_operations.hpp) ---------------------------------------
    // A signer row's request (operation_access::signer), on the calling thread (no team queue):
    // the team that the body's token or session names, then the operation as the team's, under
    // its lock; journaled with secrets redacted.
    template <class Request>
    reply run_as_signer(std::string_view path, const Request& request);

    // The team whose key a secret of that kind carries (empty prefix: an iframe or link token).
    std::shared_ptr<team_shard> team_by_signer_secret(std::string_view secret, std::string_view prefix) const;

    // ---- snapshots (§6.6) (backend/snapshots.hpp) -----------------------------------------------

    // The team as one team object of the --fixture format, its whole state included. The
    // answer's request id is the server's, so that the team's stream stays where the snapshot
    // says it is (snapshot, restore, snapshot: the same bytes).
    reply snapshot_team(team_shard& shard, std::string_view path);

    static fixture_team fixture_team_of(const team_record& team);

    static bool has_unknown_top_level_member(const problem_list& problems);

    // A restore body read with its members other than "team" left out (it is well-formed JSON:
    // it was read once already).
    static result<restore_document> read_team_alone(std::string_view body);

    // Replaces the team's state by a snapshot's (its uuid and credentials stay; those of the
    // snapshot are ignored). Checked whole first: a malformed snapshot changes nothing.
    reply restore_team(team_shard& shard, const std::shared_ptr<team_shard>& owner, std::string_view path,
                       fixture_team t);

    // ---- making, finding and resetting teams (backend/teams.hpp) --------------------------------

    std::vector<std::shared_ptr<team_shard>> teams_in_order() const;

    reply create_team_shard(std::string_view path, const control_team_create_request& request);

    std::shared_ptr<team_shard> new_shard() const;

    // New credentials, drawn from the operating system's secure source (never from a seed), and
    // never issued before in this process (240 and 192 random bits, checked against every key
    // handed out). Under create_mutex_.
    void issue_keys(team_shard& shard);

    registry fixture_registry(loaded_fixture loaded);

    // Back to the state at start (empty, or the fixture), for every team: a new registry, and
    // the old teams retired (their keys answer 401, their queued deliveries are dropped).
    void reset_all();

    static void merge_into(state& all, const state& one);

    // ---- webhook deliveries (backend/webhook_deliveries.hpp) ------------------------------------

    std::optional<webhook_attempt> prepare_attempt(delivery_queue::entry& next);

    // ---- replies (backend/replies.hpp) ----------------------------------------------------------

    // A success: `response` as JSON, unless the self-check finds that it breaks its type.
    // `now` is the clock of whoever the request is for (a team's, or the server's).
    template <class Response>
    reply respond(id_source& ids, std::string_view path, const Response& response, std::int64_t now);

    reply make_error(id_source& ids, std::string_view path, error_code code, problem_list problems,
                     std::string_view message, unsigned status, std::int64_t now);

    // What an error body of this request says beside its code (the documentation base configured).
    rules::error_context error_context_of(std::string_view path, std::string request_id, std::int64_t now) const {
        return rules::error_context{path, std::move(request_id), now, options_.documentation_base};
    }

    // With the self-check on, the 500 to send instead of `response` when it breaks its type.
    template <class Response>
    std::optional<reply> failed_self_check(const Response& response, const rules::error_context& ctx) const;

    static reply error_reply(const error_body& body);

    backend_options options_;
    std::unordered_map<std::string_view, route> routes_;
    problem_list fixture_problems_;

    id_source server_ids_;  // request ids of the operator's requests and of transport errors
    id_source key_source_;  // credentials: always the secure source

    mutable std::shared_mutex registry_mutex_;
    registry registry_;
    std::atomic<std::int64_t> global_offset_{0};

    // Guards the two below, and every change of registry_ (team/create's add, a server-wide
    // reset's swap), so that --max-teams counts the teams of the registry they join exactly.
    std::mutex create_mutex_;
    std::uint64_t teams_made_ = 0;            // since start or the last server-wide reset
    std::unordered_set<std::string> issued_;  // every key handed out (never twice)

    delivery_queue deliveries_;

public:
    // ---- the entry points of the rows (backend/dispatch.hpp) -------------------------------------
    // Whether the backend has the entry its row's kind needs for Request: for a team (a handler
    // of reference/handlers/, or one of the backend's own team entries below), and for the
    // operator (a run_as_operator overload). dispatch.hpp asserts them for every row.
    // (Defined in dispatch.hpp, where the class is complete: clang judges a requires-expression
    // in a member's initializer at once.)
    template <class Request>
    static consteval bool runs_for_team();
    template <class Request>
    static consteval bool runs_for_operator();
};

}  // namespace esign::reference

// The members' definitions (one idea per header under backend/, which read the handlers and the
// fixture): here, unless the program compiles them once in a source file of its own
// (<esign/reference/src.hpp>, ESIGN_SEPARATE_COMPILATION), when this header only declares them.
#ifndef ESIGN_SEPARATE_COMPILATION
#include <esign/reference/detail/backend_definitions.hpp>
#endif
