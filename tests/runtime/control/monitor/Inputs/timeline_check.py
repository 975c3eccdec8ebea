#!/usr/bin/env python3
"""timeline_check.py REPORT.json: the monitor's timeline checked for shape and consistency, printed as counts (never times)."""
import json
import sys

r = json.load(open(sys.argv[1]))
m = r["monitor"]
topo = r["topology"]
node_of = {cpu: n for n, cpus in enumerate(topo["cpus_per_node"]) for cpu in cpus}
tl = m["timeline"]
print("state", m["state"])
print("steps at least 3", m["steps"] >= 3)
print("team", m["team_size"], "teams at least", min(m["teams"], int(sys.argv[2]) if len(sys.argv) > 2 else 1))
migrations = [e for e in tl if e["action"] == "migrate"]
rollbacks = [e for e in tl if e["action"] == "rollback"]
print("migrations", "some" if migrations else "none")
print("counts match", m["migrations"] == sum(e["applied"] for e in migrations) and
      m["rollbacks"] == sum(e["applied"] for e in rollbacks) and
      m["refused"] == sum(not e["applied"] for e in tl))
bad = []
for i, e in enumerate(tl):
    if node_of.get(e["from_cpu"]) != e["from_node"] or node_of.get(e["to_cpu"]) != e["to_node"]:
        bad.append("entry %d: a cpu outside its node" % i)
    if e["from_node"] == e["to_node"]:
        bad.append("entry %d: within one node" % i)
    if not 0 <= e["thread"] < max(m["team_size"], 1) * 8 or e["partner"] == e["thread"]:
        bad.append("entry %d: thread %s partner %s" % (i, e["thread"], e["partner"]))
    if e["action"] == "migrate" and not 0 < e["tickets"] <= e["total_tickets"]:
        bad.append("entry %d: tickets %d of %d" % (i, e["tickets"], e["total_tickets"]))
    if i > 0 and tl[i - 1]["step"] >= e["step"]:
        bad.append("entry %d: steps out of order" % i)
    # A rollback undoes the migration just before it, cpu for cpu.
    if e["action"] == "rollback":
        p = tl[i - 1] if i > 0 else None
        if not p or p["action"] != "migrate" or not p["rolled_back"] or \
           (p["from_cpu"], p["to_cpu"], p["thread"], p["partner"]) != (e["to_cpu"], e["from_cpu"], e["thread"], e["partner"]):
            bad.append("entry %d: a rollback that undoes no migration" % i)
    if e["action"] == "migrate" and e["rolled_back"] and not (i + 1 < len(tl) and tl[i + 1]["action"] == "rollback"):
        bad.append("entry %d: rolled back with no rollback after it" % i)
print("consistent", bad[:3] if bad else True)
moves = r["pinning"]["moves"]["monitor"]["count"]
print("monitor moves", "none" if moves == 0 else "some", "pins applied", r["pinning"]["applied"])
