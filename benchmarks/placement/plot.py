#!/usr/bin/env python3
"""plot.py: draw placement-eval's JSON as a PNG: quality against the exhaustive optimum per policy, and decision time against team size."""
import argparse
import json
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("json", help="output of placement-eval --json")
    ap.add_argument("-o", "--output", default="placement-eval.png", help="PNG to write")
    args = ap.parse_args()
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot.py: matplotlib is missing (Debian: apt-get install python3-matplotlib)", file=sys.stderr)
        return 1
    with open(args.json) as f:
        data = json.load(f)

    names = [p["name"] for p in data["policies"]]
    quality = {n: [] for n in names}
    for case in data["cases"]:
        opt = case["predicted"].get("exhaustive")
        if not opt:
            continue
        for n in names:
            v = case["predicted"].get(n)
            if v is not None:
                quality[n].append(v / opt)

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.5))
    shown = [n for n in names if n != "exhaustive" and quality[n]]
    ax1.boxplot([quality[n] for n in shown], labels=shown, showfliers=True, whis=(5, 95))
    ax1.axhline(1.01, color="tab:red", lw=0.8, ls="--", label="1 % above optimum")
    ax1.set_ylabel("predicted critical path / exhaustive optimum")
    ax1.set_title("quality on %d TNTs where exhaustive finished" % len(quality["exhaustive"]))
    ax1.tick_params(axis="x", rotation=20)
    ax1.legend(loc="upper right")

    points = data["scaling"]["points"]
    threads = [p["threads"] for p in points]
    for n in names:
        if n == "exhaustive" or n not in points[0]:
            continue
        ax2.plot(threads, [max(p[n], 0.05) for p in points], marker="o", label=n)
    ax2.axhline(50, color="tab:red", lw=0.8, ls="--", label="50 us target (critpath, 1024 threads)")
    ax2.set_xscale("log", base=2)
    ax2.set_yscale("log")
    ax2.set_xlabel("threads (on %d nodes)" % data["scaling"]["nodes"])
    ax2.set_ylabel("decision time, CPU us (median)")
    ax2.set_title("decision time scaling")
    ax2.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(args.output, dpi=110)
    print("wrote", args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
