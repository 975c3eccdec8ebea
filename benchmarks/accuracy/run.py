#!/usr/bin/env python3
"""run.py: each counter source's TNT set beside the emulator's ground truth, per access pattern, in the emulated-NUMA VM.

  run.py [--layout 2x1] [--sources LIST] [--patterns LIST] [--mib M] [--iterations N] [--out DIR]
      runs build/bin/accuracy-patterns once per source and pattern in one pooled guest under the numaemu
      plugin (OMP_PLACEMENT=dry_run,emu_tag=on,<source>), prints a table and writes DIR/accuracy.json
  run.py --recorded REPORT.json COUNTS.json
      the same metrics for one recorded run (an exit report and the plugin's counts of that run)

Per thread of a region with a TNT and a ground truth (the misses the emulator counted under the region's
tag, on the vCPU the thread ran on while sampled), with s the TNT row and g the truth row, each normalised:
  on truth node   s[argmax g]: the share of the thread's sampled references on the node the truth says
  argmax          argmax s == argmax g; a tie when g's two largest shares are within TIE of each other
  L1              sum |s - g|, from 0 (same shares) to 2 (disjoint)
"""
import argparse
import json
import os
import sys

from ompnuma.harness import bench, bench_configs, bench_vm
from ompnuma.numavm import numavm_layout
from ompnuma.report import report

PATTERNS = ("local", "shifted", "shared", "hot", "random")
SOURCES = ("pagefault", "perf", "numa_balancing", "hints")
# The truth has no argmax when its two largest shares are this close (uniform patterns on 2 nodes).
TIE = 0.10
# A thread whose truth is below this share of the region's busiest thread's did no work of its own there
# (hot's first touch: one thread touches everything); its shares are the runtime's noise.
IDLE = 0.02
MARK = "@@ompnuma-accuracy-report@@"
REPORT_IN_GUEST = "/tmp/accuracy-report.json"


def placement(source):
    """OMP_PLACEMENT and what the guest runs before the program, for one source. dry_run: the TNT is
    sampled and a decision made, nothing moves, so every tagged execution runs where first touch did."""
    base = "dry_run,emu_tag=on"
    # Balancing off is what the harness boots with; a numa_balancing run before may have turned it on in
    # this pooled guest.
    off = "echo 0 > /proc/sys/kernel/numa_balancing; "
    if source == "pagefault":
        return base + ",source=pagefault", off  # named: source=auto never takes it
    if source == "perf":
        return base + ",source=perf,perf_event=page-faults", off
    if source == "numa_balancing":
        return base + ",source=numa_balancing,window=500", "echo 1 > /proc/sys/kernel/numa_balancing; "
    return base + ",source=hints", off


def thread_metrics(sampled, true):
    """(on truth node, argmax agrees or None for a tie, L1) of one thread's normalised rows."""
    order = sorted(range(len(true)), key=lambda n: -true[n])
    best = order[0]
    tie = len(order) > 1 and true[order[0]] - true[order[1]] < TIE
    agree = None if tie else max(range(len(sampled)), key=lambda n: sampled[n]) == best
    return sampled[best], agree, sum(abs(a - b) for a, b in zip(sampled, true))


