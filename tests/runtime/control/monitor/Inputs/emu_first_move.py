#!/usr/bin/env python3
"""emu_first_move.py REPORT.json: the monitor's first migration in a crossed two-thread run: what P counted, whether it swapped the team, and whether the next step kept it."""
import json
import sys

m = json.load(open(sys.argv[1]))["monitor"]
tl = m["timeline"]
print("work per second", m["work_unit"] == "work")
mig = [i for i, e in enumerate(tl) if e["action"] == "migrate" and e["applied"]]
first = tl[mig[0]] if mig else None
print("first migration swaps the team", bool(first) and first["partner"] is not None and first["from_node"] != first["to_node"])
# Kept: judged by a later step (perf_after set) and never rolled back.
print("kept", bool(first) and first["perf_after"] is not None and not first["rolled_back"])
