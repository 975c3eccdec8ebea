#!/usr/bin/env python3
"""run.py: the MPI kernels side by side under Open MPI's bindings and ompnuma's ondeloc: medians and ratios to --bind-to core.

usage: run.py [--build DIR] [--np N] [--reps R] [--patterns p,q] [--bytes B] [--iters I]
              [--local-mib M] [--interval MS] [--topology SPEC] [--csv FILE]

Configurations (interleaved, one run of each per repetition, so that drift
on a shared machine hits all of them alike):
  core         mpirun --map-by core --bind-to core (overload allowed when N > cores)
  none         mpirun --bind-to none
  lib-off      core + LD_PRELOAD=libompnuma_mpi.so, OMP_PLACEMENT_MPI unset (wrappers only)
  ondeloc-dry  core + ondeloc,dry_run: counting and the mapper, nothing moves (overhead)
  ondeloc      core + ondeloc: ranks move to the nodes the mapper chooses
Prints one line per pattern and configuration: median seconds, min, max, and
the ratio of the median to core's. Only timings of runs that printed their
line are kept; a failed run is reported and counted.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--build", default=os.path.join(here, "..", "..", "build"))
    ap.add_argument("--np", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--patterns", default="ring,halo,pairs,alltoall,phase")
    ap.add_argument("--bytes", type=int, default=1 << 18)
    ap.add_argument("--iters", type=int, default=200)
    ap.add_argument("--local-mib", type=int, default=8)
    ap.add_argument("--interval", type=int, default=100)
    ap.add_argument("--topology", default="")
    ap.add_argument("--csv", default="")
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    exe = os.path.join(build, "bin", "mpi-kernels")
    lib = os.path.join(build, "lib", "libompnuma_mpi.so")
    mpirun = shutil.which("mpirun")
    if not (mpirun and os.path.exists(exe) and os.path.exists(lib)):
        print("run.py: needs mpirun, {} and {} (build with MPI found)".format(exe, lib), file=sys.stderr)
        return 2
    bind = "core:overload-allowed" if a.np > (os.cpu_count() or 1) else "core"
    base = [mpirun, "--oversubscribe", "--allow-run-as-root", "-np", str(a.np)]
    core = base + ["--map-by", "core", "--bind-to", bind]
    mp = "ondeloc,interval={}".format(a.interval) + (",topology=" + a.topology if a.topology else "")
    configs = [
        ("core", core),
        ("none", base + ["--bind-to", "none"]),
        ("lib-off", core + ["-x", "LD_PRELOAD=" + lib]),
        ("ondeloc-dry", core + ["-x", "LD_PRELOAD=" + lib, "-x", "OMP_PLACEMENT_MPI=" + mp + ",dry_run"]),
        ("ondeloc", core + ["-x", "LD_PRELOAD=" + lib, "-x", "OMP_PLACEMENT_MPI=" + mp]),
    ]
    rows = []
    print("# np={} bytes={} iters={} local_mib={} reps={} interval={}ms host cpus={}".format(
        a.np, a.bytes, a.iters, a.local_mib, a.reps, a.interval, os.cpu_count()))
    for pat in a.patterns.split(","):
        times = {name: [] for name, _ in configs}
        failed = {name: 0 for name, _ in configs}
        for _ in range(a.reps):
            for name, cmd in configs:
                full = cmd + [exe, pat, str(a.bytes), str(a.iters), str(a.local_mib)]
                p = subprocess.run(full, capture_output=True, text=True, timeout=600)
                line = [l for l in p.stdout.splitlines() if l.startswith(pat + " ")]
                if p.returncode or not line:
                    failed[name] += 1
                    continue
                times[name].append(float(line[0].split()[1]))
        ref = statistics.median(times["core"]) if times["core"] else None
        for name, _ in configs:
            t = times[name]
            if not t:
                print("{:9s} {:12s} all {} runs failed".format(pat, name, failed[name]))
                continue
            med = statistics.median(t)
            ratio = med / ref if ref else float("nan")
            print("{:9s} {:12s} median {:.4f} s  min {:.4f}  max {:.4f}  x{:.3f} of core{}".format(
                pat, name, med, min(t), max(t), ratio, "  ({} failed)".format(failed[name]) if failed[name] else ""))
            rows.append((pat, name, med, min(t), max(t), ratio, len(t), failed[name]))
    if a.csv:
        with open(a.csv, "w") as f:
            f.write("pattern,config,median_s,min_s,max_s,ratio_to_core,runs,failed\n")
            for r in rows:
                f.write("{},{},{:.6f},{:.6f},{:.6f},{:.4f},{},{}\n".format(*r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
