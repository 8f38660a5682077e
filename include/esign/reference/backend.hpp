#pragma once
// The reference backend: the whole API in memory, behind one entry point,
//   reply handle(path, api_key, body)
// usable in-process (no network) or behind esign-reference-server. Every request goes
// bytes → JSON → typed request → rules → state change → typed response → JSON.
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <esign/json/decode.hpp>
#include <esign/json/encode.hpp>
#include <esign/json/error_body.hpp>
#include <esign/model/model.hpp>
#include <esign/reference/context.hpp>
#include <esign/reference/handlers/all.hpp>
#include <esign/reference/ids.hpp>
#include <esign/reference/options.hpp>
#include <esign/reference/reply.hpp>
#include <esign/reference/state.hpp>
#include <esign/reference/fixture.hpp>
#include <esign/reference/timeline.hpp>
#include <esign/reference/webhook_job.hpp>

namespace esign::reference {

namespace detail {
// Operations that only read the store: they share the lock with each other.
inline constexpr std::string_view read_only_operations[] = {
    "/public/envelope/get",  "/public/envelope/list", "/public/webhook/list",       "/public/workspace/list",
    "/public/workspace/get", "/public/contact/list",  "/public/template/list",      "/public/logs/list",
    "/public/utils/whoami",  "/_control/clock/now",   "/_control/outbox/list",      "/_control/webhook/deliveries",
};

inline bool is_read_only(std::string_view path) {
    for (auto p : read_only_operations)
        if (p == path) return true;
    return false;
}

template <class Request>
concept has_handler = requires(context& c, const Request& r) { handlers::handle(c, r); };
} // namespace detail

class backend {
public:
    // Webhook retries: attempts in all, and the delay before the first retry (doubling after).
    static constexpr int max_webhook_attempts = 5;
    static constexpr std::chrono::milliseconds first_retry_delay{500};

    explicit backend(backend_options options = {}) : options_(std::move(options)), ids_(options_.seed) {
        if (!options_.wall_clock)
            options_.wall_clock = [] {
                using namespace std::chrono;
                return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
            };
        build_routes();
        if (auto problems = load_initial_state(); !problems.empty()) fixture_problems_ = std::move(problems);
    }

    backend(const backend&) = delete;
    backend& operator=(const backend&) = delete;
    ~backend() { stop(); }

    // Problems of the fixture given in the options (empty when it loaded, or when none was given).
    const problem_list& fixture_problems() const noexcept { return fixture_problems_; }

    bool knows_path(std::string_view path) const noexcept { return routes_.count(path) != 0; }

    bool needs_api_key(std::string_view path) const noexcept {
        auto it = routes_.find(path);
        return it != routes_.end() && it->second.needs_api_key;
    }

    bool is_valid_api_key(std::string_view key) const {
        std::shared_lock lock(mutex_);
        return state_.team_by_api_key.count(std::string(key)) != 0;
    }

    std::int64_t now_ms() const {
        std::shared_lock lock(mutex_);
        return options_.wall_clock() + state_.clock_offset;
    }

    const backend_options& options() const noexcept { return options_; }

    reply handle(std::string_view path, std::optional<std::string_view> api_key, std::string_view body) {
        auto it = routes_.find(path);
        if (it == routes_.end())
            return transport_error(path, rules::transport_status::not_found, "INVALID_REQUEST_FORMAT",
                                   "No operation has this path.");
        const route& r = it->second;
        if (r.needs_api_key && !(api_key && is_valid_api_key(*api_key)))
            return make_error(path, error_code::AUTHENTICATION_ERROR, {}, {}, 0, now_ms());
        return r.run(*this, path, api_key, body);
    }

    // The error body of a failure found by the transport (404, 405, 413, 415, 401).
    reply transport_error(std::string_view path, unsigned status, std::string_view code, std::string_view message) {
        auto parsed = enum_from_wire<error_code>(code).value_or(error_code::INVALID_REQUEST_FORMAT);
        return make_error(path, parsed, {}, message, status, now_ms());
    }

    // The OpenAPI document (GET /openapi.json), when the options carry one.
    const std::optional<std::string>& openapi_json() const noexcept { return options_.openapi_json; }

    // Read the whole store (for in-process tests): f(const state&).
    template <class F>
    decltype(auto) inspect(F&& f) const {
        std::shared_lock lock(mutex_);
        return f(std::as_const(state_));
    }

    // --- webhook deliveries, for the server's sender threads -------------------------------

    std::optional<webhook_job> next_webhook_job(std::chrono::milliseconds wait) {
        std::unique_lock lock(jobs_mutex_);
        const auto deadline = std::chrono::steady_clock::now() + wait;
        while (!stopped_) {
            const auto now = std::chrono::steady_clock::now();
            if (!jobs_.empty() && jobs_.front().due <= now) {
                webhook_job job = std::move(jobs_.front().job);
                jobs_.pop_front();
                return job;
            }
            if (now >= deadline) return std::nullopt;
            auto until = deadline;
            if (!jobs_.empty()) until = std::min(until, jobs_.front().due);
            jobs_cv_.wait_until(lock, until);
        }
        return std::nullopt;
    }

    void record_webhook_attempt(const webhook_job& job, unsigned http_status, bool delivered) {
        {
            std::unique_lock lock(mutex_);
            for (auto& d : state_.deliveries)
                if (d.event_uuid == job.event_uuid && d.webhook_uuid == job.webhook_uuid) {
                    ++d.attempts;
                    d.delivered = delivered;
                    if (http_status != 0) d.last_status = http_status;
                }
        }
        if (delivered || job.attempt >= max_webhook_attempts) return;
        webhook_job retry = job;
        ++retry.attempt;
        const auto delay = first_retry_delay * (1 << (job.attempt - 1));
        enqueue(std::move(retry), std::chrono::steady_clock::now() + delay);
    }

