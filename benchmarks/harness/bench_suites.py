"""bench_suites.py: which benchmarks the harness knows, how to run them, and how to read their verification and metrics."""
import json
import os
import re
import shlex

NPB_KERNELS = ("ep", "is", "cg", "mg", "ft")
STREAMS = ("stream", "stream-nested", "stream-twisted")
# Programs that accept `--json -` and print one JSON record on stdout after their report.
JSON_PROGRAMS = STREAMS + ("overhead-epcc",)

_VERIFY = re.compile(r"^\s*Verification\s*=\s*(\S+)", re.M)
_TIME = re.compile(r"^\s*Time in seconds\s*=\s*([-+0-9.eE]+)", re.M)
_CHECKSUM = re.compile(r"^\s*Checksum\s*=\s*(\S+)", re.M)


def metric_info(metric):
    """(unit, which direction is better) of a metric name."""
    if metric.endswith("_MBps"):
        return "MB/s", "higher"
    if metric.endswith("_ns"):
        return "ns", "lower"
    if metric.endswith("_pct"):
        return "%", "lower"
    return "s", "lower"


class Benchmark:
    """One program with its arguments, identified by `id` in tables, JSON and plot names."""

    def __init__(self, program, args):
        self.program = program  # a name in <build>/bin, or a path
        self.args = list(args)
        base = os.path.basename(program)
        self.kind = base if base in JSON_PROGRAMS else ("npb" if base.startswith("npb-") else "generic")
        label = base + ("." + "_".join(x.lstrip("-") for x in self.args) if self.args else "")
        self.id = re.sub(r"[^A-Za-z0-9._-]+", "_", label).strip("_")

    def path(self, bindir, variant):
        """The executable a configuration of `variant` runs: gcc builds are <program>-gcc."""
        p = self.program if os.sep in self.program else os.path.join(bindir, self.program)
        return p + "-gcc" if variant == "gcc" else p

    def argv(self, bindir, variant, oracle=False):
        extra = ["--json", "-"] if self.kind in JSON_PROGRAMS else []
        args = self.oracle()[0] if oracle else self.args
        return [self.path(bindir, variant)] + args + extra

    def oracle(self):
        """(arguments, binding) of this benchmark's oracle, the best static mapping given the ground truth,
        or None when none is known. The patterns and the demo program (swapped) run with every block
        first-touched by the thread that sweeps it (`local`, the same sweeps, each thread next to its data
        from the start: where the best static mapping of threads puts them, or, for the blocks the
        primary first-touched in serial code, where the best static placement of data puts the pages:
        `serial`'s oracle is `local` too); `shared`, one table every thread reads, runs `interleaved`,
        the same lookups with the table's pages interleaved over the nodes (no mapping of threads or
        blocks puts every thread next to a table they all read; spread evenly, no thread's references
        are all remote); NPB and STREAM first-touch
        with the schedules they compute with, so there it is threads bound in order. Each with threads
        bound in order on cores (nested patterns: spread over nodes, then close)."""
        base = os.path.basename(self.program)
        bind = {"OMP_PROC_BIND": "close", "OMP_PLACES": "cores"}
        if base == "patterns" and self.args:
            mode, dash, shape = self.args[0].partition("-")
            if mode == "shared" and not dash:
                return ["interleaved"] + self.args[1:], bind
            if mode not in ("local", "swapped", "shifted", "serial"):
                return None
            if shape == "nested":
                bind["OMP_PROC_BIND"] = "spread,close"
            return ["local" + dash + shape] + self.args[1:], bind
        if base == "swapped":
            return self.args + ["local"], bind
        if self.kind == "npb" or base == "stream":
            return self.args, bind
        return None

    def as_json(self):
        return {"id": self.id, "program": self.program, "args": self.args, "kind": self.kind}


def expand(specs, classes, bindir):
    """Benchmarks for the command line's specs. A spec is NAME[:ARGS]: a program in <build>/bin or a path,
    with its arguments as one shell-quoted string ("npb-cg:A", "stream:-n 1000000 -t 5"). Shorthands:
    "npb" is every NPB kernel built (ep is cg mg ft) at each class of `classes`; "npb-<k>" without
    ARGS runs at each of those classes; "streams" is the three STREAM variants with their defaults."""
    out = []
    for spec in specs:
        name, sep, rest = spec.partition(":")
        args = shlex.split(rest) if sep else []
        if name == "npb" and not sep:
            kernels = [k for k in NPB_KERNELS if os.access(os.path.join(bindir, "npb-" + k), os.X_OK)]
            if not kernels:
                raise ValueError("no NPB kernel built in %s (expected npb-<kernel>)" % bindir)
            out += [Benchmark("npb-" + k, [c]) for k in kernels for c in classes]
        elif name.startswith("npb-") and not sep:
            out += [Benchmark(name, [c]) for c in classes]
        elif name == "streams" and not sep:
            out += [Benchmark(s, []) for s in STREAMS]
        elif name:
            out.append(Benchmark(name, args))
        else:
            raise ValueError("empty benchmark name in %r" % spec)
    ids = [b.id for b in out]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        raise ValueError("benchmark given twice: %s" % ", ".join(dup))
    return out


def _json_record(stdout):
    """The last stdout line that is a JSON object, or None."""
    for line in reversed(stdout.splitlines()):
        line = line.strip()
        if line.startswith("{"):
            try:
                return json.loads(line)
            except ValueError:
                return None
    return None


def checksum(stdout):
    """The last "Checksum = X" a program printed about its output (benchmarks/apps), or None."""
    found = _CHECKSUM.findall(stdout)
    return found[-1] if found else None


def read_run(bench, returncode, stdout):
    """(verified, reason, metrics) of one finished run. A run is verified only when it exited with 0,
    printed "Verification = SUCCESSFUL", and printed every metric it must."""
    metrics = {}
    v = _VERIFY.findall(stdout)
    t = _TIME.findall(stdout)
    if t:
        metrics["time_s"] = float(t[-1])
    if bench.kind in JSON_PROGRAMS:
        rec = _json_record(stdout)
        if rec is None:
            return False, "no JSON record on stdout", metrics
        if bench.kind == "overhead-epcc":
            for construct, row in rec.get("constructs", {}).items():
                metrics[construct + "_ns"] = float(row["overhead_ns"])
        else:
            for kernel, row in rec.get("kernels", {}).items():
                metrics[kernel + "_MBps"] = float(row["best_MBps"])
    if returncode != 0:
        what = "killed by signal %d" % -returncode if returncode < 0 else "exit status %d" % returncode
        return False, what + (", Verification = " + v[-1] if v else ""), metrics
    if not v:
        return False, "no 'Verification =' line", metrics
    bad = [x for x in v if x != "SUCCESSFUL"]
    if bad:
        return False, "Verification = " + bad[0], metrics
    if "time_s" not in metrics:
        return False, "no 'Time in seconds =' line", metrics
    return True, "", metrics
