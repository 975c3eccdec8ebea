#!/usr/bin/env python3
"""tnt.py: print the TNT and samples of the regions of an ompnuma JSON report whose symbol starts with PREFIX.

usage: tnt.py REPORT PREFIX [N SLACK]
REPORT may hold other lines before the JSON (the first line starting with '{' begins it). With N and SLACK a cell
in N..N+SLACK prints as "~N" (a count of N events plus the few the program's own start-up adds).
"""
import json
import sys

lines = open(sys.argv[1]).read().splitlines()
start = next(i for i, l in enumerate(lines) if l.startswith("{"))
report = json.loads("\n".join(lines[start:]))
near = (int(sys.argv[3]), int(sys.argv[4])) if len(sys.argv) > 4 else None


def cell(v):
    return "~{}".format(near[0]) if near and near[0] <= v <= near[0] + near[1] else str(v)


print("source", report["source"]["used"] if isinstance(report.get("source"), dict) else report.get("source"))
for g in report["regions"]:
    if g["symbol"].startswith(sys.argv[2]) and g["executions"] > 0:
        print("region team {} executions {} outcome {}".format(g["team_size"], g["executions"], g["outcome"]))
        for t, row in enumerate(g["tnt"]):
            print("thread {}: {}".format(t, " ".join(cell(v) for v in row)))
