#!/usr/bin/env python3
"""data_summary.py: stable lines for FileCheck about the data placement of a run.

usage: data_summary.py report REPORT      the region with the most executions: its outcome, its data
                                          section (state, each move's kind, nodes and whether pages
                                          moved, pages back) and the memory behind its remote references,
                                          with where it was first touched
       data_summary.py nodes COUNTS TAG    the share of tag TAG's misses served by each node (ground truth)
REPORT may hold other lines before the JSON (output of a VM run): the first line that starts with '{'
begins the report.
"""
import json
import sys

from ompnuma.numavm.numavm_emu import tag_of


def report(path):
    with open(path) as f:
        lines = f.read().splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith("{"))
    r = json.loads("\n".join(lines[start:]))
    g = max(r["regions"], key=lambda x: x["executions"])
    print("outcome", g["outcome"])
    d = g.get("data")
    if not d:
        print("data none")
        return
    print("data", d["state"], "with threads" if d["plan"].get("with_threads") else "alone")
    for m in d["moves"]:
        print("move", m["kind"], "nodes", m["nodes"], "pages moved", m["pages"] > 0, "error", m["error"])
    print("back", "all" if d["pages"] and d["back"] == d["pages"] else d["back"])
    for m in d["memory"]:
        print("memory", m["name"], "share", round(m["share"], 1), "node", m["node"])
        t = m.get("first_touch")
        if t:
            print("  first touched by", "{} threads".format(t["threads"]) if t["threads"] > 1
                  else "the initial thread" if t["initial_thread"] else "another thread", "in",
                  t["at"].split("+")[0], "at", (t["line"] or "?").rsplit("/", 1)[-1].split(":")[0],
                  "share", round(t["pages"] / t["sampled"], 1))
        else:
            print("  first touch not recorded")


def nodes(path, tag):
    with open(path) as f:
        c = json.load(f)
    t = tag_of(c, tag)
    cols = [sum(col) for col in zip(*t["misses"])]
    total = sum(cols)
    print("tag {} misses by node: {}".format(tag, " ".join("{:.0f}%".format(100 * v / total) for v in cols)))
    for n, v in enumerate(cols):
        print("node {} serves at least a quarter: {}".format(n, v >= total / 4))


if __name__ == "__main__":
    if sys.argv[1] == "report":
        report(sys.argv[2])
    else:
        nodes(sys.argv[2], int(sys.argv[3]))
