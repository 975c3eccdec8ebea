#!/usr/bin/env python3
"""count.py: instructions per execution of each EPCC construct, stock vs ompnuma (its drop-in settled, sampled, pagefault source; its OMPT tool on the stock runtime), counted by callgrind, per team size; optionally next to the timed overhead ratio."""
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
# program's anonymous memory (the harness's ompnuma-sampling). "monitor": the migration monitor alone; "settled-imar2":
# the defaults with the monitor beside them (critpath,migrate=imar2), settled as "settled": where no
# execution is sampled (hints with nothing attached, as on a synthetic 2-node topology: HWLOC_SYNTHETIC)
# the monitor finds no TNT and sleeps for evidence, within its first steps (period=1: before the
# warm-up ends), and nothing counts work or waits while it sleeps.
# The drop-ins take regions at the runtime's ABI; "ompt" is the other route, ompnuma as an OMPT tool on
# the stock runtime (OMP_TOOL_LIBRARIES=libompnuma.so, no drop-in), settled as "settled". Its floors:
# "null", stock libomp with a tool attached that registers no callback (null_tool.c): what libomp itself
# adds once any tool is attached; "dispatch", the same tool registering the callbacks ompnuma's tool
# registers for a settled region, empty.
CONFIGS = {
    "stock": None,
    "null": None,
    "dispatch": None,
    "settled": "critpath",
    "sampled": "critpath,sample=1000,verify=off",
    "pagefault": "critpath,sample=1000,source=pagefault,track=anon,verify=off",
    "monitor": "imar2",
    "settled-imar2": "critpath,migrate=imar2,period=1",
    "ompt": "critpath",
}
OMPT_ROUTE = ("ompt",)
# ompnuma's instruction budget for a settled execution through the drop-in, per team thread (the
# "settled:ompnuma /thr" column, counted with -n 512 or more: shorter intervals carry the windows of the
# one-in-eight timed executions). A region (parallel, reduction, the empty one): its begin and end on the
# primary (most executions need nothing of its members), and the timed ones (one in eight, one in 64 once
# the region is quiet), with each member's begin and end; nested: a region and, in each of its threads, an inner one (the outer one's
# members only enter and leave their level, for the teams forked inside; a team of one's primary enters it
# itself); for and barrier: one loop or barrier inside a region, which go straight to the runtime while
# nothing reads them. --budget checks it.
BUDGET = {"parallel": 165, "for": 10, "barrier": 10, "reduction": 165, "nested": 380, "parallel-empty": 165}
BUDGET_MIN_N = 512
# The configurations the budget holds for.
BUDGETED = ("settled", "settled-imar2")
# ompnuma's own part is what runs in ompnuma's code: the instructions callgrind counts in the objects of
# build/lib that are ompnuma's (libompnuma.so and the drop-ins; not the real runtime, libc or the vDSO
# they call), on every thread. The drop-ins take regions at the runtime's ABI, so nothing in between is
# an entry point to toggle on: the per-thread runs below count each function's own instructions.
OMPNUMA_OBJECTS = ("libompnuma.so", "libomp.so.5", "libgomp.so.1")
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
    """Configurations that run on the stock runtime without ompnuma: nothing is counted in it."""
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
    if config in OMPT_ROUTE:
        env["OMP_TOOL_LIBRARIES"] = os.path.join(libdir, "libompnuma.so")
        env["OMP_PLACEMENT"] = CONFIGS[config]
    elif CONFIGS[config] is not None:
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


def own_cost(path, libdir, events=("Ir",)):
    """(label, cost) of one per-thread callgrind dump: the label, and the sum of `events` (the dump's own
    names: Ir its instructions, DLmr and DLmw its last-level misses with --cache-sim=yes) the dump's thread
    spent in ompnuma's objects (each function's own cost: a call's inclusive cost, the line after
    `calls=`, is the callee's). Object names are compressed: `ob=(n) path` names n, `ob=(n)` reuses it."""
    ours = {os.path.join(libdir, name) for name in OMPNUMA_OBJECTS}
    names, label, cur, after_call, total, columns = {}, None, None, False, 0, []
    with open(path) as f:
        for line in f:
            if line.startswith("desc: Trigger: Client Request: "):
                label = line[len("desc: Trigger: Client Request: "):].strip()
                continue
            if line.startswith("events:"):
                names_ = line.split()[1:]
                columns = [1 + names_.index(e) for e in events if e in names_]
                continue
            m = re.match(r"^(c?)ob=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
            if m:
                if m.group(3):
                    names[m.group(2)] = m.group(3)
                if not m.group(1):
                    cur = names.get(m.group(2))
                continue
            if line.startswith("calls="):
                after_call = True
                continue
            if line[:1].isdigit() or line[:1] in "+-*":
                if after_call:
                    after_call = False
                elif cur in ours:
                    parts = line.split()
                    total += sum(int(parts[c]) for c in columns if c < len(parts))
    return label, total


def count_point(prog, libdir, tool, config, threads, n, w, work, own=False):
    """Instructions per execution of each construct: of the whole process, or (own) only in ompnuma's
    objects, every thread counting its own (--separate-threads, overhead-epcc --per-thread)."""
    out = os.path.join(work, "cg.%s.%d%s" % (config, threads, ".own" if own else ""))
    for old in os.listdir(work):
        if old.startswith(os.path.basename(out) + "."):
            os.remove(os.path.join(work, old))
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out]
    if own:
        cmd += ["--separate-threads=yes"]
    cmd += [prog, "--count", "-n", str(n), "-w", str(w), "-t", str(threads)] + (["--per-thread"] if own else [])
    r = subprocess.run(cmd, env=environment(config, threads, libdir, tool), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    if r.returncode != 0 or "Verification = SUCCESSFUL" not in r.stdout:
        tail = (r.stdout + r.stderr).strip().splitlines()[-5:]
        fail("%s, %d threads: the counted run failed (exit %d): %s" % (config, threads, r.returncode,
                                                                       " | ".join(tail)))
    res = {}
    for name in sorted(os.listdir(work)):
        if not re.match(re.escape(os.path.basename(out)) + (r"\.\d+-\d+$" if own else r"\.\d+$"), name):
            continue
        if own:
            label, total = own_cost(os.path.join(work, name), libdir)
            if label in CONSTRUCTS:
                res[label] = res.get(label, 0.0) + total / n
        else:
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
                    help="check the settled configurations (%s) against ompnuma's instruction budget per thread "
                         "(exit 1 when over it; needs -n %d or more)" % (", ".join(BUDGETED), BUDGET_MIN_N))
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
    if a.budget and (not any(c in BUDGETED for c in configs) or a.n < BUDGET_MIN_N):
        fail("--budget needs a settled configuration (%s) and -n %d or more" % (" or ".join(BUDGETED), BUDGET_MIN_N))
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
    print("ompnuma: in ompnuma's code (libompnuma.so and the drop-ins), all threads; /thr: per team thread")
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
    for c in (c for c in BUDGETED if a.budget and c in configs):
        print("ompnuma's budget per thread, %s:" % c)
        for con in CONSTRUCTS:
            for t in teams:
                per = counts[(c, t)][con]["ompnuma"] / t
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
