"""numavm_pool.py: pooled guests for test suites: one long-lived VM per layout runs the jobs sent to it, one at a time."""

# When OMPNUMA_VM_POOL names a directory, numavm.py hands its job to the pool
# instead of booting a machine of its own:
#
#   <pool>/owner          pid whose end shuts the pool down (lit's, written by tests/vm/lit_ext.py)
#   <pool>/<name>.lock    serialises starting the server of one layout
#   <pool>/<name>.sock    the server: a Unix socket accepting one job per connection
#   <pool>/<name>.vm/     the guest's work directory (emu.sock: the numaemu plugin's control socket)
#   <pool>/<name>.share/  exported read-only to the guest over 9p; the client
#                         copies each job's files to <id>/files there
#   <pool>/<name>.log     the server's own messages; <name>.fail why it could not boot
#
# <name> hashes the layout, the base image, the emulated-NUMA settings (a
# guest under the numaemu plugin is a machine of its own) and whether the guest
# runs Linux's automatic NUMA balancing (and its transparent huge pages mode, when
# one is asked for), so a changed base never reuses
# an old guest. The server boots its guest on first use, then runs the jobs in
# the order it accepts them; jobs waiting in the listen queue do not count
# against their --timeout. Each job starts from the same guest state (its
# files are an overlay dropped afterwards, see numavm_guest.py). The server
# stops, powering its guest off, when asked to ("quit"), when the owner
# process is gone, after IDLE_LIMIT seconds without a job, or when its guest
# crashed, wedged or lost its client mid-job; the next client then starts a
# fresh one. A client whose server vanished before its job started retries.
#
# Socket protocol: the client sends one JSON line {"id", "nonce", "limit"[, "counts": FILE]} (or
# {"quit": true}); the server answers with frames <kind:1 byte><length:4 bytes
# big-endian><payload>: "S" the job started, "O"/"E" stdout/stderr bytes, "X"
# the JSON result {"status": n} | {"timeout": true} | {"error": text, "tail": text}.

import fcntl
import hashlib
import json
import os
import secrets
import shutil
import signal
import socket
import struct
import subprocess
import sys
import time

from ompnuma.numavm import numavm_emu, numavm_image, numavm_layout, numavm_vm

IDLE_LIMIT = 600.0
START_ATTEMPTS = 3


def server_name(layout, base_key, guest):
    text = layout.key() + "/" + base_key + "/" + numavm_vm.machine_key() + guest.key()
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _frame(kind, payload):
    return kind + struct.pack(">I", len(payload)) + payload


def _recv_exact(conn, n):
    data = b""
    while len(data) < n:
        chunk = conn.recv(n - len(data))
        if not chunk:
            return None
        data += chunk
    return data


# --- client side

