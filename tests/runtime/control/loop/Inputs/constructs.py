"""constructs.py REPORT: the loop records (constructs) of a report and why their parent has no decision."""
import json
import sys

r = json.load(open(sys.argv[1]))
if "loops=off" in r["settings"]["OMP_PLACEMENT"]:
    print("settings", r["settings"]["OMP_PLACEMENT"])
regions = r["regions"]
loops = [g for g in regions if g.get("construct")]
print("regions", len(regions), "loops", len(loops))
for g in loops:
    print("loop parent", g["parent"], "team", g["team_size"], "level", g["level"], "outcome", g["outcome"],
          "mapping", g["mapping"])
for p in sorted({g["parent"] for g in loops}):
    print("region", p, "why:", regions[p]["why"])
