#!/usr/bin/env python3
"""demo_emu.py OUTPUT COUNTS REMOTE_NS: the demo's summary of stock vs ompnuma runs alternating in one emulated-NUMA VM.

OUTPUT is the guest's stdout: sections "=== stock R" / "=== ompnuma R" (each
run's output, with "iteration ms: ..." from swapped.c's `times` argument and,
for ompnuma, its decisions), then "=== report" (the last ompnuma run's JSON
report). COUNTS is the numaemu plugin's ground truth, where tag 10R+1 covers
stock round R and 10R+2 ompnuma round R. Writes the report to OUTPUT.report.json
for `ompnuma report`; prints the table and the ratio.
"""

import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "numavm"))
from numavm_emu import remote_share, tag_of  # noqa: E402  the plugin's one counts reader

ITER = re.compile(r"iteration ms: first third median ([0-9.]+), last third median ([0-9.]+)")


def sections(text):
    out, name = {}, None
    for line in text.splitlines():
        if line.startswith("=== "):
            name = line[4:].strip()
            out[name] = []
        elif name:
            out[name].append(line)
    return out


def tag_share(counts, tag):
    t = tag_of(counts, tag)
    return remote_share(counts, t["misses"]) if t else None


def main(argv):
    out_path, counts_path, remote_ns = argv[1], argv[2], argv[3]
    with open(out_path, errors="replace") as f:
        secs = sections(f.read())
    with open(counts_path) as f:
        counts = json.load(f)
    report = "\n".join(secs.get("report", []))
    with open(out_path + ".report.json", "w") as f:
        f.write(report)

    rounds = sorted({int(k.split()[1]) for k in secs if k.split()[0] in ("stock", "ompnuma")})
    first = secs.get("ompnuma {}".format(rounds[0]), []) if rounds else []
    print("== ompnuma's decisions in round 1 (OMP_PLACEMENT_VERBOSE=1):")
    for line in first:
        if line.startswith("ompnuma: region") or "re-pinned" in line:
            print("   " + line)
    print("== iteration times (ms, median of the first and of the last third of the iterations) "
          "and ground-truth remote share (numaemu's miss counts):")
    print("   {:<6} {:<8} {:>12} {:>12} {:>14}  {}".format("round", "runtime", "first third", "last third",
                                                           "remote share", "outcome of the move"))
    last = {"stock": [], "ompnuma": []}
    shares = {"stock": [], "ompnuma": []}
    failed = False
    outcomes = []
    for r in rounds:
        for i, rt in enumerate(("stock", "ompnuma")):
            lines = secs.get("{} {}".format(rt, r), [])
            m = next((ITER.search(l) for l in lines if ITER.search(l)), None)
            share = tag_share(counts, 10 * r + 1 + i)
            if not m:
                print("   {:<6} {:<8} did not finish: {}".format(r, rt, " | ".join(lines[-3:])))
                failed = True
                continue
            a, b = float(m.group(1)), float(m.group(2))
            last[rt].append(b)
            if share is not None:
                shares[rt].append(share)
            result = ""
            if rt == "ompnuma":
                result = "none"
                for l in lines:
                    if l.startswith("ompnuma: region") and "critical path" in l:
                        result = l.rsplit(";", 1)[-1].strip()
                outcomes.append(result)
            print("   {:<6} {:<8} {:>12.1f} {:>12.1f} {:>13}  {}".format(
                r, rt, a, b, "{:.1f} %".format(share) if share is not None else "-", result))
    kept = sum(1 for o in outcomes if o == "kept")
    if failed or not last["stock"] or not last["ompnuma"]:
        print("demo: a run did not finish; no ratio")
        return 1
    ratios = [o / s for o, s in zip(last["ompnuma"], last["stock"])]
    ratio = statistics.median(ratios)
    print("== ompnuma/stock iteration time after the move (last third): {:.2f} (per round: {}); "
          "remote share stock {:.0f} % -> ompnuma {:.0f} %; remote miss +{} ns".format(
              ratio, ", ".join("{:.2f}".format(x) for x in ratios),
              statistics.median(shares["stock"]) if shares["stock"] else float("nan"),
              statistics.median(shares["ompnuma"]) if shares["ompnuma"] else float("nan"), remote_ns))
    print("demo-result ratio {:.3f} kept {}/{}".format(ratio, kept, len(outcomes)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
