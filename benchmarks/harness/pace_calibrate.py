#!/usr/bin/env python3
"""pace_calibrate.py: the smallest paced cost per instruction that keeps a loaded host on the model.

    python3 pace_calibrate.py --vm LAYOUT [--paces 100,150,200] [--burners 2] [-r N] [--build DIR]
                              [--threads N] [--limit PCT] --out DIR BENCHMARK...
    python3 pace_calibrate.py --from DIR [--limit PCT]

Issue 25 asks the default of `--pace` to be "the smallest cost that keeps lag under 1 % of a loaded
run". For each cost, in the order given, this starts BURNERS host CPU burners (`sh -c 'while :; do :;
done'`), runs every BENCHMARK with `benchmarks/run --vm LAYOUT --pace COST -c ompnuma-off -r N` into
DIR/pace-COST, and stops the burners. It then prints, per cost and benchmark, each run's lag behind the
model (the plugin's count, as a share of the measured phase) and time, and the verdict: the smallest
cost at which every run of every benchmark lagged less than PCT % (--limit, default 1). `--from DIR`
renders the verdict of runs made before.

Exit status: 0 when a cost kept every run under the limit, 1 when none did, 2 for bad usage or an
unreadable results file."""
import argparse
import glob
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RUN = os.path.join(os.path.dirname(HERE), "run")


def load_runs(path):
    """[(benchmark, lag_pct or None, time_s or None, verified)] of one benchmarks/run results file."""
    try:
        with open(path) as f:
            r = json.load(f)
        return [(x["benchmark"], x.get("lag_pct"), x.get("metrics", {}).get("time_s"), bool(x.get("verified")))
                for x in r["runs"] if not x.get("warmup")]
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        print("pace_calibrate: %s: not a readable benchmarks/run results file (%s)" % (path, e), file=sys.stderr)
        sys.exit(2)


def collect(out):
    """{cost in ns: runs} from DIR/pace-COST/results.json."""
    found = {}
    for path in glob.glob(os.path.join(out, "pace-*", "results.json")):
        m = re.match(r"pace-([0-9.]+)$", os.path.basename(os.path.dirname(path)))
        if m:
            found[float(m.group(1))] = load_runs(path)
    return found


def choose(by_cost, limit):
    """The smallest cost whose runs were all verified, all measured their lag, and all lagged less than
    limit %; None when no cost did."""
    for cost in sorted(by_cost):
        runs = by_cost[cost]
        if runs and all(ok and lag is not None and lag < limit for _, lag, _, ok in runs):
            return cost
    return None


def render(by_cost, limit):
    print("| ns per instruction | benchmark | lag % per run | largest | time (s) per run |")
    print("|---|---|---|---|---|")
    for cost in sorted(by_cost):
        for bench in sorted({b for b, _, _, _ in by_cost[cost]}):
            runs = [x for x in by_cost[cost] if x[0] == bench]
            lags = [lag for _, lag, _, _ in runs if lag is not None]
            cells = " ".join("-" if lag is None else "%.2f" % lag for _, lag, _, _ in runs)
            times = " ".join("failed" if not ok else "%.2f" % t if t is not None else "-" for _, _, t, ok in runs)
            print("| %g | %s | %s | %s | %s |" % (cost, bench, cells, "%.2f" % max(lags) if lags else "-", times))
    best = choose(by_cost, limit)
    if best is None:
        print("\nno cost kept every run under %g %% lag" % limit)
        return 1
    print("\nsmallest cost with every run under %g %% lag: %g ns per instruction" % (limit, best))
    return 0


def burn(n):
    return [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(n)]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--vm", help="the VM layout, as benchmarks/run --vm")
    p.add_argument("--paces", default="100,150,200", help="costs per instruction to try, ns (default 100,150,200)")
    p.add_argument("--burners", type=int, default=2, help="host CPU burners beside each run (default 2)")
    p.add_argument("-r", "--rounds", type=int, default=2, help="runs of each benchmark per cost (default 2)")
    p.add_argument("--threads", help="OMP_NUM_THREADS (default: the layout's vCPUs)")
    p.add_argument("--build", help="the build directory, as benchmarks/run --build")
    p.add_argument("--limit", type=float, default=1.0, help="largest lag allowed, %% of the measured phase")
    p.add_argument("--out", help="where the runs go (DIR/pace-COST)")
    p.add_argument("--from", dest="source", help="render the runs already in this directory")
    p.add_argument("benchmarks", nargs="*")
    a = p.parse_args()
    if a.source:
        by_cost = collect(a.source)
        if not by_cost:
            print("pace_calibrate: %s: no pace-COST/results.json in it" % a.source, file=sys.stderr)
            return 2
        return render(by_cost, a.limit)
    if not (a.vm and a.out and a.benchmarks) or a.burners < 0 or a.rounds < 1:
        p.error("--vm, --out and at least one benchmark are needed (or --from DIR)")
    try:
        costs = [float(c) for c in a.paces.split(",")]
    except ValueError:
        p.error("--paces %s: expected ns per instruction, comma-separated" % a.paces)
    env = dict(os.environ)
    if a.threads:
        env["OMP_NUM_THREADS"] = a.threads
    elif "OMP_NUM_THREADS" not in env:
        m = re.match(r"(\d+)x(\d+)$", a.vm)
        if m:
            env["OMP_NUM_THREADS"] = str(int(m.group(1)) * int(m.group(2)))
    for cost in costs:
        out = os.path.join(a.out, "pace-%g" % cost)
        cmd = [RUN, "--vm", a.vm, "--pace", "%g" % cost, "-c", "ompnuma-off", "--baseline", "ompnuma-off",
               "-r", str(a.rounds), "--no-plot", "--out", out] + (["--build", a.build] if a.build else [])
        burners = burn(a.burners)
        try:
            subprocess.run(cmd + a.benchmarks, env=env, check=False)
        finally:
            for b in burners:
                b.kill()
                b.wait()
    return render(collect(a.out), a.limit)


if __name__ == "__main__":
    sys.exit(main())
