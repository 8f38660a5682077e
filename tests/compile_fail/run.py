# SPDX-License-Identifier: BSL-1.0
"""Compile-fail tests: misuse of esign must not compile, and must say why.

A file of tests/compile_fail/ holds cases, each written as

    #ifdef ESIGN_FAIL_<case>  // expect: <a Python regular expression>
    ... the misuse ...
    #else
    ... the same, put right ...
    #endif

where `#elif !defined(ESIGN_FAIL)` may stand for `#else` when nothing else in the file needs the
part put right: it is then compiled in the control only, and each case's compile stays small
(ESIGN_FAIL is defined in every case's compile). It is checked with the compiler in
-fsyntax-only mode (no object file):

  control   the file with no case defined (every #else) must compile, warnings as errors:
            so a missing header, a wrong flag or a broken case cannot pass as a failure;
  <case>    the file with ESIGN_FAIL_<case> defined must fail, and the compiler's output must
            match the case's `expect:`. Where the expectation names an error of esign::regex
            (regex_error_<name>), the output must name no other: a case fails for its own reason;
  all       control, then every case.

Each case is compiled on its own: in one compile of several, an error can hide another (g++
leaves some instantiations out once it has found errors).

Usage: run.py --cxx CXX... [-I DIR]... [--isystem DIR]... [--flag F]... FILE [WHAT]...
       (--cxx once per word of the compiler's command: --cxx ccache --cxx g++)
       run.py --list FILE          (the case names, one a line)
Exit status 0 when every check passed. Standard library only.
"""
import argparse
import os
import re
import subprocess
import sys
import time

CASE = re.compile(r"^#ifdef ESIGN_FAIL_(\w+)\s+// expect: (.+?)\s*$")
REGEX_ERROR = re.compile(r"\bregex_error_\w+")


def read_cases(path):
    """The cases of a file, in order: [(name, expectation)], and the problems of their syntax."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    cases, problems = [], []
    for number, line in enumerate(lines, 1):
        m = CASE.match(line)
        if not m:
            if line.startswith("#ifdef ESIGN_FAIL_"):
                problems.append(f"{path}:{number}: a case needs `// expect: <regex>` on its #ifdef line")
            continue
        name, expect = m.group(1), m.group(2)
        try:
            re.compile(expect)
        except re.error as e:
            problems.append(f"{path}:{number}: `expect: {expect}` is not a regular expression ({e})")
        # Its control: an #else (or #elif) at the same depth before the #endif that closes the case.
        depth, has_else = 0, False
        for other in lines[number:]:
            directive = other.strip()
            if directive.startswith("#if"):
                depth += 1
            elif directive.startswith("#endif"):
                if depth == 0:
                    break
                depth -= 1
            elif directive.startswith(("#else", "#elif")) and depth == 0:
                has_else = True
        if not has_else:
            problems.append(f"{path}:{number}: case {name} has no #else (the misuse put right)")
        if name in (c[0] for c in cases):
            problems.append(f"{path}:{number}: case {name} defined twice")
        cases.append((name, expect))
    if not cases:
        problems.append(f"{path}: no `#ifdef ESIGN_FAIL_<case>  // expect: ...` case")
    return cases, problems


def compile_file(args, path, defines):
    command = list(args.cxx or [os.environ.get("CXX", "c++")])
    command += ["-std=c++20", "-fsyntax-only", "-fdiagnostics-color=never", "-Wall", "-Wextra", "-Wpedantic", "-Werror"]
    command += [f"-I{d}" for d in args.include] + [f"-isystem{d}" for d in args.isystem]
    command += args.flag + [f"-DESIGN_FAIL_{d}" for d in defines] + (["-DESIGN_FAIL"] if defines else []) + [path]
    env = dict(os.environ, LC_ALL="C")  # plain quotes in messages, whatever the locale
    start = time.monotonic()
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                          text=True, errors="replace", check=False)
    return done.returncode, done.stdout, time.monotonic() - start, command


def show(output, limit=80):
    lines = output.splitlines()
    kept = lines[:limit] + ([f"... ({len(lines) - limit} more lines)"] if len(lines) > limit else [])
    return "\n".join("    " + line for line in kept)


def check(args, path, what, cases):
    """Runs one check; returns a list of failures (empty when it passed)."""
    if what == "control":
        rc, out, seconds, command = compile_file(args, path, [])
        print(f"{os.path.basename(path)} control: exit {rc} in {seconds:.2f} s")
        if rc != 0:
            return [f"control of {path} does not compile: {' '.join(command)}\n{show(out)}"]
        return []
    selected = [c for c in cases if c[0] == what]
    if not selected:
        return [f"{path} has no case {what} (cases: {', '.join(c[0] for c in cases)})"]
    rc, out, seconds, command = compile_file(args, path, [what])
    print(f"{os.path.basename(path)} {what}: exit {rc} in {seconds:.2f} s")
    failures = []
    if rc == 0:
        failures.append(f"{path} {what}: compiled, but must not: {' '.join(command)}")
    for name, expect in selected:
        if not re.search(expect, out):
            failures.append(f"{path} {name}: no diagnostic matches `{expect}`")
            continue
        others = sorted({e for e in REGEX_ERROR.findall(out) if not re.search(expect, e)})
        if REGEX_ERROR.search(expect) and others:
            failures.append(f"{path} {name}: fails with {', '.join(others)}, not only `{expect}`")
        else:
            print(f"  {name}: `{expect}` found")
    if failures:
        failures[-1] += f"\n  command: {' '.join(command)}\n  output:\n{show(out)}"
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cxx", action="append", default=[])
    parser.add_argument("-I", "--include", action="append", default=[])
    parser.add_argument("--isystem", action="append", default=[])
    parser.add_argument("--flag", action="append", default=[])
    parser.add_argument("--list", action="store_true")
    parser.add_argument("file")
    parser.add_argument("what", nargs="*", default=["all"])
    args = parser.parse_args()

    cases, problems = read_cases(args.file)
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 2
    if args.list:
        print("\n".join(c[0] for c in cases))
        return 0
    whats = []
    for what in args.what:
        if what == "all":
            whats += ["control"] + [c[0] for c in cases]
        else:
            whats.append(what)
    failures = []
    for what in whats:
        failures += check(args, args.file, what, cases)
    for failure in failures:
        print(f"FAILED: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
