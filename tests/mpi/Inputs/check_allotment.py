"""check_allotment.py: one line per rank's OpenMP report (given in rank order): the allotment the MPI mapper gave it, its region's decision and outcome, and whether the decision lies inside the allotment (a thread left unpinned, -1, runs on all of it) and was taken in it."""
import json
import sys

for i, path in enumerate(sys.argv[1:]):
    rep = json.load(open(path))
    allot = rep["pinning"].get("allotment")
    region = rep["regions"][0]
    line = "rank report {}: allotment {} mapping {} cpus {} {}".format(
        i, allot["cpus"] if allot else "none", region["mapping"], region["cpus"], region["outcome"])
    if allot:
        inside = all(c == -1 or c in allot["cpus"] for c in region["cpus"])
        after = region["allotment"] == allot["changes"]
        line += " inside {} decided in it {}".format("yes" if inside else "no", "yes" if after else "no")
    print(line)
