"""inner_teams.py: the level-2 records of a report, and whether their CPUs overlap."""
import json
import os
import sys

inner = sorted((r for r in json.load(open(sys.argv[1]))["regions"] if r["level"] == 2),
               key=lambda r: r["parent_thread"])
print("inner teams {}: forked by outer threads {}".format(len(inner), [r["parent_thread"] for r in inner]))
print("executions", [r["executions"] for r in inner])
print("sampled", *(sum(r["tnt_samples"]) > 0 for r in inner))
cpus = [set(r["cpus"]) for r in inner]
unpinned = ["team of outer thread {}: {}, why {!r}, seen on CPUs {}".format(
    r["parent_thread"], r["outcome"], r.get("why"), r.get("seen_cpus")) for r in inner if min(r["cpus"]) < 0]
print("every thread pinned {}, CPUs shared by the two teams: {}{}".format(
    not unpinned, sorted(cpus[0] & cpus[1]) if len(cpus) == 2 else None,
    "".join("; " + u for u in unpinned) + ("; this host's CPUs {}".format(sorted(os.sched_getaffinity(0)))
                                          if unpinned else "")))
