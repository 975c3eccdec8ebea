"""numa_nodes.py: prints how many NUMA nodes have CPUs, read from sysfs independently of the programs under test."""
import os

base = "/sys/devices/system/node"
nodes = [d for d in os.listdir(base) if d.startswith("node") and d[4:].isdigit()] if os.path.isdir(base) else []
with_cpus = 0
for d in nodes:
    try:
        with open(os.path.join(base, d, "cpulist")) as f:
            with_cpus += bool(f.read().strip())
    except OSError:
        pass
print(with_cpus or 1)
