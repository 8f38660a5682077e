#!/usr/bin/env python3
# SPDX-License-Identifier: BSL-1.0
"""Tests of bench/ratios.py on runs written here, whose ratios are known."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

RATIOS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ratios.py")


def run_of(times, context=None):
    """A Google Benchmark JSON run: times maps a run name to its repetitions' CPU times."""
    benchmarks = []
    for name, values in times.items():
        for k, t in enumerate(values):
            benchmarks.append({"name": name, "run_name": name, "run_type": "iteration", "repetitions": len(values),
                               "repetition_index": k, "cpu_time": t, "real_time": t, "time_unit": "ns"})
        benchmarks.append({"name": name + "_median", "run_name": name, "run_type": "aggregate",
                           "aggregate_name": "median", "cpu_time": -1.0})  # aggregates are not read
    return {"context": {"date": "2026-11-26T20:00:00+00:00", "num_cpus": 2, "mhz_per_cpu": 2096, **(context or {})},
            "benchmarks": benchmarks}


class Ratios(unittest.TestCase):
    def ratios(self, run, *comparisons):
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(run, f)
        try:
            done = subprocess.run([sys.executable, RATIOS, f.name, *comparisons], capture_output=True, text=True)
        finally:
            os.unlink(f.name)
        return done.returncode, done.stdout, done.stderr

    def test_ratio_of_medians_and_paired_quartiles(self):
        # The medians are 12 and 2: 6x, whatever the outlier; paired ratios 5, 5.5, 6, 6.5, 50.
        run = run_of({"body_slow/1": [10, 11, 12, 13, 100], "body_fast/1": [2, 2, 2, 2, 2]})
        status, out, _ = self.ratios(run, "slow/fast>=5")
        self.assertEqual(status, 0, out)
        self.assertIn("| body/1 | 6.00x (5.25–28.25) |", out)
        self.assertIn("1 of 1 met", out)

    def test_missed_target_is_marked_and_fails(self):
        run = run_of({"body_slow/1": [10, 11, 12, 13, 100], "body_fast/1": [2, 2, 2, 2, 2]})
        status, out, _ = self.ratios(run, "slow/fast>=7", "fast/slow<=0.2")
        self.assertEqual(status, 1, out)
        self.assertIn("6.00x (5.25–28.25) **missed**", out)
        self.assertIn("0.17x", out)  # 2 / 12, within <= 0.2: met
        self.assertIn("1 of 2 met; 1 missed", out)

    def test_longest_contender_name_wins_and_cases_sort_by_number(self):
        # "esign_read_into" is not "esign_read" of a case named "x_into"; 200 comes before 1024.
        run = run_of({"x_esign_read/1024": [4], "x_esign_read_into/1024": [2], "x_parse/1024": [8],
                      "x_esign_read/200": [1], "x_esign_read_into/200": [0.5], "x_parse/200": [2]})
        status, out, _ = self.ratios(run, "parse/esign_read>=1.5", "parse/esign_read_into>=1.5")
        self.assertEqual(status, 0, out)
        rows = [line for line in out.splitlines() if line.startswith("| x/")]
        self.assertEqual(rows, ["| x/200 | 2.00x (2.00–2.00) | 4.00x (4.00–4.00) |",
                                "| x/1024 | 2.00x (2.00–2.00) | 4.00x (4.00–4.00) |"])

    def test_runs_are_pooled(self):
        # Two runs: A's times 1, 2, 3 and 10, 11, 12 (median 6.5), B's all 1; pairs within a run only.
        first = run_of({"b_a": [1, 2, 3], "b_b": [1, 1, 1]})
        second = run_of({"b_a": [10, 11, 12], "b_b": [1, 1, 1]})
        with tempfile.TemporaryDirectory() as d:
            names = []
            for i, run in enumerate((first, second)):
                names.append(os.path.join(d, f"run{i}.json"))
                with open(names[-1], "w") as f:
                    json.dump(run, f)
            done = subprocess.run([sys.executable, RATIOS, *names, "a/b>=6"], capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertIn("6 repetitions", done.stdout)
        self.assertIn("| b | 6.50x", done.stdout)

    def test_added_context_is_shown(self):
        run = run_of({"b_a": [2, 2], "b_b": [1, 1]}, {"simdjson_implementation": "icelake"})
        status, out, _ = self.ratios(run, "a/b>=1")
        self.assertEqual(status, 0, out)
        self.assertIn("simdjson_implementation icelake", out.splitlines()[0])
        self.assertIn("| b | 2.00x", out)

    def test_unknown_contender_is_an_error(self):
        run = run_of({"b_a": [2], "b_b": [1]})
        status, _, err = self.ratios(run, "a/c>=1")
        self.assertEqual(status, 2)
        self.assertIn("a/c", err)

    def test_malformed_comparison_is_refused(self):
        status, _, err = self.ratios(run_of({"b_a": [1]}), "a/b=1")
        self.assertEqual(status, 2)  # argparse's usage error
        self.assertIn("not A/B>=x", err)


if __name__ == "__main__":
    unittest.main()