def region_metrics(g, counts):
    """One region's per-thread metrics and their summary, or None when the region has no ground truth."""
    truth = report.truth_rows(g, counts)
    if truth is None:
        return None
    tag, rows = truth
    totals = [sum(tag["misses"][cpu]) if 0 <= cpu < len(tag["misses"]) else 0 for _, cpu, _, _ in rows]
    busiest = max(totals) if totals else 0
    threads = []
    for (t, cpu, sampled, true), total in zip(rows, totals):
        th = {"thread": t, "cpu": cpu, "truth_misses": total, "sampled": sampled, "truth": true}
        if true is None or total < IDLE * busiest:
            th["status"] = "idle"  # no work of its own under this tag: nothing to compare
        elif sampled is None:
            th["status"] = "no_data"
        else:
            th["status"] = "ok"
            th["on_truth_node"], th["argmax_agrees"], th["l1"] = thread_metrics(sampled, true)
        threads.append(th)
    ok = [th for th in threads if th["status"] == "ok"]
    decisive = [th for th in ok if th["argmax_agrees"] is not None]
    summary = {
        "threads": sum(th["status"] != "idle" for th in threads),
        "with_data": len(ok),
        "on_truth_node": sum(th["on_truth_node"] for th in ok) / len(ok) if ok else None,
        "argmax_agree": sum(th["argmax_agrees"] for th in decisive),
        "argmax_decisive": len(decisive),
        "l1_mean": sum(th["l1"] for th in ok) / len(ok) if ok else None,
        "l1_max": max(th["l1"] for th in ok) if ok else None,
    }
    return {"region": g["id"], "symbol": g["symbol"], "kind": "sweep" if g["executions"] > 1 else "init",
            "executions": g["executions"], "tagged": tag["entered"], "outcome": g["outcome"], "why": g.get("why"),
            "threads": threads, "summary": summary}


def run_metrics(rep, counts):
    """Every outermost region of one run that has a ground truth."""
    return [m for m in (region_metrics(g, counts) for g in rep["regions"] if g["level"] == 1) if m]


def fmt(x, spec):
    return "-" if x is None else spec.format(x)


def table(cases, out):
    """One line per source, pattern and region."""
    out.write("{:<15} {:<8} {:<8} {:>6} {:>8} {:>10} {:>7} {:>8} {:>7}  {}\n".format(
        "source", "pattern", "region", "tagged", "threads", "on truth", "argmax", "L1 mean", "L1 max", "note"))
    for c in cases:
        if c.get("error"):
            out.write("{:<15} {:<8} {}\n".format(c["source"], c["pattern"], c["error"]))
            continue
        for m in c["regions"]:
            s = m["summary"]
            note = "source {}".format(c["source_used"]) if c["source_used"] != c["source"] else ""
            if not s["with_data"]:
                note = (note + "; " if note else "") + "no data: " + (m["why"] or m["outcome"])
            out.write("{:<15} {:<8} {:<8} {:>6} {:>3}/{:<4} {:>10} {:>7} {:>8} {:>7}  {}\n".format(
                c["source"], c["pattern"], "{} {}".format(m["kind"], m["region"]), m["tagged"], s["with_data"], s["threads"],
                fmt(None if s["on_truth_node"] is None else 100 * s["on_truth_node"], "{:.1f} %"),
                "{}/{}".format(s["argmax_agree"], s["argmax_decisive"]) if s["argmax_decisive"]
                else "tie" if s["with_data"] else "-",
                fmt(s["l1_mean"], "{:.3f}"), fmt(s["l1_max"], "{:.3f}"), report.one_line(note, 70)))


def thread_lines(cases, out):
    """Each thread's rows and metrics, per case and region."""
    for c in cases:
        for m in c.get("regions", []):
            out.write("{} {} region {} ({}, {} tagged executions):\n".format(
                c["source"], c["pattern"], m["region"], m["kind"], m["tagged"]))
            for th in m["threads"]:
                rows = "  ".join("{} {}".format(k, " ".join("{:5.1f}".format(100 * v) for v in th[k]) if th[k]
                                                else "-") for k in ("sampled", "truth"))
                if th["status"] != "ok":
                    out.write("  thread {} cpu {}: {}  {}\n".format(th["thread"], th["cpu"], th["status"], rows))
                    continue
                out.write("  thread {} cpu {}: {}  on truth node {:.1f} %  argmax {}  L1 {:.3f}\n".format(
                    th["thread"], th["cpu"], rows, 100 * th["on_truth_node"],
                    {True: "agrees", False: "differs", None: "tie"}[th["argmax_agrees"]], th["l1"]))


def load_pair(report_path, counts_path):
    docs = []
    for path in (report_path, counts_path):
        try:
            docs.append(report.load(path))
        except report.BadFile as e:
            raise report.BadFile("{}: {}".format(path, e))
    rep, counts = docs
    if not report.numavm_emu.is_counts(counts):
        raise report.BadFile("{}: not the emulator's counts (ompnuma-emu-counts/1)".format(counts_path))
    if not isinstance(rep, dict) or not isinstance(rep.get("regions"), list):
        raise report.BadFile("{}: not an ompnuma report".format(report_path))
    return rep, counts


