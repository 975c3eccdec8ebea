"""loop_cost.py --build DIR --placement SETTINGS --budget N [--unlisted LOOPS,TEAM] PROG: what ompnuma's hooks
cost each execution of a settled loop placed inside one long region, counted by callgrind. PROG SWEEPS runs
its loops SWEEPS times inside one region (tests/runtime/control/loop/Inputs/settled-loops.c); it runs through the drop-in
with OMP_PLACEMENT=SETTINGS for a short and a long run, each with loops on and with loops=off. What the
long run has more than the short one in ompnuma's code (every thread, count.py's own_cost), with loops on
less with loops=off, is what the hooks spent on the executions the long run's report counts more, all
settled by then; with loops=off the same runs cancel the rest (the program's other regions, the runtime's
code reached through the drop-in's entry points). Per execution and team thread; exits 1 over N.
--unlisted LOOPS,TEAM: the loops have no records (a region the source cannot see places none): the executions
are LOOPS a sweep, by TEAM threads, and the report must list no loop."""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), *[os.pardir] * 5, "benchmarks",
                                "overhead"))
import count  # noqa: E402  (stripped copies, ompnuma's own instructions in a callgrind dump)


def run(prog, args, libdir, placement, work, tag):
    """ompnuma's own instructions (all threads) and the report of one run under callgrind."""
    out, report = os.path.join(work, "cg." + tag), os.path.join(work, tag + ".json")
    env = {k: v for k, v in os.environ.items() if not k.startswith(count.STRIP_PREFIXES)}
    env.update(LD_LIBRARY_PATH=libdir, OMP_PLACEMENT=placement, OMP_PLACEMENT_REPORT=report)
    r = subprocess.run(["valgrind", "--tool=callgrind", "--separate-threads=yes", "--callgrind-out-file=" + out,
                        prog] + args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    if r.returncode != 0:
        sys.exit("loop_cost.py: %s failed (exit %d): %s" % (tag, r.returncode, r.stderr.strip()[-300:]))
    own = sum(count.own_cost(os.path.join(work, n), libdir)[1] for n in os.listdir(work)
              if n.startswith("cg." + tag + "-"))
    with open(report) as f:
        return own, json.load(f)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--placement", required=True)
    ap.add_argument("--budget", type=float, required=True)
    ap.add_argument("--sweeps", default="100,400", help="the short and the long run's SWEEPS")
    ap.add_argument("--unlisted", help="LOOPS,TEAM: loops the report does not list, LOOPS a sweep, TEAM threads")
    ap.add_argument("prog")
    a = ap.parse_args()
    short, long_ = a.sweeps.split(",")
    work = tempfile.mkdtemp(prefix="ompnuma-loop-cost-")
    try:
        _, libdir, _ = count.stripped_copies(a.build, work)
        prog = os.path.join(work, os.path.basename(a.prog))
        subprocess.run(["objcopy", "--strip-debug", a.prog, prog], check=True)
        own, reports = {}, {}
        for sweeps in (short, long_):
            for loops in ("", ",loops=off"):
                tag = "s%s%s" % (sweeps, loops.replace(",loops=", "-"))
                own[(sweeps, loops)], reports[(sweeps, loops)] = run(prog, [sweeps], libdir, a.placement + loops,
                                                                     work, tag)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    def loops_of(report):
        return [g for g in report["regions"] if g.get("construct")]
    spent = (own[(long_, "")] - own[(short, "")]) - (own[(long_, ",loops=off")] - own[(short, ",loops=off")])
    if a.unlisted:
        per_sweep, team = (int(x) for x in a.unlisted.split(","))
        listed = sum(len(loops_of(reports[(sweeps, "")])) for sweeps in (short, long_))
        per = spent / ((int(long_) - int(short)) * per_sweep) / team
        print("loops listed: %d" % listed)
        print("ompnuma per unlisted loop execution and thread: %.1f <= %g: %s" %
              (per, a.budget, "yes" if per <= a.budget else "NO"))
        return 0 if per <= a.budget and not listed else 1
    for sweeps in (short, long_):
        loops = loops_of(reports[(sweeps, "")])
        print("sweeps %s: loops %d, settled %d, executions %d" %
              (sweeps, len(loops), sum(g["outcome"] not in ("sampling", "verifying") for g in loops),
               sum(g["executions"] for g in loops)))
    more = sum(g["executions"] for g in loops_of(reports[(long_, "")])) - \
        sum(g["executions"] for g in loops_of(reports[(short, "")]))
    team = max((g["team_size"] for g in loops_of(reports[(long_, "")])), default=0)
    if more <= 0 or not team:
        print("no settled loop executions to count")
        return 1
    per = spent / more / team
    print("ompnuma per settled loop execution and thread: %.1f <= %g: %s" %
          (per, a.budget, "yes" if per <= a.budget else "NO"))
    return 0 if per <= a.budget else 1


if __name__ == "__main__":
    sys.exit(main())
