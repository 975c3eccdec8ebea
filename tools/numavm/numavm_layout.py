"""numavm_layout.py: the NUMA layout of a virtual machine: parsing, validation, QEMU arguments."""

# A layout is given by four options:
#
#   --nodes N              1 <= N <= MAX_NODES
#   --cpus-per-node C      one count for every node, or one per node: "2,2,0".
#                          0 makes a memory-only node; at least one CPU in all.
#   --mem M                MiB per node, one value or one per node ("256,256,512")
#   --distances MATRIX     N rows separated by ';', N values each separated by ','
#                          (or blanks): "10,20;20,10". Diagonal 10, others 11..254
#                          (ACPI SLIT: 10 is local, 255 would mean unreachable).
#
# Errors raise LayoutError with a message meant for the user as is.

MAX_NODES = 16
MAX_CPUS = 32
MIN_NODE_MIB = 32
# Smaller guests hang or die silently (notes/numa-vm.md).
MIN_TOTAL_MIB = 128
DEFAULT_NODE_MIB = 256


class LayoutError(ValueError):
    pass


# Named layouts (--layout NAME): the ones the test tier boots, used by lit
# (tests/vm/lit_ext.py), the benchmark harness (--vm NAME) and `ompnuma vm`.
# Any other "N" or "NxC" is N nodes of C CPUs (default 1) at QEMU's 10/20.
LINE4 = "10,20,30,40;20,10,20,30;30,20,10,20;40,30,20,10"
NAMED = {
    "1x1": ["--nodes", "1", "--cpus-per-node", "1"],
    "2x1": ["--nodes", "2", "--cpus-per-node", "1"],
    "2x2": ["--nodes", "2", "--cpus-per-node", "2"],
    "4x1": ["--nodes", "4", "--cpus-per-node", "1", "--distances", LINE4],
    "4x2": ["--nodes", "4", "--cpus-per-node", "2", "--distances", LINE4],
    "2x2+mem": ["--nodes", "3", "--cpus-per-node", "2,2,0", "--distances", "10,20,30;20,10,30;30,30,10"],
}


def named_options(name):
    """The layout options a layout name stands for; raises LayoutError."""
    if name in NAMED:
        return list(NAMED[name])
    nodes, sep, cpus = name.partition("x")
    if not nodes.isdigit() or (sep and not cpus.isdigit()):
        raise LayoutError("--layout {!r}: expected one of {} or NODES[xCPUS_PER_NODE], e.g. 2x2".format(
            name, ", ".join(NAMED)))
    return ["--nodes", nodes, "--cpus-per-node", cpus or "1"]


def named(name):
    """The Layout a layout name stands for (its options, as `--layout NAME` gives them); raises LayoutError."""
    opts = named_options(name)
    given = dict(zip(opts[::2], opts[1::2]))
    return parse(given["--nodes"], given.get("--cpus-per-node", "1"), None, given.get("--distances"))


def expand_layout_option(argv):
    """argv with "--layout NAME" (or --layout=NAME) before the command replaced by its options."""
    out, i = [], 0
    while i < len(argv):
        a = argv[i]
        if a == "--":
            return out + argv[i:]
        if a == "--layout" and i + 1 < len(argv):
            out += named_options(argv[i + 1])
            i += 2
            continue
        if a.startswith("--layout="):
            out += named_options(a.split("=", 1)[1])
        else:
            out.append(a)
        i += 1
    return out


