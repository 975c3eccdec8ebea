#!/usr/bin/env python3
"""numavm.py: `ompnuma vm`: run a command inside a QEMU guest with a given NUMA layout (see README.md here)."""

import argparse
import json
import os
import secrets
import shlex
import shutil
import signal
import sys
import tempfile
import time

import ompnuma
from ompnuma.numavm import numavm_emu, numavm_guest, numavm_image, numavm_layout, numavm_vm
from ompnuma.numavm.numavm_vm import EXIT_NOT_RUNNABLE, EXIT_TIMEOUT, EXIT_USAGE, EXIT_VM

DEFAULT_TIMEOUT = 600
GUEST_HOME = "/root"
BUSYBOX_BIN = "/.numavm/bin"
LAUNCHER = "ompnuma-start-on"

EPILOG = """\
exit status: the command's own; 124 when it ran past --timeout; 125 when the
virtual machine failed (the last console lines are shown); 127 when the command
or one of its shared libraries cannot be found on the host; 2 for bad usage or
a bad layout.

inside the guest: the command, every --file, and all the shared libraries they
need (found with ldd) appear at their host paths; the command runs as root in
the host's current directory path (created empty), with only PATH (the host's,
then busybox applets), HOME=/root and the --env variables set; nothing written
inside comes back except stdout, stderr and the exit status. A script (a #!
line) runs under the interpreter the host's lookup of that line ends at,
shipped with it: a Python script with every module it and its interpreter
import (a module reached only through an import hook is named in a warning);
lines "# ompnuma-vm-file: PATH" in a script name more files to ship.

examples:
  numavm.py --nodes 2 --cpus-per-node 2 -- numactl --hardware
  numavm.py --nodes 4 --distances '10,20,30,40;20,10,20,30;30,20,10,20;40,30,20,10' -- ./a.out
  numavm.py --nodes 3 --cpus-per-node 2,2,0 --env OMP_NUM_THREADS=4 -- ./a.out
"""


class UsageError(Exception):
    pass


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="ompnuma vm", description="Boot a NUMA virtual machine of the given layout, run a command in it, "
        "stream its stdout and stderr back and exit with its status.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--layout", metavar="NAME", help="a named layout instead of the four options below: {}, or "
                   "NODES[xCPUS_PER_NODE]".format(", ".join(numavm_layout.NAMED)))
    p.add_argument("--nodes", default="1", metavar="N", help="NUMA nodes (default 1)")
    p.add_argument("--cpus-per-node", default="1", metavar="C",
                   help="CPUs per node, or one count per node such as 2,2,0 (0 = memory-only node; default 1)")
    p.add_argument("--mem", default=None, metavar="MiB",
                   help="memory per node in MiB, or one value per node (default {})".format(
                       numavm_layout.DEFAULT_NODE_MIB))
    p.add_argument("--distances", default=None, metavar="MATRIX",
                   help="distance matrix, rows separated by ';', e.g. '10,20;20,10' (default: QEMU's 10/20)")
    p.add_argument("--file", action="append", default=[], metavar="PATH",
                   help="also ship this file or directory (with the libraries it needs); repeatable")
    p.add_argument("--env", action="append", default=[], metavar="NAME[=VALUE]",
                   help="set this variable for the command (NAME alone passes the host's value); repeatable")
    p.add_argument("--timeout", default=DEFAULT_TIMEOUT, type=float, metavar="S",
                   help="seconds the command may run, boot not included; 0 = no limit (default {})".format(
                       DEFAULT_TIMEOUT))
    p.add_argument("--verbose", action="store_true", help="report boot and run times on stderr")
    p.add_argument("--numa-balancing", action="store_true",
                   help="boot the guest with Linux's automatic NUMA balancing on (default: off)")
    p.add_argument("--thp", choices=numavm_vm.THP_MODES, default=None,
                   help="boot the guest with this transparent huge pages mode (default: the guest kernel's, which "
                   "depends on its memory: never under 512 MiB, as 2x1, always above): with always, a 2 MiB page "
                   "goes to the node of whichever thread touches it first, so the placement of arrays shared out "
                   "by threads depends on a race")
    p.add_argument("--start-cpu", type=int, default=None, metavar="CPU",
                   help="exec the command on this guest CPU, keep it there while the loader runs, then give it every "
                   "CPU back at the program's entry point: its stack and its libraries' data are first-touched on that CPU's node, not on "
                   "the node the kernel's exec balancing picks (default: wherever the kernel execs it)")
    numavm_emu.add_arguments(p)
    p.add_argument("command", nargs=argparse.REMAINDER, help="the command and its arguments (after --)")
    try:
        argv = numavm_layout.expand_layout_option(list(argv))
    except numavm_layout.LayoutError as e:
        p.error(str(e))
    args = p.parse_args(argv)
    if args.command and args.command[0] == "--":
        args.command = args.command[1:]
    if not args.command:
        p.error("no command given (write it after --)")
    if args.timeout < 0:
        p.error("--timeout cannot be negative")
    return args


