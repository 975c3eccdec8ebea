"""bench_report.py: medians, ratios to the baseline from the same run, shares of the oracle's saving, the printed tables and the JSON document."""
import statistics

from ompnuma.harness.bench_suites import metric_info


def _measured(r):
    """A run whose metrics count: verified, and not lagging behind the paced model (its times are the host's)."""
    return r["verified"] and not r.get("lagged")


def summarize(bench, config_names, runs, baseline):
    """Per-metric medians (over verified runs that kept to the paced model, when paced), min/max, counts and
    ratios median/median(baseline) for one benchmark, each configuration's share of the oracle's saving
    when the oracle ran, plus each configuration's verification tally and its lagged rounds."""
    mine = [r for r in runs if r["benchmark"] == bench.id and not r["warmup"]]
    verification = {}
    for c in config_names:
        rs = [r for r in mine if r["config"] == c]
        verification[c] = {"runs": len(rs), "successful": sum(r["verified"] for r in rs),
                           "failed": [{"round": r["round"], "reason": r["reason"]} for r in rs if not r["verified"]],
                           "lagged": [{"round": r["round"], "lag_pct": r["lag_pct"]} for r in rs
                                      if r["verified"] and r.get("lagged")]}
    names = []
    for r in mine:
        for m in r["metrics"]:
            if m not in names:
                names.append(m)
    metrics = {}
    for m in names:
        unit, better = metric_info(m)
        row = {"unit": unit, "better": better, "median": {}, "min": {}, "max": {}, "n": {}, "ratio": {},
               "paired": {}}
        for c in config_names:
            vals = [r["metrics"][m] for r in mine if r["config"] == c and _measured(r) and m in r["metrics"]]
            if vals:
                row["median"][c] = statistics.median(vals)
                row["min"][c] = min(vals)
                row["max"][c] = max(vals)
                row["n"][c] = len(vals)
        base = row["median"].get(baseline)
        for c, v in row["median"].items():
            row["ratio"][c] = v / base if base else None
            row["paired"][c] = _paired(mine, m, c, baseline)
        metrics[m] = row
    return {"id": bench.id, "program": bench.program, "args": bench.args, "metrics": metrics,
            "verification": verification, "oracle_share": oracle_shares(metrics.get("time_s"), baseline)}


# Below this share of the baseline the oracle saves nothing a run can tell from its spread: a share of that
# says nothing (MPI alltoall, paced: the oracle 0.999 x core, ondeloc 0.998, "223 %").
ORACLE_MIN_SAVING = 0.01


def oracle_shares(row, baseline, oracle="oracle"):
    """Each configuration's share of the oracle's saving over the baseline, (base - config) / (base - oracle)
    of the medians of a lower-is-better metric row: 1 takes all the oracle takes, 0 nothing, < 0 loses.
    {} without the oracle's or the baseline's median, or when the oracle saves less than ORACLE_MIN_SAVING
    of the baseline."""
    med = row["median"] if row else {}
    base, best = med.get(baseline), med.get(oracle)
    if base is None or best is None or base - best < ORACLE_MIN_SAVING * base or base - best <= 0:
        return {}
    return {c: (base - v) / (base - best) for c, v in med.items()}


def _paired(runs, metric, config, baseline):
    """Ratios config/baseline of the runs of the same round (they ran back to back, so a slow phase of the
    machine hits both): their median and quartiles say how much the ratio of medians can be trusted."""
    by_round = {}
    for r in runs:
        if _measured(r) and metric in r["metrics"] and r["config"] in (config, baseline):
            by_round.setdefault(r["round"], {})[r["config"]] = r["metrics"][metric]
    ratios = sorted(v[config] / v[baseline] for v in by_round.values()
                    if config in v and baseline in v and v[baseline])
    if not ratios:
        return None
    q1, _, q3 = statistics.quantiles(ratios, n=4, method="inclusive") if len(ratios) > 1 else ratios * 3
    return {"median": statistics.median(ratios), "q1": q1, "q3": q3, "min": ratios[0], "max": ratios[-1],
            "rounds": len(ratios)}


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
        out.write("   verification %s: %d/%d runs SUCCESSFUL%s%s\n" % (
            c, v["successful"], v["runs"],
            "".join("; round %d FAILED: %s" % (f["round"], f["reason"]) for f in v["failed"]),
            "".join("; round %d LAGGED %.1f %% behind the paced model (left out)" % (f["round"], f["lag_pct"])
                    for f in v.get("lagged", []))))


