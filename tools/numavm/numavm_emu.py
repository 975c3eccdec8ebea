"""numavm_emu.py: emulated NUMA costs for `ompnuma vm`: options, the numaemu plugin's arguments, its control socket, and the reader of its counts."""

# With any of the options below, the guest runs under the project's QEMU
# plugin (tools/numaemu): remote misses of a per-vCPU cache model cost time,
# nodes may have a bandwidth limit, and every miss is counted per vCPU x node.
# Without them nothing changes (no plugin is loaded).
#
#   --remote-ns N         extra ns per remote miss at the nearest remote distance;
#                         farther nodes cost N x (d - 10) / (d_nearest - 10)
#   --local-ns L          or: a remote miss costs d/10 local misses of L ns, so
#                         L x (d - 10) / 10 extra
#   --node-bandwidth M    MB/s of missed lines each node serves, one value or one
#                         per node (0 = unlimited)
#   --bandwidth-window U  microseconds of burst a node serves without waiting (20; paced 300000)
#   --cache-kib K, --cache-ways W   the per-vCPU cache model (1024 KiB, 16 ways)
#   --counts FILE         the ground truth as JSON, counted from the command's
#                         start to its end (format in tools/numavm/README.md)
#   --charge-kernel       the guest kernel's accesses count and pay too (its
#                         copies for a process, page migration), at the node of
#                         the page; slower boot and system calls
#   --pace [NS]           paced time: the guest's clock is a model, NS ns of host
#                         time per instruction (default: default_pace_ns) plus the
#                         memory latencies of a modelled server slowed down as
#                         much (below); --local-ns, --remote-ns and --node-bandwidth
#                         then describe that server in its own time
#
# Paced, the model is a 2-socket server of published figures (local miss
# PACED_LOCAL_NS, remote PACED_LOCAL_NS + PACED_REMOTE_EXTRA_NS at the nearest
# distance, PACED_BANDWIDTH_MBS per node) running one instruction per
# SERVER_INSN_NS, dilated by pace / SERVER_INSN_NS so that an instruction costs
# the host's emulation less than the model charges for it (headroom).

import math
import os
import re
import socket
import subprocess

import ompnuma

DEFAULT_CACHE_KIB = 1024
DEFAULT_CACHE_WAYS = 16
DEFAULT_WINDOW_US = 20
CTL_TIMEOUT = 60.0

# Paced time (--pace). The default cost per instruction is issue 25's rule, measured: the smallest cost at
# which every run of NPB CG S (a barrier every few hundred us of model time: the most demanding benchmark
# measured) lagged behind the model by less than LAG_LIMIT_PCT of its measured phase beside two host CPU
# burners, on this project's 2-core machine kind (benchmarks/harness/pace_calibrate.py; benchmarks/README.md,
# "Choosing the default cost per instruction"). What it takes grows with the vCPUs each host CPU emulates:
# (vCPUs per host CPU, ns per instruction), measured with the 2x1 and 4x1 layouts.
PACE_NS_BY_VCPUS_PER_CPU = ((1, 150), (2, 200))
SERVER_INSN_NS = 0.4        # the modelled server: one instruction per cycle at 2.5 GHz
PACED_LOCAL_NS = 90         # its local DRAM latency
PACED_REMOTE_EXTRA_NS = 50  # remote at the nearest distance: 140 ns
PACED_BANDWIDTH_MBS = 20000  # per node
# A paced node's bandwidth queue absorbs this much backlog (guest time) before
# misses wait: more than two vCPUs' clocks can differ (emu_pace.c's ahead and lag
# tolerance), so only demand beyond the bandwidth sustained that long waits.
PACED_WINDOW_US = 300000
# A paced run (or tagged interval) whose vCPUs lagged more than this share of it
# behind the model (emu_pace.c: lateness the guest can have seen) did not run at
# the model's speed: its times are partly the host's.
LAG_LIMIT_PCT = 1.0


class EmuError(ValueError):
    """A bad option value or a missing plugin; the message is meant for the user as is."""