def _connect(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(path)
        return s
    except OSError:
        s.close()
        return None


def _start_server(pool, name, layout, base_cpio, guest):
    sock = os.path.join(pool, name + ".sock")
    fail = os.path.join(pool, name + ".fail")
    for stale in (sock, fail):
        try:
            os.unlink(stale)
        except FileNotFoundError:
            pass
    spec = json.dumps({"cpus": layout.cpus, "mem": layout.mem, "distances": layout.distances,
                       "emu": guest.emu.spec if guest.emu else None, "balancing": guest.balancing,
                       "thp": guest.thp})
    with open(os.path.join(pool, name + ".log"), "ab") as log:
        # Detached, with no inherited descriptors: lit waits for the test's
        # pipes to close, and the server outlives the test that started it.
        server = subprocess.Popen([sys.executable, "-m", "ompnuma.numavm.numavm_pool", "serve", pool, name, spec,
                                   base_cpio],
                                  stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                  start_new_session=True, close_fds=True)
    deadline = time.monotonic() + numavm_vm.BOOT_LIMIT + 30
    while time.monotonic() < deadline:
        conn = _connect(sock)
        if conn:
            return conn
        if server.poll() is not None:
            try:
                with open(fail) as f:
                    why = json.load(f)
            except (OSError, ValueError):
                why = {"error": "the pool server exited with status {} (see {})".format(
                    server.returncode, os.path.join(pool, name + ".log")), "tail": ""}
            raise numavm_vm.VMFailure(why["error"], why.get("tail", ""))
        time.sleep(0.1)
    server.kill()
    raise numavm_vm.VMFailure("the pool server did not start in time")


def _server_connection(pool, name, layout, base_cpio, guest):
    sock = os.path.join(pool, name + ".sock")
    conn = _connect(sock)
    if conn:
        return conn
    with open(os.path.join(pool, name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        conn = _connect(sock)
        return conn or _start_server(pool, name, layout, base_cpio, guest)


def run_pooled(pool, layout, base_key, base_cpio, job, limit, verbose, guest=numavm_vm.Guest()):
    """Run job on the pool's guest of this layout and numavm_vm.Guest; return its status (raises like
    Machine.run_job)."""
    os.makedirs(pool, exist_ok=True)
    name = server_name(layout, base_key, guest)
    share = os.path.join(pool, name + ".share")
    out, err = numavm_vm.Sink(1), numavm_vm.Sink(2)
    for attempt in range(START_ATTEMPTS):
        conn = _server_connection(pool, name, layout, base_cpio, guest)
        job_id = secrets.token_hex(8)
        jobdir = os.path.join(share, job_id)
        started = False
        try:
            numavm_image.copy_tree(job, os.path.join(jobdir, "files"))
            request = {"id": job_id, "nonce": secrets.token_hex(16), "limit": int(limit)}
            if guest.emu and guest.emu.counts:
                request["counts"] = guest.emu.counts
            conn.sendall(json.dumps(request).encode() + b"\n")
            while True:
                head = _recv_exact(conn, 5)
                if head is None:
                    break
                kind, size = head[:1], struct.unpack(">I", head[1:])[0]
                payload = _recv_exact(conn, size) if size else b""
                if payload is None:
                    break
                if kind == b"S":
                    started = True
                    t0 = time.monotonic()
                elif kind == b"O":
                    out.write(payload)
                elif kind == b"E":
                    err.write(payload)
                elif kind == b"X":
                    result = json.loads(payload)
                    if verbose and started:
                        print("numavm: pooled job ran {:.1f} s".format(time.monotonic() - t0), file=sys.stderr)
                    if "status" in result:
                        return result["status"]
                    if result.get("timeout"):
                        raise numavm_vm.JobTimeout()
                    raise numavm_vm.VMFailure(result.get("error", "unknown pool failure"), result.get("tail", ""))
        except (BrokenPipeError, ConnectionResetError):
            pass
        finally:
            conn.close()
            shutil.rmtree(jobdir, ignore_errors=True)
        if started:
            raise numavm_vm.VMFailure("the pool server stopped while the command ran (see {})".format(
                os.path.join(pool, name + ".log")))
    raise numavm_vm.VMFailure("the pool server kept stopping before the command could start (see {})".format(
        os.path.join(pool, name + ".log")))


def shutdown(pool, wait=15.0):
    """Ask every server of the pool to stop, wait for them, remove the pool directory."""
    socks = [os.path.join(pool, n) for n in os.listdir(pool) if n.endswith(".sock")] if os.path.isdir(pool) else []
    for path in socks:
        conn = _connect(path)
        if conn:
            try:
                conn.sendall(b'{"quit": true}\n')
            except OSError:
                pass
            conn.close()
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline and any(os.path.exists(p) for p in socks):
        time.sleep(0.1)
    shutil.rmtree(pool, ignore_errors=True)


# --- server side

class FrameSink:
    def __init__(self, conn, kind):
        self.conn, self.kind = conn, kind

    def write(self, data):
        if not data:
            return
        try:
            self.conn.sendall(_frame(self.kind, data))
        except OSError:
            raise numavm_vm.ClientGone()


def _owner_alive(pool):
    try:
        with open(os.path.join(pool, "owner")) as f:
            owner = int(f.read().strip())
    except (OSError, ValueError):
        return True
    try:
        os.kill(owner, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True


def _log(msg):
    print("numavm pool {}: {}".format(time.strftime("%H:%M:%S"), msg), file=sys.stderr, flush=True)


def serve(pool, name, spec, base_cpio):
    spec = json.loads(spec)
    layout = numavm_layout.Layout(spec["cpus"], spec["mem"], spec["distances"])
    guest = numavm_vm.Guest(numavm_emu.Emulation(spec["emu"]) if spec.get("emu") else None,
                            spec.get("balancing", False), spec.get("thp"))
    sock_path = os.path.join(pool, name + ".sock")
    share = os.path.join(pool, name + ".share")
    wd = os.path.join(pool, name + ".vm")
    shutil.rmtree(wd, ignore_errors=True)
    os.makedirs(wd)
    os.makedirs(share, exist_ok=True)
    machine = None
    listener = None
    stop = []
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, lambda s, f: stop.append(s))
    try:
        machine = numavm_vm.Machine(layout, base_cpio, wd, "pool", share, guest)
        try:
            machine.wait_ready()
        except numavm_vm.VMFailure as e:
            with open(os.path.join(pool, name + ".fail"), "w") as f:
                json.dump({"error": str(e), "tail": e.console_tail}, f)
            _log("boot failed: {}".format(e))
            return 1
        _log("{} booted in {:.1f} s".format(layout.describe(), machine.boot_seconds))
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(sock_path)
        listener.listen(64)
        listener.settimeout(1.0)
        idle_since = time.monotonic()
        jobs = 0
        while not stop:
            if machine.proc.poll() is not None:
                _log("the guest stopped while idle")
                break
            if not _owner_alive(pool) or time.monotonic() - idle_since > IDLE_LIMIT:
                break
            try:
                conn, _ = listener.accept()
            except socket.timeout:
                continue
            with conn:
                conn.settimeout(30)
                line = numavm_emu.recv_line(conn)
                try:
                    req = json.loads(line)
                except ValueError:
                    continue
                if req.get("quit"):
                    break
                conn.settimeout(None)
                jobs += 1
                if not _run_one(machine, conn, req):
                    break
            idle_since = time.monotonic()
        _log("stopping after {} jobs".format(jobs))
        return 0
    finally:
        if listener:
            listener.close()
            try:
                os.unlink(sock_path)
            except FileNotFoundError:
                pass
        if machine:
            if machine.proc.poll() is None:
                try:
                    machine.send("QUIT")
                except OSError:
                    pass
                machine.wait_exit(5)
            machine.kill()
        shutil.rmtree(wd, ignore_errors=True)
        shutil.rmtree(share, ignore_errors=True)


def _run_one(machine, conn, req):
    """Run one request; return whether the guest can take another."""
    def started():
        machine.emu_pace_on()
        conn.sendall(_frame(b"S", b""))

    def result(obj):
        try:
            conn.sendall(_frame(b"X", json.dumps(obj).encode()))
        except OSError:
            pass

    try:
        if machine.emu:
            # Each job's counts start from zero (the guest is idle now), and
            # its pacing with its command (an earlier job may have timed out).
            machine.emu_pace_off()
            machine.emu_control("reset")
        status = machine.run_job(req["id"], req["nonce"], req["limit"], FrameSink(conn, b"O"),
                                 FrameSink(conn, b"E"), on_start=started, watch=conn, on_exit=machine.emu_pace_off)
        if machine.emu and req.get("counts"):
            machine.emu_control("dump " + req["counts"])
        result({"status": status})
        return True
    except numavm_vm.JobTimeout as e:
        result({"timeout": True})
        return not e.wedged
    except numavm_vm.VMFailure as e:
        result({"error": str(e), "tail": e.console_tail})
        _log("guest failed: {}".format(e))
        return False
    except (numavm_vm.ClientGone, OSError):
        _log("client gone during job {}; stopping the guest".format(req.get("id")))
        return False


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "serve":
        sys.exit(serve(*sys.argv[2:]))
    print("usage: python3 -m ompnuma.numavm.numavm_pool serve POOL NAME LAYOUT-JSON BASE-CPIO (started by numavm.py)",
          file=sys.stderr)
    sys.exit(2)
