#!/usr/bin/env python3
"""count_floor.py RUN.json: in a count.py run of stock, null, dispatch, ompt and settled, every construct run
by a team of 1 (nothing races, so counts are exact) counts more instructions with a tool attached that
registers nothing than on stock (libomp's own OMPT paths), more when that tool registers the callbacks
ompnuma's OMPT tool uses, empty (libomp dispatching them), and more again with ompnuma's OMPT tool (its
callbacks' work; neither of the first two runs ompnuma code); the drop-in, which takes regions at the
runtime's ABI with no tool attached, counts fewer than the tool that registers nothing. Prints one line
per construct; exit 1 on any other order."""
import json
import sys


def main(path):
    with open(path) as f:
        rec = json.load(f)
    at = {(c["config"], c["construct"]): c for c in rec["counts"] if c["threads"] == 1}
    bad = 0
    for construct in sorted({k[1] for k in at}):
        stock, null, dispatch, ompt, settled = (at[(cfg, construct)]
                                                for cfg in ("stock", "null", "dispatch", "ompt", "settled"))
        ordered = stock["total"] < null["total"] < dispatch["total"] < ompt["total"] and \
            settled["total"] < null["total"] and null["ompnuma"] == dispatch["ompnuma"] == 0
        bad += not ordered
        print("%s: stock < null < dispatch < ompt, settled < null: %s" % (
            construct, "yes" if ordered else "NO (%.0f, %.0f, %.0f, %.0f, %.0f)" % (
                stock["total"], null["total"], dispatch["total"], ompt["total"], settled["total"])))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
