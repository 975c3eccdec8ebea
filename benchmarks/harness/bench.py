#!/usr/bin/env python3
"""bench.py: the benchmark harness (`benchmarks/run`, `ompnuma bench`): runs benchmarks under alternating runtime configurations and reports medians and ratios to stock."""
import argparse
import datetime
import json
import os
import platform
import shlex
import subprocess
import sys
import time

import ompnuma
from ompnuma.harness import bench_configs, bench_report, bench_suites, bench_vm
from ompnuma.numavm.numavm_vm import THP_MODES

HERE = os.path.dirname(os.path.abspath(__file__))


def default_paths():
    """(build prefix, source root or None). Shipped as <prefix>/share/ompnuma/python/ompnuma/harness (a build
    or an installation) the prefix is the one of that share/; in the source tree (benchmarks/harness) it is
    $OMPNUMA_BUILD_DIR or <source>/build."""
    share = ompnuma.share_dir(__file__)
    if share:
        return os.path.dirname(os.path.dirname(share)), None
    src = os.path.dirname(os.path.dirname(HERE))
    return os.environ.get("OMPNUMA_BUILD_DIR") or os.path.join(src, "build"), src


def numa_nodes():
    try:
        with open("/sys/devices/system/node/has_cpu") as f:
            text = f.read().strip()
    except OSError:
        return 1
    count = 0
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        count += int(hi or lo) - int(lo) + 1
    return count or 1


