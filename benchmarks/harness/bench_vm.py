"""bench_vm.py: runs a configuration inside ompnuma's NUMA virtual machine (`ompnuma vm`), where timings are emulation."""
import json
import os
import re
import shutil
import sys

NOTE = ("VM timings are emulation (QEMU TCG, every node backed by the same host RAM): they check that "
        "the configurations run and verify there, and say nothing about NUMA performance")
EMU_NOTE = ("emulated NUMA (numaemu QEMU plugin): a remote cache miss costs {} ns more{}; times are emulation "
            "with that cost, comparable between configurations of this invocation only (the same pooled "
            "guest runs them all, alternating); remote_share_pct is the plugin's ground truth")


def find_runner(here, prefix, srcroot):
    """The command that starts the VM: numavm.py beside this harness or in the source tree, else the
    `ompnuma vm` subcommand of the build. None when neither exists."""
    for script in (os.path.join(here, "numavm.py"),
                   os.path.join(srcroot, "tools", "numavm", "numavm.py") if srcroot else None):
        if script and os.path.isfile(script):
            return [sys.executable, script]
    tool = os.path.join(prefix, "bin", "ompnuma")
    if os.access(tool, os.X_OK):
        return [tool, "vm"]
    return None


def emu_note(remote_ns, bandwidth):
    return EMU_NOTE.format(remote_ns, ", nodes serve {} MB/s".format(bandwidth) if bandwidth else "")


def start_pool(runner):
    """A private pool of guests for this invocation (the runner boots one per layout and emulation
    settings and reuses it for every run); None when the runner is not numavm.py."""
    if len(runner) != 2 or not runner[1].endswith("numavm.py"):
        return None
    pool = os.path.join("/tmp", "ompnuma-bench-pool-{}".format(os.getpid()))
    os.makedirs(pool, exist_ok=True)
    with open(os.path.join(pool, "owner"), "w") as f:
        f.write(str(os.getpid()))
    return pool


def stop_pool(runner, pool):
    """Power the pool's guests off and remove it."""
    sys.path.insert(0, os.path.dirname(runner[1]))
    try:
        import numavm_pool
        numavm_pool.shutdown(pool)
    except ImportError:
        shutil.rmtree(pool, ignore_errors=True)
    finally:
        sys.path.pop(0)


def remote_shares(runner, counts_path):
    """{"remote_share_pct": P} (percent of the plugin's counted misses that went to another node than the
    missing vCPU's), and "remote_share_tagT_pct" for each tag T the program marked (benchmarks/patterns:
    tag 2 = the second half of its iterations, once a placement settled); {} when unreadable."""
    sys.path.insert(0, os.path.dirname(runner[1]))
    try:
        import numavm_emu
        with open(counts_path) as f:
            counts = json.load(f)
        shares = {"remote_share_pct": numavm_emu.remote_share(counts)}
        for t in counts.get("tags", []):
            shares["remote_share_tag%d_pct" % t["tag"]] = numavm_emu.remote_share(counts, t["misses"])
        return {k: v for k, v in shares.items() if v is not None}
    except (OSError, ValueError, KeyError, IndexError, TypeError):
        return {}
    finally:
        sys.path.pop(0)


def wrap(runner, layout, env, argv, timeout, emu=None, balancing=False):
    """argv run in the VM of the named layout (numavm_layout.NAMED, or NODES[xCPUS]; the runner parses
    it) with the run's OpenMP and loader variables: the guest inherits nothing from the host, so each is
    passed with --env (the runner also finds the libraries to ship with them, so the drop-in under
    LD_LIBRARY_PATH travels with the program). emu: None, or {"remote_ns": N, "bandwidth": M or None,
    "counts": path} for the numaemu plugin. balancing: boot the guest with Linux's automatic NUMA balancing
    on (a guest of its own: the pool keys its guests on it)."""
    cmd = list(runner) + ["--layout", layout, "--timeout", "%g" % timeout]
    if balancing:
        cmd.append("--numa-balancing")
    if emu:
        cmd += ["--remote-ns", str(emu["remote_ns"]), "--counts", emu["counts"]]
        if emu.get("bandwidth"):
            cmd += ["--node-bandwidth", str(emu["bandwidth"])]
    for k in sorted(env):
        if k.startswith(("OMP_", "KMP_", "GOMP_", "LD_LIBRARY_PATH")):
            cmd += ["--env", "%s=%s" % (k, env[k])]
    return cmd + ["--"] + argv