def split_output(stdout):
    """The program's output and the report the guest printed after MARK (None when it did not)."""
    if MARK not in stdout:
        return stdout, None
    prog, rest = stdout.split(MARK, 1)
    try:
        return prog, json.loads(rest)
    except ValueError:
        return prog, None


def run_case(a, runner, pool, libdir, bindir, source, pattern, logdir):
    """One run of the pattern program under one source in the pooled guest: its metrics, or an error."""
    opt, prelude = placement(source)
    env = bench_configs.clean_environment(a.threads)
    env.update(OMP_PROC_BIND="close", OMP_PLACES="cores", OMP_PLACEMENT=opt,
               OMP_PLACEMENT_REPORT=REPORT_IN_GUEST, LD_LIBRARY_PATH=libdir)
    prog = os.path.join(bindir, "accuracy-patterns")
    args = [pattern, str(a.mib), str(a.iterations)]
    if source == "numa_balancing":
        args.append(str(a.seconds))  # it samples by time: the region runs on past the kernel's first scans
    if source == "hints":
        args.append("--hints")
    script = "{}{} {}; s=$?; echo {}; cat {}; exit $s".format(prelude, prog, " ".join(args), MARK,
                                                               REPORT_IN_GUEST)
    counts = os.path.join(logdir, "{}-{}.counts.json".format(source, pattern))
    cmd = bench_vm.wrap(runner, a.layout, env, ["sh", "-c", script], a.timeout,
                        {"remote_ns": a.remote_ns, "counts": counts})
    cmd[cmd.index("--"):cmd.index("--")] = ["--file", prog, "--file", libdir]
    log = os.path.join(logdir, "{}-{}.log".format(source, pattern))
    if os.path.exists(counts):
        os.unlink(counts)
    rc, stdout, wall = bench.run_one(cmd, dict(env, OMPNUMA_VM_POOL=pool) if pool else env, a.timeout + 120,
                                     log, "OMP_PLACEMENT={}\n".format(opt))
    case = {"source": source, "pattern": pattern, "placement": opt, "args": args, "returncode": rc,
            "wall_s": wall, "log": log, "counts": counts}
    prog_out, rep = split_output(stdout)
    if rc != 0 or "Verification = SUCCESSFUL" not in prog_out:
        case["error"] = "run failed (status {}): see {}".format(rc, log)
    elif rep is None or not os.path.isfile(counts):
        case["error"] = "no report or no counts: see {}".format(log)
    else:
        with open(os.path.join(logdir, "{}-{}.report.json".format(source, pattern)), "w") as f:
            json.dump(rep, f)
        with open(counts) as f:
            case["source_used"] = rep["source"]["used"]
            case["regions"] = run_metrics(rep, json.load(f))
    return case


