#!/usr/bin/env python3
"""demo_emu.py OUTPUT COUNTS COST: the demo's summary of stock, ompnuma and oracle runs alternating in one emulated-NUMA VM.

OUTPUT is the guest's stdout: sections "=== stock R" / "=== ompnuma R" /
"=== oracle R" (each run's output, with "iteration ms: ..." from swapped.c's
`times` argument and, for ompnuma, its decisions; the oracle is swapped.c's
`local`: every thread next to its data from the start), then "=== report" (the
last ompnuma run's JSON report). COUNTS is the numaemu plugin's ground truth,
where tag 10R+1 covers stock round R, 10R+2 ompnuma and 10R+3 the oracle. COST
is the `ompnuma vm` emulation options the demo used ("--remote-ns N" or
"--pace [NS]"). Writes the report to OUTPUT.report.json for `ompnuma report`;
prints the table, the ratio and ompnuma's share of the oracle's saving. Paced,
each run's lag (numavm_emu: the time a vCPU fell behind the model and was
forgiven, start-up included) is shown, and a run that lagged beyond 1 % is
marked: some of its times are the host's (the medians of thirds of the
iterations are robust to a few).
"""

import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "numavm"))
from numavm_emu import LAG_LIMIT_PCT, lag_pct, remote_share, tag_of  # noqa: E402  the plugin's one counts reader

ITER = re.compile(r"iteration ms: first third median ([0-9.]+), last third median ([0-9.]+)")
RUNTIMES = ("stock", "ompnuma", "oracle")


def sections(text):
    out, name = {}, None
    for line in text.splitlines():
        if line.startswith("=== "):
            name = line[4:].strip()
            out[name] = []
        elif name:
            out[name].append(line)
    return out


def main(argv):
    out_path, counts_path, cost = argv[1], argv[2], argv[3]
    with open(out_path, errors="replace") as f:
        secs = sections(f.read())
    with open(counts_path) as f:
        counts = json.load(f)
    paced = "lag_ns" in counts
    report = "\n".join(secs.get("report", []))
    with open(out_path + ".report.json", "w") as f:
        f.write(report)

    rounds = sorted({int(k.split()[1]) for k in secs if k.split()[0] in RUNTIMES})
    first = secs.get("ompnuma {}".format(rounds[0]), []) if rounds else []
    print("== ompnuma's decisions in round 1 (OMP_PLACEMENT_VERBOSE=1):")
    for line in first:
        if line.startswith("ompnuma: region") or "re-pinned" in line:
            print("   " + line)
    print("== iteration times (ms{}, median of the first and of the last third of the iterations) "
          "and ground-truth remote share (numaemu's miss counts):".format(", paced model time" if paced else ""))
    print("   {:<6} {:<8} {:>12} {:>12} {:>14}{}  {}".format("round", "runtime", "first third", "last third",
                                                             "remote share", " {:>8}".format("lag") if paced else "",
                                                             "outcome of the move"))
    last = {rt: [] for rt in RUNTIMES}
    shares = {rt: [] for rt in RUNTIMES}
    failed = False
    nlagged = 0
    outcomes = []
    for r in rounds:
        for i, rt in enumerate(RUNTIMES):
            lines = secs.get("{} {}".format(rt, r), [])
            m = next((ITER.search(l) for l in lines if ITER.search(l)), None)
            t = tag_of(counts, 10 * r + 1 + i)
            share = remote_share(counts, t["misses"]) if t else None
            if not m:
                print("   {:<6} {:<8} did not finish: {}".format(r, rt, " | ".join(lines[-3:])))
                failed = True
                continue
            a, b = float(m.group(1)), float(m.group(2))
            lag = lag_pct(t, t.get("wall_ns")) if t and paced else None
            lagged = lag is not None and lag > LAG_LIMIT_PCT
            nlagged += lagged
            last[rt].append((r, b))
            if share is not None:
                shares[rt].append(share)
            result = ""
            if rt == "ompnuma":
                result = "none"
                for l in lines:
                    if l.startswith("ompnuma: region") and "critical path" in l:
                        result = l.rsplit(";", 1)[-1].strip()
                outcomes.append(result)
            if lagged:
                result += " (lagged)"
            print("   {:<6} {:<8} {:>12.1f} {:>12.1f} {:>13}{}  {}".format(
                r, rt, a, b, "{:.1f} %".format(share) if share is not None else "-",
                " {:>7}".format("{:.1f} %".format(lag) if lag is not None else "-") if paced else "", result))
    kept = sum(1 for o in outcomes if o == "kept")
    if failed or not last["stock"] or not last["ompnuma"]:
        print("demo: a run did not finish; no ratio")
        return 1
    stock = dict(last["stock"])
    ratios = [o / stock[r] for r, o in last["ompnuma"]]
    ratio = statistics.median(ratios)
    med = {rt: statistics.median(v for _, v in last[rt]) if last[rt] else None for rt in RUNTIMES}
    print("== ompnuma/stock iteration time after the move (last third): {:.2f} (per round: {}); "
          "remote share stock {:.0f} % -> ompnuma {:.0f} %; emulation: {}".format(
              ratio, ", ".join("{:.2f}".format(x) for x in ratios),
              statistics.median(shares["stock"]) if shares["stock"] else float("nan"),
              statistics.median(shares["ompnuma"]) if shares["ompnuma"] else float("nan"), cost))
    if nlagged:
        print("== {} of {} runs lagged behind the paced model by more than {:g} % of their time (this host delayed "
              "the VM's threads: lagged stretches ran at the host's speed)".format(
                  nlagged, 3 * len(rounds), LAG_LIMIT_PCT))
    share = None
    if med["oracle"] is not None and med["stock"] - med["oracle"] > 0:
        share = (med["stock"] - med["ompnuma"]) / (med["stock"] - med["oracle"])
        print("== the oracle (every thread next to its data from the start) runs a last-third iteration in "
              "{:.1f} ms against stock's {:.1f}: ompnuma took {:.0f} % of the saving there was "
              "((stock - ompnuma) / (stock - oracle), medians)".format(med["oracle"], med["stock"], 100 * share))
    print("demo-result ratio {:.3f} kept {}/{}{}".format(ratio, kept, len(outcomes),
                                                       " oracle-share {:.3f}".format(share) if share is not None
                                                       else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
