// SPDX-License-Identifier: BSL-1.0
#pragma once
// The esign-reference-server executable as a child process, for black-box tests.
//
// The executable: the environment variable ESIGN_SERVER, else the compile definition
// ESIGN_SERVER_PATH (a string literal), else "esign-reference-server" on PATH.
//
//   esign::test::server_process srv({"--max-body", "100"});   // adds --listen 127.0.0.1:0 --self-check
//   srv.host(), srv.port()                                     // from its "listening on" line
//   int status = srv.stop();                                   // SIGTERM; exit status (0 = clean)
//
// The destructor stops it too (if not already stopped) and reports an unclean exit on stderr;
// call stop() and check the result where the exit status matters.
//
// run_to_exit() runs it with exactly the given arguments and collects its exit status and
// output (for command-line errors, --help, a missing fixture...).
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>
#include <regex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "process_memory.hpp"

extern char** environ;

namespace esign::test {

namespace detail {

inline std::string errno_text(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

// The executable's path: as given when it has a '/', else looked up on PATH.
inline std::string resolve_executable(const std::string& exe) {
    if (exe.find('/') != std::string::npos) return exe;
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
    std::size_t start = 0;
    while (start <= dirs.size()) {
        auto end = dirs.find(':', start);
        if (end == std::string::npos) end = dirs.size();
        std::string candidate = (end > start ? dirs.substr(start, end - start) : std::string(".")) + "/" + exe;
        if (::access(candidate.c_str(), X_OK) == 0) return candidate;
        start = end + 1;
    }
    return exe;
}

// Starts the child with stdout (and optionally stderr) on pipes and stdin from /dev/null.
// The child gets SIGKILL if the thread that started it ends (PR_SET_PDEATHSIG), so that a
// crashing test never leaves a server behind holding the test runner's pipes: start servers
// from the thread that runs the test.
struct spawned {
    pid_t pid = -1;
    int out = -1;  // read end of stdout
    int err = -1;  // read end of stderr, or -1 when stderr is inherited
};

inline spawned spawn(const std::string& exe, const std::vector<std::string>& args, bool capture_stderr) {
    const std::string path = resolve_executable(exe);
    int out_pipe[2];
    int err_pipe[2] = {-1, -1};
    int exec_pipe[2];  // closed on exec; carries errno when exec fails
    if (::pipe2(out_pipe, O_CLOEXEC) != 0) throw std::runtime_error(errno_text("pipe"));
    if (::pipe2(exec_pipe, O_CLOEXEC) != 0 || (capture_stderr && ::pipe2(err_pipe, O_CLOEXEC) != 0)) {
        ::close(out_pipe[0]);
        ::close(out_pipe[1]);
        throw std::runtime_error(errno_text("pipe"));
    }
    std::vector<std::string> storage;
    storage.push_back(path);
    storage.insert(storage.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& s : storage) argv.push_back(s.data());
    argv.push_back(nullptr);
    const pid_t parent = ::getpid();

    const pid_t pid = ::fork();
    if (pid < 0) throw std::runtime_error(errno_text("fork"));
    if (pid == 0) {
        // The child: async-signal-safe calls only, up to exec.
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) ::_exit(127);
        sigset_t none;
        sigemptyset(&none);
        ::sigprocmask(SIG_SETMASK, &none, nullptr);
        for (int sig : {SIGTERM, SIGINT, SIGPIPE, SIGHUP}) ::signal(sig, SIG_DFL);
        const int in = ::open("/dev/null", O_RDONLY);
        if (in >= 0) ::dup2(in, 0);
        ::dup2(out_pipe[1], 1);
        if (capture_stderr) ::dup2(err_pipe[1], 2);
        ::execve(path.c_str(), argv.data(), environ);
        const int e = errno;
        [[maybe_unused]] auto n = ::write(exec_pipe[1], &e, sizeof e);
        ::_exit(127);
    }
    ::close(out_pipe[1]);
    ::close(exec_pipe[1]);
    if (capture_stderr) ::close(err_pipe[1]);
    int exec_errno = 0;
    ssize_t n;
    do n = ::read(exec_pipe[0], &exec_errno, sizeof exec_errno);
    while (n < 0 && errno == EINTR);
    ::close(exec_pipe[0]);
    if (n > 0) {
        ::waitpid(pid, nullptr, 0);
        ::close(out_pipe[0]);
        if (capture_stderr) ::close(err_pipe[0]);
        throw std::runtime_error("cannot start " + path + ": " + std::strerror(exec_errno));
    }
    return spawned{pid, out_pipe[0], capture_stderr ? err_pipe[0] : -1};
}

// The exit status as a shell shows it: the code, or 128 + the signal that ended it.
inline int decode_status(int wstatus) {
    if (WIFEXITED(wstatus)) return WEXITSTATUS(wstatus);
    if (WIFSIGNALED(wstatus)) return 128 + WTERMSIG(wstatus);
    return -1;
}

// Waits for the child up to `timeout`; nullopt when it is still running.
inline std::optional<int> wait_for_exit(pid_t pid, std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        int wstatus = 0;
        const pid_t r = ::waitpid(pid, &wstatus, WNOHANG);
        if (r == pid) return decode_status(wstatus);
        if (r < 0 && errno != EINTR) return -1;
        if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

// What a child that did not stop in time is doing, on stderr: its signal masks and pending
// signals, each thread's state and kernel wait, and (gdb on PATH) each thread's stack. A stop
// that hangs once in a thousand runs is diagnosed from the log of the run it happened in.
inline void describe_stuck(pid_t pid) {
    const std::string proc = "/proc/" + std::to_string(pid);
    const std::string script = "echo '--- " + proc + ": did not stop in time'; grep -E '^(State|Threads|Sig|Shd)' " +
                               proc + "/status; for t in " + proc +
                               "/task/*; do echo \"$t $(cat $t/comm) $(cut -d' ' -f3 $t/stat) wchan=$(cat $t/wchan)\"; "
                               "done; if command -v gdb >/dev/null; then timeout 60 gdb -p " +
                               std::to_string(pid) +
                               " -batch -ex 'thread apply all bt' 2>&1 | grep -E '^(Thread|#)'; fi";
    std::cerr.flush();
    [[maybe_unused]] const int status = std::system(("{ " + script + "; } >&2").c_str());
}

}  // namespace detail

// The server executable to test.
inline std::string server_executable() {
    if (const char* env = std::getenv("ESIGN_SERVER"); env && *env) return env;
#ifdef ESIGN_SERVER_PATH
    return ESIGN_SERVER_PATH;
#else
    return "esign-reference-server";
#endif
}

class server_process {
public:
    // Starts `server_executable() --listen <listen> --self-check extra...` and waits for its "listening on" line.
    // Throws std::runtime_error when it does not come within `ready_timeout`.
    explicit server_process(std::vector<std::string> extra_args = {},
                            std::chrono::milliseconds ready_timeout = std::chrono::seconds(20),
                            std::string listen = "127.0.0.1:0") {
        // Every server of the tests judges its own responses: one that breaks its type is a 500.
        std::vector<std::string> args{"--listen", listen, "--self-check"};
        args.insert(args.end(), extra_args.begin(), extra_args.end());
        auto child = detail::spawn(server_executable(), args, /*capture_stderr=*/false);
        pid_ = child.pid;
        out_ = child.out;
        std::string line;
        if (!read_first_line(ready_timeout, line)) {
            stop();
            throw std::runtime_error("esign-reference-server: no 'listening on' line within the timeout; got '" + line +
                                     "'");
        }
        // http, or https with --tls-cert/--tls-key (test_server_tls.cpp).
        static const std::regex listening(R"(^listening on https?://(\[[0-9A-Fa-f:.]+\]|[^:/\s]+):([0-9]+)\s*$)");
        std::smatch m;
        if (!std::regex_match(line, m, listening)) {
            stop();
            throw std::runtime_error("esign-reference-server: unexpected first line '" + line + "'");
        }
        host_ = m[1].str();
        if (host_.size() > 1 && host_.front() == '[') host_ = host_.substr(1, host_.size() - 2);
        port_ = static_cast<unsigned short>(std::stoul(m[2].str()));
        first_line_ = line;
        // Keep reading stdout, so that the server never blocks on a full pipe.
        drain_ = std::thread([fd = out_] {
            char buf[4096];
            while (true) {
                const ssize_t n = ::read(fd, buf, sizeof buf);
                if (n > 0) continue;
                if (n < 0 && errno == EINTR) continue;
                break;
            }
        });
    }

