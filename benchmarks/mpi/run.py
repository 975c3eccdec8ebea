#!/usr/bin/env python3
"""run.py: the MPI kernels side by side under Open MPI's bindings and ompnuma's ondeloc: medians and ratios to --bind-to core.

usage: run.py [--build DIR] [--np N] [--reps R] [--patterns p,q] [--bytes B] [--iters I]
              [--local-mib M] [--interval MS] [--topology SPEC] [--csv FILE]
              [--threads T] [--vm LAYOUT [--remote-ns N] [--pace [NS]] [--charge-kernel] [--counts FILE]]
              [--configs a,b] [--extra-mca KEY=VALUE]

Configurations (interleaved, one run of each per repetition, so that drift
on a shared machine hits all of them alike):
  core         mpirun --map-by core --bind-to core (overload allowed when N > cores)
  none         mpirun --bind-to none
  lib-off      core + LD_PRELOAD=libompnuma_mpi.so, OMP_PLACEMENT_MPI unset (wrappers only)
  ondeloc-dry  core + ondeloc,dry_run: counting and the mapper, nothing moves (overhead)
  ondeloc      core + ondeloc: ranks move to the nodes the mapper chooses
  oracle       each rank bound from its start to the core of the best static
               mapping for the pattern, which the program's source gives: the
               heavy partners of pairs side by side (phase too: its first
               half's partners; no static mapping serves both halves), every
               other pattern as core (a rankfile, one core a rank as core)
With --threads T > 1 the ranks are hybrid (an OpenMP team of T threads
sweeps each rank's memory; each rank is bound to T cores, Open MPI's
--map-by slot:PE=T, when all ranks' teams fit, the oracle's rankfile too)
and one more configuration runs:
  ondeloc+critpath  ondeloc with ompnuma's drop-in libomp and OMP_PLACEMENT=critpath
                    (track=anon): each rank's team is placed by critpath inside the
                    CPUs the mapper gave the rank
--configs keeps only the named configurations (core is always kept: it is
the reference).

--vm LAYOUT runs everything inside one guest of ompnuma's NUMA virtual
machine (`ompnuma vm`, Open MPI shipped in), --remote-ns N with emulated
remote costs: one boot, the configurations alternating inside it, so the
ratios compare runs of one guest under one load. --pace [NS] paces the
guest's time (`ompnuma vm --pace`: a model of a 2-socket server, times
independent of the host's load; --remote-ns is then the server's extra
remote latency); lines `# paced time lagged ...` say which tags (patterns and
configurations, with --counts) fell behind the model. --charge-kernel makes the
guest kernel's accesses cost too (Open MPI's shared-memory transport copies
large messages in the kernel, with CMA: without it those copies are free).
--counts FILE keeps the emulator's ground truth, each pattern and
configuration under its own tag (mpirun's start included), and adds to each
line the remote share of its misses and the remote charges per run of its
most charged vCPU ("charged"): the most that any mapping could save of a
run where each rank has a vCPU to itself. --extra-mca KEY=VALUE (repeatable)
adds `--mca KEY VALUE` to every configuration (e.g.
btl_vader_single_copy_mechanism=none: messages copied in user space).

Prints one line per pattern and configuration: median seconds, min, max, and
the ratio of the median to core's. Only timings of runs that printed their
line are kept; a failed run is reported and counted, with the last lines of
its standard error ("# PATTERN CONFIG failed (status N)").
"""
import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile

from ompnuma.harness import bench_vm
from ompnuma.numavm import numavm_layout
from ompnuma.harness.bench_report import oracle_shares


# What Open MPI needs inside the guest (Debian's layout), as tests/mpi/vm-*.test ship it.
VM_FILES = ["/usr/lib/x86_64-linux-gnu/openmpi", "/usr/share/openmpi", "/etc/openmpi",
            "/usr/lib/x86_64-linux-gnu/pmix2", "/usr/bin/orted", "/usr/bin/mpirun"]
VM_ENV = ["OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1", "OMPI_MCA_plm=isolated",
          "OMPI_MCA_btl=self,vader", "OMPI_MCA_plm_rsh_agent=/bin/false"]


