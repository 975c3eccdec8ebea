"""no-qemu-in.py: fail when a QEMU process still runs with a path under the given directory (a harness left it behind)."""
import os
import sys

root = os.path.realpath(sys.argv[1])
left = []
for pid in os.listdir("/proc"):
    if not pid.isdigit():
        continue
    try:
        with open("/proc/{}/cmdline".format(pid), "rb") as f:
            argv = f.read().split(b"\0")
    except OSError:
        continue
    if argv and b"qemu-system" in argv[0] and any(root.encode() in a for a in argv):
        left.append(pid)
print("qemu-left={}".format(len(left)))
sys.exit(1 if left else 0)