    server_process(const server_process&) = delete;
    server_process& operator=(const server_process&) = delete;

    ~server_process() {
        if (!exit_status_) {
            const int status = stop();
            if (status != 0) std::cerr << "esign-reference-server: unclean exit, status " << status << "\n";
        }
    }

    const std::string& host() const noexcept { return host_; }  // IPv6 without brackets
    unsigned short port() const noexcept { return port_; }
    const std::string& first_line() const noexcept { return first_line_; }
    pid_t pid() const noexcept { return pid_; }
    bool running() {
        if (exit_status_) return false;
        if (auto s = detail::wait_for_exit(pid_, std::chrono::milliseconds(0))) {
            finish(*s);
            return false;
        }
        return true;
    }

    // Sends `signal` and waits up to `timeout` for the exit (then SIGKILL). Returns the exit status
    // (0 = clean; 128 + N when ended by signal N; -1 when it did not stop in time). Idempotent:
    // later calls return it again. The default: 10 s, 30 s for a sanitized server. A server that
    // did not stop is described on stderr (describe_stuck) before its SIGKILL.
    int stop(int signal = SIGTERM, std::optional<std::chrono::milliseconds> timeout = std::nullopt) {
        if (exit_status_) return *exit_status_;
        if (pid_ <= 0) return -1;
        if (auto already = detail::wait_for_exit(pid_, std::chrono::milliseconds(0))) {
            finish(*already);
            return *exit_status_;
        }
        ::kill(pid_, signal);
        using std::chrono::seconds;
        auto status = detail::wait_for_exit(pid_, timeout.value_or(server_sanitized() ? seconds(30) : seconds(10)));
        if (!status) {
            detail::describe_stuck(pid_);
            ::kill(pid_, SIGKILL);
            detail::wait_for_exit(pid_, std::chrono::seconds(10));
            status = -1;  // did not stop in time
        }
        finish(*status);
        return *exit_status_;
    }

