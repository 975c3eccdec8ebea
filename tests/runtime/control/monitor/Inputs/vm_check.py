#!/usr/bin/env python3
"""vm_check.py OUTPUT: a VM run of crossed-long.c (its lines, then the JSON report): where each thread and its data ended, and the monitor's decisions judged against the data's nodes."""
import json
import re
import sys

lines = open(sys.argv[1]).read().splitlines()
start = next(i for i, l in enumerate(lines) if l.startswith("{"))
report = json.loads("\n".join(lines[start:]))
where = {}
for l in lines[:start]:
    m = re.match(r"thread (\d+): on node (-?\d+), data on node (-?\d+)", l)
    if m:
        where[int(m.group(1))] = (int(m.group(2)), int(m.group(3)))
m = report["monitor"]
tl = m["timeline"]
print("pins applied", report["pinning"]["applied"], "monitor moves", "some" if report["pinning"]["moves"]["monitor"]["count"] else "none")
print("data crossed", all(d == 1 - t for t, (_, d) in where.items()) and len(where) == 2)
mig = [e for e in tl if e["action"] == "migrate" and e["applied"]]
print("migrations", "some" if mig else "none")
first = mig[0] if mig else None
if first:
    data = where[first["thread"]][1]
    print("first migration to the data's node", first["to_node"] == data)
# Every migration decided and judged with the TNT (P's latency from where the
# data is): kept when it took the thread to its data's node, rolled back
# when it took it away. Judged: a later step measured it (perf_after), which
# may be a step the locality gate held (no entry). Once the short execution
# has ended its TNT stays, so the judging step had it too. Before any sample
# there is no TNT and P is the share of time the thread ran: blind to NUMA.
judged = [e for e in tl if e["action"] == "migrate" and e["applied"] and e["perf_after"] is not None]
informed = [e for e in judged if e["tnt"]]
wrong = [e["step"] for e in informed if e["rolled_back"] != (e["to_node"] != where[e["thread"]][1])]
print("judged with the TNT", "some" if informed else "none", "by the data", wrong == [])
# Next to their data the threads get no further trial: the gate holds.
print("locality gate held", "some" if m["gated"] else "none")
last = tl[-1] if tl else None
pending = last and last["action"] == "migrate" and last["perf_after"] is None
print("ends next to its data", all(cpu == d for cpu, d in where.values()) or
      bool(pending and where[last["thread"]][0] != where[last["thread"]][1]))
