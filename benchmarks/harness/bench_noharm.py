#!/usr/bin/env python3
"""bench_noharm.py: issue 24's "do no harm" verdicts from benchmarks/run results files.

    python3 bench_noharm.py [--baseline CONFIG] [--configs A,B] [--share-points P] [--time-max R] RESULTS.json...

For each benchmark of each results file (one invocation: one layout) and each configuration beside the
baseline, one Markdown row:

- remote share: the baseline's and the configuration's ground-truth remote share (remote_share_pct) in
  every round, from every verified run, lagged or not (the plugin's counts do not depend on the host's
  speed), and the largest distance between the two in one round. It passes when that distance is at most
  P points in every round (--share-points, default 1; a negative P leaves the criterion out). The
  baseline's own spread over its rounds is printed beside it: a gap no larger than that spread is the
  runs' variation as much as the configuration's doing;
- time: the per-round ratios configuration / baseline of time_s over the rounds where neither run lagged
  behind the paced model (a lagged run's time is partly the host's) and their median. It passes when that
  median is at most R (--time-max, default 1.02: within 2 % of the baseline; 0.8 for a pattern that must
  keep its gain), and is "not measured" when no round has both runs unlagged.

Exit status: 0 when every verdict that was measured passed, 1 when one failed, 2 for bad usage or an
unreadable results file."""
import argparse
import json
import statistics
import sys


def load(path):
    try:
        with open(path) as f:
            r = json.load(f)
        return r, {(x["benchmark"], x["config"], x["round"]): x for x in r["runs"] if not x.get("warmup")}
    except (OSError, ValueError, KeyError, TypeError) as e:
        print("bench_noharm: %s: not a readable benchmarks/run results file (%s)" % (path, e), file=sys.stderr)
        sys.exit(2)


def fmt_list(xs, form):
    return " ".join(form % x for x in xs) if xs else "-"


def verdicts(results, runs, baseline, config, bench, share_points, time_max):
    """(row cells, failed) for one benchmark and configuration."""
    rounds = sorted({k[2] for k in runs if k[0] == bench})
    base_share, conf_share, gaps, ratios = [], [], [], []
    for rd in rounds:
        b, c = runs.get((bench, baseline, rd)), runs.get((bench, config, rd))
        if not (b and c and b["verified"] and c["verified"]):
            continue
        bs, cs = b["metrics"].get("remote_share_pct"), c["metrics"].get("remote_share_pct")
        if bs is not None and cs is not None:
            base_share.append(bs)
            conf_share.append(cs)
            gaps.append(abs(cs - bs))
        bt, ct = b["metrics"].get("time_s"), c["metrics"].get("time_s")
        if bt and ct is not None and not b.get("lagged") and not c.get("lagged"):
            ratios.append(ct / bt)
    failed = False
    if share_points < 0:
        share_verdict = "-"
    elif not gaps:
        share_verdict = "not measured"
    elif max(gaps) <= share_points:
        share_verdict = "pass"
    else:
        share_verdict, failed = "**FAIL**", True
    med = statistics.median(ratios) if ratios else None
    if med is None:
        time_verdict = "not measured"
    elif med <= time_max:
        time_verdict = "pass"
    else:
        time_verdict, failed = "**FAIL**", True
    cells = [fmt_list(base_share, "%.1f"), "%.1f" % (max(base_share) - min(base_share)) if base_share else "-",
             fmt_list(conf_share, "%.1f"), "%.1f" % max(gaps) if gaps else "-", share_verdict,
             "%s (%d of %d)" % (fmt_list(ratios, "%.2f"), len(ratios), len(rounds)),
             "%.3f" % med if med is not None else "-", time_verdict]
    return cells, failed


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", nargs="+")
    ap.add_argument("--baseline", help="configuration the others are judged against (default: the file's)")
    ap.add_argument("--configs", help="comma-separated configurations to judge (default: all but the baseline)")
    ap.add_argument("--share-points", type=float, default=1.0,
                    help="largest distance in points of remote share in any round (negative: not judged)")
    ap.add_argument("--time-max", type=float, default=1.02, help="largest median paired time ratio")
    a = ap.parse_args(argv)
    loaded = [(path,) + load(path) for path in a.results]
    print("| benchmark | layout | configuration | remote share %, baseline per round | baseline's spread (points) "
          "| configuration per round | largest gap (points) | share | paced time ratios, unlagged rounds | median | time |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    any_failed = False
    for path, results, runs in loaded:
        baseline = a.baseline or results.get("baseline")
        names = [c["name"] for c in results.get("configs", [])]
        if baseline not in names:
            print("bench_noharm: %s: no configuration %r (has %s)" % (path, baseline, ", ".join(names)),
                  file=sys.stderr)
            return 2
        configs = a.configs.split(",") if a.configs else [n for n in names if n != baseline]
        layout = (results.get("vm") or {}).get("layout", "host")
        for b in results.get("benchmarks", []):
            for config in configs:
                if config not in names:
                    continue
                cells, failed = verdicts(results, runs, baseline, config, b["id"], a.share_points, a.time_max)
                any_failed |= failed
                print("| %s | %s | %s | %s |" % (b["id"], layout, config, " | ".join(cells)))
    return 1 if any_failed else 0


if __name__ == "__main__":
    sys.exit(main())
