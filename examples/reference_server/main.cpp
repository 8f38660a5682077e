// SPDX-License-Identifier: BSL-1.0
// esign-reference-server: the in-memory reference backend behind HTTP/1.1 (contract.md §5).
//
// Source files compiled in parallel (ESIGN_SEPARATE_COMPILATION: the backend's operations in the
// parts of examples/backend_definitions/, the OpenAPI document in openapi_document.cpp):
//   g++ -std=c++20 -O2 -DESIGN_SEPARATE_COMPILATION -Iinclude examples/reference_server/*.cpp
//       examples/backend_definitions/*.cpp -o esign-reference-server -lboost_json -lfmt -lssl -lcrypto -pthread
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdlib>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <pthread.h>

#include <boost/asio/io_context.hpp>

#include <esign/reference/backend.hpp>

#include "cli.hpp"
#include "http_server.hpp"
#include "log.hpp"
#include "openapi_document.hpp"
#include "state_file.hpp"
#include "tls.hpp"
#include "webhook_sender.hpp"

namespace {

using namespace esign;

std::string format_path(const problem_path& path) {
    std::string out;
    for (const auto& key : path) out += "/" + key;
    return out.empty() ? "/" : out;
}

// Counts the HTTP threads still running, and wakes main when one ends or a signal came.
struct run_state {
    std::mutex mutex;
    std::condition_variable cv;
    bool signaled = false;
    unsigned running = 0;
};

// SIGINT and SIGTERM, taken by a thread of their own with sigwait rather than by a handler: they
// are blocked in every thread (main blocks them before it starts any), so no thread is
// interrupted and the stop does not depend on which thread the kernel picks. (Under
// ThreadSanitizer a handler runs only once the thread it interrupted passes an interceptor;
// a stop could wait on that for more than 30 s.)
sigset_t stop_signals() {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    return set;
}

class stop_signal_waiter {
public:
    // Wakes `state` (signaled) at the first SIGINT or SIGTERM.
    explicit stop_signal_waiter(run_state& state)
        : state_(state), thread_([&state] {
              const sigset_t set = stop_signals();
              int signal = 0;
              while (sigwait(&set, &signal) != 0) {}
              std::lock_guard lock(state.mutex);
              state.signaled = true;
              state.cv.notify_all();
          }) {}
    stop_signal_waiter(const stop_signal_waiter&) = delete;
    stop_signal_waiter& operator=(const stop_signal_waiter&) = delete;
    // Without a signal (the HTTP threads ended), sends the thread one of its own to end its wait.
    ~stop_signal_waiter() {
        {
            std::lock_guard lock(state_.mutex);
            if (!state_.signaled) pthread_kill(thread_.native_handle(), SIGTERM);
        }
        thread_.join();
    }

private:
    run_state& state_;
    std::thread thread_;
};

int run(const server::command_line& cl, std::optional<std::string> control_token) {
    server::logger log(cl.verbose);

    reference::backend_options options;
    options.strict = cl.strict;
    options.public_webhooks_only = cl.public_webhooks_only;
    options.seed = cl.seed;
    options.journal_size = cl.journal_size;
    if (cl.documentation_base) options.documentation_base = *cl.documentation_base;
    options.control_token = std::move(control_token);
    options.max_teams = cl.max_teams;
    options.control_enabled = !cl.no_control;
    options.openapi_json = server::openapi_document();
    options.self_check = cl.self_check || server::self_check_from_environment(std::getenv("ESIGN_SELF_CHECK"));
    options.self_check_log = [&log](std::string_view text) { log.error(text); };
    // §6.7: a snapshot's text beyond its first 256 KiB goes to an unnamed file there, and is sent
    // from it (reply::spooled).
    const char* tmpdir = std::getenv("TMPDIR");
    options.spool_directory = tmpdir && *tmpdir ? tmpdir : "/tmp";
    if (cl.fixture_file) {
        std::string error;
        auto text = server::read_whole_file(*cl.fixture_file, error);
        if (!text) {
            log.error(fmt::format("--fixture {}: {}", *cl.fixture_file, error));
            return 2;
        }
        options.fixture_json = std::move(*text);
    }

    std::optional<reference::backend> backend;
    try {
        backend.emplace(std::move(options));
    } catch (const std::exception& e) {
        log.error(fmt::format("cannot start the backend: {}", e.what()));
        return 2;
    }
    if (!backend->fixture_problems().empty()) {
        log.error(fmt::format("--fixture {}: refused:", *cl.fixture_file));
        for (const auto& p : backend->fixture_problems())
            log.error(fmt::format("  at {}: {}", format_path(p.path), p.message));
        return 2;
    }

    // Hook for the state file (contract.md §7.3): its teams replace the fixture's; a file that
    // cannot be loaded, or a folder where it could not be saved, stops the start.
    std::optional<server::state_saver> saver;
    if (cl.state_file) {
        const std::string& file = *cl.state_file;
        if (auto error = server::state_file_unwritable(file)) {
            log.error(fmt::format("--state-file {}: {}", file, *error));
            return 2;
        }
        auto read = server::read_state_file_text(file);
        if (!read.error.empty()) {
            log.error(fmt::format("--state-file {}: {}", file, read.error));
            return 2;
        }
        if (read.text) {
            auto problems = reference::load_state(*backend, *read.text);
            if (!problems.empty()) {
                log.error(fmt::format("--state-file {}: refused (nothing loaded, the file is left as it is):", file));
                for (const auto& p : problems) log.error(fmt::format("  at {}: {}", format_path(p.path), p.message));
                return 2;
            }
        }
        std::optional<std::chrono::seconds> interval;
        if (cl.save_interval) interval = std::chrono::seconds(*cl.save_interval);
        saver.emplace(*backend, file, interval, log);
    }

    const unsigned threads = cl.effective_threads();
    boost::asio::io_context ioc(static_cast<int>(threads));
    server::http_config config;
    config.max_body = cl.max_body;
    config.max_connections = cl.max_connections;
    config.header_timeout = cl.header_timeout;
    config.body_timeout = cl.body_timeout;
    config.write_timeout = cl.write_timeout;
    server::http_server http(ioc, *backend, config, log);
    // HTTPS (contract.md §7.4): the files are loaded before listening, so that a bad one is an
    // exit status 2 with OpenSSL's reason.
    if (cl.tls_cert) {
        auto context = server::make_tls_context(*cl.tls_cert, *cl.tls_key);
        if (auto* error = std::get_if<server::tls_setup_error>(&context)) {
            log.error(error->message);
            return 2;
        }
        http.use_tls(std::get<std::shared_ptr<boost::asio::ssl::context>>(std::move(context)));
    }
    const char* const scheme = http.uses_tls() ? "https" : "http";

    boost::asio::ip::tcp::endpoint bound;
    try {
        bound = http.listen(cl.listen.host, cl.listen.port);
    } catch (const std::exception& e) {
        log.error(e.what());
        return 2;
    }

    const auto address = bound.address();
    const std::string host = address.is_v6() ? "[" + address.to_string() + "]" : address.to_string();
    // The base of written URLs (contract.md §7.1), set before any request is served.
    backend->set_public_url(cl.public_url.value_or(fmt::format("{}://{}:{}", scheme, host, bound.port())));

    server::webhook_sender sender(*backend, cl.webhook_threads, cl.public_webhooks_only, log);

    run_state state;
    stop_signal_waiter signals(state);

    http.start();
    sender.start();
    if (saver) saver->start();

    std::printf("listening on %s://%s:%u\n", scheme, host.c_str(), static_cast<unsigned>(bound.port()));
    std::fflush(stdout);
    log.info(fmt::format("{} HTTP threads, {} webhook threads, max body {} bytes{}{}{}{}", threads, cl.webhook_threads,
                         cl.max_body, http.uses_tls() ? ", TLS" : "", cl.strict ? ", strict" : "",
                         cl.public_webhooks_only ? ", public webhooks only" : "",
                         backend->options().self_check ? ", self-check" : ""));

    std::vector<std::thread> pool;
    state.running = threads;
    for (unsigned i = 0; i < threads; ++i)
        pool.emplace_back([&] {
            for (;;) {
                try {
                    ioc.run();
                    break;
                } catch (const std::exception& e) {
                    log.error(fmt::format("handler: {}", e.what()));
                } catch (...) {
                    log.error("handler: unknown exception");
                }
            }
            std::lock_guard lock(state.mutex);
            --state.running;
            state.cv.notify_all();
        });

    {
        // Until a signal (or, which should not happen, the HTTP threads ran out of work).
        std::unique_lock lock(state.mutex);
        state.cv.wait(lock, [&] { return state.signaled || state.running == 0; });
        if (state.signaled) http.shutdown();
        // Requests under way get a few seconds to finish; then everything stops.
        if (!state.cv.wait_for(lock, std::chrono::seconds(5), [&] { return state.running == 0; })) {
            log.error("connections still open after 5 s: closing them");
            ioc.stop();
        }
    }
    for (auto& t : pool) t.join();
    sender.stop();
    // Every request answered and every attempt recorded: the state to keep (§7.3).
    if (saver) {
        saver->stop();
        if (!saver->save()) return 1;
    }
    log.info("stopped");
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    std::signal(SIGPIPE, SIG_IGN);
    // Blocked before any thread starts, so in all of them: stop_signal_waiter takes them.
    const sigset_t stop = stop_signals();
    pthread_sigmask(SIG_BLOCK, &stop, nullptr);
    std::vector<std::string_view> args(argv + 1, argv + argc);
    auto parsed = esign::server::parse_command_line(args);
    if (auto* error = std::get_if<esign::server::command_line_error>(&parsed)) {
        std::fprintf(stderr, "esign-reference-server: %s\n\n%.*s", error->message.c_str(),
                     static_cast<int>(esign::server::usage_text.size()), esign::server::usage_text.data());
        return 2;
    }
    const auto& cl = std::get<esign::server::command_line>(parsed);
    if (cl.help) {
        std::fwrite(esign::server::usage_text.data(), 1, esign::server::usage_text.size(), stdout);
        return 0;
    }
    // The operator's token, from the one source given (a file, the environment, the command line).
    auto token = esign::server::control_token_of(cl, std::getenv("ESIGN_CONTROL_TOKEN"));
    if (auto* error = std::get_if<esign::server::command_line_error>(&token)) {
        std::fprintf(stderr, "esign-reference-server: %s\n", error->message.c_str());
        return 2;
    }
    try {
        return run(cl, std::get<std::optional<std::string>>(std::move(token)));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "esign-reference-server: %s\n", e.what());
        return 1;
    }
}
