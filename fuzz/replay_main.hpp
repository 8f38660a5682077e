// SPDX-License-Identifier: BSL-1.0
#pragma once
// A plain main() for the fuzz harnesses, so every harness also builds without libFuzzer
// (any compiler) and replays files: every seed and every past finding stays a test.
//
//   esign_fuzz_replay_<name> DIR_OR_FILE...
//
// Runs LLVMFuzzerTestOneInput once per regular file (directories are walked recursively,
// in sorted order). A harness reports a failure by aborting, so a bad input ends the
// program with a non-zero status, naming the file on stderr before it runs.
// It is compiled in only when ESIGN_FUZZ_REPLAY is defined (the replay build); the
// libFuzzer build brings its own main().
#ifdef ESIGN_FUZZ_REPLAY

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
    namespace fs = std::filesystem;
    std::vector<fs::path> files;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        if (!arg.empty() && arg[0] == '-') continue;  // libFuzzer-style flags are ignored
        std::error_code ec;
        fs::path p(arg);
        if (fs::is_directory(p, ec)) {
            for (const auto& entry : fs::recursive_directory_iterator(p, ec))
                if (entry.is_regular_file()) files.push_back(entry.path());
        } else if (fs::is_regular_file(p, ec)) {
            files.push_back(p);
        } else {
            std::fprintf(stderr, "replay: no such file or directory: %s\n", arg.c_str());
            return 2;
        }
    }
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
        std::ifstream in(f, std::ios::binary);
        std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        std::fprintf(stderr, "replay: %s (%zu bytes)\n", f.string().c_str(), bytes.size());
        LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    }
    std::fprintf(stderr, "replay: %zu input(s), all passed\n", files.size());
    return 0;
}

#endif
