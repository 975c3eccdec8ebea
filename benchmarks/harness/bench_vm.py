"""bench_vm.py: runs a configuration inside ompnuma's NUMA virtual machine (`ompnuma vm`), where timings are emulation."""
import importlib.util
import json
import os
import re
import shutil
import sys

from ompnuma.harness.bench_configs import LAYOUT_PAD

VM_MODULE = "ompnuma.numavm.numavm"

NOTE = ("VM timings are emulation (QEMU TCG, every node backed by the same host RAM): they check that "
        "the configurations run and verify there, and say nothing about NUMA performance")
EMU_NOTE = ("emulated NUMA (numaemu QEMU plugin): a remote cache miss costs {} ns more{}; times are emulation "
            "with that cost, comparable between configurations of this invocation only (the same pooled "
            "guest runs them all, alternating); every program is exec'ed on CPU 0 (ompnuma vm --start-cpu 0); "
            "remote_share_pct is the plugin's ground truth")
PACED_NOTE = ("paced emulated NUMA (numaemu QEMU plugin, --pace {}): the guest's clock follows a model of {} ns "
              "per instruction plus the memory latencies of a 2-socket server slowed down as much{}, so times "
              "do not depend on the host's load; a run whose vCPUs lagged behind the model by more than 1 % of "
              "its measured phase is marked lagged and left out of the medians; every program is exec'ed on CPU 0 "
              "(ompnuma vm --start-cpu 0), so its stack and its libraries' data start on node 0 in every run; "
              "remote_share_pct is the plugin's ground truth")


def find_runner(prefix):
    """The command that starts the VM: the package's VM harness (`python3 -m ompnuma.numavm.numavm`) in this
    interpreter, else the `ompnuma vm` subcommand of the build. None when neither exists."""
    if importlib.util.find_spec(VM_MODULE):
        return [sys.executable, "-m", VM_MODULE]
    tool = os.path.join(prefix, "bin", "ompnuma")
    if os.access(tool, os.X_OK):
        return [tool, "vm"]
    return None


def emu_note(remote_ns, bandwidth, pace=None):
    if pace is not None:
        extra = "".join([", remote misses +{} ns (server time)".format(remote_ns) if remote_ns is not None else "",
                         ", nodes serve {} MB/s (server time)".format(bandwidth) if bandwidth else ""])
        return PACED_NOTE.format(pace, pace, extra)
    return EMU_NOTE.format(remote_ns or 0, ", nodes serve {} MB/s".format(bandwidth) if bandwidth else "")


def start_pool(runner):
    """A private pool of guests for this invocation (the runner boots one per layout and emulation
    settings and reuses it for every run); None when the runner is not the package's VM harness."""
    if runner[1:] != ["-m", VM_MODULE]:
        return None
    pool = os.path.join("/tmp", "ompnuma-bench-pool-{}".format(os.getpid()))
    os.makedirs(pool, exist_ok=True)
    with open(os.path.join(pool, "owner"), "w") as f:
        f.write(str(os.getpid()))
    return pool


def resolved_pace(vm, pace):
    """The cost per instruction a paced run of layout vm gets: pace itself when given, else (pace "") the
    default `ompnuma vm --pace` takes for that layout on this host (numavm_emu.default_pace_ns), written
    out so that results name the cost they were measured at."""
    if pace != "":
        return pace
    from ompnuma.numavm import numavm_emu, numavm_layout
    return "%g" % numavm_emu.default_pace_ns(numavm_layout.named(vm).total_cpus)


def stop_pool(pool):
    """Power the pool's guests off and remove it."""
    try:
        from ompnuma.numavm import numavm_pool
        numavm_pool.shutdown(pool)
    except ImportError:
        shutil.rmtree(pool, ignore_errors=True)


def read_counts(counts_path, seconds=None):
    """(shares, lag, lagged) of a run from the plugin's counts. shares: {"remote_share_pct": P}, the percent of
    its misses that went to another node than the missing vCPU's, and "remote_share_tagT_pct" for each tag T
    the program marked (benchmarks/patterns: tag 2 = the second half of its iterations, once a placement
    settled). Paced, lag is its largest vCPU lag in percent of its measured phase (the last `seconds` of the
    command: the time the program reports, its timed part ending just before its report; the whole command
    without it), and lagged whether that is beyond what `ompnuma vm` accepts (its times are then the host's,
    not the model's). {}, None, False where the counts do not say."""
    try:
        from ompnuma.numavm import numavm_emu
        with open(counts_path) as f:
            counts = json.load(f)
        shares = {"remote_share_pct": numavm_emu.remote_share(counts)}
        for t in counts.get("tags", []):
            shares["remote_share_tag%d_pct" % t["tag"]] = numavm_emu.remote_share(counts, t["misses"])
        lag = numavm_emu.tail_lag_pct(counts, seconds) if seconds else numavm_emu.lag_pct(
            counts, counts.get("paced_ns"))
        return ({k: v for k, v in shares.items() if v is not None}, lag,
                lag is not None and lag > numavm_emu.LAG_LIMIT_PCT)
    except (OSError, ValueError, KeyError, IndexError, TypeError):
        return {}, None, False


def wrap(runner, layout, env, argv, timeout, emu=None, balancing=False, thp=None):
    """argv run in the VM of the named layout (numavm_layout.NAMED, or NODES[xCPUS]; the runner parses
    it) with the run's OpenMP and loader variables: the guest inherits nothing from the host, so each is
    passed with --env (the runner also finds the libraries to ship with them, so the drop-in under
    LD_LIBRARY_PATH travels with the program). emu: None, or {"remote_ns": N or None, "bandwidth": M or None,
    "pace": None or NS (resolved_pace), "counts": path} for the numaemu plugin (unpaced, remote_ns None
    is 0; paced, the model's default). balancing: boot the guest with Linux's automatic NUMA balancing on
    (a guest of its own: the pool keys its guests on it); thp: its transparent huge pages mode (None: the
    guest kernel's). Every program is exec'ed on CPU 0 (--start-cpu):
    where the kernel's exec balancing put it changed from run to run which node held the primary's stack and
    its libraries' data, up to 5 % of a paced run's time on 4 nodes."""
    cmd = list(runner) + ["--layout", layout, "--timeout", "%g" % timeout, "--start-cpu", "0"]
    if balancing:
        cmd.append("--numa-balancing")
    if thp:
        cmd += ["--thp", thp]
    if emu:
        paced = emu.get("pace") is not None
        if paced:
            cmd += ["--pace", emu["pace"]]
        if emu.get("remote_ns") is not None or not paced:
            cmd += ["--remote-ns", str(emu.get("remote_ns") or 0)]
        cmd += ["--counts", emu["counts"]]
        if emu.get("bandwidth"):
            cmd += ["--node-bandwidth", str(emu["bandwidth"])]
    for k in sorted(env):
        if k.startswith(("OMP_", "KMP_", "GOMP_", "LD_LIBRARY_PATH")) or k == LAYOUT_PAD:
            cmd += ["--env", "%s=%s" % (k, env[k])]
    return cmd + ["--"] + argv
