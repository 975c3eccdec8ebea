#!/usr/bin/env python3
"""report.py: `ompnuma report F.json`: render an ompnuma exit report as tables, optionally validating it."""
import argparse
import io
import json
import os
import stat
import sys

from ompnuma.numavm import numavm_emu  # the emulator's counts reader

SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "report_schema.json")
# Bounds on what is read: the same size limit as the C tools' reader
# (RT_READ_FILE_MAX), a nesting depth far above the schema's (a report is 5
# levels deep) and integers as wide as the report's 64-bit fields.
MAX_BYTES = 128 << 20
NAME_COLUMN_MAX = 72  # as the runtime's stderr table (runtime/rt_report.c)
MAX_DEPTH = 64
MAX_INT = 1 << 64


class BadFile(Exception):
    """The file is not a JSON document this tool can read: exit status 2."""


def _reject_constant(name):
    raise BadFile("{} is not a JSON number".format(name))


def _float(text):
    x = float(text)
    if x != x or x in (float("inf"), float("-inf")):
        raise BadFile("number {} is out of range".format(text[:40]))
    return x


def _int(text):
    # 20 digits hold 2^64; longer texts are refused before Python converts them.
    x = int(text) if len(text.lstrip("-")) <= 20 else MAX_INT
    if abs(x) >= MAX_INT:
        raise BadFile("integer {}{} is out of range".format(text[:40], "..." if len(text) > 40 else ""))
    return x


def _depth(doc):
    """Nesting depth of a parsed document, without recursion."""
    deepest, stack = 0, [(doc, 1)]
    while stack:
        node, d = stack.pop()
        deepest = max(deepest, d)
        if d > MAX_DEPTH:
            break
        children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
        stack.extend((c, d + 1) for c in children if isinstance(c, (dict, list)))
    return deepest


def load(path):
    """The report as Python objects, or BadFile with one line saying why."""
    try:
        st = os.stat(path)
        if stat.S_ISDIR(st.st_mode):
            raise BadFile("a directory, not a report")
        if not stat.S_ISREG(st.st_mode):
            raise BadFile("not a regular file (a device, FIFO or socket)")
        if st.st_size > MAX_BYTES:
            raise BadFile("larger than 128 MiB")
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as e:
        raise BadFile(e.strerror or str(e))
    if len(data) > MAX_BYTES:
        raise BadFile("larger than 128 MiB")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise BadFile("not UTF-8 text (byte {})".format(e.start))
    try:
        doc = json.loads(text, parse_constant=_reject_constant, parse_float=_float, parse_int=_int)
    except RecursionError:
        raise BadFile("nested deeper than {} levels".format(MAX_DEPTH))
    except ValueError as e:  # JSONDecodeError, and integers beyond Python's digit limit
        raise BadFile("not JSON: {}".format(str(e).splitlines()[0] if str(e) else type(e).__name__))
    if _depth(doc) > MAX_DEPTH:
        raise BadFile("nested deeper than {} levels".format(MAX_DEPTH))
    return doc


def validate(report):
    """Return a list of schema violations (empty when valid), one line each, or
    None when jsonschema is not installed."""
    try:
        import jsonschema
    except ImportError:
        return None
    with open(SCHEMA) as f:
        schema = json.load(f)
    validator = jsonschema.Draft202012Validator(schema)
    return [one_line("{}: {}".format("/".join(str(p) for p in e.absolute_path) or "(root)", e.message))
            for e in validator.iter_errors(report)] + shape_errors(report)


def shape_errors(report):
    """What the schema cannot say: each region's per-thread arrays have a row
    per team thread, and each table row a column per node. One line each."""
    errors = []
    try:
        nodes = report["topology"]["nodes"]
        regions = report["regions"]
    except (KeyError, TypeError):
        return errors  # the schema's own errors say so
    for i, g in enumerate(regions if isinstance(regions, list) else []):
        if not isinstance(g, dict) or not isinstance(g.get("team_size"), int):
            continue
        team = g["team_size"]
        for key in ("tnt", "tnt_after", "tnt_samples", "mapping", "cpus", "seen_cpus"):
            rows = g.get(key)
            if not isinstance(rows, list) or (key == "tnt_after" and not rows):
                continue
            if len(rows) != team:
                errors.append("regions/{}/{}: {} rows for a team of {}".format(i, key, len(rows), team))
            elif key in ("tnt", "tnt_after"):
                for t, row in enumerate(rows):
                    if isinstance(row, list) and len(row) != nodes:
                        errors.append("regions/{}/{}/{}: {} columns for {} nodes".format(i, key, t, len(row), nodes))
                        break
    return errors


