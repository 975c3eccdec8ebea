"""loops_home.py REPORT LOG: each loop record (construct) of a report, its outcome, and whether the verbose log
says its sampling stopped at home (every thread on the node of most of its references) and after how many
sampled executions."""
import json
import re
import sys

regions = json.load(open(sys.argv[1]))["regions"]
log = open(sys.argv[2]).read()
for g in regions:
    if not g.get("construct"):
        continue
    m = re.search(r"region %d: every thread runs on the node of most of its references after (\d+) sampled "
                  r"executions; sampling stops, nothing to move" % g["id"], log)
    print("loop", g["id"], g["outcome"], "stopped at home after %s sampled executions" % m.group(1) if m else "")
