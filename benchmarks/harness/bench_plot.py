"""bench_plot.py: one PNG per benchmark from the harness's JSON (medians with min-max whiskers, ratios to the baseline), and summary.png with every benchmark's ratios side by side.

Run on its own as `python3 bench_plot.py RESULTS.json OUTDIR` by the harness when the interpreter it runs
under lacks matplotlib (Debian's python3-matplotlib is installed for /usr/bin/python3)."""
import json
import os
import sys


def _quartiles(values):
    """(first, third) quartile of a sorted non-empty list, by linear interpolation."""
    def at(f):
        x = f * (len(values) - 1)
        i = int(x)
        return values[i] if i + 1 >= len(values) else values[i] + (x - i) * (values[i + 1] - values[i])
    return at(0.25), at(0.75)


def plot_all(doc, outdir):
    """Writes <outdir>/<benchmark id>.png for every benchmark with results; returns {id: path}."""
    import matplotlib
    matplotlib.use("Agg")  # no display on build machines
    import matplotlib.pyplot as plt

    baseline = doc["baseline"]
    written = {}
    for b in doc["benchmarks"]:
        metrics = [(m, row) for m, row in b["metrics"].items() if row["median"]]
        if not metrics:
            continue
        ncols = min(3, len(metrics))
        nrows = (len(metrics) + ncols - 1) // ncols
        fig, axes = plt.subplots(nrows, ncols, figsize=(4.2 * ncols, 3.4 * nrows), squeeze=False)
        for ax, (m, row) in zip(axes.flat, metrics):
            cfgs = list(row["median"])
            # Every verified run as a dot, the median as the bar, the quartiles as the whisker: on a busy
            # machine a few slow runs would otherwise flatten the picture.
            values = {c: sorted(r["metrics"][m] for r in doc["runs"] if r["benchmark"] == b["id"] and
                                r["config"] == c and r["verified"] and not r["warmup"] and m in r["metrics"])
                      for c in cfgs}
            med = [row["median"][c] for c in cfgs]
            q = [_quartiles(values[c]) for c in cfgs]
            err = [[med[i] - q[i][0] for i in range(len(cfgs))], [q[i][1] - med[i] for i in range(len(cfgs))]]
            colors = ["#777777" if c == baseline else "#2b7bba" for c in cfgs]
            ax.bar(range(len(cfgs)), med, yerr=err, capsize=3, color=colors)
            # The axis spans the quartiles with room for the labels; runs beyond it show as triangles on the edge.
            top = max(0.0, max(x[1] for x in q)) * 1.3 or 1.0
            bottom = min(0.0, min(x[0] for x in q)) * 1.3
            for i, c in enumerate(cfgs):
                inside = [v for v in values[c] if bottom <= v <= top]
                ax.plot([i] * len(inside), inside, "o", color="black", markersize=2.5, alpha=0.6)
                if len(inside) < len(values[c]):
                    ax.plot([i], [top], "^", color="#c0392b", markersize=5, clip_on=False)
                r = row["ratio"].get(c)
                if r is not None and c != baseline:
                    ax.annotate("%.3f" % r, (i, q[i][1]), ha="center", va="bottom", fontsize=8,
                                xytext=(0, 3), textcoords="offset points")
            ax.set_ylim(bottom, top)
            ax.set_xticks(range(len(cfgs)))
            ax.set_xticklabels(cfgs, rotation=35, ha="right", fontsize=8)
            ax.set_title("%s [%s], %s is better" % (m, row["unit"], row["better"]), fontsize=9)
        for ax in list(axes.flat)[len(metrics):]:
            ax.axis("off")
        title = ("%s: median of verified runs (bars), quartiles (whiskers), each run (dots; triangles: off "
                 "the scale), ratio of medians to %s" % (b["id"], baseline))
        if doc.get("vm"):
            title += "\nVM %s: timings are emulation" % doc["vm"]["layout"]
        fig.suptitle(title, fontsize=10)
        fig.tight_layout()
        path = os.path.join(outdir, b["id"] + ".png")
        fig.savefig(path, dpi=90)
        plt.close(fig)
        written[b["id"]] = path
    summary = plot_summary(doc, outdir, plt)
    if summary:
        written[SUMMARY] = summary
    return written


# The key of the summary plot among the benchmark ids plot_all returns (ids never hold parentheses).
SUMMARY = "(summary)"


def plot_summary(doc, outdir, plt, metric="time_s", share="remote_share_pct"):
    """summary.png: per benchmark, each configuration's ratio of medians of `metric` to the baseline as a
    bar, with its median ground-truth remote share written on it when the runs had emulated NUMA; the
    baseline's share goes under the benchmark's name. None when fewer than two configurations ran."""
    baseline = doc["baseline"]
    cfgs = [c["name"] for c in doc["configs"] if c["name"] != baseline]
    rows = [b for b in doc["benchmarks"] if b["metrics"].get(metric, {}).get("ratio")]
    if not cfgs or not rows:
        return None
    fig, ax = plt.subplots(figsize=(max(6.0, 1.3 * len(rows) * len(cfgs) ** 0.5 + 2), 4.2))
    width = 0.8 / len(cfgs)
    top = 1.0
    for k, c in enumerate(cfgs):
        for i, b in enumerate(rows):
            r = b["metrics"][metric]["ratio"].get(c)
            if r is None:
                continue
            x = i - 0.4 + width * (k + 0.5)
            ax.bar(x, r, width, color="C%d" % k, label=c if i == 0 else None)
            top = max(top, r)
            p = b["metrics"].get(share, {}).get("median", {}).get(c)
            if p is not None:
                ax.annotate("%.0f%%" % p, (x, r), ha="center", va="bottom", fontsize=7, xytext=(0, 2),
                            textcoords="offset points")
    ax.axhline(1.0, color="#777777", linewidth=1)
    labels = []
    for b in rows:
        p = b["metrics"].get(share, {}).get("median", {}).get(baseline)
        labels.append(" ".join([b["program"]] + b["args"]) + ("\n%s %.0f%%" % (baseline, p) if p is not None else ""))
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels(labels, rotation=30, ha="right", fontsize=7)
    ax.set_ylim(0, top * 1.3)
    ax.set_ylabel("%s / %s (median of verified runs)" % (metric, baseline), fontsize=8)
    ax.legend(fontsize=7, loc="upper left", ncol=len(cfgs), framealpha=0.8)
    title = "%s ratio to %s, measured side by side" % (metric, baseline)
    if doc.get("vm"):
        title += "; VM %s" % doc["vm"]["layout"]
        if doc["vm"].get("pace") is not None:
            title += ", paced (%s ns per instruction)\non the bars: ground-truth remote share of misses" % (
                doc["vm"]["pace"] or "default")
        elif doc["vm"].get("emu_remote_ns") is not None:
            title += ", remote miss +%d ns\non the bars: ground-truth remote share of misses" % doc["vm"]["emu_remote_ns"]
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    path = os.path.join(outdir, "summary.png")
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: bench_plot.py RESULTS.json OUTDIR\n")
        return 2
    with open(argv[1]) as f:
        doc = json.load(f)
    for bid, path in plot_all(doc, argv[2]).items():
        print("%s\t%s" % (bid, path))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