def parse_args(argv, defaults=None):
    build, _ = default_paths()
    p = argparse.ArgumentParser(
        prog=os.environ.get("OMPNUMA_BENCH_PROG", "ompnuma bench"),
        description="Run benchmarks under alternating runtime configurations (A B A B ...), check every "
                    "run's verification, and report medians and ratios to the baseline measured in the same run.",
        epilog="Benchmarks: NAME[:ARGS] with NAME a program in <build>/bin or a path and ARGS one quoted string "
               "(npb-cg:A, 'stream:-n 2000000 -t 5'); 'npb' = every NPB kernel built at each --classes; "
               "'npb-<k>' = that kernel at each --classes; 'streams' = stream, stream-nested, stream-twisted. "
               "Configurations: stock, stock-<bind>, libgomp[-<bind>] (the program's -gcc build), ompnuma, "
               "ompnuma-<policy>, libgomp-ompnuma[-<policy>]. Exit status: 0 all runs verified, 1 some run "
               "failed, 2 bad usage.")
    p.add_argument("benchmarks", nargs="+", metavar="BENCH")
    p.add_argument("-c", "--configs", default=",".join(bench_configs.DEFAULT_CONFIGS),
                   help="comma-separated configurations, alternated in this order (default: %(default)s)")
    p.add_argument("-r", "--repeats", type=int, default=5, help="measured runs per configuration (default 5)")
    p.add_argument("--warmup", type=int, default=0, help="unmeasured rounds before them (default 0)")
    p.add_argument("--classes", default="W,A", help="NPB classes for 'npb' and 'npb-<k>' (default W,A)")
    p.add_argument("--threads", type=int, help="OMP_NUM_THREADS of every run (default: inherited)")
    p.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                   help="set this variable in every configuration's runs (a configuration's own setting wins, "
                        "except for OMP_PROC_BIND and OMP_PLACES: every configuration runs under the binding "
                        "given here, so that they are compared under one; OMP_PROC_BIND=close with "
                        "OMP_PLACES=cores pins every configuration's threads in order); repeatable")
    p.add_argument("--build", default=build, help="ompnuma build or install prefix with bin/ and lib/ "
                                                  "(default %(default)s)")
    p.add_argument("--out", help="directory for results.json, plots and logs "
                                 "(default ./ompnuma-bench-<date>-<time>)")
    p.add_argument("--baseline", help="configuration ratios refer to (default stock when run, else the first)")
    p.add_argument("--target", help="configuration checked against --tolerance (default ompnuma when run)")
    p.add_argument("--tolerance", type=float, default=0.02, help="target: median within this fraction "
                                                                 "of the baseline's (default 0.02)")
    p.add_argument("--target-metric", default="time_s", help="metric the target is about (default time_s)")
    p.add_argument("--vm", metavar="LAYOUT", help="run every configuration inside the NUMA virtual machine "
                                                  "with NODES or NODESxCPUS_PER_NODE (timings are emulation)")
    p.add_argument("--emu-remote-ns", type=int, metavar="N", help="with --vm: emulated NUMA costs (the numaemu "
                   "QEMU plugin): a remote cache miss costs N ns more; guests are pooled (one per layout for the "
                   "invocation) and every run records its ground-truth remote share (remote_share_pct)")
    p.add_argument("--emu-bandwidth", type=int, metavar="MBPS", help="with --emu-remote-ns: MB/s of missed lines "
                   "each node serves")
    p.add_argument("--pace", metavar="NS", nargs="?", const="", default=None,
                   help="with --vm: paced emulated NUMA (`ompnuma vm --pace`): the guest's clock follows a model, NS "
                        "ns per instruction (default: ompnuma vm's) plus a 2-socket server's memory latencies slowed "
                        "down as much, so times do not depend on the host's load; --emu-remote-ns and "
                        "--emu-bandwidth then describe that server; runs whose vCPUs lagged behind the model by more "
                        "than 1 %% of their measured phase are marked lagged and left out of the medians")
    p.add_argument("--vary-layout", action="store_true",
                   help="give each round its own process layout: every run of round N gets an environment "
                        "variable (" + bench_configs.LAYOUT_PAD + ") of a length of its own, the same for every "
                        "configuration of that round, so the rounds sample where the stack, the environment and "
                        "what follows them land (paced runs with Linux's balancing on moved 6.8 %% with it)")
    p.add_argument("--thp", choices=THP_MODES, default=None,
                   help="with --vm: boot the guest with this transparent huge pages mode (default: the guest "
                        "kernel's, which depends on its memory: never on 2x1, always on 4x1 and 2x2). With always "
                        "a 2 MiB page goes to the node of whichever thread touches it first: NPB IS W on 4x1 ran "
                        "72 or 86 s by that race, stock and drop-in alike")
    p.add_argument("--timeout", type=float, default=3600, help="seconds per run before it counts as failed")
    p.add_argument("--no-plot", action="store_true", help="do not write PNG plots")
    if defaults:
        p.set_defaults(**defaults)
    a = p.parse_args(argv)
    if a.repeats < 1 or a.warmup < 0:
        p.error("--repeats must be >= 1 and --warmup >= 0")
    try:
        a.config_list = [bench_configs.parse(c) for c in a.configs.split(",") if c]
        if (a.emu_remote_ns is not None or a.emu_bandwidth or a.pace is not None) and not a.vm:
            raise ValueError("--emu-remote-ns, --emu-bandwidth and --pace need --vm LAYOUT")
        if a.pace:
            try:
                ok = float(a.pace) > 0
            except ValueError:
                ok = False
            if not ok:
                raise ValueError("--pace %s: expected nanoseconds per instruction" % a.pace)
        if a.pace is not None and a.vm:
            a.pace = bench_vm.resolved_pace(a.vm, a.pace)
        if a.thp and not a.vm:
            raise ValueError("--thp needs --vm LAYOUT")
        if any(c.balancing for c in a.config_list) and not a.vm:
            raise ValueError("configurations ending in %s need --vm LAYOUT" % bench_configs.BALANCING)
        a.extra_env = {}
        for spec in a.env:
            name, eq, value = spec.partition("=")
            if not eq or not name or not all(ch.isalnum() or ch == "_" for ch in name) or name[0].isdigit():
                raise ValueError("--env %s: not NAME=VALUE" % spec)
            a.extra_env[name] = value
        if a.emu_remote_ns is not None and a.emu_remote_ns < 0:
            raise ValueError("--emu-remote-ns %d: must be 0 or more" % a.emu_remote_ns)
    except ValueError as e:
        p.error(str(e))
    names = [c.name for c in a.config_list]
    if not names or len(set(names)) != len(names):
        p.error("--configs must name each configuration once")
    a.baseline = a.baseline or ("stock" if "stock" in names else names[0])
    if a.baseline not in names:
        p.error("--baseline %s is not among --configs" % a.baseline)
    if a.target is None and "ompnuma" in names and a.baseline != "ompnuma":
        a.target = "ompnuma"
    if a.target and a.target not in names:
        p.error("--target %s is not among --configs" % a.target)
    return a


