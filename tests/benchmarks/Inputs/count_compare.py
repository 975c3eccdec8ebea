#!/usr/bin/env python3
"""count_compare.py A.json B.json: two count.py runs agree: every count of a flat construct run by a
team of 1 is the same within one instruction per execution (nothing can race; the drop-in's timed
executions take a branch or not on the times they measure, a new fastest execution for example);
ompnuma's own count of a flat construct run by a larger team
within 3 % (libomp hands regions to its threads in an order that varies, which changes a few
instructions in the hooks: measured 1.9 % apart over 64 executions on an idle machine, 4 % over 16); stock runs count nothing in ompnuma, drop-in runs something. Nested
regions are not compared: which pooled threads form each inner team varies from run to run, and
ompnuma's work with it (a few % of its count). Exit 1 on any difference."""
import json
import sys

ON_STOCK = ("stock", "null")  # count.py's configurations without ompnuma loaded


def load(path):
    with open(path) as f:
        rec = json.load(f)
    return {(c["config"], c["threads"], c["construct"]): c for c in rec["counts"]}


def main(a, b):
    x, y = load(a), load(b)
    if set(x) != set(y):
        print("different points: %s" % sorted(set(x) ^ set(y)))
        return 1
    bad, exact, close, nested = 0, 0, 0, 0
    for key in sorted(x):
        cfg, threads, construct = key
        p, q = x[key], y[key]
        if cfg in ON_STOCK and (p["ompnuma"] != 0 or q["ompnuma"] != 0):
            print("stock counted ompnuma instructions: %s" % (key,))
            bad += 1
        if cfg not in ON_STOCK and not (p["ompnuma"] > 0 and q["ompnuma"] > 0):
            print("drop-in counted no ompnuma instructions: %s" % (key,))
            bad += 1
        if construct == "nested":
            nested += 1
        elif threads == 1:
            for field in ("total", "ompnuma"):
                if abs(p[field] - q[field]) >= 1.0:
                    print("team of 1 differs: %s %s %r != %r" % (key, field, p[field], q[field]))
                    bad += 1
            exact += 1
        elif cfg not in ON_STOCK:
            if abs(p["ompnuma"] - q["ompnuma"]) > 0.03 * max(p["ompnuma"], q["ompnuma"]):
                print("ompnuma count differs by more than 3 %%: %s %r != %r" % (key, p["ompnuma"], q["ompnuma"]))
                bad += 1
            close += 1
    print("the same points (flat constructs, team of 1): %d; ompnuma counts within 3 %%: %d; "
          "nested points not compared: %d; differences: %d" % (exact, close, nested, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
