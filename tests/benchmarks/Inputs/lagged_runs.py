#!/usr/bin/env python3
"""lagged_runs.py: the harness's judgement of paced runs, on made-up counts and runs.

Prints the lag of a run's measured phase (bench_vm.read_counts: the last
time_s seconds of the command) for a run whose lag came at start-up and one
whose lag came while it was timed, then the medians bench_report.summarize
keeps when one of three rounds lagged (it is left out) and the tally."""
import json
import os
import sys
import tempfile

from ompnuma.harness import bench_report, bench_suites, bench_vm

# 12.5 s paced in 126 bins of 0.1 s, 2 vCPUs; 400 ms of lag on vCPU 1: at start-up (its first tenth of a
# second, and 2.45-2.55 s, before the phase), or in the timed phase's last second.
for name, bins in (("start-up", [[0] * 126, [300e6] + [0] * 23 + [100e6] + [0] * 101]),
                   ("timed", [[0] * 126, [0] * 115 + [40e6] * 10 + [0]])):
    counts = {"format": "ompnuma-emu-counts/1", "vcpus": 2, "nodes": 2, "vcpu_node": [0, 1],
              "misses": [[90, 10], [0, 100]], "lag_ns": [0, 400e6], "paced_ns": 12.55e9, "lag_bin_ns": 1e8,
              "lag_ns_per_bin": bins}
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(counts, f)
    shares, lag, lagged = bench_vm.read_counts(f.name, 10.0)
    os.unlink(f.name)
    print("%s: remote share %.1f %%, phase lag %.2f %%, lagged %s" % (name, shares["remote_share_pct"], lag, lagged))

bench = bench_suites.Benchmark("patterns", ["swapped", "4", "12"])
runs = []
for rnd, (stock, omp, omp_lagged) in enumerate(((10.0, 8.0, False), (10.2, 8.1, False), (10.1, 12.0, True))):
    for config, t, lagged in (("stock", stock, False), ("ompnuma", omp, omp_lagged)):
        runs.append({"benchmark": bench.id, "config": config, "round": rnd + 1, "warmup": False, "verified": True,
                     "reason": "", "metrics": {"time_s": t}, "lagged": lagged, "lag_pct": 3.0 if lagged else 0.1})
s = bench_report.summarize(bench, ["stock", "ompnuma"], runs, "stock")
row = s["metrics"]["time_s"]
print("ompnuma median %.2f over %d runs, paired rounds %d" % (row["median"]["ompnuma"], row["n"]["ompnuma"],
                                                              row["paired"]["ompnuma"]["rounds"]))
bench_report.print_table(s, ["stock", "ompnuma"], "stock", {}, sys.stdout)
