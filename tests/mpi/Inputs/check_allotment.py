"""check_allotment.py: one line per rank's OpenMP report: the allotment the MPI mapper gave it, its region's decision and outcome, and whether the decision lies inside the allotment (a thread left unpinned, -1, runs on all of it) and was taken in it.

usage: check_allotment.py REPORT.json...    (one report per rank, in rank order)
       check_allotment.py --from OUTPUT      (reports printed one after another, each after a line "@report RANK")
"""
import json
import sys


def reports(args):
    if args[:1] != ["--from"]:
        return [json.load(open(p)) for p in args]
    out, cur = [], None
    for line in open(args[1]):
        if line.startswith("@report "):
            cur = []
            out.append(cur)
        elif cur is not None:
            cur.append(line)
    return [json.loads("".join(c)) for c in out]


for i, rep in enumerate(reports(sys.argv[1:])):
    allot = rep["pinning"].get("allotment")
    region = rep["regions"][0]
    line = "rank report {}: allotment {} mapping {} cpus {} {}".format(
        i, allot["cpus"] if allot else "none", region["mapping"], region["cpus"], region["outcome"])
    if allot:
        inside = all(c == -1 or c in allot["cpus"] for c in region["cpus"])
        after = region["allotment"] == allot["changes"]
        line += " inside {} decided in it {}".format("yes" if inside else "no", "yes" if after else "no")
    print(line)
