"""numavm_vm.py: one QEMU guest on the host side: start, serial channels, the job protocol, clean stop."""

import collections
import ctypes
import os
import re
import select
import shutil
import signal
import socket
import subprocess
import time

from ompnuma.numavm import numavm_guest

# Exit statuses of `ompnuma vm` besides the command's own.
EXIT_USAGE = 2
EXIT_TIMEOUT = 124
EXIT_VM = 125
EXIT_NOT_RUNNABLE = 127

# The guest reads its clock as a real server's programs do: clock_gettime in
# the vDSO, from an invariant TSC (+invtsc, clocksource=tsc; tsc=reliable:
# TCG's TSC follows the host's clock, which the watchdog need not check).
# Without it the kernel takes HPET: every clock read is a system call and a
# device read, 55 us of paced time (a real server's ~220 ns, 10 times the
# vDSO's), which inflated every timed execution ompnuma measures.
CPU = "max,+invtsc"
KERNEL_ARGS = "console=ttyS0 panic=-1 quiet loglevel=3 rdinit=/init clocksource=tsc tsc=reliable"


def machine_key():
    """What every VM of this version boots with besides its layout: a pool never reuses a VM booted otherwise."""
    return CPU + "/" + KERNEL_ARGS


# Transparent huge pages: the guest kernel's own default unless one of these is asked for (the guest's
# init sets it: numavm_guest.py). Linux leaves them off in a machine under 512 MiB (the 2x1 layout, 2 x 256
# MiB), Debian's kernel turns them on (always) above (4x1).
THP_MODES = ("always", "madvise", "never")


class Guest(collections.namedtuple("Guest", ("emu", "balancing", "thp"))):
    """What a guest boots with besides its layout: the emulated-NUMA plugin (a numavm_emu.Emulation, or
    None), Linux's automatic NUMA balancing (off unless asked for, as a benchmark column of Linux's own
    balancing does: page placement stays where a test put it), and its transparent huge pages mode (None:
    the kernel's default), which the guest's init reads."""
    __slots__ = ()

    def __new__(cls, emu=None, balancing=False, thp=None):
        return super().__new__(cls, emu, balancing, thp)

    def kernel_args(self):
        """The guest kernel's command line."""
        return (KERNEL_ARGS + " numa_balancing=" + ("enable" if self.balancing else "disable") +
                (" numavm.thp=" + self.thp if self.thp else ""))

    def key(self):
        """What sets two guests of one layout and image apart (the pool keeps one guest per key)."""
        return (("/" + self.emu.key() if self.emu else "") + ("/balancing" if self.balancing else "") +
                ("/thp=" + self.thp if self.thp else ""))


# Seconds: booting under TCG takes ~3 s idle and 5-10 s on a loaded host.
BOOT_LIMIT = float(os.environ.get("OMPNUMA_VM_BOOT_TIMEOUT", "180"))
# Seconds beyond the command's limit before the host stops waiting for the
# guest's own watchdog and kills the machine.
GRACE = 20.0
# Seconds to wait for the end markers after DONE (output drains at ~0.3 MB/s,
# but everything was written before DONE, so this is only in-flight data).
DRAIN_LIMIT = 30.0
MARKER = b"NUMAVM-END-"


class VMFailure(Exception):
    """The machine itself failed (exit 125); the message explains, console_tail shows why."""

    def __init__(self, message, console_tail=""):
        super().__init__(message)
        self.console_tail = console_tail


class JobTimeout(Exception):
    """The command ran past its limit (exit 124); wedged when the guest did not end it itself."""

    def __init__(self, wedged=False):
        super().__init__("timeout")
        self.wedged = wedged


class ClientGone(Exception):
    """The watched connection closed while a job ran."""


class Interrupted(Exception):
    """A signal asked us to stop (exit 128 + signal)."""

    def __init__(self, signum):
        super().__init__("signal {}".format(signum))
        self.signum = signum


