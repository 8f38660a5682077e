#!/usr/bin/env python3
# SPDX-License-Identifier: BSL-1.0
"""A man page (section 1, gzipped) from a program's --help text.

Usage: help_to_man.py PROGRAM VERSION OUTPUT.1.gz

The page follows the text, so it never disagrees with the program (cmake/packaging.cmake runs
this at build time on the built server). The text's shape, as cli.hpp writes it:
    usage: NAME ARGS...                      -> SYNOPSIS
    paragraphs (the first line names it)     -> NAME, DESCRIPTION
    options:                                 -> OPTIONS: "  --opt ARG   text", continuation
      --opt ARG   text                          lines indented deeper, a long term alone on
                  more text                     its line with its text below
    paragraphs after the options             -> NOTES
The gzip stream has no name and no time in it: the same text gives the same bytes.
"""
import gzip
import re
import subprocess
import sys


def roff(text):
    """Text safe in a roff line: backslashes and minus signs escaped (an option stays
    copyable as ASCII), no line starting with a control character."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\\&" + text if text.startswith((".", "'")) else text


def term(text):
    """An option's term: options bold, their arguments italic."""
    words = []
    for w in text.split():
        words.append(("\\fB%s\\fR" if w.startswith("-") else "\\fI%s\\fR") % roff(w))
    return " ".join(words)


def paragraphs(lines):
    block = []
    for line in lines + [""]:
        if line.strip():
            block.append(line.strip())
        elif block:
            yield block
            block = []


def man_page(help_text, version):
    lines = help_text.rstrip("\n").split("\n")
    m = re.match(r"usage:\s+(\S+)\s*(.*)$", lines[0])
    if not m:
        raise ValueError("the first line of --help is not 'usage: NAME ...': %r" % lines[0])
    name, args = m.groups()
    try:
        options_at = lines.index("options:")
    except ValueError:
        raise ValueError("--help has no 'options:' line") from None
    description = list(paragraphs(lines[1:options_at]))
    if not description:
        raise ValueError("--help has no description before 'options:'")

    # The options: an entry starts with two spaces and '-'; its text starts at the column of the
    # continuation lines (a term as wide as that column is followed by one space only), or after
    # two spaces or more; a term alone on its line has its text below. A blank line ends the block.
    end = next((i for i in range(options_at + 1, len(lines)) if not lines[i].strip()), len(lines))
    block = lines[options_at + 1:end]
    indents = [len(l) - len(l.lstrip()) for l in block if not l.startswith("  -")]
    column = max(set(indents), key=indents.count) if indents else None
    options = []
    for line in block:
        if line.startswith("  -"):
            if column and (len(line) <= column or (line[column - 1] == " " and line[column] != " ")):
                head, text = line[:column].strip(), line[column:].strip()
            else:
                parts = re.split(r"\s{2,}", line.strip(), maxsplit=1)
                head, text = parts[0], parts[1] if len(parts) > 1 else ""
            options.append([head, [text] if text else []])
        elif options and line.startswith("   "):
            options[-1][1].append(line.strip())
        else:
            raise ValueError("unexpected line among the options: %r" % line)
    notes = list(paragraphs(lines[end:]))

    summary = description[0][0].rstrip(".")
    summary = summary[0].lower() + summary[1:]
    out = [
        '.TH "%s" "1" "" "%s" "User Commands"' % (name.upper(), roff(version)),
        ".nh",  # no hyphenation: paths and option names stay whole
        ".SH NAME",
        "%s \\- %s" % (roff(name), roff(summary)),
        ".SH SYNOPSIS",
        "\\fB%s\\fR %s" % (roff(name), roff(args)),
        ".SH DESCRIPTION",
    ]
    for i, block in enumerate(description):
        if i:
            out.append(".PP")
        out.extend(roff(l) for l in block)
    out.append(".SH OPTIONS")
    for opt, text in options:
        out.extend([".TP", term(opt)])
        out.extend(roff(l) for l in text)
    if notes:
        out.append(".SH NOTES")
        for i, block in enumerate(notes):
            if i:
                out.append(".PP")
            out.extend(roff(l) for l in block)
    return "\n".join(out) + "\n"


def main(argv):
    if len(argv) != 4:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    program, version, output = argv[1:]
    run = subprocess.run([program, "--help"], capture_output=True, text=True, timeout=60)
    if run.returncode != 0:
        print("help_to_man: %s --help exited with %d: %s" % (program, run.returncode, run.stderr),
              file=sys.stderr)
        return 1
    try:
        page = man_page(run.stdout, version)
    except ValueError as e:
        print("help_to_man: %s: %s" % (program, e), file=sys.stderr)
        return 1
    with open(output, "wb") as f:
        with gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=f, mtime=0) as z:
            z.write(page.encode())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
