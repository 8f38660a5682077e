// SPDX-License-Identifier: BSL-1.0
#pragma once
// --state-file FILE and --save-interval SECONDS (contract.md §7.3): the file's folder checked at
// start, the file read, and every save written atomically, so that a kill at any moment leaves
// the previous file or the new one, whole:
//   FILE.tmp in the same folder (mode 0600: it holds the teams' credentials), written, fsync,
//   renamed over FILE, then fsync of the folder (the rename itself reaches the disk).
// The format and the backend's side: <esign/reference/state_file.hpp>.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>

#include <fmt/core.h>

#include <esign/reference/state_file.hpp>

#include "cli.hpp"
#include "log.hpp"

namespace esign::server {

namespace detail {

inline std::string folder_of(const std::string& file) {
    const auto slash = file.rfind('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : file.substr(0, slash);
}

inline std::string temporary_of(const std::string& file) { return file + ".tmp"; }

inline std::string system_error(std::string_view what, const std::string& path) {
    return fmt::format("{} '{}': {}", what, path, std::strerror(errno));
}

}  // namespace detail

// Why FILE could not be saved, found at start rather than at the first save: its folder is
// missing, is no folder, or refuses a new file; or FILE itself is a folder. nullopt: it can.
inline std::optional<std::string> state_file_unwritable(const std::string& file) {
    using namespace detail;
    const std::string folder = folder_of(file);
    struct stat st {};
    if (::stat(folder.c_str(), &st) != 0) return system_error("cannot use the folder", folder);
    if (!S_ISDIR(st.st_mode)) return fmt::format("'{}' is not a folder", folder);
    if (::stat(file.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) return fmt::format("'{}' is not a file", file);
    // A real try (permissions, a read-only file system): the temporary file every save writes.
    const std::string tmp = temporary_of(file);
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) return system_error("cannot write in the folder", folder);
    ::close(fd);
    ::unlink(tmp.c_str());
    return std::nullopt;
}

// FILE's bytes; an empty optional (and no error) when it does not exist (a first run).
struct state_file_text {
    std::optional<std::string> text;
    std::string error;  // not empty: it exists and cannot be read
};

inline state_file_text read_state_file_text(const std::string& file) {
    struct stat st {};
    if (::stat(file.c_str(), &st) != 0 && errno == ENOENT) return {};
    state_file_text out;
    out.text = read_whole_file(file, out.error);
    return out;
}

// Writes `bytes` to `file` atomically (see above). Returns what failed, or nullopt.
inline std::optional<std::string> write_atomically(const std::string& file, std::string_view bytes) {
    using namespace detail;
    const std::string tmp = temporary_of(file);
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return system_error("cannot create", tmp);
    auto fail = [&](std::string_view what) {
        std::string message = system_error(what, tmp);
        ::close(fd);
        ::unlink(tmp.c_str());
        return message;
    };
    for (std::size_t done = 0; done < bytes.size();) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return fail("cannot write");
        done += static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0) return fail("cannot flush");
    if (::close(fd) != 0) {
        std::string message = system_error("cannot close", tmp);
        ::unlink(tmp.c_str());
        return message;
    }
    if (::rename(tmp.c_str(), file.c_str()) != 0) {
        std::string message = system_error("cannot rename over " + file + ":", tmp);
        ::unlink(tmp.c_str());
        return message;
    }
    const std::string folder = folder_of(file);
    const int dir = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0) return system_error("cannot open the folder", folder);
    const bool synced = ::fsync(dir) == 0;
    std::optional<std::string> error;
    if (!synced) error = system_error("cannot flush the folder", folder);
    ::close(dir);
    return error;
}

// Saves the backend's teams to FILE: on demand (at SIGINT/SIGTERM) and, with an interval, every
// `interval` from a thread of its own. Saves never overlap.
class state_saver {
public:
    state_saver(reference::backend& b, std::string file, std::optional<std::chrono::seconds> interval, logger& log)
        : backend_(b), file_(std::move(file)), interval_(interval), log_(log) {}

    state_saver(const state_saver&) = delete;
    state_saver& operator=(const state_saver&) = delete;
    ~state_saver() { stop(); }

    void start() {
        if (!interval_) return;
        timer_ = std::thread([this] {
            std::unique_lock lock(mutex_);
            while (!stopping_) {
                if (cv_.wait_for(lock, *interval_, [this] { return stopping_; })) break;
                lock.unlock();
                save();
                lock.lock();
            }
        });
    }

    // Ends the interval's thread (a save under way finishes first).
    void stop() {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        cv_.notify_all();
        if (timer_.joinable()) timer_.join();
    }

    // Writes every team now; false (and a line on stderr) when the file could not be written.
    bool save() {
        std::lock_guard lock(save_mutex_);
        const auto started = std::chrono::steady_clock::now();
        const std::string text = reference::save_state(backend_);  // each team under its lock
        if (auto error = write_atomically(file_, text)) {
            log_.error(fmt::format("--state-file {}: not saved: {}", file_, *error));
            return false;
        }
        log_.info(fmt::format(
            "--state-file {}: saved {} bytes in {} ms", file_, text.size(),
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count()));
        return true;
    }

private:
    reference::backend& backend_;
    std::string file_;
    std::optional<std::chrono::seconds> interval_;
    logger& log_;
    std::mutex save_mutex_;
    std::mutex mutex_;
    std::condition_variable cv_;
    bool stopping_ = false;
    std::thread timer_;
};

}  // namespace esign::server
