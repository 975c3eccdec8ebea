#!/usr/bin/env python3
"""tree_nodes.py: print a report's bubble tree as the node of each slot, grouped by bubble.

usage: tree_nodes.py REPORT CPUS_PER_NODE SIZES...   (SIZES: team sizes, outer first)
Slots are numbered as pl_bubble_decide numbers them: bubbles level by level,
each bubble's threads in order; an inner team's thread 0 is its master.
"""
import json
import sys

report = json.load(open(sys.argv[1]))
per_node = int(sys.argv[2])
sizes = [int(s) for s in sys.argv[3:]]
tree = report["bubbles"][0]
nodes = [c // per_node for c in tree["cpus"]]
print("bubbles", tree["bubbles"], "slots", tree["threads"])
slot, count = 0, 1
for level, size in enumerate(sizes):
    teams = []
    for _ in range(count):
        teams.append(nodes[slot:slot + size])
        slot += size
    print("level {}: {}".format(level + 1, " ".join("".join(str(n) for n in t) for t in teams)))
    count *= size