def configurations(a, build, mpirun, cpus):
    exe = os.path.join(build, "bin", "mpi-kernels")
    lib = os.path.join(build, "lib", "libompnuma_mpi.so")
    bind = "core:overload-allowed" if a.np > cpus else "core"
    base = [mpirun, "--oversubscribe", "--allow-run-as-root", "-np", str(a.np),
            "-x", "OMP_NUM_THREADS={}".format(a.threads)]
    for kv in a.extra_mca:
        base += ["--mca"] + kv.split("=", 1)
    # A hybrid rank gets a core per thread when the machine has them (Open MPI's PE=T): bound to one core, its
    # team shared it (paced, 4 ranks of 2 threads on 4x2: `none` ran 0.23x such a `core`).
    per_rank = hybrid_cores(a, cpus)
    core = base + ["--map-by", "slot:PE={}".format(per_rank) if per_rank > 1 else "core", "--bind-to", bind]
    mp = "ondeloc,interval={}".format(a.interval) + (",topology=" + a.topology if a.topology else "")
    configs = [
        ("core", core),
        ("none", base + ["--bind-to", "none"]),
        ("lib-off", core + ["-x", "LD_PRELOAD=" + lib]),
        ("ondeloc-dry", core + ["-x", "LD_PRELOAD=" + lib, "-x", "OMP_PLACEMENT_MPI=" + mp + ",dry_run"]),
        ("ondeloc", core + ["-x", "LD_PRELOAD=" + lib, "-x", "OMP_PLACEMENT_MPI=" + mp]),
    ]
    # The rankfile is the pattern's (oracle_rankfile), added when the run is.
    configs.append(("oracle", base + ["--bind-to", bind]))
    if a.threads > 1:
        configs.append(("ondeloc+critpath", core + [
            "-x", "LD_PRELOAD=" + lib, "-x", "OMP_PLACEMENT_MPI=" + mp,
            "-x", "LD_LIBRARY_PATH=" + os.path.join(build, "lib"), "-x", "OMP_PLACEMENT=critpath,source=pagefault,track=anon"]))
    if a.configs:
        keep = set(a.configs.split(",")) | {"core"}
        configs = [c for c in configs if c[0] in keep]
    return exe, lib, configs


def hybrid_cores(a, cpus):
    """Cores each rank is bound to: one per OpenMP thread when every rank's team fits, else one."""
    return a.threads if a.threads > 1 and a.np * a.threads <= cpus else 1


