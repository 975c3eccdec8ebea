"""bench_vm.py: runs a configuration inside ompnuma's NUMA virtual machine (`ompnuma vm`), where timings are emulation."""
import os
import re
import sys

NOTE = ("VM timings are emulation (QEMU TCG, every node backed by the same host RAM): they check that "
        "the configurations run and verify there, and say nothing about NUMA performance")


def parse_layout(layout):
    """(nodes, cpus_per_node or None) from "N" or "NxC"; raises ValueError."""
    m = re.fullmatch(r"(\d+)(?:x(\d+))?", layout)
    if not m or int(m.group(1)) < 1 or (m.group(2) is not None and int(m.group(2)) < 1):
        raise ValueError("--vm %r: expected NODES or NODESxCPUS_PER_NODE, e.g. 2x2" % layout)
    return int(m.group(1)), (int(m.group(2)) if m.group(2) else None)


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


def wrap(runner, layout, env, argv, timeout):
    """argv run in the VM with the run's OpenMP and loader variables: the guest inherits nothing from the
    host, so each is passed with --env (the runner also finds the libraries to ship with them, so the
    drop-in under LD_LIBRARY_PATH travels with the program)."""
    nodes, cpus = parse_layout(layout)
    cmd = list(runner) + ["--nodes", str(nodes), "--timeout", "%g" % timeout]
    if cpus:
        cmd += ["--cpus-per-node", str(cpus)]
    for k in sorted(env):
        if k.startswith(("OMP_", "KMP_", "GOMP_", "LD_LIBRARY_PATH")):
            cmd += ["--env", "%s=%s" % (k, env[k])]
    return cmd + ["--"] + argv
