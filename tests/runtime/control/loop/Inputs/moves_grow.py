#!/usr/bin/env python3
"""moves_grow.py SHORT.json LONG.json [SHORT.json LONG.json ...]: for each pair of reports of one program run
for few and for more executions, the region's outcome and CPUs, and whether the moves ompnuma's loop made
grew with the executions (a move back and forth per execution) or stayed the same."""
import json
import sys


def load(path):
    with open(path) as f:
        rec = json.load(f)
    region = rec["regions"][0]
    return region, rec["pinning"]["moves"]["loop"]["count"]


def main(paths):
    for short, long_ in zip(paths[0::2], paths[1::2]):
        (r, a), (q, b) = load(short), load(long_)
        print("%s %s; moves for %d and %d executions: %s" % (r["outcome"], r["cpus"], r["executions"],
                                                           q["executions"],
                                                           "same" if a == b else "more" if b > a else "fewer"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
