#!/usr/bin/env python3
"""numab_log.py: from an OMP_PLACEMENT_VERBOSE=2 log, the numa_balancing estimates that closed each region's window.

usage: numab_log.py LOG
For each "region N: ... hinting faults" line, the "thread T ... estimate a,b" lines read just before it: which node
column dominates each thread's row, and the decision logged for the region afterwards.
"""
import re
import sys

last = {}
for line in open(sys.argv[1]):
    m = re.search(r"numa_balancing: thread (\d+) .* estimate (\d+),(\d+)", line)
    if m:
        last[int(m.group(1))] = (int(m.group(2)), int(m.group(3)))
        continue
    m = re.search(r"numa_balancing: region (\d+): (\d+) hinting faults", line)
    if m:
        print("region {} window closed".format(m.group(1)))
        for t in sorted(last):
            a, b = last[t]
            print("thread {}: most on node {}".format(t, 0 if a > b else 1 if b > a else "tie"))
        last = {}
        continue
    m = re.search(r"region (\d+) \(\d+ threads\): re-pinned to cpus \[(.*)\]", line)
    if m:
        print("region {} decided cpus [{}]".format(m.group(1), m.group(2)))
