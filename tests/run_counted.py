#!/usr/bin/env python3
# SPDX-License-Identifier: BSL-1.0
"""Runs a test command and fails unless it passed something.

    python3 tests/run_counted.py COMMAND [ARG...]

The command's output is passed through. The run fails when the command exits non-zero, or when
its output has no line saying 'N passed' with N > 0 (a suite that found no test, or skipped
them all, must not count as a pass). Meson has no equivalent of CTest's FAIL_REGULAR_EXPRESSION,
which tests/CMakeLists.txt uses for the same rule (": 0 passed").
"""
import re
import subprocess
import sys


def main(argv):
    if len(argv) < 2:
        print("usage: run_counted.py COMMAND [ARG...]", file=sys.stderr)
        return 2
    proc = subprocess.run(argv[1:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    text = proc.stdout.decode("utf-8", "replace")
    sys.stdout.write(text)
    if proc.returncode != 0:
        return proc.returncode
    counts = [int(n) for n in re.findall(r"\b(\d+) passed\b", text)]
    if not counts or counts[-1] == 0:
        print("run_counted.py: the command passed no test", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
