#!/usr/bin/env python3
"""count_floor.py RUN.json: in a count.py run of stock, null, dispatch and settled, every construct run by a
team of 1 (nothing races, so counts are exact) counts more instructions with a tool attached that
registers nothing than on stock (libomp's own OMPT paths), more when that tool registers ompnuma's
callbacks, empty (libomp dispatching them), and more again on the drop-in (its callbacks' work); neither
tool runs ompnuma code. Prints one line per construct; exit 1 on any other order."""
import json
import sys


def main(path):
    with open(path) as f:
        rec = json.load(f)
    at = {(c["config"], c["construct"]): c for c in rec["counts"] if c["threads"] == 1}
    bad = 0
    for construct in sorted({k[1] for k in at}):
        stock, null, dispatch, settled = (at[(cfg, construct)] for cfg in ("stock", "null", "dispatch", "settled"))
        ordered = stock["total"] < null["total"] < dispatch["total"] < settled["total"] and \
            null["ompnuma"] == dispatch["ompnuma"] == 0
        bad += not ordered
        print("%s: stock < null < dispatch < settled: %s" % (
            construct, "yes" if ordered else "NO (%.0f, %.0f, %.0f, %.0f)" % (
                stock["total"], null["total"], dispatch["total"], settled["total"])))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
