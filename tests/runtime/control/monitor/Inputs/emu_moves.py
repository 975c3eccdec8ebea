#!/usr/bin/env python3
"""emu_moves.py REPORT.json: the monitor's moves in a crossed two-thread run: what P counted, and whether a migration (each one a swap of the team) was judged and kept."""
import json
import sys

m = json.load(open(sys.argv[1]))["monitor"]
mig = [e for e in m["timeline"] if e["action"] == "migrate" and e["applied"]]
print("work per second", m["work_unit"] == "work")
print("every migration swaps the team", bool(mig) and all(e["partner"] is not None and e["from_node"] != e["to_node"]
                                                         for e in mig))
# Kept: judged by a later step (perf_after set) and not rolled back.
print("a migration kept", any(e["perf_after"] is not None and not e["rolled_back"] for e in mig))
