"""interrupt.py SIG TMPDIR CMD...: start CMD with TMPDIR, send SIG once its output starts, report status and leftovers."""
import os
import signal
import subprocess
import sys
import time

sig = getattr(signal, "SIG" + sys.argv[1])
tmp = os.path.realpath(sys.argv[2])
env = dict(os.environ, TMPDIR=tmp)
proc = subprocess.Popen(sys.argv[3:], stdout=subprocess.PIPE, env=env, start_new_session=True)
# The command prints "running" once the guest runs it: the VM is fully up then.
first = proc.stdout.readline()
if first.strip() != b"running":
    print("unexpected output {!r}".format(first))
    sys.exit(1)
# CMD is `env ... python3 numavm.py ...`: env execs, so proc.pid is the harness.
time.sleep(0.5)
os.kill(proc.pid, sig)
try:
    status = proc.wait(30)
except subprocess.TimeoutExpired:
    proc.kill()
    print("the harness did not stop within 30 s of SIG{}".format(sys.argv[1]))
    sys.exit(1)
time.sleep(0.5)
left = 0
for pid in os.listdir("/proc"):
    if pid.isdigit():
        try:
            with open("/proc/{}/cmdline".format(pid), "rb") as f:
                argv = f.read().split(b"\0")
        except OSError:
            continue
        if argv and b"qemu-system" in argv[0] and any(tmp.encode() in a for a in argv):
            left += 1
print("status={} qemu-left={} dirs-left={}".format(status, left, len(os.listdir(tmp))))
