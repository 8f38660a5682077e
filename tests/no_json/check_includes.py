# SPDX-License-Identifier: BSL-1.0
"""Fails when compiling FILE reads a header whose path has FORBIDDEN in it (default: boost/json/).

The compiler lists every header it opens with -H (one a line on stderr, dots for the depth), so
a header included however indirectly is seen: what proves that a program of the validation layer
and the model does not include Boost.JSON (tests/no_json/validate_without_json.cpp). The compile
itself must succeed (-fsyntax-only), so that a broken file cannot pass as one without the header.

Usage: check_includes.py --cxx CXX... [-I DIR]... [--isystem DIR]... [-D NAME]...
                         [--forbid TEXT] FILE
Exit status 0 when the file compiles and reads no such header. Standard library only.
"""
import argparse
import re
import subprocess
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cxx", action="append", required=True)
    parser.add_argument("-I", dest="include", action="append", default=[])
    parser.add_argument("--isystem", action="append", default=[])
    parser.add_argument("-D", dest="define", action="append", default=[])
    parser.add_argument("--forbid", default="boost/json/")
    parser.add_argument("file")
    args = parser.parse_args()
    command = list(args.cxx) + ["-std=c++20", "-fsyntax-only", "-H"]
    command += ["-I" + d for d in args.include]
    for d in args.isystem:
        command += ["-isystem", d]
    command += ["-D" + d for d in args.define]
    command.append(args.file)
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stderr)
        print(f"{args.file} does not compile: {' '.join(command)}")
        return 1
    header_line = re.compile(r"^\.+ (.+)$")
    headers = [m.group(1) for m in map(header_line.match, done.stderr.splitlines()) if m]
    forbidden = [h for h in headers if args.forbid in h]
    if not headers:
        print("the compiler listed no header: is -H supported?")
        return 1
    if forbidden:
        print(f"{args.file} reads {len(forbidden)} header(s) with '{args.forbid}' in the path, e.g.:")
        for h in forbidden[:10]:
            print("  " + h)
        return 1
    print(f"{args.file}: {len(headers)} headers read, none with '{args.forbid}' in the path")
    return 0


if __name__ == "__main__":
    sys.exit(main())