def guest_env(specs):
    env = {}
    for spec in specs:
        name, eq, value = spec.partition("=")
        if not name or not all(c.isalnum() or c == "_" for c in name) or name[0].isdigit():
            raise UsageError("--env {}: not a valid variable name".format(spec))
        if not eq:
            if name not in os.environ:
                raise UsageError("--env {}: not set on the host".format(name))
            value = os.environ[name]
        env[name] = value
    env.setdefault("PATH", os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin") + ":" + BUSYBOX_BIN)
    env.setdefault("HOME", GUEST_HOME)
    return env


class NotRunnable(Exception):
    pass


def resolve_command(argv0, env, busybox):
    """Host path of the command to ship, or None when a busybox applet serves it."""
    if "/" in argv0:
        path = os.path.abspath(argv0)
        if not os.path.isfile(path):
            raise NotRunnable("{}: no such file".format(argv0))
        if not os.access(path, os.X_OK):
            raise NotRunnable("{}: not executable".format(argv0))
        return path
    search = ":".join(d for d in env["PATH"].split(":") if d != BUSYBOX_BIN)
    found = shutil.which(argv0, path=search)
    if found:
        return os.path.abspath(found)
    if argv0 in numavm_image.busybox_applets(busybox):
        return None
    raise NotRunnable("{}: command not found on the host (nor a busybox applet)".format(argv0))


def job_script(argv, env, cwd):
    q = lambda s: shlex.quote(s)  # noqa: E731
    lines = ["# numavm job: environment, directory, command"]
    for name in sorted(env):
        lines.append("export {}={}".format(name, q(env[name])))
    lines.append("cd {} || exit 126".format(q(cwd)))
    lines.append("exec " + " ".join(q(a) for a in argv))
    return ("\n".join(lines) + "\n").encode("utf-8", "surrogateescape")


def launcher_path():
    """The guest-side launcher of --start-cpu (tools/numaemu/start_on.c), or raise UsageError."""
    found = ompnuma.built_file(__file__, "bin", LAUNCHER)
    if found:
        return found
    raise UsageError("--start-cpu: {} is not built: run tools/bootstrap build".format(LAUNCHER))


def build_job(args, base, layout):
    """The job's file tree (files not already in base) and its script."""
    env = guest_env(args.env)
    busybox = numavm_image.find_busybox()
    command = resolve_command(args.command[0], env, busybox)
    argv = list(args.command)
    paths = [os.path.abspath(f) for f in args.file]
    script = numavm_image.script_run(command, env["PATH"]) if command else None
    if script:
        interp, files, warnings = script
        argv = interp + [command] + argv[1:]
        paths += files
        for w in warnings:
            print("ompnuma vm: warning: " + w, file=sys.stderr)
    if args.start_cpu is not None:
        if not 0 <= args.start_cpu < layout.total_cpus:
            raise UsageError("--start-cpu {}: the guest has CPUs 0..{}".format(args.start_cpu, layout.total_cpus - 1))
        launcher = launcher_path()
        paths.append(launcher)
        argv = [launcher, str(args.start_cpu)] + argv
    for f in paths:
        if not os.path.lexists(f):
            raise NotRunnable("--file {}: no such file or directory".format(f))
    tree = numavm_image.Tree()
    numavm_image.add_with_closure(tree, paths + ([command] if command else []), env)
    cwd = os.getcwd()
    numavm_image.check_shippable(cwd)
    tree.add_dir(cwd)
    # What /base already holds (same host file) need not travel again.
    for path, entry in list(tree.entries.items()):
        if entry[0] == "file" and base.entries.get("/base" + path) == entry:
            del tree.entries[path]
    tree.add_data("/.numavm/job.sh", job_script(argv, env, cwd))
    return tree


def base_image():
    """(base tree, path of its cached cpio), building the cpio on first use."""
    _, modules_dir = numavm_vm.find_kernel()
    busybox = numavm_image.find_busybox()
    base = numavm_image.base_tree(busybox, modules_dir, numavm_guest.MODULES_POOL)
    key = numavm_image.tree_key(base)
    cdir = os.path.join(numavm_vm.cache_dir(), "initramfs")
    path = os.path.join(cdir, "base-{}.cpio".format(key))
    if os.path.isfile(path):
        # Marks it in use, so that pruning below spares it.
        os.utime(path)
        return base, key, path
    os.makedirs(cdir, exist_ok=True)
    # Other harnesses (another build's copy, another lit run) may be using
    # other bases right now: only those unused for a day are removed.
    now = time.time()
    for old in os.listdir(cdir):
        old = os.path.join(cdir, old)
        try:
            if os.path.basename(old).startswith(("base-", ".base-")) and now - os.stat(old).st_mtime > 86400:
                os.unlink(old)
        except OSError:
            pass
    fd, tmp = tempfile.mkstemp(dir=cdir, prefix=".base-")
    with os.fdopen(fd, "wb") as out:
        numavm_image.write_cpio(base, out)
    os.replace(tmp, path)
    return base, key, path


def cleanup_stale(tmp):
    """Remove work directories left by harness processes that no longer exist (killed with SIGKILL)."""
    try:
        names = os.listdir(tmp)
    except OSError:
        return
    for name in names:
        if not name.startswith("numavm-"):
            continue
        parts = name.split("-")
        if len(parts) < 3 or not parts[1].isdigit():
            continue
        try:
            os.kill(int(parts[1]), 0)
        except ProcessLookupError:
            shutil.rmtree(os.path.join(tmp, name), ignore_errors=True)
        except PermissionError:
            pass


def run_oneshot(layout, job, base_cpio, limit, verbose, guest=numavm_vm.Guest()):
    tmp = tempfile.gettempdir()
    cleanup_stale(tmp)
    wd = tempfile.mkdtemp(prefix="numavm-{}-".format(os.getpid()), dir=tmp)
    machine = None
    try:
        initrd = os.path.join(wd, "initrd.cpio")
        nonce = secrets.token_hex(16)
        extra = numavm_image.Tree()
        extra.add_data("/jobs/1/spec", "1 {} {}\n".format(nonce, int(limit)).encode())
        extra.graft("/jobs/1/files", job)
        with open(initrd, "wb") as out, open(base_cpio, "rb") as base:
            shutil.copyfileobj(base, out)
            numavm_image.write_cpio(extra, out)
        machine = numavm_vm.Machine(layout, initrd, wd, "oneshot", guest=guest)
        machine.wait_ready()
        if guest.emu:
            # The guest holds until told: counts start with the command.
            machine.emu_control("reset")
            machine.send("GO")
        status = machine.run_job(1, nonce, limit, numavm_vm.Sink(1), numavm_vm.Sink(2), send=False,
                                 on_start=machine.emu_pace_on, on_exit=machine.emu_pace_off)
        if guest.emu:
            if guest.emu.counts:
                machine.emu_control("dump " + guest.emu.counts)
            machine.send("GO")
        if verbose:
            print("numavm: booted in {:.1f} s".format(machine.boot_seconds), file=sys.stderr)
        # The guest powers itself off after the job.
        machine.wait_exit(10)
        return status
    finally:
        if machine:
            machine.kill()
        shutil.rmtree(wd, ignore_errors=True)


def report_lag(path):
    """Say on stderr when a paced command (or one of its tagged intervals) lagged behind its model."""
    try:
        with open(path) as f:
            counts = json.load(f)
    except (OSError, ValueError):
        return
    for line in numavm_emu.lag_lines(counts):
        print("ompnuma vm: " + line, file=sys.stderr)


def _raise_interrupted(signum, frame):
    raise numavm_vm.Interrupted(signum)


def main(argv):
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _raise_interrupted)
    args = parse_args(argv)
    try:
        layout = numavm_layout.parse(args.nodes, args.cpus_per_node, args.mem, args.distances)
    except numavm_layout.LayoutError as e:
        print("ompnuma vm: bad layout: {}".format(e), file=sys.stderr)
        return EXIT_USAGE
    tmp_counts = None
    try:
        emu = None
        if numavm_emu.requested(args):
            emu = numavm_emu.Emulation.from_args(args, layout, numavm_vm.find_qemu())
        base, base_key, base_cpio = base_image()
        job = build_job(args, base, layout)
        if emu and emu.paced and not emu.counts:
            # Paced, the counts say whether the command kept to its model.
            fd, tmp_counts = tempfile.mkstemp(prefix="numavm-counts-", suffix=".json")
            os.close(fd)
            emu.counts = tmp_counts
        guest = numavm_vm.Guest(emu, args.numa_balancing, args.thp)
        pool = os.environ.get("OMPNUMA_VM_POOL")
        if pool:
            from ompnuma.numavm import numavm_pool
            status = numavm_pool.run_pooled(pool, layout, base_key, base_cpio, job, args.timeout, args.verbose,
                                            guest)
        else:
            status = run_oneshot(layout, job, base_cpio, args.timeout, args.verbose, guest)
        if emu and emu.paced:
            report_lag(emu.counts)
        return status
    except numavm_emu.EmuError as e:
        print("ompnuma vm: {}".format(e), file=sys.stderr)
        return EXIT_USAGE
    except UsageError as e:
        print("ompnuma vm: {}".format(e), file=sys.stderr)
        return EXIT_USAGE
    except (NotRunnable, numavm_image.ImageError) as e:
        print("ompnuma vm: cannot run the command: {}".format(e), file=sys.stderr)
        return EXIT_NOT_RUNNABLE
    except numavm_vm.JobTimeout:
        print("ompnuma vm: the command ran longer than {:g} s and was killed".format(args.timeout),
              file=sys.stderr)
        return EXIT_TIMEOUT
    except numavm_vm.VMFailure as e:
        print("ompnuma vm: the virtual machine failed: {}".format(e), file=sys.stderr)
        if e.console_tail:
            print("ompnuma vm: last console lines:\n" + e.console_tail, file=sys.stderr)
        return EXIT_VM
    except numavm_vm.Interrupted as e:
        return 128 + e.signum
    finally:
        if tmp_counts:
            for path in (tmp_counts, tmp_counts + ".tmp"):
                try:
                    os.unlink(path)
                except OSError:
                    pass


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