def cache_dir():
    return os.environ.get("OMPNUMA_VM_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "ompnuma", "vm")


def find_kernel():
    """(vmlinux, modules dir) or raise VMFailure telling how to install them."""
    kdir = os.path.join(cache_dir(), "kernel")
    vmlinux = os.path.join(kdir, "vmlinux")
    mods = os.path.join(kdir, "modules")
    if not os.path.isfile(vmlinux) or not os.path.isdir(mods):
        raise VMFailure("no guest kernel in {}: run tools/bootstrap setup "
                        "(tools/deps/numavm-kernel.sh fetches it)".format(kdir))
    for m in numavm_guest.MODULES_POOL:
        if not os.path.isfile(os.path.join(mods, m + ".ko")):
            raise VMFailure("module {}.ko missing from {}: run tools/deps/numavm-kernel.sh".format(m, mods))
    return os.path.realpath(vmlinux), os.path.realpath(mods)


def find_qemu():
    qemu = shutil.which("qemu-system-x86_64")
    if not qemu:
        raise VMFailure("qemu-system-x86_64 is not installed (Debian package qemu-system-x86): "
                        "run tools/bootstrap setup")
    return qemu


def available():
    """Reason the VM cannot run here, or None when it can."""
    try:
        find_qemu()
        find_kernel()
    except VMFailure as e:
        return str(e)
    return None


_CRASH = re.compile(r"Kernel panic|Oops|BUG:|sysrq: Trigger|Out of memory")
_ANSI = re.compile(rb"\x1b(\[[0-9;?]*[A-Za-z]|[@-Z\\-_])")


def _die_with_parent():
    # QEMU must not outlive us, even if we are killed with SIGKILL.
    libc = ctypes.CDLL(None, use_errno=True)
    PR_SET_PDEATHSIG = 1
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def _write_all(fd, data):
    while data:
        n = os.write(fd, data)
        data = data[n:]


class Sink:
    """Where one stream of the command goes; a closed reader only stops forwarding."""

    def __init__(self, fd):
        self.fd = fd

    def write(self, data):
        if self.fd is None or not data:
            return
        try:
            _write_all(self.fd, data)
        except (BrokenPipeError, OSError):
            self.fd = None


class Demux:
    """Forwards one serial stream to a sink up to the job's end marker."""

    def __init__(self, nonce, sink):
        self.marker = MARKER + nonce.encode()
        self.sink = sink
        self.buf = b""
        self.done = False

    def feed(self, data):
        if self.done:
            return
        self.buf += data
        at = self.buf.find(self.marker)
        if at >= 0:
            self.sink.write(self.buf[:at])
            self.buf = b""
            self.done = True
            return
        # Hold back only a tail that could be the start of the marker, so
        # that output streams as it comes (a prompt without newline included).
        keep = 0
        for k in range(min(len(self.marker) - 1, len(self.buf)), 0, -1):
            if self.buf.endswith(self.marker[:k]):
                keep = k
                break
        self.sink.write(self.buf[:len(self.buf) - keep])
        self.buf = self.buf[len(self.buf) - keep:]


class Machine:
    """A running guest with its serial channels, in the working directory wd."""

    def __init__(self, layout, initrd, wd, mode, share=None, guest=Guest()):
        self.wd = wd
        self.mode = mode
        # The emulated-NUMA plugin (numavm_emu.Emulation), with its control socket in wd.
        emu = self.emu = guest.emu
        self.emu_sock = os.path.join(wd, "emu.sock") if emu else None
        qemu = find_qemu()
        vmlinux, _ = find_kernel()
        self.console = os.path.join(wd, "console.log")
        self.qemu_err = os.path.join(wd, "qemu.err")
        self.fds = {}
        # Pipe chardevs read <name>.in and write <name>.out. Opening our ends
        # first (read side non-blocking, write side O_RDWR) means QEMU's opens
        # never block and no early byte is lost.
        for name in ("out", "err", "ctl"):
            for suffix in (".in", ".out"):
                os.mkfifo(os.path.join(wd, name + suffix), 0o600)
            self.fds[name] = os.open(os.path.join(wd, name + ".out"), os.O_RDONLY | os.O_NONBLOCK)
        self.ctl_w = os.open(os.path.join(wd, "ctl.in"), os.O_RDWR)
        self.idle_w = [os.open(os.path.join(wd, n + ".in"), os.O_RDWR) for n in ("out", "err")]
        append = guest.kernel_args() + " numavm.mode=" + mode
        if emu and mode == "oneshot":
            # The guest waits for the host before and after its job, so that
            # the host can reset and read the plugin's counts around it.
            append += " numavm.hold=1"
        args = [qemu, "-accel", "tcg,thread=multi", "-cpu", CPU] + layout.qemu_args() + [
            "-kernel", vmlinux, "-initrd", initrd,
            "-append", append,
            "-nodefaults", "-no-reboot", "-display", "none", "-monitor", "none",
            "-chardev", "file,id=con,path=" + self.console, "-serial", "chardev:con"]
        for name in ("out", "err", "ctl"):
            args += ["-chardev", "pipe,id={0},path={1}".format(name, os.path.join(wd, name)),
                     "-serial", "chardev:" + name]
        if emu:
            args += emu.qemu_args(self.emu_sock)
        if share:
            args += ["-virtfs", "local,path={},mount_tag=host,security_model=none,readonly=on".format(share)]
        with open(self.qemu_err, "wb") as err:
            self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=err, stderr=err,
                                         preexec_fn=_die_with_parent, start_new_session=True)
        self.ctl_buf = b""
        self.lines = []
        self.demux = {}
        self.watch = None
        self.started = time.monotonic()

    # --- channels

    def send(self, line):
        _write_all(self.ctl_w, line.encode() + b"\n")

    def pump(self, timeout):
        """Read whatever arrived within timeout seconds; return False once QEMU has exited."""
        fds = list(self.fds.values())
        if self.watch is not None:
            fds.append(self.watch)
        ready, _, _ = select.select(fds, [], [], timeout)
        if self.watch is not None and self.watch in ready:
            # The client sends nothing after its request: readable means closed.
            try:
                gone = not self.watch.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)
            except BlockingIOError:
                gone = False
            except OSError:
                gone = True
            if gone:
                raise ClientGone()
        for name, fd in self.fds.items():
            if fd not in ready:
                continue
            while True:
                try:
                    data = os.read(fd, 65536)
                except BlockingIOError:
                    break
                if not data:
                    break
                if name == "ctl":
                    self.ctl_buf += data
                    while b"\n" in self.ctl_buf:
                        line, self.ctl_buf = self.ctl_buf.split(b"\n", 1)
                        line = line.decode("utf-8", "replace").strip()
                        if line.startswith("NUMAVM "):
                            self.lines.append(line.split()[1:])
                elif name in self.demux:
                    self.demux[name].feed(data)
        return self.proc.poll() is None

    def next_message(self, deadline, what):
        """Wait for the next control message; raise VMFailure at the deadline or if QEMU exits."""
        while not self.lines:
            left = deadline - time.monotonic()
            if left <= 0:
                raise VMFailure("the virtual machine did not {} in time".format(what), self.console_tail())
            if not self.pump(min(left, 0.5)):
                self.pump(0)  # whatever was still in the pipes
                if self.lines:
                    break
                raise VMFailure("the virtual machine stopped (guest crash or power-off) before it could {}"
                                " (QEMU exit status {})".format(what, self.proc.returncode), self.console_tail())
        msg = self.lines.pop(0)
        if msg and msg[0] == "FAIL":
            raise VMFailure("guest: " + " ".join(msg[1:]), self.console_tail())
        return msg

    def wait_ready(self):
        msg = self.next_message(time.monotonic() + BOOT_LIMIT, "boot")
        if msg != ["READY"]:
            raise VMFailure("unexpected guest message {!r}".format(" ".join(msg)), self.console_tail())
        self.boot_seconds = time.monotonic() - self.started

    def run_job(self, job_id, nonce, limit, out_sink, err_sink, send=True, on_start=None, watch=None, on_exit=None):
        """Run one job (already in place); return the command's exit status.

        on_start is called when the command starts, on_exit when it has ended (before the guest cleans up
        after it); watch is a socket whose closing aborts the wait with ClientGone."""
        self.demux = {"out": Demux(nonce, out_sink), "err": Demux(nonce, err_sink)}
        self.watch = watch
        if send:
            self.send("RUN {} {} {}".format(job_id, nonce, int(limit)))
        msg = self.next_message(time.monotonic() + BOOT_LIMIT, "start the command")
        if msg != ["START", str(job_id)]:
            raise VMFailure("unexpected guest message {!r}".format(" ".join(msg)), self.console_tail())
        if on_start:
            on_start()
        deadline = time.monotonic() + (limit + GRACE if limit > 0 else 10 ** 9)
        try:
            msg = self.next_message(deadline, "finish the command")
            if msg == ["EXITED", str(job_id)]:
                if on_exit:
                    on_exit()
                msg = self.next_message(deadline, "finish the command")
        except VMFailure:
            if limit > 0 and time.monotonic() >= deadline:
                raise JobTimeout(wedged=True)
            raise
        if len(msg) != 4 or msg[0] != "DONE" or msg[1] != str(job_id):
            raise VMFailure("unexpected guest message {!r}".format(" ".join(msg)), self.console_tail())
        status, timed_out = int(msg[2]), msg[3] == "1"
        drain = time.monotonic() + DRAIN_LIMIT
        while not all(d.done for d in self.demux.values()):
            if time.monotonic() > drain or not self.pump(0.2):
                self.pump(0)
                if all(d.done for d in self.demux.values()):
                    break
                raise VMFailure("the command's output did not end properly", self.console_tail())
        self.demux = {}
        self.watch = None
        if timed_out:
            raise JobTimeout()
        return status

    def emu_control(self, request):
        """Send one request to the plugin ("reset", "dump FILE"); raise VMFailure when it fails."""
        from ompnuma.numavm import numavm_emu
        err = numavm_emu.control(self.emu_sock, request)
        if err:
            raise VMFailure(err, self.console_tail())

    def emu_pace_on(self):
        """Paced time starts with the command (boot and the guest's plumbing run at full speed)."""
        if self.emu and self.emu.paced:
            self.emu_control("pace on")

    def emu_pace_off(self):
        if self.emu and self.emu.paced:
            self.emu_control("pace off")

    def console_tail(self, lines=20):
        text = b""
        try:
            with open(self.console, "rb") as f:
                text = f.read()[-16384:]
        except OSError:
            pass
        try:
            with open(self.qemu_err, "rb") as f:
                text += f.read()[-4096:]
        except OSError:
            pass
        text = _ANSI.sub(b"", text).replace(b"\r", b"")
        keep = [l for l in text.decode("utf-8", "replace").split("\n") if l.strip()]
        # A crash dump is long: start at its first line so the reason shows.
        for i, line in enumerate(keep[-100:]):
            if _CRASH.search(line):
                return "\n".join(keep[-100:][i:i + 2 * lines])
        return "\n".join(keep[-lines:])

    # --- stop

    def wait_exit(self, seconds):
        try:
            self.proc.wait(seconds)
            return True
        except subprocess.TimeoutExpired:
            return False

    def kill(self):
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait()
        for fd in list(self.fds.values()) + [self.ctl_w] + self.idle_w:
            try:
                os.close(fd)
            except OSError:
                pass
        self.fds = {}
        self.idle_w = []
        self.ctl_w = -1
