"""in_cpuset.py: run a command in a new cgroup-v1 cpuset holding only the last CPU of this process's cpuset
(and its memory nodes), then remove the cpuset; exit with the command's status.
usage: in_cpuset.py -- COMMAND [ARGUMENT...]"""
import os
import subprocess
import sys

ROOT = "/sys/fs/cgroup/cpuset"


def main(argv):
    if argv[:1] != ["--"] or len(argv) < 2:
        sys.exit(__doc__)
    with open(os.path.join(ROOT, "cpuset.cpus")) as f:
        last = f.read().strip().split(",")[-1].split("-")[-1]
    with open(os.path.join(ROOT, "cpuset.mems")) as f:
        mems = f.read().strip()
    group = os.path.join(ROOT, "ompnuma-lit-%d" % os.getpid())
    os.mkdir(group)
    try:
        for name, value in (("cpuset.cpus", last), ("cpuset.mems", mems)):
            with open(os.path.join(group, name), "w") as f:
                f.write(value)

        def enter():
            with open(os.path.join(group, "tasks"), "w") as f:
                f.write(str(os.getpid()))

        return subprocess.run(argv[1:], preexec_fn=enter).returncode
    finally:
        os.rmdir(group)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