def parse_args(argv):
    p = argparse.ArgumentParser(prog="benchmarks/accuracy/run.py", description=__doc__.split("\n")[0].split(": ", 1)[1],
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__.split("\n", 1)[1])
    p.add_argument("--recorded", nargs=2, metavar=("REPORT", "COUNTS"), help="metrics of one recorded run; no VM")
    p.add_argument("--build", default=bench.default_paths()[0], help="the build (default: $OMPNUMA_BUILD_DIR or build)")
    p.add_argument("--layout", default="2x1", help="the VM layout (numavm_layout.NAMED, or NODESxCPUS)")
    p.add_argument("--threads", type=int, help="OMP_NUM_THREADS (default: the layout's CPUs)")
    p.add_argument("--sources", default=",".join(SOURCES), help="comma-separated, of " + ", ".join(SOURCES))
    p.add_argument("--patterns", default=",".join(PATTERNS), help="comma-separated, of " + ", ".join(PATTERNS))
    p.add_argument("--mib", type=int, default=16, help="buffer size (default 16 MiB: 16x the emulated cache)")
    p.add_argument("--iterations", type=int, default=8, help="executions of the iterated region (default 8)")
    p.add_argument("--seconds", type=float, default=6, help="numa_balancing: run the region at least this long")
    p.add_argument("--remote-ns", type=int, default=0, help="emulated remote-miss cost (default 0: counts only)")
    p.add_argument("--timeout", type=float, default=600, help="seconds per run in the guest")
    p.add_argument("--out", default="accuracy-results", help="directory for accuracy.json and the logs")
    a = p.parse_args(argv)
    for name, allowed in (("sources", SOURCES), ("patterns", PATTERNS)):
        items = [x for x in getattr(a, name).split(",") if x]
        bad = [x for x in items if x not in allowed]
        if bad or not items:
            p.error("--{} {}: not among {}".format(name, ",".join(bad) or "(empty)", ", ".join(allowed)))
        setattr(a, name, items)
    if a.mib < 1 or a.iterations < 1 or a.seconds < 0 or a.remote_ns < 0 or (a.threads is not None and a.threads < 1):
        p.error("--mib, --iterations and --threads must be positive, --seconds and --remote-ns not negative")
    return a


def main(argv):
    a = parse_args(argv)
    out = bench._Output(sys.stdout)  # a closed pipe (`| head`) ends the output, not the runs
    if a.recorded:
        try:
            rep, counts = load_pair(*a.recorded)
            cases = [{"source": rep["source"]["used"], "source_used": rep["source"]["used"], "pattern": "recorded",
                      "regions": run_metrics(rep, counts)}]
        except report.BadFile as e:
            sys.stderr.write(report.one_line("run.py: {}".format(e), 400) + "\n")
            return 2
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
            sys.stderr.write(report.one_line("run.py: {}, {}: not a report and counts of one run ({}: {})".format(
                a.recorded[0], a.recorded[1], type(e).__name__, e), 400) + "\n")
            return 2
        table(cases, out)
        thread_lines(cases, out)
        out.flush()
        return 0
    prefix = os.path.abspath(a.build)
    bindir, libdir = os.path.join(prefix, "bin"), os.path.join(prefix, "lib")
    if not os.access(os.path.join(bindir, "accuracy-patterns"), os.X_OK):
        sys.stderr.write("run.py: {}/accuracy-patterns is not built\n".format(bindir))
        return 2
    runner = bench_vm.find_runner(prefix)
    if runner is None:
        sys.stderr.write("run.py: the NUMA VM runner (ompnuma.numavm) is not there\n")
        return 2
    if a.threads is None:  # one thread per CPU of the layout, so first touch puts a block on each node
        try:
            a.threads = numavm_layout.named(a.layout).total_cpus
        except numavm_layout.LayoutError as e:
            sys.stderr.write("run.py: {}\n".format(e))
            return 2
    logdir = os.path.abspath(os.path.join(a.out, "logs"))
    os.makedirs(logdir, exist_ok=True)
    pool = bench_vm.start_pool(runner)
    cases = []
    try:
        for source in a.sources:
            for pattern in a.patterns:
                c = run_case(a, runner, pool, libdir, bindir, source, pattern, logdir)
                cases.append(c)
                out.write("[{}/{}] {} {}: {} ({:.0f} s)\n".format(
                    len(cases), len(a.sources) * len(a.patterns), source, pattern,
                    c.get("error", "ok"), c["wall_s"]))
                out.flush()
    finally:
        if pool:
            bench_vm.stop_pool(pool)
    results = {"format": "ompnuma-accuracy/1", "layout": a.layout, "threads": a.threads, "mib": a.mib,
               "iterations": a.iterations, "seconds": a.seconds, "remote_ns": a.remote_ns, "tie": TIE,
               "idle": IDLE, "cases": cases}
    path = os.path.join(a.out, "accuracy.json")
    with open(path, "w") as f:
        json.dump(results, f, indent=1)
    table(cases, out)
    out.write("results: {}\n".format(path))
    out.flush()
    return 1 if any(c.get("error") for c in cases) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