def add_arguments(p):
    g = p.add_argument_group("emulated NUMA costs (loads the numaemu QEMU plugin; see tools/numavm/README.md)")
    g.add_argument("--remote-ns", metavar="N", default=None,
                   help="extra nanoseconds per remote cache miss (nearest remote distance; farther scale by distance)")
    g.add_argument("--local-ns", metavar="L", default=None,
                   help="or: a local miss costs L ns and a remote one distance/10 times that")
    g.add_argument("--node-bandwidth", metavar="MBPS", default=None,
                   help="MB/s of missed lines each node serves, one value or one per node (0 = unlimited)")
    g.add_argument("--bandwidth-window", metavar="US", default=None,
                   help="microseconds of burst a node serves before misses wait (default {}, paced {})".format(
                       DEFAULT_WINDOW_US, PACED_WINDOW_US))
    g.add_argument("--cache-kib", metavar="K", default=None,
                   help="per-vCPU cache model size in KiB (default {})".format(DEFAULT_CACHE_KIB))
    g.add_argument("--cache-ways", metavar="W", default=None,
                   help="its associativity (default {})".format(DEFAULT_CACHE_WAYS))
    g.add_argument("--counts", metavar="FILE", default=None,
                   help="write the ground truth (misses per vCPU x node, per tagged interval) there as JSON")
    g.add_argument("--charge-kernel", action="store_true", default=None,
                   help="count and charge the guest kernel's accesses too (process_vm_readv copies, migration), "
                        "at the node of the page; slows boot and system calls")
    g.add_argument("--pace", metavar="NS", nargs="?", const="", default=None,
                   help="paced time: the guest's clock follows a model of NS ns per instruction (default {} with "
                        "up to one vCPU per host CPU, {} with two, more beyond) plus "
                        "the memory latencies of a 2-socket server slowed down as much (local {} ns, remote {} ns, "
                        "{} MB/s per node, one instruction per {} ns); write the command after --".format(
                            PACE_NS_BY_VCPUS_PER_CPU[0][1], PACE_NS_BY_VCPUS_PER_CPU[1][1], PACED_LOCAL_NS,
                            PACED_LOCAL_NS + PACED_REMOTE_EXTRA_NS,
                            PACED_BANDWIDTH_MBS, SERVER_INSN_NS))


def requested(args):
    return any(getattr(args, a) is not None for a in (
        "remote_ns", "local_ns", "node_bandwidth", "bandwidth_window", "cache_kib", "cache_ways", "counts",
        "charge_kernel", "pace"))


def _uint(text, what, lo=0, hi=10 ** 9):
    try:
        v = int(str(text).strip(), 10)
    except ValueError:
        raise EmuError("{}: '{}' is not an integer".format(what, text))
    if not lo <= v <= hi:
        raise EmuError("{}: {} is out of range {}..{}".format(what, v, lo, hi))
    return v


