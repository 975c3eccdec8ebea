#!/usr/bin/env python3
"""primary.py: what a settled region costs when its decision moved the primary thread: EPCC overheads of the
stock runtime and of the drop-in with primary=return and primary=stay, alternated process by process, with
the moves ompnuma made per execution (from its report).

Every region of overhead-epcc is given a decision that swaps its two threads (a replayed table on a
synthetic 2-node topology whose nodes are CPUs 0 and 1, pins applied), with the OpenMP binding on
(OMP_PROC_BIND=close, as stock's side): the primary's place is CPU 0, its region's CPU is 1. With
primary=return it goes back to its place at every region's end and is pinned again at the next begin;
with primary=stay it stays on CPU 1 in serial code.

usage: primary.py [--build DIR] [-r ROUNDS] [--args 'OVERHEAD-EPCC ARGS']
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

CONSTRUCTS = ("parallel", "for", "barrier", "reduction", "parallel-empty")
CONFIGS = ("stock", "return", "stay")
SWAP = "0,1000\n1000,0\n"  # thread 0's references on node 1, thread 1's on node 0


def fail(msg):
    sys.stderr.write("primary.py: " + msg + "\n")
    sys.exit(2)


def run_once(build, config, args, work):
    out = os.path.join(work, config + ".json")
    report = os.path.join(work, config + ".report.json")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OMP_", "KMP_", "LD_LIBRARY_PATH"))}
    env.update({"OMP_NUM_THREADS": "2", "OMP_PROC_BIND": "close"})
    if config != "stock":
        env.update({"LD_LIBRARY_PATH": os.path.join(build, "lib"), "HWLOC_SYNTHETIC": "pack:2 [numa] core:1 pu:1",
                    "HWLOC_THISSYSTEM": "1", "OMP_PLACEMENT_REPORT": report,
                    "OMP_PLACEMENT": "critpath,sample=2,verify=off,source=replay:%s,primary=%s" % (
                        os.path.join(work, "swap.csv"), config)})
    r = subprocess.run([os.path.join(build, "bin", "overhead-epcc")] + args + ["-t", "2", "--json", out], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    if r.returncode != 0:
        fail("%s: overhead-epcc failed (exit %d): %s" % (config, r.returncode, r.stderr.strip()[-300:]))
    with open(out) as f:
        times = {c: rec["test_ns"] for c, rec in json.load(f)["constructs"].items() if c in CONSTRUCTS}
    moves = None
    if config != "stock":
        with open(report) as f:
            rep = json.load(f)
        execs = sum(g["executions"] for g in rep["regions"])
        kept = sum(g["outcome"] == "kept" for g in rep["regions"])
        moves = (rep["pinning"]["moves"]["loop"]["count"] / execs if execs else 0.0, kept, len(rep["regions"]))
    return times, moves


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))), "build"))
    ap.add_argument("-r", "--rounds", type=int, default=5)
    ap.add_argument("--args", default="-n 2000 -o 5 -w 200", help="overhead-epcc's arguments")
    a = ap.parse_args(argv)
    if a.rounds < 1:
        fail("-r must be >= 1")
    if not os.path.isfile(os.path.join(a.build, "bin", "overhead-epcc")):
        fail("no %s/bin/overhead-epcc: build first" % a.build)
    if len(os.sched_getaffinity(0)) < 2 or not {0, 1} <= os.sched_getaffinity(0):
        fail("needs CPUs 0 and 1 (the synthetic topology's two nodes)")
    args = a.args.split()
    with tempfile.TemporaryDirectory(prefix="ompnuma-primary-") as work:
        with open(os.path.join(work, "swap.csv"), "w") as f:
            f.write(SWAP)
        times = {c: {k: [] for k in CONSTRUCTS} for c in CONFIGS}
        moves = {}
        for _ in range(a.rounds):
            for c in CONFIGS:
                t, m = run_once(a.build, c, args, work)
                for k in CONSTRUCTS:
                    times[c][k].append(t[k])
                if m:
                    moves.setdefault(c, []).append(m)
    print("overhead per construct (ns, median of %d alternated rounds), 2 threads, OMP_PROC_BIND=close; "
          "the drop-in's decisions move the primary from its place" % a.rounds)
    print("%-15s %10s %10s %10s %12s %12s" % ("construct", "stock", "return", "stay", "return/stock", "stay/stock"))
    for k in CONSTRUCTS:
        med = {c: statistics.median(times[c][k]) for c in CONFIGS}
        print("%-15s %10.0f %10.0f %10.0f %12.2f %12.2f" % (k, med["stock"], med["return"], med["stay"],
                                                        med["return"] / med["stock"], med["stay"] / med["stock"]))
    per = {}
    for c in ("return", "stay"):
        per[c] = statistics.median(m[0] for m in moves[c])
        _, kept, regions = moves[c][-1]
        print("primary=%s: %.3f moves per execution (ompnuma's report, median), %d of %d regions kept a swap "
              "(last round)" % (c, per[c], kept, regions))
    # With stay, the only moves are each thread's first pin (and a region's first decision): their share
    # falls with the executions; with return, the primary moves back and forth at every execution.
    print("fewer moves per execution with primary=stay: %s" % ("yes" if per["stay"] < per["return"] / 10 else "no"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