    void stop() {
        {
            std::lock_guard lock(jobs_mutex_);
            stopped_ = true;
        }
        jobs_cv_.notify_all();
    }

private:
    struct route {
        bool needs_api_key = true;
        bool read_only = false;
        std::function<reply(backend&, std::string_view, std::optional<std::string_view>, std::string_view)> run;
    };
    struct queued_job {
        webhook_job job;
        std::chrono::steady_clock::time_point due;
    };

    void build_routes() {
        for_each_operation([&](const auto& op) {
            using op_type = std::remove_cvref_t<decltype(op)>;
            using request = typename op_type::request_type;
            route r;
            r.needs_api_key = op.needs_api_key;
            r.read_only = detail::is_read_only(op.path);
            r.run = [read_only = r.read_only](backend& self, std::string_view path,
                                              std::optional<std::string_view> key, std::string_view body) {
                return self.run<request>(path, key, body, read_only);
            };
            routes_.emplace(op.path, std::move(r));
        });
    }

    template <class Request>
    reply run(std::string_view path, std::optional<std::string_view> key, std::string_view body, bool read_only) {
        auto request = json::read<Request>(body, json::decode_options{options_.strict});
        if (!request) return make_error(path, error_code::INVALID_REQUEST_FORMAT, request.problems(), {}, 0, now_ms());

        if constexpr (std::is_same_v<Request, control_reset_request>) {
            std::unique_lock lock(mutex_);
            reset_locked();
            return ok(json::encode(empty_response{}));
        } else if constexpr (!detail::has_handler<Request>) {
            return make_error(path, error_code::INTERNAL_SERVER_ERROR, {}, "This operation is not available yet.", 0,
                              now_ms());
        } else {
            std::vector<webhook_job> jobs;
            reply out;
            {
                std::unique_lock<std::shared_mutex> write_lock(mutex_, std::defer_lock);
                std::shared_lock<std::shared_mutex> read_lock(mutex_, std::defer_lock);
                const std::int64_t now_wall = options_.wall_clock();
                if (read_only && !due_locked_shared(now_wall)) read_lock.lock();
                else write_lock.lock();
                if (write_lock.owns_lock()) apply_due_locked(jobs);

                team_record* team = nullptr;
                if (key) {
                    auto t = state_.team_by_api_key.find(std::string(*key));
                    if (t != state_.team_by_api_key.end()) team = &state_.teams.at(t->second);
                }
                context ctx{state_, team, options_.wall_clock() + state_.clock_offset, ids_, options_, jobs};
                auto result = handlers::handle(ctx, *request);
                if (auto* f = std::get_if<failure>(&result)) {
                    jobs.clear();  // a failing request changes nothing, emits nothing
                    out = make_error(path, f->code, f->details, f->message, 0, ctx.now);
                } else {
                    out = ok(json::encode(std::get<0>(result)));
                }
            }
            for (auto& job : jobs) enqueue(std::move(job), std::chrono::steady_clock::now());
            return out;
        }
    }

    // Whether expiries or reminders are due (checked under a shared lock first, cheaply).
    bool due_locked_shared(std::int64_t wall) const {
        std::shared_lock lock(mutex_);
        auto due = timeline::next_due(state_);
        return due && *due <= wall + state_.clock_offset;
    }

    void apply_due_locked(std::vector<webhook_job>& jobs) {
        context ctx{state_, nullptr, options_.wall_clock() + state_.clock_offset, ids_, options_, jobs};
        timeline::apply_due(ctx);
    }

    reply ok(const boost::json::value& body) {
        return reply{200, boost::json::serialize(body), ids_.uuid()};
    }

    // `now` is the backend's clock, read by the caller (which may hold the store's lock).
    reply make_error(std::string_view path, error_code code, const problem_list& problems, std::string_view message,
                     unsigned status, std::int64_t now) {
        json::error_context ctx{path, ids_.uuid(), now};
        auto body = json::make_error_body(code, ctx, problems, message, status);
        return reply{static_cast<unsigned>(body.statusCode), json::write(body), ctx.request_id};
    }

    void enqueue(webhook_job job, std::chrono::steady_clock::time_point due) {
        {
            std::lock_guard lock(jobs_mutex_);
            auto pos = std::find_if(jobs_.begin(), jobs_.end(), [&](const queued_job& q) { return q.due > due; });
            jobs_.insert(pos, queued_job{std::move(job), due});
        }
        jobs_cv_.notify_one();
    }

    // Back to the state at start: empty, or what the fixture loaded; clock offset included.
    void reset_locked() {
        state_ = state{};
        {
            std::lock_guard lock(jobs_mutex_);
            jobs_.clear();
        }
        ids_.reseed(options_.seed);
        if (options_.fixture_json) {
            std::vector<webhook_job> jobs;
            context ctx{state_, nullptr, options_.wall_clock(), ids_, options_, jobs};
            load_fixture(ctx, *options_.fixture_json);
        }
    }

    problem_list load_initial_state() {
        if (!options_.fixture_json) return {};
        std::unique_lock lock(mutex_);
        std::vector<webhook_job> jobs;
        context ctx{state_, nullptr, options_.wall_clock(), ids_, options_, jobs};
        return load_fixture(ctx, *options_.fixture_json);
    }

    backend_options options_;
    id_source ids_;
    std::unordered_map<std::string_view, route> routes_;
    problem_list fixture_problems_;

    mutable std::shared_mutex mutex_;
    state state_;

    std::mutex jobs_mutex_;
    std::condition_variable jobs_cv_;
    std::deque<queued_job> jobs_;
    bool stopped_ = false;
};

} // namespace esign::reference
