#!/usr/bin/env python3
"""count.py: instructions per execution of each EPCC construct, stock vs ompnuma's drop-in (settled, sampled, pagefault source), counted by callgrind, per team size; optionally next to the timed overhead ratio."""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

CONSTRUCTS = ("parallel", "for", "barrier", "reduction", "nested", "parallel-empty")
# OMP_PLACEMENT of each drop-in configuration. "settled": the default policy, counted after a warm-up
# long enough for every region to have sampled, decided, verified and settled. "sampled": every
# execution is sampled (the default source). "pagefault": sampled by the pagefault source on the
# program's anonymous memory (the harness's ompnuma-sampling). "monitor": the migration monitor alone.
# "null": stock libomp with a tool attached that registers no callback (null_tool.c): what libomp itself
# adds once any tool is attached, the floor under every drop-in configuration. "dispatch": the same tool
# registering the callbacks ompnuma registers for a settled region, empty: the floor under "settled".
CONFIGS = {
    "stock": None,
    "null": None,
    "dispatch": None,
    "settled": "critpath",
    "sampled": "critpath,sample=1000,verify=off",
    "pagefault": "critpath,sample=1000,source=pagefault,track=anon,verify=off",
    "monitor": "imar2",
}
# ompnuma's instruction budget for a settled execution, per team thread, inside its callbacks (the
# "settled:ompnuma /thr" column, counted with -n 512 or more: shorter intervals carry the windows of the
# one-in-eight timed executions). A region (parallel, reduction, the empty one): its begin and end, and
# each member's implicit task and closing barrier; nested: a region and, in each of its threads, an inner
# one; for and barrier: the events of one loop or barrier inside a region. --budget checks it.
BUDGET = {"parallel": 330, "for": 75, "barrier": 75, "reduction": 330, "nested": 670, "parallel-empty": 330}
BUDGET_MIN_N = 512
# Where the runtime enters ompnuma: its OMPT callbacks (openmp/om_tool.c) and the SIGSEGV dispatcher of
# the pagefault source (runtime/rt_fault.c). Callgrind counts, on every thread, what runs inside them.
# A renamed entry point fails the run (checked against libompnuma.so's symbols) rather than count less.
ENTRY_POINTS = ("on_thread_begin", "on_thread_end", "on_parallel_begin", "on_parallel_end",
                "on_implicit_task", "on_sync_region", "on_work", "dispatch")
STRIP_PREFIXES = ("OMP_", "KMP_", "GOMP_", "LD_PRELOAD", "LD_LIBRARY_PATH")


def fail(msg):
    sys.stderr.write("count.py: " + msg + "\n")
    sys.exit(2)


def stripped_copies(build, work):
    """valgrind 3.19 cannot read clang 19's DWARF 5: the program and the drop-in libraries are copied
    without debug information (the code, and so every count, is the same)."""
    libdir = os.path.join(work, "lib")
    os.makedirs(libdir, exist_ok=True)
    src_lib = os.path.join(build, "lib")
    for name in sorted(os.listdir(src_lib)):
        src = os.path.join(src_lib, name)
        dst = os.path.join(libdir, name)
        if os.path.islink(src):
            os.symlink(os.readlink(src), dst)
        elif os.path.isfile(src) and ".so" in name:
            with open(src, "rb") as f:
                elf = f.read(4) == b"\x7fELF"
            if elf:
                subprocess.run(["objcopy", "--strip-debug", src, dst], check=True)
            else:
                shutil.copy(src, dst)  # libomp.so: a linker script
    prog = os.path.join(work, "overhead-epcc")
    subprocess.run(["objcopy", "--strip-debug", os.path.join(build, "bin", "overhead-epcc"), prog], check=True)
    tool = os.path.join(work, os.path.basename(null_tool(build)))
    subprocess.run(["objcopy", "--strip-debug", null_tool(build), tool], check=True)
    return prog, libdir, tool


def null_tool(build):
    return os.path.join(build, "benchmarks", "overhead", "liboverhead-null-tool.so")


def on_stock(config):
    """Configurations that run on the stock runtime: ompnuma is not loaded, so nothing is counted in it."""
    return CONFIGS[config] is None


def environment(config, threads, libdir, tool):
    env = {k: v for k, v in os.environ.items() if not k.startswith(STRIP_PREFIXES)}
    env["OMP_NUM_THREADS"] = str(threads)
    # Waiting threads sleep at once: a spinning thread would count instructions for as long as
    # valgrind lets it run, which depends on nothing the runtime does. Both sides get it.
    env["KMP_BLOCKTIME"] = "0"
    if config in ("null", "dispatch"):
        env["OMP_TOOL_LIBRARIES"] = tool
    if config == "dispatch":
        env["OVERHEAD_TOOL_DISPATCH"] = "1"
    if CONFIGS[config] is not None:
        env["LD_LIBRARY_PATH"] = libdir
        env["OMP_PLACEMENT"] = CONFIGS[config]
    return env


