"""Make a report whose first two regions have the given TNTs (2 threads on CPUs 0 and 1), and plugin counts
with their tags (region id + 1): region 0's truth is 99.9 % on node 1 for thread 1, region 1's the swap."""
import json
import sys

from ompnuma.numavm import numavm_emu

report = json.load(open(sys.argv[1]))
regions = report["regions"][:2]
regions[0].update(tnt=[[0, 0], [1, 0]], seen_cpus=[0, 1])
regions[1].update(tnt=[[0, 40], [38, 2]], seen_cpus=[0, 1])
report["regions"] = regions
json.dump(report, open(sys.argv[2], "w"))
counts = {"format": numavm_emu.COUNTS_FORMAT, "tags": [
    {"tag": regions[0]["id"] + 1, "entered": 1, "misses": [[0, 0], [1, 999]]},
    {"tag": regions[1]["id"] + 1, "entered": 2, "misses": [[2, 998], [1000, 0]]}]}
json.dump(counts, open(sys.argv[3], "w"))
