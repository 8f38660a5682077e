// SPDX-License-Identifier: BSL-1.0
#pragma once
// The resident memory of the server under test, for the memory bounds of the black-box tests
// (contract.md §6.7), and whether measuring it means anything (not under a sanitizer).
#include <sys/types.h>

#include <cstddef>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>

namespace esign::test {

// The text after "FIELD:" in a status file of /proc (a process's, /proc/PID/status, or one of
// its threads', /proc/PID/task/TID/status); nullopt when absent.
inline std::optional<std::string> proc_status_field(const std::string& status_file, std::string_view field) {
    std::ifstream status(status_file);
    std::string line;
    const std::string prefix = std::string(field) + ":";
    while (std::getline(status, line))
        if (line.rfind(prefix, 0) == 0) return line.substr(prefix.size());
    return std::nullopt;
}

// A field of /proc/PID/status in kB ("VmHWM", "VmRSS"), in bytes; 0 when absent.
inline std::size_t process_status_bytes(pid_t pid, std::string_view field) {
    const auto value = proc_status_field("/proc/" + std::to_string(pid) + "/status", field);
    return value ? std::stoull(*value) * 1024 : 0;  // "VmHWM:  1234 kB"
}

// The peak resident memory of a process (VmHWM), in bytes.
inline std::size_t peak_resident_bytes(pid_t pid) { return process_status_bytes(pid, "VmHWM"); }

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool test_program_sanitized = true;  // shadow memory and quarantines make resident memory meaningless
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
inline constexpr bool test_program_sanitized = true;
#else
inline constexpr bool test_program_sanitized = false;
#endif
#else
inline constexpr bool test_program_sanitized = false;
#endif

// The server under test may be built with a sanitizer while this program is not (a sanitizer
// build runs the gcc build's HTTP tests against its own server): its CTest tests say so.
inline bool server_sanitized() {
    const char* flag = std::getenv("ESIGN_SERVER_SANITIZED");
    return test_program_sanitized || (flag && *flag && std::string(flag) != "0");
}

}  // namespace esign::test
