#pragma once
// What the harnesses share: a check that aborts (so libFuzzer and the replay program both
// see a failure) after printing what went wrong.
#include <cstdio>
#include <cstdlib>
#include <string_view>

#define ESIGN_FUZZ_CHECK(cond, ...)                                                       \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            std::fprintf(stderr, "\nFUZZ CHECK FAILED: %s\n  at %s:%d\n", #cond, __FILE__, \
                         __LINE__);                                                       \
            std::fprintf(stderr, "  " __VA_ARGS__);                                       \
            std::fprintf(stderr, "\n");                                                   \
            std::abort();                                                                 \
        }                                                                                 \
    } while (0)
