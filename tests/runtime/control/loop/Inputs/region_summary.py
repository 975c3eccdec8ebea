#!/usr/bin/env python3
"""region_summary.py: print one region of an ompnuma report as stable lines for FileCheck.

usage: region_summary.py REPORT SYMBOL_PREFIX [TEAM_SIZE]
REPORT may hold other lines before the JSON (output of a VM run); the first
line that starts with '{' begins the report. Printed: outcome, mapping, cpus,
pins_applied, and for each thread the node most of its sampled references
went to, before the decision (tnt) and after a kept move (tnt_after).
"""
import json
import sys


def load(path):
    with open(path) as f:
        lines = f.read().splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith("{"))
    return json.loads("\n".join(lines[start:]))


def most(row):
    total = sum(row)
    if not total:
        return "none"
    node = max(range(len(row)), key=lambda n: (row[n], -n))
    return "node {} ({}%)".format(node, round(100 * row[node] / total))


def main(path, prefix, team=None):
    report = load(path)
    regions = [g for g in report["regions"] if g["symbol"].startswith(prefix) and g["executions"] > 0
               and (team is None or g["team_size"] == int(team))]
    print("regions", len(regions))
    for g in regions:
        print("region team {} executions {}".format(g["team_size"], g["executions"]))
        print("outcome", g["outcome"])
        print("mapping", g["mapping"])
        print("cpus", g["cpus"])
        print("pins_applied", g["pins_applied"])
        print("sampled", "yes" if sum(g["tnt_samples"]) else "no")
        for t, row in enumerate(g["tnt"]):
            print("before thread {}: most on {}".format(t, most(row)))
        for t, row in enumerate(g["tnt_after"]):
            print("after thread {}: most on {}".format(t, most(row)))
        cp = g["critical_path_ns"]
        print("slower after", cp["after"] > cp["before"] > 0)


if __name__ == "__main__":
    main(*sys.argv[1:])
