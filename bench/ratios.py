#!/usr/bin/env python3
# SPDX-License-Identifier: BSL-1.0
"""The ratios of a Google Benchmark run's contenders, as a Markdown table, checked against targets.

The in-process benchmarks name each benchmark <case>_<contender>[/<argument>], e.g.
add_blocks_rapidjson_schema/1024. Run one with many short repetitions in random order, so that
every contender is measured again and again across the same stretch of time (on a shared machine
the load moves by tens of percent from one second to the next), and give its JSON to this script
(or several runs' JSON: their repetitions are pooled):

    ./build/bench/esign_bench_decode_alternatives --benchmark_repetitions=30 \\
        --benchmark_enable_random_interleaving=true --benchmark_min_time=0.02 \\
        --benchmark_format=json > run.json
    python3 bench/ratios.py run.json 'boost_json_parse/esign_read_into>=1.5' \\
        'rapidjson_schema/esign_read_into>=5' 'esign_read_into/simdjson_walk<=2'

Each comparison 'A/B>=x' (or <=x) is, for every case both contenders have, the median of A's CPU
times over the median of B's, and beside it the quartiles of the ratios of the repetitions taken
pairwise (repetition k of A over repetition k of B: the same round of the random order). A target
is met when the ratio of the medians is on its side. The exit status is 1 when a target is missed
(2 when a contender or case is not in the run), so the script can judge a run in a loop.
"""
import argparse
import json
import re
import statistics
import sys
from collections import defaultdict

COMPARISON = re.compile(r"^(?P<a>\w+)/(?P<b>\w+)(?P<op>>=|<=)(?P<target>[0-9.]+)$")


def cpu_times(runs, contenders):
    """{(case, contender): {(run, repetition): cpu time}} for the named contenders' iteration runs."""
    # The longest name first: "esign_read_into" is not taken for "esign_read" plus "_into".
    by_length = sorted(contenders, key=len, reverse=True)
    times = defaultdict(dict)
    for index, run in enumerate(runs):
        for bench in run["benchmarks"]:
            if bench.get("run_type") != "iteration" or bench.get("error_occurred"):
                continue
            name, slash, argument = bench["run_name"].partition("/")
            for contender in by_length:
                if name.endswith("_" + contender):
                    case = name[: -len(contender) - 1] + slash + argument
                    times[(case, contender)][(index, bench.get("repetition_index", 0))] = bench["cpu_time"]
                    break
    return times


def quartiles(values):
    if len(values) < 2:
        return values[0], values[0]
    q = statistics.quantiles(values, n=4)
    return q[0], q[2]


def compare(times, a, b, op, target):
    """{case: (ratio of medians, low quartile, high quartile, met)} for one comparison."""
    cells = {}
    for case in {case for case, c in times if c == a} & {case for case, c in times if c == b}:
        ta, tb = times[(case, a)], times[(case, b)]
        ratio = statistics.median(ta.values()) / statistics.median(tb.values())
        paired = [ta[k] / tb[k] for k in sorted(ta.keys() & tb.keys())]
        low, high = quartiles(paired) if paired else (ratio, ratio)
        cells[case] = (ratio, low, high, ratio >= target if op == ">=" else ratio <= target)
    return cells


def case_order(case):
    """add_blocks/200 before add_blocks/1024: the argument as a number."""
    name, _, argument = case.partition("/")
    return (name, int(argument) if argument.isdigit() else 0, argument)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("runs", nargs="+", metavar="RUN.json", help="Google Benchmark JSON output "
                        "(--benchmark_format=json, a file named *.json), and the comparisons (A/B>=x or A/B<=x)")
    args = parser.parse_args()
    files = [a for a in args.runs if a.endswith(".json")]
    comparisons = []
    for text in (a for a in args.runs if not a.endswith(".json")):
        match = COMPARISON.match(text)
        if not match:
            parser.error(f"not A/B>=x or A/B<=x: {text!r}")
        comparisons.append((match["a"], match["b"], match["op"], float(match["target"])))
    if not files or not comparisons:
        parser.error("give one run or more, then one comparison or more (A/B>=x or A/B<=x)")
    runs = []
    for name in files:
        with open(name, encoding="utf-8") as f:
            runs.append(json.load(f))

    contenders = {c for a, b, _, _ in comparisons for c in (a, b)}
    times = cpu_times(runs, contenders)
    repetitions = max((len(t) for t in times.values()), default=0)
    context = runs[0]["context"]
    # Google Benchmark's own context keys; the others were added by the program (AddCustomContext).
    own = {"date", "host_name", "executable", "num_cpus", "mhz_per_cpu", "cpu_scaling_enabled", "caches",
           "load_avg", "library_build_type", "json_schema_version"}
    added = "".join(f", {key} {value}" for key, value in context.items() if key not in own)
    print(f"{', '.join(files)}: {context.get('date', '?')}, {context.get('num_cpus', '?')} CPUs at "
          f"{context.get('mhz_per_cpu', '?')} MHz{added}; {repetitions} repetitions, CPU time, "
          f"ratio of the medians (quartiles of the paired repetitions' ratios)\n")

    columns = [compare(times, a, b, op, target) for a, b, op, target in comparisons]
    missing = [f"{a}/{b}" for (a, b, _, _), cells in zip(comparisons, columns) if not cells]
    if missing:
        print(f"no case has both contenders of: {', '.join(missing)}", file=sys.stderr)
        return 2
    cases = sorted(set().union(*columns), key=case_order)

    print("| case | " + " | ".join(f"{a} / {b} ({op}{target:g})" for a, b, op, target in comparisons) + " |")
    print("|---" * (len(columns) + 1) + "|")
    missed = 0
    for case in cases:
        cells = []
        for column in columns:
            if case not in column:
                cells.append("–")
                continue
            ratio, low, high, met = column[case]
            missed += not met
            cells.append(f"{ratio:.2f}x ({low:.2f}–{high:.2f})" + ("" if met else " **missed**"))
        print(f"| {case} | " + " | ".join(cells) + " |")
    total = sum(len(column) for column in columns)
    print(f"\n{total - missed} of {total} met" + (f"; {missed} missed" if missed else ""))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
