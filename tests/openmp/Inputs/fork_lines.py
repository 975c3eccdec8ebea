"""fork_lines.py --build DIR --budget N [--nested] PROG: the cache lines ompnuma's code misses on in each
fork of a settled region, counted by callgrind's cache simulation. PROG EXECUTIONS [nested] (fork-lines.c)
sweeps more memory than the simulated last-level cache between its regions, so each line a fork reads is a
miss; it runs through the drop-in (the defaults) for a short and a long run, and what the long run's misses
in ompnuma's objects (every thread) have more than the short one's is what its extra forks cost, all
settled by then. Per fork; exits 1 over N. Also what the whole process misses more per fork through the
drop-in than on stock (ompnuma's lines less those of the stock path it replaces)."""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), *[os.pardir] * 3, "benchmarks",
                                "overhead"))
import count  # noqa: E402  (stripped copies, ompnuma's own cost in a callgrind dump)

MISSES = ("DLmr", "DLmw")
SHORT, LONG = 20, 60


def run(prog, n, nested, libdir, work, tag):
    """(ompnuma's misses, the process's misses) of one run under callgrind; libdir None: stock."""
    out = os.path.join(work, "cg." + tag)
    env = {k: v for k, v in os.environ.items() if not k.startswith(count.STRIP_PREFIXES)}
    env["KMP_BLOCKTIME"] = "0"  # a waiting thread sleeps at once, as in count.py
    if libdir:
        env["LD_LIBRARY_PATH"] = libdir
    r = subprocess.run(["valgrind", "--tool=callgrind", "--cache-sim=yes", "--I1=32768,8,64", "--D1=32768,8,64",
                        "--LL=1048576,16,64", "--separate-threads=yes", "--callgrind-out-file=" + out, prog,
                        str(n)] + (["nested"] if nested else []),
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    if r.returncode != 0:
        sys.exit("fork_lines.py: %s failed (exit %d): %s" % (tag, r.returncode, r.stderr.strip()[-300:]))
    own = whole = 0
    for name in os.listdir(work):
        if name.startswith("cg." + tag + "-"):
            dump = os.path.join(work, name)
            own += count.own_cost(dump, libdir or work, MISSES)[1]
            whole += summary(dump)
    return own, whole


def summary(dump):
    """A dump's total last-level misses (its summary line, in its events' order)."""
    with open(dump) as f:
        for line in f:
            if line.startswith("events:"):
                names = line.split()[1:]
            elif line.startswith("summary:"):
                vals = [int(v) for v in line.split()[1:]]
                return sum(vals[names.index(e)] for e in MISSES)
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--budget", type=float, required=True)
    ap.add_argument("--nested", action="store_true")
    ap.add_argument("prog")
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="ompnuma-fork-lines-")
    try:
        _, libdir, _ = count.stripped_copies(a.build, work)
        prog = os.path.join(work, os.path.basename(a.prog))
        subprocess.run(["objcopy", "--strip-debug", a.prog, prog], check=True)
        got = {(side, n): run(prog, n, a.nested, libdir if side == "drop-in" else None, work, "%s%d" % (side, n))
               for side in ("stock", "drop-in") for n in (SHORT, LONG)}
    finally:
        shutil.rmtree(work, ignore_errors=True)
    per = {side: [(got[(side, LONG)][i] - got[(side, SHORT)][i]) / (LONG - SHORT) for i in (0, 1)]
           for side in ("stock", "drop-in")}
    print("whole process, lines missed per fork more than stock: %.1f" % (per["drop-in"][1] - per["stock"][1]))
    own = per["drop-in"][0]
    print("ompnuma's lines missed per settled fork: %.1f <= %g: %s" % (own, a.budget,
                                                                       "yes" if own <= a.budget else "NO"))
    return 0 if own <= a.budget else 1


if __name__ == "__main__":
    sys.exit(main())