def qemu_version(qemu):
    """(major, minor) of the QEMU binary, or None when it does not say."""
    try:
        out = subprocess.run([qemu, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    m = re.search(r"version (\d+)\.(\d+)", out)
    return (int(m.group(1)), int(m.group(2))) if m else None


def ram_ranges(layout, version):
    """[(node, start, length)] of the addresses qemu_plugin_hwaddr_phys_addr reports for each node's RAM.

    QEMU 7.x reports, for RAM, the RAMBlock's offset plus the offset of the
    memory region in its container: node I's backend (RAMBlock at base_I, the
    sum of the sizes before it, mapped at base_I in the machine's RAM) shows
    as [2*base_I, 2*base_I + size_I), whatever the PCI hole (verified on 7.2,
    see ../shared notes/numa-emulation.md). Later versions report the
    guest-physical address: RAM below 4 GiB up to the low-memory limit (all of
    it when the guest has less than 3.5 GiB, else 3 GiB), the rest from 4 GiB."""
    ranges, base = [], 0
    total = layout.total_mib << 20
    lowmem = total if total < 0xE0000000 else 0xC0000000
    for node, mib in enumerate(layout.mem):
        size = mib << 20
        if version is not None and version[0] < 8:
            ranges.append((node, 2 * base, size))
        else:
            lo, hi = base, base + size
            if lo < lowmem:
                ranges.append((node, lo, min(hi, lowmem) - lo))
            if hi > lowmem:
                start = max(lo, lowmem)
                ranges.append((node, start - lowmem + (1 << 32), hi - start))
        base += size
    return ranges


def _distances(layout):
    if layout.distances:
        return layout.distances
    return [[10 if i == j else 20 for j in range(layout.nodes)] for i in range(layout.nodes)]


def cost_matrix(layout, remote_ns=None, local_ns=None):
    """Extra ns per miss, [vCPU's node][memory's node]."""
    d = _distances(layout)
    n = layout.nodes
    if remote_ns is None and local_ns is None:
        return [[0] * n for _ in range(n)]
    if remote_ns is not None:
        nearest = min((d[i][j] for i in range(n) for j in range(n) if i != j), default=20)
        return [[0 if i == j else int(round(remote_ns * (d[i][j] - 10) / (nearest - 10))) for j in range(n)]
                for i in range(n)]
    return [[0 if i == j else int(round(local_ns * (d[i][j] - 10) / 10.0)) for j in range(n)] for i in range(n)]


def default_pace_ns(vcpus, host_cpus=None):
    """The default cost per instruction of a guest of vcpus on host_cpus (default: the CPUs this process may
    run on): the measured cost of the first ratio of PACE_NS_BY_VCPUS_PER_CPU at least the guest's, and beyond
    the last one that cost grown in proportion (the host's share of each vCPU shrinks as much)."""
    if host_cpus is None:
        host_cpus = len(os.sched_getaffinity(0))
    ratio = vcpus / float(max(1, host_cpus))
    for most, ns in PACE_NS_BY_VCPUS_PER_CPU:
        if ratio <= most:
            return ns
    most, ns = PACE_NS_BY_VCPUS_PER_CPU[-1]
    return int(math.ceil(ns * ratio / most))


def pace_ps(text):
    """Picoseconds per instruction of --pace NS (a decimal number of nanoseconds)."""
    try:
        ns = float(str(text).strip())
    except ValueError:
        raise EmuError("--pace: '{}' is not a number of nanoseconds per instruction "
                       "(write the command after --)".format(text))
    if not 0.001 <= ns <= 10 ** 6:
        raise EmuError("--pace: {} is out of range 0.001..1000000 ns per instruction".format(text))
    return int(round(ns * 1000))


def paced_model(layout, ps, remote_ns=None, local_ns=None, bandwidth=None):
    """(latency matrix in guest ns, bandwidth per node in guest MB/s) of the modelled server (defaults: the
    PACED_* figures; remote_ns/local_ns/bandwidth as for the unpaced options, in the server's own time),
    dilated to ps picoseconds per instruction."""
    dilation = ps / 1000.0 / SERVER_INSN_NS
    if remote_ns is None and local_ns is None:
        remote_ns = PACED_REMOTE_EXTRA_NS
    local = local_ns if local_ns is not None else PACED_LOCAL_NS
    extra = cost_matrix(layout, remote_ns, local_ns)
    lat = [[int(round((local + x) * dilation)) for x in row] for row in extra]
    bw = [PACED_BANDWIDTH_MBS] * layout.nodes if bandwidth is None else bandwidth
    return lat, [max(1, int(round(b / dilation))) if b else 0 for b in bw]


def plugin_path():
    """The built plugin, or raise EmuError saying how to get it."""
    env = os.environ.get("OMPNUMA_NUMAEMU_PLUGIN")
    if env and os.path.isfile(env):
        return os.path.abspath(env)
    # In the share/ompnuma this package is shipped in (build/share/ompnuma, <prefix>/share/ompnuma),
    # or the source tree's build directory.
    found = ompnuma.built_file(__file__, "share", "ompnuma", "numaemu.so")
    if found:
        return found
    if env:
        raise EmuError("OMPNUMA_NUMAEMU_PLUGIN={}: no such file".format(env))
    raise EmuError("the emulated-NUMA plugin (numaemu.so) is not built: run tools/bootstrap build "
                   "(it needs QEMU's plugin header, fetched by tools/deps/qemu-plugin-header.sh)")


class Emulation:
    """What the plugin is asked to do for one layout; json-able through spec() for pooled guests."""

    def __init__(self, spec, counts=None):
        self.spec = spec
        self.counts = counts  # host path of the JSON ground truth, or None

    @classmethod
    def from_args(cls, args, layout, qemu):
        if args.remote_ns is not None and args.local_ns is not None:
            raise EmuError("--remote-ns and --local-ns both given: choose one")
        remote = _uint(args.remote_ns, "--remote-ns", 0, 10 ** 7) if args.remote_ns is not None else None
        local = _uint(args.local_ns, "--local-ns", 0, 10 ** 7) if args.local_ns is not None else None
        bw = None if args.pace is not None else [0] * layout.nodes
        if args.node_bandwidth is not None:
            parts = str(args.node_bandwidth).split(",")
            if len(parts) == 1:
                parts *= layout.nodes
            if len(parts) != layout.nodes:
                raise EmuError("--node-bandwidth: {} values for {} nodes".format(len(parts), layout.nodes))
            bw = [_uint(p, "--node-bandwidth", 0, 10 ** 7) for p in parts]
        vcpu_node = [node for node, c in enumerate(layout.cpus) for _ in range(c)]
        ps = 0
        if args.pace is not None:
            ps = pace_ps(args.pace) if args.pace != "" else default_pace_ns(len(vcpu_node)) * 1000
        window = _uint(args.bandwidth_window, "--bandwidth-window", 1, 10 ** 6) \
            if args.bandwidth_window is not None else PACED_WINDOW_US if ps else DEFAULT_WINDOW_US
        kib = _uint(args.cache_kib, "--cache-kib", 1, 1 << 20) if args.cache_kib is not None else DEFAULT_CACHE_KIB
        ways = _uint(args.cache_ways, "--cache-ways", 1, 64) if args.cache_ways is not None else DEFAULT_CACHE_WAYS
        if (kib * 1024 // 64) % ways or kib * 1024 // 64 < ways:
            raise EmuError("--cache-kib {} cannot hold a whole number of {}-way sets of 64-byte lines".format(
                kib, ways))
        counts = None
        if args.counts is not None:
            counts = os.path.abspath(args.counts)
            parent = os.path.dirname(counts)
            if not os.path.isdir(parent) or not os.access(parent, os.W_OK):
                raise EmuError("--counts {}: directory {} does not exist or is not writable".format(
                    args.counts, parent))
        lat = None
        if ps:
            lat, bw = paced_model(layout, ps, remote, local, bw)
        spec = {
            "plugin": plugin_path(),
            "vcpu_node": vcpu_node,
            "ram": ram_ranges(layout, qemu_version(qemu)),
            "cost": cost_matrix(layout, remote, local) if not ps else cost_matrix(layout),
            "bw": bw,
            "window_us": window,
            "cache_kib": kib,
            "ways": ways,
            "kernel": bool(args.charge_kernel),
            "pace_ps": ps,
            "lat": lat,
        }
        return cls(spec, counts)

    @property
    def paced(self):
        return bool(self.spec.get("pace_ps"))

    def key(self):
        """Guests with different settings are different pooled machines."""
        s = self.spec
        return "emu:" + self.plugin_options()[0] + ";" + str(os.path.getmtime(s["plugin"]))

    def plugin_options(self):
        """The -plugin argument's key=value list (ctl= added by the machine)."""
        s = self.spec
        opts = ["vcpu_node=" + "/".join(map(str, s["vcpu_node"])),
                "ram=" + "/".join("{}:{:#x}:{:#x}".format(*r) for r in s["ram"]),
                "cost=" + "/".join(":".join(map(str, row)) for row in s["cost"]),
                "bw=" + "/".join(map(str, s["bw"])),
                "bw_window_us={}".format(s["window_us"]),
                "cache_kib={}".format(s["cache_kib"]),
                "ways={}".format(s["ways"])]
        if s.get("kernel"):
            opts.append("kernel=1")
        if s.get("pace_ps"):
            opts += ["pace_ps={}".format(s["pace_ps"]), "lat=" + "/".join(":".join(map(str, row)) for row in s["lat"])]
        return [",".join(opts)]

    def qemu_args(self, ctl):
        if "," in self.spec["plugin"] or "," in ctl:
            raise EmuError("the plugin's path and the work directory must not contain commas")
        return ["-plugin", "file={},{},ctl={}".format(self.spec["plugin"], self.plugin_options()[0], ctl)]


def recv_line(sock):
    """Bytes from sock up to and including the first newline, or all there were when it closed first."""
    line = b""
    while not line.endswith(b"\n"):
        chunk = sock.recv(4096)
        if not chunk:
            break
        line += chunk
    return line


def control(sock_path, request, timeout=CTL_TIMEOUT):
    """Send one request to the plugin's control socket; return None on 'ok', else the error text."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(timeout)
    try:
        s.connect(sock_path)
        s.sendall(request.encode() + b"\n")
        reply = recv_line(s)
    except OSError as e:
        return "the emulated-NUMA plugin's control socket: {}".format(e)
    finally:
        s.close()
    reply = reply.decode("utf-8", "replace").strip()
    return None if reply == "ok" else "the emulated-NUMA plugin: {}".format(reply or "no reply")


# ---- the plugin's ground truth (--counts FILE, format in tools/numavm/README.md) ----

COUNTS_FORMAT = "ompnuma-emu-counts/1"


def is_counts(doc):
    """Whether a parsed JSON document is the plugin's counts."""
    return isinstance(doc, dict) and doc.get("format") == COUNTS_FORMAT


def tag_of(counts, tag):
    """The record of tag T (entered, misses, ...), or None when the command never entered it."""
    return next((t for t in counts.get("tags", []) if t["tag"] == tag), None)


def remote_share(counts, misses=None):
    """Percent of the misses (a vCPU x node matrix: a tag's; the whole command's by default) that went to
    another node than the missing vCPU's; None when nothing was counted."""
    if misses is None:
        misses = counts["misses"]
    total = remote = 0
    for v, row in enumerate(misses):
        for n, c in enumerate(row):
            total += c
            remote += c if n != counts["vcpu_node"][v] else 0
    return 100.0 * remote / total if total else None


def remote_delay_ns(counts, misses=None):
    """Nanoseconds the plugin charged each vCPU for its misses (a vCPU x node matrix: a tag's; the whole
    command's by default): every miss times the counts' remote_ns of the vCPU's node and the memory's.
    For the whole command this is the plugin's own delay_ns; for a tag it bounds what any placement
    can save of that tag's time on that vCPU."""
    if misses is None:
        misses = counts["misses"]
    cost, node = counts["remote_ns"], counts["vcpu_node"]
    return [sum(c * cost[node[v]][n] for n, c in enumerate(row)) for v, row in enumerate(misses)]


def lag_lines(counts, limit=LAG_LIMIT_PCT):
    """Warnings for a paced run whose vCPUs lagged more than limit percent of the command, or of a tagged
    interval, behind the model: there the host did not keep up, and times are partly the host's. [] when
    unpaced or on time."""
    if "lag_ns" not in counts:
        return []
    out = []
    spans = [("the command", counts, counts.get("paced_ns", 0))]
    spans += [("tag {}".format(t["tag"]), t, t.get("wall_ns", 0)) for t in counts.get("tags", [])]
    for what, rec, span in spans:
        pct = lag_pct(rec, span)
        if pct is not None and pct > limit:
            v = max(range(len(rec["lag_ns"])), key=lambda i: rec["lag_ns"][i])
            start = ""
            if rec is counts and counts.get("lag_ns_per_bin"):
                first = int(1e9 // counts["lag_bin_ns"])
                start = ", {:.1f} ms of it in the first second (start-up: new code costs the host more)".format(
                    sum(counts["lag_ns_per_bin"][v][:first]) / 1e6)
            out.append("paced time lagged in {}: vCPU {} lagged {:.1f} ms behind the model ({:.1f} % of {:.2f} s{}); "
                       "times measured there are partly the host's (it was busy, or the pace too small for it: "
                       "see wait_ns)".format(what, v, rec["lag_ns"][v] / 1e6, pct, span / 1e9, start))
    return out


def lag_pct(rec, span_ns):
    """The largest vCPU lag of a counts object or tag, in percent of span_ns; None without pacing or time."""
    if "lag_ns" not in rec or not span_ns:
        return None
    return 100.0 * max(rec["lag_ns"]) / span_ns


def tail_lag_pct(counts, seconds):
    """The largest vCPU lag over the last `seconds` of a paced command (the lag_bin_ns bins it overlaps), in
    percent of those bins: the lag of a phase that ends the command, such as a benchmark's timed part just
    before its report, without the start-up's (translating new code costs the host far more than the model
    charges) nor its first touch's. None without pacing."""
    bins = counts.get("lag_ns_per_bin")
    if not bins or seconds is None:
        return None
    end, width = counts["paced_ns"], counts["lag_bin_ns"]
    first = max(0, int((end - seconds * 1e9) // width))
    window = end - first * width
    return 100.0 * max(sum(row[first:]) for row in bins) / window if window > 0 else None