def printable(doc):
    """doc with every string's control characters escaped (\\n, \\t, \\xNN): a
    program's or a symbol's name in a report cannot move the terminal's
    cursor or forge a line of the rendering."""
    if isinstance(doc, str):
        return "".join(c if c.isprintable() else
                       "\\n" if c == "\n" else "\\t" if c == "\t" else "\\x{:02x}".format(ord(c)) if ord(c) < 256
                       else "\\u{:04x}".format(ord(c)) for c in doc)
    if isinstance(doc, dict):
        return {printable(k): printable(v) for k, v in doc.items()}
    if isinstance(doc, list):
        return [printable(v) for v in doc]
    return doc


def one_line(text, width=200):
    """text on one line of at most width characters: messages quote the file's values."""
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[:width - 3] + "..."


def us(ns):
    return "{:.1f}".format(ns / 1e3) if ns else "-"


def render(r, out, show_tnt):
    topo = r["topology"]
    src = r["source"]
    out.write("program   {}\n".format(r["program"]))
    out.write("policy    {}   ({})\n".format(r["policy"], r["settings"]["OMP_PLACEMENT"]))
    out.write("topology  {}: {} nodes, {} cpus, NUMA factor {:.2f}{}\n".format(
        topo["origin"], topo["nodes"], topo["cpus"], topo["numa_factor"],
        "" if topo["distances_known"] else " (distances assumed)"))
    out.write("pins      {}\n".format(r["pinning"]["mode"]))
    if r["pinning"]["binding_note"]:
        out.write("binding   {}\n".format(r["pinning"]["binding_note"]))
    out.write("source    {}\n".format(src["used"] or "none"))
    for name, why in sorted(src["unavailable"].items()):
        out.write("          {:10s} unavailable: {}\n".format(name, why))
    out.write("\n")
    # The region column is as wide as the longest name, up to NAME_COLUMN_MAX: only a longer name is cut.
    names = [("loop " if g.get("construct") else "") + g["symbol"] for g in r["regions"]]
    width = min(max([6] + [len(n) for n in names]), NAME_COLUMN_MAX)
    head = "{:>3} {:>6} {:<" + str(width) + "} {:>4} {:>8} {:>12} {:>11} {:>11} {:<11} {}\n"
    out.write(head.format("id", "parent", "region", "team", "execs", "crit_path_us", "before_us",
                          "after_us", "outcome", "cpus"))
    for g, name in zip(r["regions"], names):
        cp = g["critical_path_ns"]
        if len(name) > width:
            name = name[:width - 3] + "..."
        # A nested team: its parent and the parent's thread that forks it.
        parent = g["parent"] if g.get("parent_thread", -1) < 0 else "{}.{}".format(g["parent"], g["parent_thread"])
        out.write(head.format(g["id"], parent, name, g["team_size"], g["executions"],
                              us(cp["mean"]), us(cp["before"]), us(cp["after"]), g["outcome"],
                              ",".join(str(c) for c in g["cpus"])))
        if g.get("why"):
            out.write("{:>3} {:>6} why: {}\n".format("", "", g["why"]))
        ev = (g.get("decision") or {}).get("evidence")  # older reports have none
        if ev and ev["references"]:
            out.write("{:>3} {:>6} evidence: {} references (fewest for a thread {}), {} threads moved, "
                      "predicted {:.0f} % faster, {:.0f} % at worst\n".format(
                          "", "", ev["references"], ev["least"], ev["moved"], 100 * ev["gain"], 100 * ev["worst"]))
        if g.get("data"):  # older reports have none
            render_data(g["data"], out)
    if r.get("regions_not_measured"):
        n = r["regions_not_measured"]
        out.write("{} more region{} not measured: the table holds 4096\n".format(n, "" if n == 1 else "s"))
    if r.get("monitor"):
        render_monitor(r["monitor"], out)
    if show_tnt:
        for g in r["regions"]:
            if not any(any(row) for row in g["tnt"]):
                continue
            out.write("\nregion {} ({}) TNT, references per node:\n".format(g["id"], g["symbol"]))
            for t, row in enumerate(g["tnt"]):
                node = g["mapping"][t] if g["mapping"] else "-"
                out.write("  thread {:>3} -> node {:>2}: {}\n".format(t, node, " ".join("{:>10}".format(v) for v in row)))
            if any(any(row) for row in g.get("tnt_after", [])):
                out.write("  after the move:\n")
                for t, row in enumerate(g["tnt_after"]):
                    out.write("  thread {:>3}              {}\n".format(t, " ".join("{:>10}".format(v) for v in row)))
            d = g["decision"]
            if d:
                out.write("  decided by {} in {:.1f} us; predicted {:.4g} -> {:.4g}\n".format(
                    d["policy"], d["decision_us"], d["predicted_before"], d["predicted_after"]))