def pairs_partner(r, np):
    """The partner of rank r in pairs (and phase's first half), as mpi_kernels.c's partner_of: r ^ (np / 2), or r
    itself when that is no rank. Not r + np / 2 unless np / 2 is a power of two (of 6 ranks, 1 pairs with 2)."""
    p = r ^ (np // 2)
    return p if p < np else r


def oracle_cores(pat, np, cpus):
    """The logical core of each rank in the best static mapping for the pattern: for pairs (and phase, whose
    first half is pairs) each rank beside its partner (pairs_partner), so that every pair shares a node as long as
    nodes hold an even number of cores (with more ranks than cores, a pair shares its core); ring, halo and alltoall as --map-by core (neighbours side by side;
    all-to-all has no better one)."""
    if pat not in ("pairs", "phase"):
        return [r % cpus for r in range(np)]
    order = []
    for r in range(np):
        if r not in order:
            order.append(r)
            p = pairs_partner(r, np)
            if p not in order:
                order.append(p)
    # More ranks than cores: consecutive ones share a core (k % cpus would part every pair on 2 cores).
    cores = [0] * np
    for k, r in enumerate(order):
        cores[r] = k * cpus // np if np > cpus else k
    return cores


def oracle_rankfile(pat, np, cpus, per_rank=1):
    """Open MPI's rankfile for oracle_cores; a hybrid rank (per_rank cores, hybrid_cores) takes the per_rank cores
    from its place on."""
    if per_rank > 1:
        return "".join("rank {}=localhost slot={}-{}\n".format(r, c * per_rank, c * per_rank + per_rank - 1)
                       for r, c in enumerate(oracle_cores(pat, np, cpus // per_rank)))
    return "".join("rank {}=localhost slot={}\n".format(r, c) for r, c in enumerate(oracle_cores(pat, np, cpus)))


def command(cmd, name, pat, rankfiles):
    """A configuration's mpirun command for one pattern: the oracle's names the pattern's rankfile."""
    return cmd + (["--rankfile", rankfiles[pat]] if name == "oracle" else [])


def report_failure(pat, name, status, err_lines):
    """A failed run's line, with the last lines of its standard error."""
    print("# {} {} failed (status {}){}".format(pat, name, status, "".join("\n#   " + e for e in err_lines)))


def run_host(a, exe, configs, pat, cpus):
    """One run of each configuration per repetition, on this machine."""
    times = {name: [] for name, _ in configs}
    failed = {name: 0 for name, _ in configs}
    rankfile = tempfile.NamedTemporaryFile("w", prefix="oracle-", suffix=".rf", delete=False)
    with rankfile:
        rankfile.write(oracle_rankfile(pat, a.np, cpus, hybrid_cores(a, cpus)))
    try:
        for _ in range(a.reps):
            for name, cmd in configs:
                full = command(cmd, name, pat, {pat: rankfile.name}) + [exe, pat, str(a.bytes), str(a.iters),
                                                                       str(a.local_mib)]
                p = subprocess.run(full, capture_output=True, text=True, timeout=600)
                line = [l for l in p.stdout.splitlines() if l.startswith(pat + " ")]
                if p.returncode or not line:
                    failed[name] += 1
                    report_failure(pat, name, p.returncode, p.stderr.splitlines()[-8:])
                    continue
                times[name].append(float(line[0].split()[1]))
    finally:
        os.unlink(rankfile.name)
    return times, failed


def tag_of(patterns, configs, pat, name):
    """The emulator tag of one pattern and configuration (every repetition adds to it)."""
    return 1 + patterns.index(pat) * len(configs) + [c[0] for c in configs].index(name)


def remote_shares(a, configs, patterns):
    """{(pattern, config): (percent of the tag's misses on another node than the vCPU's, seconds of remote
    charges per run on its most charged vCPU)}, from --counts."""
    import json
    from ompnuma.numavm.numavm_emu import remote_delay_ns, remote_share, tag_of as counts_tag
    try:
        with open(a.counts) as f:
            d = json.load(f)
    except (OSError, ValueError) as e:
        print("# no counts: {}".format(e))
        return {}
    out = {}
    for pat in patterns:
        for name, _ in configs:
            t = counts_tag(d, tag_of(patterns, configs, pat, name))
            if t is not None and t["entered"]:
                charged = max(remote_delay_ns(d, t["misses"])) / 1e9 / t["entered"]
                out[(pat, name)] = (remote_share(d, t["misses"]), charged)
    return out


def run_vm(a, build, exe, lib, configs, patterns, cpus):
    """Every pattern, repetition and configuration in one guest, alternating; the guest's output
    says which run printed what ("@run PATTERN CONFIG STATUS" after each)."""
    lines = ["ifconfig lo 127.0.0.1 up", "hostname numavm"]
    rankfiles = {pat: "/tmp/oracle-{}.rf".format(pat) for pat in patterns}
    lines += ["printf '{}' > {}".format(oracle_rankfile(pat, a.np, cpus, hybrid_cores(a, cpus)), rankfiles[pat])
              for pat in patterns]
    mark = os.path.join(build, "bin", "ompnuma-emu-mark")
    for _ in range(a.reps):
        for pat in patterns:
            for name, cmd in configs:
                full = command(cmd, name, pat, rankfiles) + [exe, pat, str(a.bytes), str(a.iters), str(a.local_mib)]
                # A failed run's last lines of stderr come back as "@err ..." before its "@run" line.
                run = ("{} 2>/tmp/run.err; s=$?; [ $s = 0 ] || tail -n 8 /tmp/run.err | sed 's/^/@err /'; "
                       "echo \"@run {} {} $s\"").format(" ".join(shlex.quote(x) for x in full), pat, name)
                if a.counts:
                    run = "{} tag {}; {}; {} tag 0".format(mark, tag_of(patterns, configs, pat, name), run, mark)
                lines.append(run)
    runner = [os.path.join(build, "bin", "ompnuma"), "vm", "--layout", a.vm, "--timeout", str(a.vm_timeout)]
    if a.remote_ns is not None:
        runner += ["--remote-ns", str(a.remote_ns)]
    if a.pace is not None:
        runner += ["--pace", a.pace]
    if a.charge_kernel:
        runner += ["--charge-kernel"]
    if a.counts:
        runner += ["--counts", a.counts, "--file", mark]
    for f in VM_FILES + [exe, lib, os.path.join(build, "lib")]:
        runner += ["--file", f]
    for e in VM_ENV:
        runner += ["--env", e]
    p = subprocess.run(runner + ["--", "sh", "-c", "\n".join(lines)], capture_output=True, text=True)
    times = {pat: {name: [] for name, _ in configs} for pat in patterns}
    failed = {pat: {name: 0 for name, _ in configs} for pat in patterns}
    last, err = None, []
    for l in p.stdout.splitlines():
        w = l.split()
        if len(w) >= 2 and w[0] in patterns:
            last = float(w[1])
        elif w[:1] == ["@err"]:
            err.append(l[5:])
        elif len(w) == 4 and w[0] == "@run" and w[1] in times and w[2] in times[w[1]]:
            if w[3] == "0" and last is not None:
                times[w[1]][w[2]].append(last)
            else:
                failed[w[1]][w[2]] += 1
                report_failure(w[1], w[2], w[3], err)
            last, err = None, []
    if p.returncode:
        print("# the VM ended with status {}: {}".format(p.returncode, p.stderr.strip().splitlines()[-1:]))
    for l in p.stderr.splitlines():
        if "paced time lagged" in l:
            print("# " + l)
    return times, failed


def main():
    ap = argparse.ArgumentParser()
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--build", default=os.path.join(here, "..", "..", "build"))
    ap.add_argument("--np", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--patterns", default="ring,halo,pairs,alltoall,phase")
    ap.add_argument("--configs", default="")
    ap.add_argument("--bytes", type=int, default=1 << 18)
    ap.add_argument("--iters", type=int, default=200)
    ap.add_argument("--local-mib", type=int, default=8)
    ap.add_argument("--interval", type=int, default=100)
    ap.add_argument("--topology", default="")
    ap.add_argument("--vm", metavar="LAYOUT", default="")
    ap.add_argument("--remote-ns", type=int, default=None)
    ap.add_argument("--pace", nargs="?", const="", default=None, metavar="NS")
    ap.add_argument("--charge-kernel", action="store_true")
    ap.add_argument("--counts", default="")
    ap.add_argument("--extra-mca", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--vm-timeout", type=int, default=3000)
    ap.add_argument("--csv", default="")
    a = ap.parse_args()
    if a.threads < 1 or a.np < 1 or a.reps < 1 or (not a.vm and (a.remote_ns is not None or a.charge_kernel
                                                                   or a.counts or a.pace is not None)):
        print("run.py: --threads, --np and --reps must be >= 1; --remote-ns, --pace, --charge-kernel and --counts "
              "need --vm", file=sys.stderr)
        return 2
    if any("=" not in kv for kv in a.extra_mca):
        print("run.py: --extra-mca wants KEY=VALUE", file=sys.stderr)
        return 2
    if a.counts:
        a.counts = os.path.abspath(a.counts)
    cpus = os.cpu_count() or 1
    if a.vm:
        try:
            cpus = numavm_layout.named(a.vm).total_cpus
            if a.pace is not None:
                a.pace = bench_vm.resolved_pace(a.vm, a.pace)
        except ValueError as e:
            print("run.py: {}".format(e), file=sys.stderr)
            return 2
    build = os.path.abspath(a.build)
    mpirun = shutil.which("mpirun")
    exe, lib, configs = configurations(a, build, mpirun or "mpirun", cpus)
    if not (mpirun and os.path.exists(exe) and os.path.exists(lib)):
        print("run.py: needs mpirun, {} and {} (build with MPI found)".format(exe, lib), file=sys.stderr)
        return 2
    patterns = a.patterns.split(",")
    rows = []
    print("# np={} threads={} bytes={} iters={} local_mib={} reps={} interval={}ms {}{}{}".format(
        a.np, a.threads, a.bytes, a.iters, a.local_mib, a.reps, a.interval,
        "vm {} remote_ns={}{}".format(a.vm, a.remote_ns, "" if a.pace is None else " paced " + a.pace)
        if a.vm else "host cpus={}".format(os.cpu_count()),
        " kernel charged" if a.charge_kernel else "", "".join(" --mca " + kv for kv in a.extra_mca)))
    shares = {}
    if a.vm:
        vm_times, vm_failed = run_vm(a, build, exe, lib, configs, patterns, cpus)
        if a.counts:
            shares = remote_shares(a, configs, patterns)
    for pat in patterns:
        if a.vm:
            times, failed = vm_times[pat], vm_failed[pat]
        else:
            times, failed = run_host(a, exe, configs, pat, cpus)
        ref = statistics.median(times["core"]) if times["core"] else None
        shares_of = oracle_shares({"median": {name: statistics.median(t) for name, t in times.items() if t}}, "core")
        for name, _ in configs:
            t = times[name]
            if not t:
                print("{:9s} {:12s} all {} runs failed".format(pat, name, failed[name]))
                continue
            med = statistics.median(t)
            ratio = med / ref if ref else float("nan")
            share, charged = shares.get((pat, name), (None, None))
            # The share of the oracle's saving this configuration took: (core - it) / (core - oracle).
            took = shares_of.get(name) if name not in ("core", "oracle") else None
            print("{:9s} {:12s} median {:.4f} s  min {:.4f}  max {:.4f}  x{:.3f} of core{}{}{}{}".format(
                pat, name, med, min(t), max(t), ratio,
                "" if took is None else "  oracle's saving {:.0f}%".format(100 * took),
                "" if share is None else "  remote {:.1f}%".format(share),
                "" if charged is None else "  charged {:.2f} s".format(charged),
                "  ({} failed)".format(failed[name]) if failed[name] else ""))
            rows.append((pat, name, med, min(t), max(t), ratio, len(t), failed[name],
                         "" if share is None else "{:.2f}".format(share),
                         "" if charged is None else "{:.3f}".format(charged),
                         "" if took is None else "{:.3f}".format(took)))
    if a.csv:
        with open(a.csv, "w") as f:
            f.write("pattern,config,median_s,min_s,max_s,ratio_to_core,runs,failed,remote_pct,charged_s,oracle_share\n")
            for r in rows:
                f.write("{},{},{:.6f},{:.6f},{:.6f},{:.4f},{},{},{},{},{}\n".format(*r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