    std::optional<int> exit_status() const noexcept { return exit_status_; }

private:
    bool read_first_line(std::chrono::milliseconds timeout, std::string& line) {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (true) {
            if (auto nl = line.find('\n'); nl != std::string::npos) {
                line.resize(nl);
                return true;
            }
            const auto left =
                std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0) return false;
            pollfd p{out_, POLLIN, 0};
            const int r = ::poll(&p, 1, static_cast<int>(left.count()));
            if (r < 0 && errno == EINTR) continue;
            if (r <= 0) return false;
            char c;
            const ssize_t n = ::read(out_, &c, 1);  // byte by byte: nothing after the line is taken
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return false;  // the server exited
            line += c;
        }
    }

    void finish(int status) {
        exit_status_ = status;
        if (drain_.joinable()) drain_.join();  // ends at EOF, now that the server is gone
        if (out_ >= 0) ::close(out_);
        out_ = -1;
    }

    pid_t pid_ = -1;
    int out_ = -1;
    std::thread drain_;
    std::string host_;
    unsigned short port_ = 0;
    std::string first_line_;
    std::optional<int> exit_status_;
};

struct run_result {
    int status = -1;  // exit status; -1 when it had to be killed after the timeout
    std::string out;
    std::string err;
};

// Runs the server with exactly `args` until it exits (at most `timeout`, then SIGKILL).
inline run_result run_to_exit(const std::vector<std::string>& args,
                              std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    auto child = detail::spawn(server_executable(), args, /*capture_stderr=*/true);
    run_result result;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    pollfd fds[2] = {{child.out, POLLIN, 0}, {child.err, POLLIN, 0}};
    int open = 2;
    bool killed = false;
    while (open > 0) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            ::kill(child.pid, SIGKILL);
            killed = true;
            break;
        }
        const int r = ::poll(fds, 2, static_cast<int>(left.count()));
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) break;
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || fds[i].revents == 0) continue;
            char buf[4096];
            const ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
            if (n > 0) {
                (i == 0 ? result.out : result.err).append(buf, static_cast<std::size_t>(n));
            } else if (n == 0 || errno != EINTR) {
                ::close(fds[i].fd);
                fds[i].fd = -1;
                --open;
            }
        }
    }
    for (auto& f : fds)
        if (f.fd >= 0) ::close(f.fd);
    auto status = detail::wait_for_exit(child.pid, killed ? std::chrono::seconds(10) : timeout);
    if (!status) {
        ::kill(child.pid, SIGKILL);
        detail::wait_for_exit(child.pid, std::chrono::seconds(10));
    }
    result.status = (killed || !status) ? -1 : *status;
    return result;
}

}  // namespace esign::test
