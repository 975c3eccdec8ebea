"""app_regions.py REPORT.json [--counts]: the regions a corpus program's report holds (benchmarks/apps), for FileCheck: the source and nodes; each outermost region that is not a loop record, by executions, with its team and outcome (--counts: without the outcome, for a program whose decisions follow where the kernel ran its unbound threads); the nested regions' names and teams (their executions vary from run to run for FastTree, on stock libgomp too); the reasons the outermost regions with no data give (not with --counts)."""
import json
import sys

with open(sys.argv[1]) as f:
    r = json.load(f)
counts = "--counts" in sys.argv[2:]
print("source %s, %d nodes, %d regions not measured" % (
    r["source"]["used"], r["topology"]["nodes"], r["regions_not_measured"]))
outer = [g for g in r["regions"] if g["level"] == 1 and not g["construct"]]
for g in sorted(outer, key=lambda g: (g["executions"], g["symbol"])):
    print("%s team %d: %d executions%s" % (g["symbol"], g["team_size"], g["executions"],
                                          "" if counts else ", " + g["outcome"]))
nested = sorted({(g["symbol"], g["team_size"]) for g in r["regions"] if g["level"] > 1})
print("nested: " + ", ".join("%s team %d" % n for n in nested))
if not counts:
    for why in sorted({g["why"].split(" (")[0] for g in outer if g["outcome"] == "no_data"}):
        print("no_data: " + why)
