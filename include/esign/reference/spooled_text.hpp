// SPDX-License-Identifier: BSL-1.0
#pragma once
// An answer's text written to a temporary file as it is made (contract.md §6.7: while a request
// is handled, its memory stays below 32 times its body plus 1 MiB): a team's snapshot is as
// long as the team is large, and its request is a few bytes. The HTTP server sends the file a
// part at a time; the file has no name (O_TMPFILE, else a name removed at once), so it goes
// when the last holder closes it, however the server ends.
//
// Without a folder that takes a file, the text stays in memory, as it would without a spool.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>

#include <esign/json/codec.hpp>

namespace esign::reference {

class spooled_text final : public json::text_spill {
public:
    // Text beyond `at` bytes goes to a file made in `folder` (when the first part comes).
    spooled_text(std::string folder, std::size_t at) : json::text_spill(at), folder_(std::move(folder)) {}
    spooled_text(const spooled_text&) = delete;
    spooled_text& operator=(const spooled_text&) = delete;
    ~spooled_text() {
        if (fd_ >= 0) ::close(fd_);
    }

    void write(std::string_view part) override {
        if (failed_) return;
        if (fd_ < 0 && !in_memory_) open();
        if (in_memory_) {
            memory_.append(part);
            return;
        }
        while (!part.empty()) {
            const ssize_t n = ::write(fd_, part.data(), part.size());
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) {
                failed_ = true;  // a full disk: the answer is an error, not a text cut short
                return;
            }
            part.remove_prefix(static_cast<std::size_t>(n));
            size_ += static_cast<std::size_t>(n);
        }
    }

    // Whether the text went to a file (else it is all in memory: take_memory).
    bool in_file() const noexcept { return fd_ >= 0; }
    // Whether a part could not be written.
    bool failed() const noexcept { return failed_; }
    std::size_t size() const noexcept { return in_file() ? size_ : memory_.size(); }
    std::string take_memory() { return std::move(memory_); }

    // Up to `n` bytes of the file from `offset` into `out`; 0 at its end or on an error.
    std::size_t read_at(std::uint64_t offset, char* out, std::size_t n) const {
        for (;;) {
            const ssize_t got = ::pread(fd_, out, n, static_cast<off_t>(offset));
            if (got < 0 && errno == EINTR) continue;
            return got < 0 ? 0 : static_cast<std::size_t>(got);
        }
    }

private:
    void open() {
#ifdef O_TMPFILE
        fd_ = ::open(folder_.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
#endif
        if (fd_ < 0) {
            std::string name = folder_ + "/esign-answer-XXXXXX";
            fd_ = ::mkostemp(name.data(), O_CLOEXEC);
            if (fd_ >= 0) ::unlink(name.c_str());
        }
        if (fd_ < 0) in_memory_ = true;
    }

    std::string folder_;
    int fd_ = -1;
    std::size_t size_ = 0;
    bool in_memory_ = false;
    bool failed_ = false;
    std::string memory_;
};

}  // namespace esign::reference
