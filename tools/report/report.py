#!/usr/bin/env python3
"""report.py: `ompnuma report F.json`: render an ompnuma exit report as tables, optionally validating it."""
import argparse
import json
import os
import sys

SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "report_schema.json")


def validate(report):
    """Return a list of schema violations (empty when valid)."""
    try:
        import jsonschema
    except ImportError:
        return ["jsonschema is not installed: cannot validate (pip install jsonschema)"]
    with open(SCHEMA) as f:
        schema = json.load(f)
    validator = jsonschema.Draft202012Validator(schema)
    return ["{}: {}".format("/".join(str(p) for p in e.absolute_path) or "(root)", e.message)
            for e in validator.iter_errors(report)]


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
    head = "{:>3} {:>6} {:<28} {:>4} {:>8} {:>12} {:>11} {:>11} {:<11} {}\n"
    out.write(head.format("id", "parent", "region", "team", "execs", "crit_path_us", "before_us",
                          "after_us", "outcome", "cpus"))
    for g in r["regions"]:
        cp = g["critical_path_ns"]
        out.write(head.format(g["id"], g["parent"], g["symbol"][:28], g["team_size"], g["executions"],
                              us(cp["mean"]), us(cp["before"]), us(cp["after"]), g["outcome"],
                              ",".join(str(c) for c in g["cpus"])))
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


def num(v, fmt="{:.4g}"):
    return "-" if v is None else fmt.format(v)


def render_monitor(m, out):
    """The IMAR2 monitor: its counts and its timeline, one row per decision."""
    out.write("\nmonitor   {} ({}): {} steps, {} migrations, {} rollbacks, {} refused, {} moved by others, "
              "{} idle periods\n".format(m["algorithm"], m["state"], m["steps"], m["migrations"], m["rollbacks"],
                                        m["refused"], m["foreign_moves"], m["idle"]))
    out.write("          period {:g}..{:g} ms (last {:g} ms), ratio {:g}, seed {}, team of {}{}\n".format(
        m["period_ms"], m["period_max_ms"], m["period_now_ms"], m["ratio"], m["seed"], m["team_size"],
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


def main(argv):
    ap = argparse.ArgumentParser(prog="ompnuma report", description=__doc__.split(": ", 1)[1])
    ap.add_argument("report", help="the JSON file OMP_PLACEMENT_REPORT wrote")
    ap.add_argument("--validate", action="store_true", help="check it against the schema; exit 1 if invalid")
    ap.add_argument("--tnt", action="store_true", help="also print each region's thread-node table")
    args = ap.parse_args(argv)
    try:
        with open(args.report) as f:
            report = json.load(f)
    except (OSError, ValueError) as e:
        print("ompnuma report: {}: {}".format(args.report, e), file=sys.stderr)
        return 2
    if args.validate:
        errors = validate(report)
        for e in errors:
            print("ompnuma report: invalid: {}".format(e), file=sys.stderr)
        if errors:
            return 1
        print("valid ompnuma-report/1")
        return 0
    try:
        render(report, sys.stdout, args.tnt)
    except (KeyError, TypeError) as e:
        print("ompnuma report: {}: not an ompnuma report ({}); try --validate".format(args.report, e),
              file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