def parse_dump(path):
    """(label, instructions) of one callgrind dump: its summary, every thread's instructions since the
    counters were zeroed (the detailed cost lines of a client-request dump hold only the calling
    thread's)."""
    label, total = None, None
    with open(path) as f:
        for line in f:
            if line.startswith("desc: Trigger: Client Request: "):
                label = line[len("desc: Trigger: Client Request: "):].strip()
            elif line.startswith("summary:"):
                total = int(line.split()[1])
                break
    return label, total


def check_entry_points(libdir):
    r = subprocess.run(["nm", os.path.join(libdir, "libompnuma.so")], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    have = {line.split()[-1] for line in r.stdout.splitlines() if line.strip()}
    missing = [f for f in ENTRY_POINTS if f not in have]
    if r.returncode != 0 or missing:
        fail("libompnuma.so has no function %s: update ENTRY_POINTS in count.py" % ", ".join(missing or ["?"]))


def count_point(prog, libdir, tool, config, threads, n, w, work, own=False):
    """Instructions per execution of each construct: of the whole process, or (own) only inside
    ompnuma's entry points."""
    out = os.path.join(work, "cg.%s.%d%s" % (config, threads, ".own" if own else ""))
    for old in os.listdir(work):
        if old.startswith(os.path.basename(out) + "."):
            os.remove(os.path.join(work, old))
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out]
    if own:
        cmd += ["--collect-atstart=no"] + ["--toggle-collect=" + f for f in ENTRY_POINTS]
    cmd += [prog, "--count", "-n", str(n), "-w", str(w), "-t", str(threads)]
    r = subprocess.run(cmd, env=environment(config, threads, libdir, tool), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    if r.returncode != 0 or "Verification = SUCCESSFUL" not in r.stdout:
        tail = (r.stdout + r.stderr).strip().splitlines()[-5:]
        fail("%s, %d threads: the counted run failed (exit %d): %s" % (config, threads, r.returncode,
                                                                       " | ".join(tail)))
    res = {}
    for name in sorted(os.listdir(work)):
        if not re.match(re.escape(os.path.basename(out)) + r"\.\d+$", name):
            continue
        label, total = parse_dump(os.path.join(work, name))
        if label in CONSTRUCTS and total is not None:
            res[label] = total / n
    missing = [c for c in CONSTRUCTS if c not in res]
    if missing:
        fail("%s, %d threads: no callgrind dump for %s" % (config, threads, ", ".join(missing)))
    return res


def time_points(build, configs, threads, rounds, work):
    """Timed test time (ns) per construct of overhead-epcc run natively: per configuration, the median over
    rounds, and the median of its ratio to stock within each round. The configurations alternate, in
    reverse order every other round, so that a change of load on the machine reaches all of them; each run
    is long enough (2 000 warm-up executions per construct) for every region to have settled."""
    prog = os.path.join(build, "bin", "overhead-epcc")
    runs = {c: {con: [] for con in CONSTRUCTS} for c in configs}
    for i in range(rounds):
        for c in (configs if i % 2 == 0 else configs[::-1]):
            env = environment(c, threads, os.path.join(build, "lib"), null_tool(build))
            env.pop("KMP_BLOCKTIME", None)
            js = os.path.join(work, "t.json")
            r = subprocess.run([prog, "-n", "2000", "-o", "11", "-w", "2000", "-t", str(threads), "--json", js],
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
            if r.returncode != 0:
                fail("%s, %d threads: the timed run failed (exit %d)" % (c, threads, r.returncode))
            with open(js) as f:
                rec = json.load(f)
            for con in CONSTRUCTS:
                runs[c][con].append(rec["constructs"][con]["test_ns"])
    out = {c: {} for c in configs}
    for c in configs:
        for con in CONSTRUCTS:
            paired = [x / s for x, s in zip(runs[c][con], runs["stock"][con]) if s > 0]
            out[c][con] = (statistics.median(runs[c][con]), statistics.median(paired) if paired else 0.0)
    return out


def main(argv):
    ap = argparse.ArgumentParser(prog="count.py", description=__doc__)
    ap.add_argument("--build", default=os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))), "build"), help="ompnuma build directory (default: <source>/build)")
    ap.add_argument("--threads", default="2,4,8,16,32,64", help="team sizes (default 2,4,8,16,32,64)")
    ap.add_argument("--configs", default="stock,settled,sampled,pagefault",
                    help="stock and drop-in configurations among %s" % ", ".join(CONFIGS))
    ap.add_argument("-n", type=int, default=64, help="counted executions per construct (default 64)")
    ap.add_argument("-w", type=int, default=64, help="warm-up executions per construct (default 64)")
    ap.add_argument("--time", type=int, default=0, metavar="ROUNDS",
                    help="also time each construct natively, ROUNDS alternated runs per configuration")
    ap.add_argument("--budget", action="store_true",
                    help="check the settled configuration against ompnuma's instruction budget per thread "
                         "(exit 1 when over it; needs -n %d or more)" % BUDGET_MIN_N)
    ap.add_argument("--json", help="write every count (and time) to this file")
    ap.add_argument("--keep", metavar="DIR", help="keep the callgrind dumps (and the stripped copies) in DIR")
    a = ap.parse_args(argv)
    configs = [c.strip() for c in a.configs.split(",") if c.strip()]
    bad = [c for c in configs if c not in CONFIGS]
    if bad or "stock" not in configs:
        fail("--configs: \"%s\" must name stock and some of %s" % (a.configs, ", ".join(CONFIGS)))
    try:
        teams = [int(t) for t in a.threads.split(",")]
        if any(t < 1 for t in teams):
            raise ValueError
    except ValueError:
        fail("--threads: \"%s\" is not a list of team sizes >= 1" % a.threads)
    if a.budget and ("settled" not in configs or a.n < BUDGET_MIN_N):
        fail("--budget needs the settled configuration and -n %d or more" % BUDGET_MIN_N)
    if a.n < 8 or a.w < 0:
        fail("-n must be >= 8 (settled regions are timed one execution in eight) and -w >= 0")
    for need in ("valgrind", "objcopy"):
        if not shutil.which(need):
            fail("%s is not installed (Debian package %s)" % (need, "valgrind" if need == "valgrind" else "binutils"))
    if not os.path.isfile(os.path.join(a.build, "bin", "overhead-epcc")) or not os.path.isfile(null_tool(a.build)):
        fail("no %s/bin/overhead-epcc or %s: build first" % (a.build, null_tool(a.build)))

    work = a.keep or tempfile.mkdtemp(prefix="ompnuma-count-")
    if a.keep:
        shutil.rmtree(a.keep, ignore_errors=True)
        os.makedirs(a.keep)
    try:
        prog, libdir, tool = stripped_copies(a.build, work)
        counts, times = {}, {}
        check_entry_points(libdir)
        for t in teams:
            for c in configs:
                total = count_point(prog, libdir, tool, c, t, a.n, a.w, work)
                own = count_point(prog, libdir, tool, c, t, a.n, a.w, work, own=True) if not on_stock(c) else \
                    {con: 0.0 for con in CONSTRUCTS}
                counts[(c, t)] = {con: {"total": total[con], "ompnuma": own[con]} for con in CONSTRUCTS}
            if a.time:
                for c, v in time_points(a.build, configs, t, a.time, work).items():
                    times[(c, t)] = v
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)

    drop = [c for c in configs if c != "stock"]
    print("instructions per execution (callgrind, all threads), %d counted after %d warm-up executions, "
          "KMP_BLOCKTIME=0" % (a.n, a.w))
    print("total: the whole process (libomp's waits and wake-ups vary by a few % from run to run);")
    print("ompnuma: inside ompnuma's callbacks and fault handler, all threads; /thr: per team thread")
    head = ["construct", "threads", "stock"]
    for c in drop:
        head += [c, "ratio", c + ":ompnuma", "/thr"]
    if a.time:
        print("ns: timed test time, median of %d native runs per configuration, alternated (KMP_BLOCKTIME as "
              "the runtime sets it); /stock: median of the ratios within each round" % a.time)
        head += ["stock ns"] + ["%s ns" % c for c in drop] + ["%s/stock" % c for c in drop]
    rows = [head]
    for con in CONSTRUCTS:
        for t in teams:
            st = counts[("stock", t)][con]["total"]
            row = [con, str(t), "%.0f" % st]
            for c in drop:
                r = counts[(c, t)][con]
                row += ["%.0f" % r["total"], "%.3f" % (r["total"] / st if st else 0.0),
                        "%.1f" % r["ompnuma"], "%.1f" % (r["ompnuma"] / t)]
            if a.time:
                row += ["%.0f" % times[("stock", t)][con][0]] + ["%.0f" % times[(c, t)][con][0] for c in drop]
                row += ["%.3f" % times[(c, t)][con][1] for c in drop]
            rows.append(row)
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    for r in rows:
        print("  ".join(x.rjust(widths[i]) if i > 0 else x.ljust(widths[i]) for i, x in enumerate(r)))
    over = 0
    if a.budget:
        print("ompnuma's budget per thread, settled:")
        for con in CONSTRUCTS:
            for t in teams:
                per = counts[("settled", t)][con]["ompnuma"] / t
                over += per > BUDGET[con]
                print("  %s, %d threads: %.1f <= %d: %s" % (con, t, per, BUDGET[con], "yes" if per <= BUDGET[con]
                                                              else "NO"))
    if a.json:
        rec = {"n": a.n, "warmup": a.w, "threads": teams, "configs": configs,
               "counts": [{"config": c, "threads": t, "construct": con, "total": counts[(c, t)][con]["total"],
                           "ompnuma": counts[(c, t)][con]["ompnuma"]}
                          for (c, t) in counts for con in CONSTRUCTS],
               "times_ns": [{"config": c, "threads": t, "construct": con, "test_ns": times[(c, t)][con][0],
                             "paired_ratio": times[(c, t)][con][1]}
                            for (c, t) in times for con in CONSTRUCTS]}
        with open(a.json, "w") as f:
            json.dump(rec, f, indent=1)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
