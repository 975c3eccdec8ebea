"""fake_machine.py: run `ompnuma topo` on a machine described here, twice (the topology read from sysfs by
rt_topology.c's load_sysfs, then by hwloc: an HWLOC_ variable that changes nothing hwloc reads sends ompnuma
there), and print the first's topology and whether the second's is the same.

usage: fake_machine.py OMPNUMA CASE

Each run happens in a private mount namespace (unshare -m) where a node tree written here is mounted over
/sys/devices/system/node, and, for that one process (bind mounts over /proc/<pid>/..., then exec: the pid
stays), /proc/self/mounts is this machine's without its cgroup and cpuset mounts plus the case's own,
/proc/self/cgroup and /proc/self/cpuset are the case's; /sys/devices/system/cpu/online and /proc/driver too
when the case says.
Both readers then see the same machine; the CPUs named must be this machine's (0 and 1 are enough).
Needs root, unshare(1) and /proc/self/cpuset (lit feature fake-sysfs). Exit status 1 when the two differ."""
import os
import shutil
import subprocess
import sys
import tempfile

KIB = 3000000  # each node's MemTotal

# A case: "online", "nodes" [(id, cpulist, distances)], and optionally "cpu_online" (that file's text),
# "initiators" {memory-only node: initiator node} (HMAT), "cgroup" (a function of the fake cgroup root
# that makes its files and returns (the /proc/mounts lines, /proc/self/cgroup, /proc/self/cpuset)).
CASES = {}


def case(name, online, nodes, **extra):
    CASES[name] = dict(online=online, nodes=nodes, **extra)


def files(root, tree):
    """Write {relative path: text} under root."""
    for path, text in tree.items():
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(text + "\n")


TWO = [(0, "0", "10 20"), (1, "1", "20 10")]

# A memory-only node (CXL, PMEM) nearest node 0: hwloc gives it node 0's CPU and lists it second.
case("memonly-nearest", "0-2", [(0, "0", "10 20 17"), (1, "1", "20 10 28"), (2, "", "17 28 10")])
# The same locality from the HMAT's initiators.
case("memonly-initiator", "0-2", [(0, "0", "10 20 20"), (1, "1", "20 10 20"), (2, "", "20 20 10")],
     initiators={2: 0})
# A memory-only node numbered first.
case("memonly-first", "0-2", [(0, "", "10 20 20"), (1, "0", "20 10 20"), (2, "1", "20 20 10")])
# Node numbers not in CPU order (the boot CPU on node 1).
case("cpu-order", "0-1", [(0, "1", "10 20"), (1, "0", "20 10")])
# CPU 0 offline while node 0's list still names it.
case("cpu0-offline", "0", [(0, "0-1", "10")], cpu_online="1")
# CPU 1 in two nodes' lists: not a machine Linux makes; the sysfs reader leaves it to hwloc.
case("cpu-in-two-nodes", "0-1", [(0, "0-1", "10 20"), (1, "1", "20 10")])
# Node 1 is a GPU's memory, as NVIDIA's driver says (Grace Hopper): hwloc leaves it out.
case("nvidia-gpu-node", "0-1", [(0, "0-1", "10 20"), (1, "", "20 10")], nvidia_node=1)


def cgroup2_ancestor(root):
    """cgroup v2: the process's cgroup (/slice/leaf) has no cpuset files (the controller is not enabled
    below /slice), /slice allows CPU 1 and node 1: /proc/self/cpuset names /slice, as the kernel does."""
    files(root, {"cgroup.controllers": "cpuset cpu memory", "cpuset.cpus.effective": "0-1",
                 "cpuset.mems.effective": "0-1", "slice/cgroup.controllers": "cpuset cpu memory",
                 "slice/cpuset.cpus.effective": "1", "slice/cpuset.mems.effective": "1",
                 "slice/leaf/cgroup.controllers": "cpu memory"})
    return ["cgroup2 %s cgroup2 rw,relatime 0 0" % root], "0::/slice/leaf", "/slice"


def cgroup1_noprefix(root):
    """A cgroup v1 cpuset hierarchy mounted with noprefix: its files are cpus and mems."""
    files(root, {"cpus": "1", "mems": "1"})
    return ["cgroup %s cgroup rw,relatime,cpuset,noprefix 0 0" % root], "3:cpuset:/", "/"


def legacy_cpuset(root):
    """The cpuset file system of old (mount -t cpuset): files cpus and mems."""
    files(root, {"cpus": "1", "mems": "1"})
    return ["cpuset %s cpuset rw,relatime 0 0" % root], "0::/", "/"


def mount_with_space(root):
    """A cgroup v1 cpuset mounted where the path has a space, escaped as \\040 in /proc/mounts."""
    spaced = root + " cg"
    files(spaced, {"cpuset.cpus": "1", "cpuset.mems": "1"})
    return ["cgroup %s cgroup rw,relatime,cpuset 0 0" % spaced.replace(" ", "\\040")], "3:cpuset:/", "/"


