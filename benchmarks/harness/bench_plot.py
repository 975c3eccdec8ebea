"""bench_plot.py: one PNG per benchmark from the harness's JSON (medians with min-max whiskers, ratios to the baseline).

Run on its own as `python3 bench_plot.py RESULTS.json OUTDIR` by the harness when the interpreter it runs
under lacks matplotlib (Debian's python3-matplotlib is installed for /usr/bin/python3)."""
import json
import os
import sys


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
            med = [row["median"][c] for c in cfgs]
            err = [[med[i] - row["min"][c] for i, c in enumerate(cfgs)],
                   [row["max"][c] - med[i] for i, c in enumerate(cfgs)]]
            colors = ["#777777" if c == baseline else "#2b7bba" for c in cfgs]
            ax.bar(range(len(cfgs)), med, yerr=err, capsize=3, color=colors)
            for i, c in enumerate(cfgs):
                r = row["ratio"].get(c)
                if r is not None and c != baseline:
                    ax.annotate("%.3f" % r, (i, row["max"][c]), ha="center", va="bottom", fontsize=8,
                                xytext=(0, 3), textcoords="offset points")
            # Room above the highest whisker for its ratio label.
            # (EPCC overheads can come out below zero when the noise exceeds them.)
            top = max(0.0, max(row["max"][c] for c in cfgs))
            bottom = min(0.0, min(row["min"][c] for c in cfgs))
            ax.set_ylim(1.15 * bottom, 1.15 * top if top > 0 else 1.0)
            ax.set_xticks(range(len(cfgs)))
            ax.set_xticklabels(cfgs, rotation=35, ha="right", fontsize=8)
            ax.set_title("%s [%s], %s is better" % (m, row["unit"], row["better"]), fontsize=9)
        for ax in list(axes.flat)[len(metrics):]:
            ax.axis("off")
        title = "%s: median of verified runs, min-max whiskers, ratio to %s" % (b["id"], baseline)
        if doc.get("vm"):
            title += "\nVM %s: timings are emulation" % doc["vm"]["layout"]
        fig.suptitle(title, fontsize=10)
        fig.tight_layout()
        path = os.path.join(outdir, b["id"] + ".png")
        fig.savefig(path, dpi=90)
        plt.close(fig)
        written[b["id"]] = path
    return written


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