def mib(b):
    return "{:.1f} MiB".format(b / 1048576.0)


def render_data(d, out):
    """A region's data: the move made (or why the data stays), each range moved (pages, bytes, ms,
    predicted and measured), its verification, and the memory behind its remote references."""
    pad = "{:>3} {:>6} ".format("", "")
    p = d["plan"]
    if d["state"] in ("declined", "failed"):
        out.write("{}data: stays: {}\n".format(pad, d["why"]))
    else:
        out.write("{}data{}: {}: {} ranges, {} pages moved in {:.1f} ms (predicted {:.0f} pages, {:.1f} ms; "
                  "{:.0f} % faster, {:.0f} % at worst over {:.0f} executions)\n".format(
                      pad, " (with the threads)" if p.get("with_threads") else "", d["state"], p["ranges"],
                      d["pages"], d["ms"], p["pages"], p["cost_ms"], 100 * p["gain"], 100 * p["worst"],
                      p["executions"]))
    v = d["verified"]
    if v:
        out.write("{}  critical path {} us before, {} us after{}\n".format(
            pad, us(v["before_ns"]), us(v["after_ns"]),
            "; {} pages back in {:.1f} ms".format(d["back"], d["undo_ms"]) if d["state"] == "undone" else ""))
    for m in d["moves"]:
        out.write("{}  {} {} ({}) to node{} {}: {} pages in {:.1f} ms (predicted {:.0f}, {:.1f} ms){}{}\n".format(
            pad, m["kind"], m["address"], mib(m["bytes"]), "" if m["kind"] == "migrate" else "s",
            ",".join(str(n) for n in m["nodes"]), m["pages"], m["ms"], m["predicted_pages"], m["predicted_ms"],
            "; {} back in {:.1f} ms".format(m["back"], m["undo_ms"]) if d["state"] == "undone" else "",
            ": " + m["error"] if m["error"] else ""))
    for i, m in enumerate(d["memory"]):
        out.write("{}{} {} {} at {} (mostly node {}): {:.0f} % of {} remote references\n".format(
            pad, "remote references in:" if i == 0 else " " * 22, m["name"], mib(m["bytes"]), m["address"],
            m["node"], 100 * m["share"], d["remote"]))
        t = m["first_touch"]
        if t:
            out.write("{}{}first touched by {} in {}{}: {} of {} sampled pages\n".format(
                pad, " " * 23, "{} threads".format(t["threads"]) if t["threads"] > 1
                else "the initial thread" if t["initial_thread"] else "a thread it created", t["at"],
                " ({})".format(t["line"]) if t["line"] else "", t["pages"], t["sampled"]))


# --------------------------------------------------------------- MPI reports
# OMP_PLACEMENT_MPI=...,report=F writes {"mpi": {...}} (runtime/control/rt_mpimap.c).

MPI_KEYS = ("settings", "host", "world_size", "topology", "nodes", "capacity", "dry_run", "local_ranks",
            "decisions", "remaps", "final_interval_ms", "timeline", "ranks", "matrix_bytes", "matrix_msgs")
SHADES = " .:-=+*#%@"


def validate_mpi(m):
    """Structural checks of an MPI report: keys, and sizes that must agree."""
    errors = ["mpi/{}: missing".format(k) for k in MPI_KEYS if k not in m]
    if errors:
        return errors
    n, w = len(m["local_ranks"]), m["world_size"]
    for k in ("matrix_bytes", "matrix_msgs"):
        if len(m[k]) != n or any(len(row) != w for row in m[k]):
            errors.append("mpi/{}: not {} rows of {} columns".format(k, n, w))
    for i, e in enumerate(m["timeline"]):
        if len(e.get("nodes", [])) != n or any(not 0 <= d < m["nodes"] for d in e.get("nodes", [])):
            errors.append("mpi/timeline/{}: nodes not {} entries in 0..{}".format(i, n, m["nodes"] - 1))
    if len(m["ranks"]) != n:
        errors.append("mpi/ranks: {} entries for {} local ranks".format(len(m["ranks"]), n))
    return errors