class Layout:
    def __init__(self, cpus, mem, distances):
        self.cpus = cpus            # CPUs per node
        self.mem = mem              # MiB per node
        self.distances = distances  # N x N list, or None for QEMU's default (10/20)

    @property
    def nodes(self):
        return len(self.cpus)

    @property
    def total_cpus(self):
        return sum(self.cpus)

    @property
    def total_mib(self):
        return sum(self.mem)

    def key(self):
        """A short stable name for this layout (used to name pooled VMs)."""
        text = "n{}c{}m{}".format(self.nodes, "-".join(map(str, self.cpus)),
                                  "-".join(map(str, self.mem)))
        if self.distances:
            text += "d" + "-".join(str(v) for row in self.distances for v in row)
        return text

    def describe(self):
        text = "{} node{}, CPUs {}, MiB {}".format(
            self.nodes, "" if self.nodes == 1 else "s",
            ",".join(map(str, self.cpus)), ",".join(map(str, self.mem)))
        if self.distances:
            text += ", distances " + ";".join(",".join(map(str, r)) for r in self.distances)
        return text

    def qemu_args(self):
        """-m/-smp/-object/-numa arguments that give the guest this layout."""
        args = ["-m", "{}M".format(self.total_mib)]
        busy = [c for c in self.cpus if c > 0]
        if len(set(busy)) == 1:
            # One socket per node that has CPUs, so packages match nodes in hwloc.
            args += ["-smp", "cpus={},sockets={},cores={},threads=1".format(
                self.total_cpus, len(busy), busy[0])]
        else:
            # Unequal nodes cannot be described as sockets x cores: one socket per CPU.
            args += ["-smp", "cpus={0},sockets={0},cores=1,threads=1".format(self.total_cpus)]
        first = 0
        for node, (ncpu, mib) in enumerate(zip(self.cpus, self.mem)):
            args += ["-object", "memory-backend-ram,id=m{},size={}M".format(node, mib)]
            spec = "node,nodeid={}".format(node)
            if ncpu:
                spec += ",cpus={}-{}".format(first, first + ncpu - 1)
                first += ncpu
            args += ["-numa", spec + ",memdev=m{}".format(node)]
        if self.distances:
            # QEMU wants every pair once a SLIT is given; both directions are
            # passed so that asymmetric matrices are kept as written.
            for src, row in enumerate(self.distances):
                for dst, val in enumerate(row):
                    if src != dst:
                        args += ["-numa", "dist,src={},dst={},val={}".format(src, dst, val)]
        return args


def _int(text, what):
    try:
        value = int(text.strip(), 10)
    except ValueError:
        raise LayoutError("{}: '{}' is not an integer".format(what, text.strip()))
    return value


def _per_node(text, nodes, what):
    parts = [p for p in str(text).split(",")]
    if len(parts) == 1:
        return [_int(parts[0], what)] * nodes
    if len(parts) != nodes:
        raise LayoutError("{}: {} values given for {} nodes (give one value, or one per node)".format(
            what, len(parts), nodes))
    return [_int(p, what) for p in parts]


def parse_distances(text, nodes):
    rows = [r for r in text.strip().strip(";").split(";")]
    if len(rows) != nodes:
        raise LayoutError("--distances: {} rows for {} nodes; rows are separated by ';'".format(
            len(rows), nodes))
    matrix = []
    for i, row in enumerate(rows):
        values = [_int(v, "--distances row {}".format(i)) for v in row.replace(",", " ").split()]
        if len(values) != nodes:
            raise LayoutError("--distances: row {} has {} values, expected {}".format(
                i, len(values), nodes))
        for j, v in enumerate(values):
            if i == j and v != 10:
                raise LayoutError("--distances: the distance of node {} to itself must be 10, not {}".format(i, v))
            if i != j and not 11 <= v <= 254:
                raise LayoutError("--distances: distance {}->{} is {}; remote distances are 11..254".format(
                    i, j, v))
        matrix.append(values)
    return matrix


def parse(nodes=1, cpus_per_node="1", mem=None, distances=None):
    """Build a Layout from the option values (strings or ints); raises LayoutError."""
    nodes = _int(str(nodes), "--nodes")
    if not 1 <= nodes <= MAX_NODES:
        raise LayoutError("--nodes: {} is out of range 1..{}".format(nodes, MAX_NODES))
    cpus = _per_node(cpus_per_node, nodes, "--cpus-per-node")
    if any(c < 0 for c in cpus):
        raise LayoutError("--cpus-per-node: CPU counts cannot be negative")
    if sum(cpus) == 0:
        raise LayoutError("--cpus-per-node: the machine needs at least one CPU (0 is only for memory-only nodes)")
    if sum(cpus) > MAX_CPUS:
        raise LayoutError("--cpus-per-node: {} CPUs in all, at most {} are supported".format(sum(cpus), MAX_CPUS))
    if cpus[0] == 0:
        # Linux boots its first CPU on node 0; a memory-only node 0 makes QEMU
        # and the kernel disagree about where CPU 0 lives.
        raise LayoutError("--cpus-per-node: node 0 must have CPUs; put memory-only nodes after it")
    mem = _per_node(DEFAULT_NODE_MIB if mem is None else mem, nodes, "--mem")
    for node, mib in enumerate(mem):
        if mib < MIN_NODE_MIB:
            raise LayoutError("--mem: node {} has {} MiB; each node needs at least {} MiB".format(
                node, mib, MIN_NODE_MIB))
    if sum(mem) < MIN_TOTAL_MIB:
        raise LayoutError("--mem: {} MiB in all; the guest needs at least {} MiB".format(sum(mem), MIN_TOTAL_MIB))
    matrix = parse_distances(distances, nodes) if distances else None
    return Layout(cpus, mem, matrix)
