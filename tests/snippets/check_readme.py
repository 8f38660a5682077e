# SPDX-License-Identifier: BSL-1.0
"""The C++ examples of README.md are the compiled ones of tests/snippets/*.cpp (and tests/http/*.cpp).

Every ```cpp block of README.md must be, in order, one snippet of tests/snippets/*.cpp then of
tests/http/*.cpp (files in name order, snippets in order of first appearance): the lines between `// README snippet: NAME`
and the next `// README snippet end`, without their common indentation; a snippet marked in
several places is its pieces joined by an empty line. Every snippet must appear in README.md.

Usage: check_readme.py [--update] REPOSITORY
  exit 0 when README.md and the snippets agree; else each difference, as a diff, and exit 1.
  --update: rewrite README.md's ```cpp blocks from the snippets instead (there must be as many).
Standard library only.
"""
import argparse
import difflib
import pathlib
import re
import sys
import textwrap

BEGIN = re.compile(r"^\s*// README snippet: (.+?)\s*$")
END = re.compile(r"^\s*// README snippet end\s*$")


def snippets_of(files):
    """{name: text} in order of first appearance, and the problems of the markers."""
    pieces, where, problems = {}, {}, []
    for path in files:
        name, start, body = None, 0, []
        for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
            if BEGIN.match(line):
                if name is not None:
                    problems.append(f"{path}:{number}: snippet {name} (line {start}) is not closed")
                name, start, body = BEGIN.match(line).group(1), number, []
            elif END.match(line):
                if name is None:
                    problems.append(f"{path}:{number}: `README snippet end` without a start")
                elif not body:
                    problems.append(f"{path}:{start}: snippet {name} is empty")
                else:
                    pieces.setdefault(name, []).append(textwrap.dedent("\n".join(body)))
                    where.setdefault(name, f"{path}:{start}")
                name = None
            elif name is not None:
                body.append(line)
        if name is not None:
            problems.append(f"{path}:{start}: snippet {name} is not closed")
    return {name: "\n\n".join(parts) for name, parts in pieces.items()}, where, problems


def cpp_blocks(readme_lines):
    """[(first line number, text)] of every ```cpp block, and the problems of the fences."""
    blocks, problems, i = [], [], 0
    while i < len(readme_lines):
        if readme_lines[i].strip() == "```cpp":
            end = i + 1
            while end < len(readme_lines) and readme_lines[end].strip() != "```":
                end += 1
            if end == len(readme_lines):
                problems.append(f"README.md:{i + 1}: ```cpp block not closed")
                break
            blocks.append((i + 1, i + 1, end, "\n".join(readme_lines[i + 1:end])))
            i = end
        i += 1
    return blocks, problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--update", action="store_true")
    parser.add_argument("repository", type=pathlib.Path)
    args = parser.parse_args()

    readme_path = args.repository / "README.md"
    # tests/snippets/ first; then the HTTP test program's files, for examples that need what only
    # it links (OpenSSL: the webhook receiver).
    files = sorted((args.repository / "tests" / "snippets").glob("*.cpp")) + sorted(
        (args.repository / "tests" / "http").glob("*.cpp"))
    snippets, where, problems = snippets_of(files)
    readme_lines = readme_path.read_text(encoding="utf-8").split("\n")
    blocks, fence_problems = cpp_blocks(readme_lines)
    problems += fence_problems
    if not snippets:
        problems.append("no `// README snippet: NAME` in tests/snippets/*.cpp")
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 2

    names = list(snippets)
    if args.update:
        if len(blocks) != len(names):
            print(f"README.md has {len(blocks)} ```cpp blocks, the snippets are {len(names)}: "
                  "add or remove the README's blocks first", file=sys.stderr)
            return 1
        for (_, start, end, _), name in reversed(list(zip(blocks, names))):
            readme_lines[start:end] = snippets[name].split("\n")
        readme_path.write_text("\n".join(readme_lines), encoding="utf-8")
        print(f"README.md: {len(names)} blocks written from the snippets")
        return 0

    failures = []
    for index in range(max(len(blocks), len(names))):
        if index >= len(names):
            failures.append(f"README.md:{blocks[index][0]}: a ```cpp block that no snippet of tests/snippets/ "
                            "compiles (mark it there with `// README snippet: NAME`)")
            continue
        name = names[index]
        if index >= len(blocks):
            failures.append(f"{where[name]}: snippet {name} is not in README.md (the ```cpp block "
                            f"number {index + 1})")
            continue
        line, _, _, text = blocks[index]
        if text != snippets[name]:
            diff = difflib.unified_diff(snippets[name].split("\n"), text.split("\n"),
                                        f"{where[name]} (snippet {name})", f"README.md:{line}", lineterm="")
            failures.append(f"README.md:{line}: the ```cpp block differs from snippet {name} of {where[name]} "
                            "(check_readme.py --update copies the snippets into README.md):\n" + "\n".join(diff))
    for failure in failures:
        print(f"FAILED: {failure}", file=sys.stderr)
    if failures:
        return 1
    print(f"README.md: its {len(blocks)} ```cpp blocks are the snippets of {', '.join(f.name for f in files)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
