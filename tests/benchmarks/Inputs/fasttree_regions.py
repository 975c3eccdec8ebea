"""fasttree_regions.py REPORT.json: the regions an app-fasttree run's report holds, for FileCheck: the source and nodes; each outermost region that is not a loop record, by executions, with its team and outcome; the nested regions' names and teams (their executions vary from run to run, stock libgomp's too); the reasons the outermost regions with no data give."""
import json
import sys

with open(sys.argv[1]) as f:
    r = json.load(f)
print("source %s, %d nodes, %d regions not measured" % (
    r["source"]["used"], r["topology"]["nodes"], r["regions_not_measured"]))
outer = [g for g in r["regions"] if g["level"] == 1 and not g["construct"]]
for g in sorted(outer, key=lambda g: (g["executions"], g["symbol"])):
    print("%s team %d: %d executions, %s" % (g["symbol"], g["team_size"], g["executions"], g["outcome"]))
nested = sorted({(g["symbol"], g["team_size"]) for g in r["regions"] if g["level"] > 1})
print("nested: " + ", ".join("%s team %d" % n for n in nested))
for why in sorted({g["why"].split(" (")[0] for g in outer if g["outcome"] == "no_data"}):
    print("no_data: " + why)
