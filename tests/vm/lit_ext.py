"""tests/vm/lit_ext.py: the NUMA virtual machine tier: feature `numa-vm` and the %numa-vm-* substitutions.

Feature
  numa-vm    QEMU and the guest kernel are installed (tools/bootstrap setup does it).
             Mark tests that boot a VM with `REQUIRES: numa-vm`.
Mark tests that boot a VM with `ALLOW_RETRIES: 2
  numa-emu   numa-vm, and the emulated-NUMA plugin (tools/numaemu) is built:
             %numa-vm-run may take --remote-ns, --local-ns, --node-bandwidth,
             --bandwidth-window, --cache-kib, --cache-ways, --charge-kernel,
             --pace [NS] and --counts FILE
             (see tools/numavm/README.md). A pooled guest is booted per
             distinct set of those settings (--counts aside).

Substitutions (LAYOUT is one of the names below)
  %numa-vm-run(LAYOUT) [OPTIONS] [--] CMD ARGS
        runs CMD inside a guest with that NUMA layout and exits with its
        status. Guests are pooled: one per layout for the whole lit run, each
        command in a fresh overlay (nothing persists between commands).
        OPTIONS are those of `ompnuma vm`: --file PATH (ship more files; the
        command, its shared libraries and those of every --file go
        automatically), --env NAME[=VALUE], --timeout S (default 600).
        The guest sees files at their host paths and runs CMD in the host's
        current directory path; redirect output on the host side.
  %numa-vm-dropin(LAYOUT) [OPTIONS] [--] CMD ARGS
        the same with ompnuma's lib/ shipped and first on LD_LIBRARY_PATH
        (the guest-side %dropin).
  %numa-vm-layout(LAYOUT)
        just the layout options (--nodes ... --distances ...), for %numavm.
  %print-status CMD ARGS
        runs CMD, then prints "status=N" with its exit status (for FileCheck,
        in the internal shell as in an external one).
  %emu-counts SUBCOMMAND COUNTS.json ...
        reads the plugin's ground truth (tests/vm/Inputs/emu_counts.py):
        `check COUNTS EXPECT` compares tagged intervals with the lines a
        program says it touched, `share COUNTS [--tag T]` prints the remote
        share, `tags COUNTS` each tag's matrix, `paced COUNTS OUTPUT`
        compares the guest's own time ratios with the paced model's.
  %emu-mark-include
        -I flag for runtime/os/rt_emu_mark.h (the guest-side markers).
  %numavm
        the harness itself (`ompnuma vm`), unpooled: one VM per command. For
        tests of the harness, and commands that may crash the guest.

Layouts
  1x1      1 node, 1 CPU
  2x1      2 nodes x 1 CPU
  2x2      2 nodes x 2 CPUs (distances 10/20)
  4x1      4 nodes x 1 CPU on a line: 10,20,30,40;20,10,20,30;30,20,10,20;40,30,20,10
  4x2      4 nodes x 2 CPUs, the same line distances
  2x2+mem  3 nodes: 2 CPUs, 2 CPUs, and node 2 memory-only; 10,20,30;20,10,30;30,30,10
Every node has 256 MiB unless said otherwise. Nothing inside a VM says
anything about NUMA timing (all nodes are the same host RAM): never assert
on time there. Transparent huge pages are on (Debian's default `always`):
tests that count page placement must align buffers to 2 MiB or use
MADV_NOHUGEPAGE (see ../shared notes/numa-vm.md).
"""

import atexit
import os
import re
import shlex
import shutil
import sys

def _harness(config):
    """The deployed copy beside the ompnuma binary when the build made one, else the source."""
    deployed = os.path.join(config.ompnuma_build, "share", "ompnuma", "numavm.py")
    if os.path.isfile(deployed):
        return deployed
    return os.path.join(config.ompnuma_src, "tools", "numavm", "numavm.py")


def _pool_dir():
    """A short private directory (Unix socket paths are limited to 108 bytes); stale ones are removed."""
    import tempfile
    tmp = "/tmp" if len(tempfile.gettempdir()) > 40 else tempfile.gettempdir()
    for name in os.listdir(tmp):
        if name.startswith("numavm-pool-") and name[12:].isdigit():
            try:
                os.kill(int(name[12:]), 0)
            except ProcessLookupError:
                shutil.rmtree(os.path.join(tmp, name), ignore_errors=True)
            except PermissionError:
                pass
    path = os.path.join(tmp, "numavm-pool-{}".format(os.getpid()))
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, "owner"), "w") as f:
        f.write(str(os.getpid()))
    return path


def configure(config, lit_config):
    harness = _harness(config)
    sys.path.insert(0, os.path.dirname(harness))
    try:
        import numavm_layout
        import numavm_vm
        import numavm_pool
    finally:
        sys.path.pop(0)
    python = config.ompnuma_python or sys.executable
    run = "{} {}".format(shlex.quote(python), shlex.quote(harness))
    libdir = os.path.join(config.ompnuma_build, "lib")
    # Longer keys first: lit applies substitutions in order, as regular expressions.
    for name in sorted(numavm_layout.NAMED, key=len, reverse=True):
        opts = " ".join(shlex.quote(a) for a in numavm_layout.NAMED[name])
        config.substitutions.insert(0, (re.escape("%numa-vm-layout({})".format(name)), opts))
        config.substitutions.insert(0, (re.escape("%numa-vm-run({})".format(name)), "{} {}".format(run, opts)))
        config.substitutions.insert(0, (re.escape("%numa-vm-dropin({})".format(name)),
                                        "{} {} --env LD_LIBRARY_PATH={} --file {}".format(
                                            run, opts, shlex.quote(libdir), shlex.quote(libdir))))
    config.substitutions.insert(0, ("%numavm", "env -u OMPNUMA_VM_POOL " + run))
    config.substitutions.insert(0, ("%print-status", "{} {}".format(
        shlex.quote(python), shlex.quote(os.path.join(os.path.dirname(__file__), "Inputs", "status.py")))))

    config.substitutions.insert(0, ("%emu-counts", "{} {}".format(
        shlex.quote(python), shlex.quote(os.path.join(os.path.dirname(__file__), "Inputs", "emu_counts.py")))))
    config.substitutions.insert(0, ("%emu-mark-include", "-I" + shlex.quote(
        os.path.join(config.ompnuma_src, "runtime", "os"))))

    why = numavm_vm.available()
    if why:
        lit_config.note("numa-vm tier disabled: " + why)
        return
    config.available_features.add("numa-vm")
    sys.path.insert(0, os.path.dirname(harness))
    try:
        import numavm_emu
        numavm_emu.plugin_path()
        config.available_features.add("numa-emu")
    except numavm_emu.EmuError as e:
        lit_config.note("numa-emu tests disabled: {}".format(e))
    finally:
        sys.path.pop(0)
    pool = _pool_dir()
    config.environment["OMPNUMA_VM_POOL"] = pool
    # lit's own exit powers the pooled guests off; should lit die without
    # running this, each pool server notices its owner is gone within a second.
    atexit.register(numavm_pool.shutdown, pool)
