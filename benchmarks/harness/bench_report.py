"""bench_report.py: medians, ratios to the baseline from the same run, the printed tables and the JSON document."""
import statistics

from bench_suites import metric_info


def summarize(bench, config_names, runs, baseline):
    """Per-metric medians (over verified runs only), min/max, counts and ratios median/median(baseline)
    for one benchmark, plus each configuration's verification tally."""
    mine = [r for r in runs if r["benchmark"] == bench.id and not r["warmup"]]
    verification = {}
    for c in config_names:
        rs = [r for r in mine if r["config"] == c]
        verification[c] = {"runs": len(rs), "successful": sum(r["verified"] for r in rs),
                           "failed": [{"round": r["round"], "reason": r["reason"]} for r in rs if not r["verified"]]}
    names = []
    for r in mine:
        for m in r["metrics"]:
            if m not in names:
                names.append(m)
    metrics = {}
    for m in names:
        unit, better = metric_info(m)
        row = {"unit": unit, "better": better, "median": {}, "min": {}, "max": {}, "n": {}, "ratio": {}}
        for c in config_names:
            vals = [r["metrics"][m] for r in mine if r["config"] == c and r["verified"] and m in r["metrics"]]
            if vals:
                row["median"][c] = statistics.median(vals)
                row["min"][c] = min(vals)
                row["max"][c] = max(vals)
                row["n"][c] = len(vals)
        base = row["median"].get(baseline)
        for c, v in row["median"].items():
            row["ratio"][c] = v / base if base else None
        metrics[m] = row
    return {"id": bench.id, "program": bench.program, "args": bench.args, "metrics": metrics,
            "verification": verification}


def _fmt(v):
    if v is None:
        return "-"
    if 100 <= abs(v) < 1e9:
        return "%.1f" % v
    if v == 0 or 0.001 <= abs(v) < 100:
        return "%.4g" % v
    return "%.3e" % v


def print_table(summary, config_names, baseline, skipped, out):
    """The table of one benchmark: a row per metric, per configuration its median and ratio to baseline."""
    cols = [c for c in config_names if c not in skipped]
    out.write("\n== %s\n" % " ".join([summary["program"]] + summary["args"]))
    for c in config_names:
        if c in skipped:
            out.write("   %s: not run (%s)\n" % (c, skipped[c]))
    labels = {m: "%s [%s, %s better]" % (m, row["unit"], row["better"]) for m, row in summary["metrics"].items()}
    width = max([len("metric (median)")] + [len(x) for x in labels.values()])
    head = "%-*s" % (width, "metric (median)")
    for c in cols:
        head += " %12s" % c + ("" if c == baseline else " %7s" % "ratio")
    out.write(head + "\n")
    for m, row in summary["metrics"].items():
        line = "%-*s" % (width, labels[m])
        for c in cols:
            line += " %12s" % _fmt(row["median"].get(c))
            if c != baseline:
                r = row["ratio"].get(c)
                line += " %7s" % ("%.3f" % r if r is not None else "-")
        out.write(line + "\n")
    for c in cols:
        v = summary["verification"][c]
        out.write("   verification %s: %d/%d runs SUCCESSFUL%s\n" % (
            c, v["successful"], v["runs"],
            "".join("; round %d FAILED: %s" % (f["round"], f["reason"]) for f in v["failed"])))


def target_lines(summaries, config, baseline, tolerance, metric="time_s"):
    """Whether `config` stays within `tolerance` of the baseline's median of `metric` on each benchmark
    (no slower for a lower-is-better metric, no lower rate for a higher-is-better one)."""
    lines, met, total = [], 0, 0
    better = metric_info(metric)[1]
    for s in summaries:
        r = s["metrics"].get(metric, {}).get("ratio", {}).get(config)
        if r is None:
            lines.append("   %-28s no ratio (runs missing or failed)" % s["id"])
            continue
        total += 1
        ok = r <= 1.0 + tolerance if better == "lower" else r >= 1.0 - tolerance
        met += ok
        lines.append("   %-28s %s/%s %s = %.3f  %s" % (s["id"], config, baseline, metric, r,
                                                      "within" if ok else "NOT within"))
    head = "target: %s within %.1f%% of %s (median %s, same run): met on %d of %d benchmarks" % (
        config, 100 * tolerance, baseline, metric, met, total)
    return [head] + lines
