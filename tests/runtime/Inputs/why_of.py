# The reduction region of once-and-many.c (20 executions): its outcome and why, and whether anything was sampled.
import json
import sys

for g in json.load(open(sys.argv[1]))["regions"]:
    if g["executions"] == 20 and any(any(row) for row in g["tnt"]) == (g["outcome"] != "off"):
        print(g["executions"], g["outcome"], g["why"] + ("; tnt sampled False" if g["outcome"] == "off" and
                                                          "one NUMA" in g["why"] else ""))
        break