def heatmap(rows, cols, matrix, out):
    """One character per cell, darker for more bytes (linear in the largest cell)."""
    top = max((v for row in matrix for v in row), default=0)
    out.write("      " + "".join(str(c % 10) for c in cols) + "\n")
    for r, row in zip(rows, matrix):
        cells = "".join(SHADES[min(len(SHADES) - 1, (v * (len(SHADES) - 1) + top - 1) // top)] if top else " "
                        for v in row)
        out.write("{:>5} {}\n".format(r, cells))
    out.write("      (one column per world rank, '{}' = 0 .. '{}' = {} bytes)\n".format(SHADES[0], SHADES[-1], top))


def render_mpi(m, out):
    out.write("mpi       ondeloc ({})\n".format(m["settings"]))
    out.write("host      {}: {} of the job's {} ranks (the job spans {} host(s))\n".format(
        m["host"], len(m["local_ranks"]), m["world_size"], m.get("hosts", 1)))
    width = m.get("rank_width", 1)  # older reports have none
    out.write("topology  {}: {} nodes, cores {}{}{}\n".format(
        m["topology"], m["nodes"], ",".join(str(c) for c in m["capacity"]),
        "; ranks bound to {} CPUs each keep as many".format(width) if width > 1 else "",
        ", dry run" if m["dry_run"] else ""))
    held = m.get("held_below_min_gain")
    over = m.get("held_over_budget")  # older reports have none of these four
    probes = m.get("decisions_at_probes")
    thin = m.get("held_thin_window")
    out.write("mapping   {} decisions{}, {} remaps{}{}, final interval {:g} ms\n\n".format(
        m["decisions"], "" if probes is None else " ({} at probes)".format(probes), m["remaps"],
        "" if held is None else ", {} kept below min_gain{}".format(
            held, " ({} of them on a window of thin traffic)".format(thin) if thin else ""),
        "" if over is None else ", {} kept over the move budget".format(over), m["final_interval_ms"]))
    out.write("{:>10} {:>11} {:>9} {:>12} {:>6}  {}\n".format("t_ms", "interval_ms", "next_ms", "bytes", "moved",
                                                          "node per local rank"))
    for e in m["timeline"]:
        out.write("{:>10.1f} {:>11g} {:>9g} {:>12} {:>6}  {}\n".format(
            e["t_ms"], e["interval_ms"], e["next_interval_ms"], e["bytes"], e["moved"],
            " ".join(str(d) for d in e["nodes"])))
    out.write("\n{:>5} {:>8} {:>5} {:>8} {:>8} {:>12} {:>8} {:>10} {:>10} {:>6} {:>9} {:>5}\n".format(
        "rank", "pid", "node", "applied", "threads", "bytes", "msgs", "mpi_bytes", "own_bytes", "moves", "move_ms",
        "start"))
    for r in m["ranks"]:
        # Reports written before memory moves were timed have neither field.
        moves = r.get("migrations")
        # The node the rank was bound to at start (-1 unknown); older reports: "-".
        start = r.get("start_node")
        out.write("{:>5} {:>8} {:>5} {:>8} {:>8} {:>12} {:>8} {:>10} {:>10} {:>6} {:>9} {:>5}\n".format(
            r["rank"], r["pid"], r["node"], r["applied_node"], r["threads"], r["bytes"], r["msgs"],
            r["mpi_internal_bytes"], r["ompnuma_bytes"], "-" if moves is None else moves,
            "-" if moves is None else "{:.1f}".format(r.get("migrate_ms", 0)), "-" if start is None else start))
    out.write("\nbytes sent (rows: this host's ranks):\n")
    heatmap(m["local_ranks"], range(m["world_size"]), m["matrix_bytes"], out)


def num(v, fmt="{:.4g}"):
    return "-" if v is None else fmt.format(v)


def render_monitor(m, out):
    """The IMAR2 monitor: its counts and its timeline, one row per decision."""
    out.write("\nmonitor   {} ({}): {} steps, {} migrations, {} rollbacks, {} refused, {} moved by others, "
              "{} idle periods{}\n".format(m["algorithm"], m["state"], m["steps"], m["migrations"], m["rollbacks"],
                                          m["refused"], m["foreign_moves"], m["idle"],
                                          ", {} held by the locality gate".format(m["gated"]) if m.get("gated") else ""))
    out.write("          period {:g}..{:g} ms (last {:g} ms), ratio {:g}{}, seed {}, team of {}{}\n".format(
        m["period_ms"], m["period_max_ms"], m["period_now_ms"], m["ratio"],
        ", remote_min {:g}".format(m["remote_min"]) if "remote_min" in m else "", m["seed"], m["team_size"],
        ", {} oldest entries dropped".format(m["dropped"]) if m["dropped"] else ""))
    out.write("          performance counts {}; the helper used {:.1f} ms of CPU in {:.1f} ms\n".format(
        {"work": "work per CPU second", "none": "no work (rate 1)"}.get(m["work_unit"], m["work_unit"]),
        m["cpu_ms"], m["wall_ms"]))
    if m["why"]:
        out.write("          {}\n".format(m["why"]))
    if not m["timeline"]:
        return
    head = "{:>5} {:>9} {:<8} {:>6} {:>11} {:>11} {:>7} {:>7} {:>10} {:>10} {:>10} {:>9} {:>3}  {}\n"
    out.write(head.format("step", "t_ms", "action", "thread", "from", "to", "partner", "tickets", "P_before",
                          "P_after", "total", "period_ms", "tnt", "outcome"))
    last = len(m["timeline"]) - 1
    for i, e in enumerate(m["timeline"]):
        if not e["applied"]:
            outcome = "refused: {}".format(e["error"] or "?")
        elif e["action"] == "rollback":
            outcome = "undoes the previous move"
        elif e["rolled_back"]:
            outcome = "rolled back"
        elif e["perf_after"] is None and i == last:
            outcome = "not judged yet"
        else:
            outcome = "kept"
        tickets = "{}/{}".format(e["tickets"], e["total_tickets"]) if e["action"] == "migrate" else "-"
        out.write(head.format(e["step"], "{:.1f}".format(e["t_ms"]), e["action"], e["thread"],
                              "{} (n{})".format(e["from_cpu"], e["from_node"]),
                              "{} (n{})".format(e["to_cpu"], e["to_node"]),
                              "-" if e["partner"] is None else e["partner"], tickets, num(e["perf_before"]),
                              num(e["perf_after"]), num(e["total"]), "{:g}".format(e["period_ms"]),
                              "yes" if e.get("tnt") else "no", outcome))


def shares(row):
    total = sum(row)
    return [v / total for v in row] if total else None


def truth_rows(g, counts):
    """Region g's sampled TNT rows beside the emulator's ground truth for the same executions: the
    misses counted under the region's tag (id + 1: its sampled executions, not the sample after a
    move) on the vCPU each thread ran on while sampled. None when the counts have no such tag, else
    (the tag's counts, [(thread, cpu, sampled shares or None, true shares or None)])."""
    tag = numavm_emu.tag_of(counts, g["id"] + 1)
    if tag is None:
        return None
    rows = []
    for t, row in enumerate(g["tnt"]):
        cpu = g.get("seen_cpus", [-1] * len(g["tnt"]))[t]
        true = shares(tag["misses"][cpu]) if 0 <= cpu < len(tag["misses"]) else None
        rows.append((t, cpu, shares(row), true))
    return tag, rows


# A thread's sampled shares are set beside the truth from this many references on: a share from n
# references is off by up to 1/sqrt(n) at two standard errors (16: 25 points). The first-touch
# region's sample is drawn among the pages resident at its fork, often one (malloc's header page,
# touched by the primary): one reference that says node 0 for a thread whose misses are 99.9 % on
# node 1 is the sample's size, not the sampler's error.
TRUTH_MIN_REFS = 16


def render_truth(r, counts, out):
    """Each sampled region's TNT beside the emulator's ground truth (truth_rows), as shares per node;
    threads with fewer than TRUTH_MIN_REFS references are listed, not compared."""
    out.write("\nsampled TNT against the emulator's ground truth (share of references per node, in %):\n")
    worst = None
    for g in r["regions"]:
        if not any(any(row) for row in g["tnt"]):
            continue
        truth = truth_rows(g, counts)
        if truth is None:
            out.write("region {}: no ground truth (no tag {}: emu_tag=on, outermost regions only)\n".format(
                g["id"], g["id"] + 1))
            continue
        out.write("region {} ({}), {} tagged executions:\n".format(g["id"], g["symbol"], truth[0]["entered"]))
        for t, cpu, sampled, true in truth[1]:
            if sampled is None or true is None:
                out.write("  thread {:>3} cpu {:>3}: {}\n".format(t, cpu, "no samples" if sampled is None
                                                                   else "no ground truth on that cpu"))
                continue
            refs = sum(g["tnt"][t])
            if refs < TRUTH_MIN_REFS:
                out.write("  thread {:>3} cpu {:>3}: {} reference{}: too few to compare\n".format(
                    t, cpu, refs, "" if refs == 1 else "s"))
                continue
            err = 100 * max(abs(a - b) for a, b in zip(sampled, true))
            worst = err if worst is None else max(worst, err)
            out.write("  thread {:>3} cpu {:>3}: sampled {}  truth {}  error {:.1f} points\n".format(
                t, cpu, " ".join("{:5.1f}".format(100 * v) for v in sampled),
                " ".join("{:5.1f}".format(100 * v) for v in true), err))
    if worst is not None:
        out.write("largest error {:.1f} points\n".format(worst))


def main(argv):
    ap = argparse.ArgumentParser(
        prog="ompnuma report", description=__doc__.split(": ", 1)[1],
        epilog="Exit status: 0 rendered (or valid), 1 --validate found the report invalid against "
               "the schema (one line per violation), 2 bad usage or a file that is not a readable "
               "JSON document or not an ompnuma report, or --validate without jsonschema (one line).")
    ap.add_argument("report", help="the JSON file OMP_PLACEMENT_REPORT wrote")
    ap.add_argument("--validate", action="store_true", help="check it against the schema; exit 1 if invalid")
    ap.add_argument("--tnt", action="store_true", help="also print each region's thread-node table")
    ap.add_argument("--truth", metavar="COUNTS",
                    help="the emulated-NUMA plugin's counts of the same run (ompnuma vm --counts, with "
                         "OMP_PLACEMENT emu_tag=on): each sampled thread's share of references per node "
                         "beside the ground truth's share of misses, and the error in points")
    args = ap.parse_args(argv)

    def bad(why):
        print(one_line("ompnuma report: {}: {}".format(args.report, why), 400), file=sys.stderr)
        return 2

    try:
        report = load(args.report)
    except BadFile as e:
        return bad(e)
    if isinstance(report, dict) and "mpi" in report:
        errors = validate_mpi(report["mpi"]) if isinstance(report["mpi"], dict) else ["mpi: not an object"]
        for e in errors:
            print("ompnuma report: invalid: {}".format(e), file=sys.stderr)
        if errors:
            return 1 if args.validate else 2
        if args.validate:
            print("valid ompnuma MPI report")
        else:
            render_mpi(report["mpi"], sys.stdout)
        return 0
    try:
        errors = validate(report)
    except RecursionError:
        return bad("nested too deeply to validate")
    if args.validate:
        if errors is None:
            return bad("cannot validate: jsonschema is not installed (pip install jsonschema)")
        for e in errors:
            print("ompnuma report: invalid: {}".format(e), file=sys.stderr)
        if errors:
            return 1
        print("valid ompnuma-report/1")
        return 0
    # Rendering reads the fields the schema promises: a report that breaks it
    # is refused whole, before any output, rather than half printed.
    if errors is None:  # no jsonschema here: the shapes, and the renderer's own checks below
        errors = shape_errors(report)
    if errors:
        return bad("not an ompnuma report ({}{}); --validate lists every problem".format(
            errors[0], " and {} more".format(len(errors) - 1) if len(errors) > 1 else ""))
    truth = None
    if args.truth:
        try:
            truth = load(args.truth)
        except BadFile as e:
            print(one_line("ompnuma report: {}: {}".format(args.truth, e), 400), file=sys.stderr)
            return 2
        if not numavm_emu.is_counts(truth):
            print(one_line("ompnuma report: {}: not the emulator's counts (ompnuma-emu-counts/1)".format(
                args.truth), 400), file=sys.stderr)
            return 2
    report = printable(report)
    try:
        out = io.StringIO()
        render(report, out, args.tnt)
        if truth is not None:
            render_truth(report, truth, out)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError) as e:
        return bad(one_line("not an ompnuma report ({}: {}); try --validate".format(type(e).__name__, e)))
    sys.stdout.write(out.getvalue())
    return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
