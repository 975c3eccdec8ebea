"""check_allotment.py: one line per rank's OpenMP report (given in rank order): the allotment the MPI mapper gave it, its region's decision and outcome, and whether the decision lies inside the allotment (a thread left unpinned, -1, runs on all of it) and was taken in it.

With --cpus-per-node N the lines come in the order of the allotments instead,
without the rank (two groups of ranks that talk equally are mirror images: the
mapper may give either group either node), and a last line lists which ranks
share a node (CPU c is on node c // N)."""
import json
import sys

args = sys.argv[1:]
per_node = None
if args[:1] == ["--cpus-per-node"]:
    per_node, args = int(args[1]), args[2:]

lines, node_of = [], {}
for i, path in enumerate(args):
    rep = json.load(open(path))
    allot = rep["pinning"].get("allotment")
    region = rep["regions"][0]
    line = "allotment {} mapping {} cpus {} {}".format(
        allot["cpus"] if allot else "none", region["mapping"], region["cpus"], region["outcome"])
    if allot:
        inside = all(c == -1 or c in allot["cpus"] for c in region["cpus"])
        after = region["allotment"] == allot["changes"]
        line += " inside {} decided in it {}".format("yes" if inside else "no", "yes" if after else "no")
        if per_node:
            node_of[i] = sorted({c // per_node for c in allot["cpus"]})
    lines.append((allot["cpus"] if allot else [], i, line))

if per_node is None:
    for _, i, line in lines:
        print("rank report {}: {}".format(i, line))
else:
    for _, _, line in sorted(lines):
        print("rank report: " + line)
    groups = {}
    for i, nodes in node_of.items():
        groups.setdefault(tuple(nodes), []).append(str(i))
    print("ranks sharing a node: " + " ".join("+".join(g) for g in sorted(groups.values())))