def cgroup2_without_cpuset(root):
    """A cgroup v2 hierarchy whose root does not list the cpuset controller restricts nothing, whatever
    files it holds."""
    files(root, {"cgroup.controllers": "cpu memory", "cpuset.cpus.effective": "1", "cpuset.mems.effective": "1"})
    return ["cgroup2 %s cgroup2 rw,relatime 0 0" % root], "0::/", "/"


for name, fn in (("cgroup2-ancestor", cgroup2_ancestor), ("cgroup1-noprefix", cgroup1_noprefix),
                 ("legacy-cpuset", legacy_cpuset), ("mount-with-space", mount_with_space),
                 ("cgroup2-without-cpuset", cgroup2_without_cpuset)):
    case(name, "0-1", TWO, cgroup=fn)


def cpumap(cpulist):
    """The kernel's hex mask of a CPU list ("0-1,3")."""
    mask = 0
    for item in filter(None, cpulist.split(",")):
        lo, _, hi = item.partition("-")
        for cpu in range(int(lo), int(hi or lo) + 1):
            mask |= 1 << cpu
    return mask


def node_tree(root, c):
    tree = {"online": c["online"], "possible": c["online"], "has_memory": c["online"]}
    for nid, cpus, dist in c["nodes"]:
        tree["node%d/cpulist" % nid] = cpus
        tree["node%d/cpumap" % nid] = "%x" % cpumap(cpus)  # what hwloc reads
        tree["node%d/meminfo" % nid] = "Node %d MemTotal:       %d kB\nNode %d MemFree:        %d kB" % (
            nid, KIB, nid, KIB)
        tree["node%d/distance" % nid] = dist
    files(root, tree)
    for mem, init in c.get("initiators", {}).items():
        os.makedirs(os.path.join(root, "node%d/access0/initiators/node%d" % (mem, init)))


def real_mounts_without_cgroups():
    with open("/proc/mounts") as f:
        return [l.rstrip("\n") for l in f if l.split()[2:3] not in (["cgroup"], ["cgroup2"], ["cpuset"])]


# Mounts the fakes for the shell's own pid ($$), then execs the command: the same process.
SCRIPT = """set -e
mount --bind "$FAKE/node" /sys/devices/system/node
for f in mounts cgroup cpuset; do mount --bind "$FAKE/proc-$f" /proc/$$/$f; done
if [ -e "$FAKE/cpu-online" ]; then mount --bind "$FAKE/cpu-online" /sys/devices/system/cpu/online; fi
if [ -e "$FAKE/driver" ]; then mount --bind "$FAKE/driver" /proc/driver; fi
exec "$@"
"""


def run(fake, argv, env):
    p = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", SCRIPT, "sh"] + argv,
                       env=dict(env, FAKE=fake), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.exit("fake_machine.py: %s exited %d: %s" % (" ".join(argv), p.returncode, p.stderr.strip()))
    return p.stdout


def topology_part(text):
    """`ompnuma topo`'s lines up to the NUMA factor."""
    lines = text.splitlines()
    end = next((i for i, l in enumerate(lines) if l.startswith("numa factor")), len(lines) - 1)
    return lines[:end + 1]


def main(argv):
    if len(argv) != 2 or argv[1] not in CASES:
        sys.exit(__doc__ + "\ncases: " + ", ".join(sorted(CASES)))
    ompnuma, c = argv[0], CASES[argv[1]]
    fake = tempfile.mkdtemp(prefix="ompnuma-fake-machine-")
    try:
        node_tree(os.path.join(fake, "node"), c)
        mounts, cgroup, cpuset = real_mounts_without_cgroups(), "0::/", "/"
        if "cgroup" in c:
            lines, cgroup, cpuset = c["cgroup"](os.path.join(fake, "cg"))
            mounts += lines
        files(fake, {"proc-mounts": "\n".join(mounts), "proc-cgroup": cgroup, "proc-cpuset": cpuset})
        if "cpu_online" in c:
            files(fake, {"cpu-online": c["cpu_online"]})
        if "nvidia_node" in c:
            files(fake, {"driver/nvidia/gpus/0000:01:00.0/numa_status": "Node: %d" % c["nvidia_node"]})
        env = {k: v for k, v in os.environ.items() if not k.startswith("HWLOC_")}
        sysfs = topology_part(run(fake, [ompnuma, "topo"], env))
        hwloc = topology_part(run(fake, [ompnuma, "topo"], dict(env, HWLOC_HIDE_ERRORS="0")))
        print("\n".join(sysfs))
        if sysfs != hwloc:
            print("hwloc's differs:\n" + "\n".join(hwloc))
            return 1
        print("same as hwloc's")
        return 0
    finally:
        shutil.rmtree(fake)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