def summary_lines(summaries, config_names, skipped, metric="time_s", share="remote_share_pct"):
    """The invocation side by side, one row per benchmark (Markdown): each configuration's ratio of medians of
    `metric` to the baseline and its median ground-truth remote share (emulated NUMA), "not run" where it did not."""
    lines = ["| benchmark | " + " | ".join(config_names) + " |", "|---" * (len(config_names) + 1) + "|"]
    for s in summaries:
        row, cells = s["metrics"], []
        for c in config_names:
            if c in skipped.get(s["id"], {}):
                cells.append("not run")
                continue
            r = row.get(metric, {}).get("ratio", {}).get(c)
            p = row.get(share, {}).get("median", {}).get(c)
            cells.append(("%.2f" % r if r is not None else "-") + (" (%.1f %%)" % p if p is not None else ""))
        lines.append("| %s | %s |" % (" ".join([s["program"]] + s["args"]), " | ".join(cells)))
    return lines


def oracle_lines(summaries, config_names, baseline, skipped, metric="time_s", share="remote_share_pct"):
    """One row per benchmark and configuration (Markdown): the ratio of medians of `metric` to the baseline,
    the interquartile range of the paired ratios, the median ground-truth remote share and the share of the
    oracle's saving ("-" where the oracle did not run or saved nothing)."""
    lines = ["| benchmark | configuration | ratio | paired IQR | remote share | oracle share |",
             "|---|---|---|---|---|---|"]
    for s in summaries:
        row = s["metrics"].get(metric, {})
        for c in config_names:
            if c == baseline or c in skipped.get(s["id"], {}):
                continue
            r = row.get("ratio", {}).get(c)
            p = row.get("paired", {}).get(c)
            rs = s["metrics"].get(share, {}).get("median", {}).get(c)
            o = s["oracle_share"].get(c)
            lines.append("| %s | %s | %s | %s | %s | %s |" % (
                " ".join([s["program"]] + s["args"]), c, "%.3f" % r if r is not None else "-",
                "%.3f-%.3f" % (p["q1"], p["q3"]) if p else "-", "%.1f %%" % rs if rs is not None else "-",
                "%.0f %%" % (100 * o) if o is not None else "-"))
    return lines


def target_lines(summaries, config, baseline, tolerance, metric="time_s"):
    """Whether `config` stays within `tolerance` of the baseline's median of `metric` on each benchmark
    (no slower for a lower-is-better metric, no lower rate for a higher-is-better one). The paired ratios
    of the rounds are shown beside it; when their interquartile range is wider than the tolerance the
    verdict is marked noisy: the machine's noise, not ompnuma, decides it."""
    lines, met, total, noisy = [], 0, 0, 0
    better = metric_info(metric)[1]
    for s in summaries:
        row = s["metrics"].get(metric, {})
        r = row.get("ratio", {}).get(config)
        if r is None:
            lines.append("   %-28s no ratio (runs missing or failed)" % s["id"])
            continue
        total += 1
        ok = r <= 1.0 + tolerance if better == "lower" else r >= 1.0 - tolerance
        met += ok
        p = row.get("paired", {}).get(config)
        detail, flag = "", ""
        if p:
            detail = "  paired %.3f [IQR %.3f-%.3f, %d rounds]" % (p["median"], p["q1"], p["q3"], p["rounds"])
            if p["q3"] - p["q1"] > tolerance:
                flag, noisy = "  (noisy)", noisy + 1
        lines.append("   %-28s %s/%s %s = %.3f  %s%s%s" % (s["id"], config, baseline, metric, r,
                                                          "within" if ok else "NOT within", detail, flag))
    head = "target: %s within %.1f%% of %s (median %s, same run): met on %d of %d benchmarks" % (
        config, 100 * tolerance, baseline, metric, met, total)
    if noisy:
        head += "; %d verdict%s noisy (paired-ratio IQR wider than the tolerance: repeat more, on a quieter " \
                "machine)" % (noisy, "" if noisy == 1 else "s")
    return [head] + lines