def run_one(argv, env, timeout, log_path, header):
    """Runs argv; returns (returncode, stdout, wall seconds) and keeps a log of the run."""
    t0 = time.monotonic()
    try:
        proc = subprocess.run(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, errors="replace", timeout=timeout)
        rc, out, err = proc.returncode, proc.stdout, proc.stderr
    except subprocess.TimeoutExpired as e:
        rc, err = None, "timed out after %g s\n" % timeout
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
    except OSError as e:
        rc, out, err = 127, "", "cannot run: %s\n" % e
    wall = time.monotonic() - t0
    with open(log_path, "w") as f:
        f.write(header + "$ " + " ".join(shlex.quote(x) for x in argv) + "\n")
        f.write("--- exit: %s, %.3f s\n--- stdout\n%s--- stderr\n%s" % (rc, wall, out, err))
    return rc, out, wall


class _Output:
    """stdout that outlives its reader: once the pipe is closed (`| head`, a lost terminal) further text is
    dropped, and the runs go on to the end and into results.json."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, text):
        if self.stream is None:
            return
        try:
            self.stream.write(text)
        except BrokenPipeError:
            self._drop()

    def flush(self):
        if self.stream is None:
            return
        try:
            self.stream.flush()
        except BrokenPipeError:
            self._drop()

    def _drop(self):
        self.stream = None
        # Python flushes sys.stdout at exit; point it at /dev/null so that flush cannot fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def main(argv=None, defaults=None):
    a = parse_args(sys.argv[1:] if argv is None else argv, defaults)
    out = _Output(sys.stdout)
    prefix = os.path.abspath(a.build)
    bindir, libdir = os.path.join(prefix, "bin"), os.path.join(prefix, "lib")
    try:
        benches = bench_suites.expand(a.benchmarks, [c for c in a.classes.split(",") if c], bindir)
    except ValueError as e:
        sys.stderr.write("ompnuma bench: %s\n" % e)
        return 2
    runner = None
    if a.vm:
        runner = bench_vm.find_runner(prefix)
        if not runner:
            sys.stderr.write("ompnuma bench: --vm needs the NUMA VM runner (ompnuma.numavm or "
                             "%s/bin/ompnuma vm), which is not there\n" % prefix)
            return 2
        # The runner owns the layout names: a bad one is refused now, not at the first run.
        check = subprocess.run(runner + ["--layout", a.vm, "--help"], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, universal_newlines=True)
        if check.returncode != 0:
            sys.stderr.write("ompnuma bench: --vm %s: %s\n" % (a.vm, check.stderr.strip().splitlines()[-1]))
            return 2
    outdir = a.out or "ompnuma-bench-" + datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    os.makedirs(os.path.join(outdir, "logs"), exist_ok=True)
    base_env = dict(bench_configs.clean_environment(a.threads), **a.extra_env)
    llvm_dir = bench_configs.llvm_libgomp_dir(outdir, libdir) if any(c.llvm for c in a.config_list) else None
    configs = a.config_list
    names = [c.name for c in configs]

    nodes = numa_nodes()
    out.write("ompnuma bench: build %s, %d CPUs, %d NUMA node%s, OMP_NUM_THREADS=%s\n" % (
        prefix, os.cpu_count() or 0, nodes, "" if nodes == 1 else "s", base_env.get("OMP_NUM_THREADS", "unset")))
    if nodes == 1 and not a.vm:
        out.write("note: one NUMA node: placement has nothing to gain here; ratios show the cost of ompnuma\n")
    emu = a.vm and (a.emu_remote_ns is not None or a.emu_bandwidth or a.pace is not None)
    note = bench_vm.emu_note(a.emu_remote_ns, a.emu_bandwidth, a.pace) if emu else bench_vm.NOTE
    pool = bench_vm.start_pool(runner) if emu else None
    if a.vm:
        out.write("note: runs inside the NUMA VM %s; %s\n" % (a.vm, note))
    out.write("configurations (alternated in this order, %d measured round%s%s): %s\n" % (
        a.repeats, "" if a.repeats == 1 else "s", ", %d warm-up" % a.warmup if a.warmup else "", ", ".join(names)))

    # Which configuration can run which benchmark; the rest are reported, never silently dropped.
    skipped = {}
    for b in benches:
        skipped[b.id] = {}
        for c in configs:
            why = bench_configs.unavailable_reason(c, libdir, b.path(bindir, c.variant))
            if not why and c.oracle and b.oracle() is None:
                why = "no oracle known for %s" % os.path.basename(b.program)
            if why:
                skipped[b.id][c.name] = why
    total = sum((a.repeats + a.warmup) * (len(configs) - len(skipped[b.id])) for b in benches)

    runs, seq, interrupted = [], 0, False
    first_checksum = {}  # benchmark id -> (checksum, configuration) of its first run that printed one
    try:
        for b in benches:
            active = [c for c in configs if c.name not in skipped[b.id]]
            for c in configs:
                if c.name in skipped[b.id]:
                    out.write("skip: %s under %s: %s\n" % (b.id, c.name, skipped[b.id][c.name]))
            for rnd in range(-a.warmup, a.repeats):
                for c in active:
                    seq += 1
                    env = bench_configs.run_environment(c, base_env, libdir, b.oracle()[1] if c.oracle else None,
                                                        llvm_dir)
                    pad = bench_configs.layout_pad(rnd + a.warmup) if a.vary_layout else ""
                    if pad:
                        env[bench_configs.LAYOUT_PAD] = pad
                    cmd = b.argv(bindir, c.variant, c.oracle)
                    log = os.path.join(outdir, "logs", "%04d-%s-%s.log" % (seq, b.id, c.name))
                    counts = log[:-4] + ".counts.json" if emu else None
                    if runner:
                        cmd = bench_vm.wrap(runner, a.vm, env, cmd, a.timeout, {
                            "remote_ns": a.emu_remote_ns, "bandwidth": a.emu_bandwidth, "pace": a.pace,
                            "counts": os.path.abspath(counts)} if emu else None, c.balancing, a.thp)
                        # The runner takes the plugin and the launcher from the build under test.
                        env = dict(env, OMPNUMA_BUILD_DIR=prefix)
                        if pool:
                            env = dict(env, OMPNUMA_VM_POOL=pool)
                    header = "".join("%s=%s\n" % (k, v) for k, v in sorted(env.items())
                                     if k.startswith(("OMP_", "LD_LIBRARY_PATH")))
                    rc, stdout, wall = run_one(cmd, env, a.timeout, log, header)
                    if rc is None:
                        verified, reason, metrics = False, "timed out after %g s" % a.timeout, {}
                    else:
                        verified, reason, metrics = bench_suites.read_run(b, rc, stdout)
                    lag, lagged = None, False
                    if counts:
                        shares, lag, lagged = bench_vm.read_counts(counts, metrics.get("time_s"))
                        metrics.update(shares)
                    # A program that prints its output's checksum must print the same in every run.
                    checksum = bench_suites.checksum(stdout or "")
                    first = first_checksum.setdefault(b.id, (checksum, c.name)) if checksum else None
                    if verified and first and checksum != first[0]:
                        verified, reason = False, "output checksum %s differs from the first run's (%s: %s)" % (
                            checksum, first[1], first[0])
                    warm = rnd < 0
                    runs.append({"seq": seq, "benchmark": b.id, "config": c.name, "round": rnd + 1,
                                 "warmup": warm, "returncode": rc, "verified": verified, "reason": reason,
                                 "metrics": metrics, "checksum": checksum, "wall_s": wall, "log": log,
                                 "lag_pct": lag, "lagged": lagged, "layout_pad": len(pad)})
                    out.write("[%d/%d] %s %s round %d%s: %s%s%s (wall %.2f s)\n" % (
                        seq, total, b.id, c.name, rnd + 1, " (warm-up)" if warm else "",
                        "SUCCESSFUL" if verified else "FAILED verification: " + reason,
                        " time_s=%.6g" % metrics["time_s"] if "time_s" in metrics else "",
                        "; LAGGED: %.1f %% behind the paced model, left out of the medians" % lag if lagged else
                        "; lag %.2f %%" % lag if lag is not None else "", wall))
                    out.flush()
    except KeyboardInterrupt:
        interrupted = True
        out.write("interrupted: reporting the runs done so far\n")
    finally:
        if pool:
            bench_vm.stop_pool(pool)

    summaries = [bench_report.summarize(b, names, runs, a.baseline) for b in benches]
    failed = [r for r in runs if not r["verified"]]
    doc = {"tool": "ompnuma bench", "format": 1, "date": datetime.datetime.now().isoformat(timespec="seconds"),
           "host": {"name": platform.node(), "cpus": os.cpu_count(), "numa_nodes": nodes,
                    "kernel": platform.release()},
           "build": prefix, "threads": base_env.get("OMP_NUM_THREADS"),
           "vm": {"layout": a.vm, "note": note, "emu_remote_ns": a.emu_remote_ns, "emu_bandwidth": a.emu_bandwidth,
                  "pace": a.pace, "thp": a.thp} if a.vm else None,
           "repeats": a.repeats, "warmup": a.warmup, "baseline": a.baseline,
           "configs": [c.as_json(libdir) for c in configs],
           "benchmarks": [dict(s, skipped=skipped[s["id"]]) for s in summaries],
           "runs": runs, "order": [[r["benchmark"], r["config"]] for r in runs],
           "target": {"config": a.target, "metric": a.target_metric, "tolerance": a.tolerance} if a.target else None,
           "failed_runs": len(failed), "interrupted": interrupted}
    results = os.path.join(outdir, "results.json")
    plots, plot_note = ({}, None) if a.no_plot else make_plots(doc, outdir, results)
    for b in doc["benchmarks"]:
        b["plot"] = plots.get(b["id"])
    with open(results, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")

    for s in summaries:
        bench_report.print_table(s, names, a.baseline, skipped[s["id"]], out)
    out.write("\nratios are median(configuration) / median(%s) over verified runs of this invocation\n" % a.baseline)
    if len(names) > 1:
        out.write("\nside by side: time_s ratio to %s%s\n" % (
            a.baseline, " (ground-truth remote share of misses)" if emu else ""))
        for line in bench_report.summary_lines(summaries, names, skipped):
            out.write(line + "\n")
    if bench_configs.ORACLE in names and a.baseline != bench_configs.ORACLE:
        out.write("\nagainst the oracle: each configuration's share of the oracle's saving over %s, "
                  "(%s - configuration) / (%s - oracle) of the time_s medians\n" % (a.baseline, a.baseline, a.baseline))
        for line in bench_report.oracle_lines(summaries, names, a.baseline, skipped):
            out.write(line + "\n")
    if a.target:
        for line in bench_report.target_lines(summaries, a.target, a.baseline, a.tolerance, a.target_metric):
            out.write(line + "\n")
    if a.vm:
        out.write("note: %s\n" % note)
    for p in plots.values():
        out.write("plot: %s\n" % p)
    if plot_note:
        out.write(plot_note + "\n")
    out.write("results: %s\n" % results)
    if failed:
        out.write("FAILED: %d of %d runs did not verify (see the logs in %s)\n" % (
            len(failed), len(runs), os.path.join(outdir, "logs")))
    return 130 if interrupted else (1 if failed else 0)


def make_plots(doc, outdir, results):
    """PNG per benchmark, in this interpreter when it has matplotlib, else through Debian's python3.
    Returns ({benchmark id: path}, None) or ({}, why there are none)."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        pass
    else:
        from ompnuma.harness import bench_plot
        return bench_plot.plot_all(doc, outdir), None
    other = "/usr/bin/python3"
    if os.path.realpath(other) != os.path.realpath(sys.executable) and os.access(other, os.X_OK):
        tmp = results + ".tmp"
        with open(tmp, "w") as f:
            json.dump(doc, f)
        proc = subprocess.run([other, os.path.join(HERE, "bench_plot.py"), tmp, outdir],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
        os.unlink(tmp)
        if proc.returncode == 0:
            return dict(line.split("\t", 1) for line in proc.stdout.splitlines() if "\t" in line), None
    return {}, "plots skipped: matplotlib is not available (install python3-matplotlib)"


if __name__ == "__main__":
    sys.exit(main())
