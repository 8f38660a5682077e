// SPDX-License-Identifier: BSL-1.0
#pragma once
// Log lines on stderr, one write per line, safe from any thread.
#include <cstdio>
#include <mutex>
#include <string>
#include <string_view>

namespace esign::server {

class logger {
public:
    explicit logger(bool verbose = false) : verbose_(verbose) {}

    bool verbose() const noexcept { return verbose_; }

    // Always written: startup problems, failures of the server itself.
    void error(std::string_view text) { write(text); }
    // Written with --verbose only: one line per request, per webhook attempt.
    void info(std::string_view text) {
        if (verbose_) write(text);
    }

    // Printable ASCII only, at most `max` characters: request targets and peer data are untrusted.
    static std::string sanitize(std::string_view text, std::size_t max = 200) {
        std::string out;
        out.reserve(text.size() < max ? text.size() : max);
        for (char c : text) {
            if (out.size() >= max) {
                out += "...";
                break;
            }
            const auto u = static_cast<unsigned char>(c);
            out += (u >= 0x20 && u < 0x7f) ? c : '?';
        }
        return out;
    }

private:
    void write(std::string_view text) {
        std::string line = "esign-reference-server: ";
        line.append(text);
        line += '\n';
        std::lock_guard lock(mutex_);
        std::fwrite(line.data(), 1, line.size(), stderr);
        std::fflush(stderr);
    }

    bool verbose_;
    std::mutex mutex_;
};

}  // namespace esign::server
