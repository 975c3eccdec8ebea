#!/usr/bin/env python3
"""decisions.py: what an ompnuma report says about the regions that ran often enough to be placed, for FileCheck.

usage: decisions.py OUTPUT K MIN_EXECUTIONS
OUTPUT holds program output and one-line JSON reports (a VM run that ran
several programs); the K-th line (from 1) that starts with '{' is read.
Printed: the source used, then for each region that ran at least
MIN_EXECUTIONS times its function, outcome, the node most of each thread's
sampled references went to, and the mapping. Loops placed inside a region's
one execution (constructs) are not regions of the program's and are left out.
"""
import json
import sys


def main(path, k, least):
    with open(path) as f:
        reports = [l for l in f.read().splitlines() if l.startswith("{")]
    report = json.loads(reports[int(k) - 1])
    print("source", report["source"]["used"])
    for g in report["regions"]:
        if g["executions"] < int(least) or g.get("construct"):
            continue
        most = ["node {}".format(max(range(len(row)), key=lambda n: row[n])) if sum(row) else "none"
                for row in g["tnt"]]
        print("region {} {}: references {}, mapping {}".format(
            g["symbol"].split("+")[0], g["outcome"], ", ".join(most), g["mapping"]))


if __name__ == "__main__":
    main(*sys.argv[1:])
