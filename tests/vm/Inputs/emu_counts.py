#!/usr/bin/env python3
"""emu_counts.py: read the emulated-NUMA plugin's ground truth (ompnuma vm --counts) for the VM tests.

  emu_counts.py check COUNTS EXPECT [--tolerance F]
      EXPECT holds lines "expect tag T vcpu V node N lines L" (other lines are
      ignored): for each, prints "tag T: vcpu V node N: ok" when tag T's miss
      count at row V, column N is within F (default 0.001) of L and every other
      cell of the tag's matrix adds up to less than F x L; else a line saying
      what was counted, and the exit status is 1.
  emu_counts.py share COUNTS [--tag T]
      prints "remote share P" (percent of misses to a node other than the
      missing vCPU's), of the whole command or of tag T.
  emu_counts.py drop BEFORE AFTER [--factor F]
      prints "remote share B -> A: drops" when AFTER's remote share is below
      F (default 0.5) times BEFORE's, else "... does not drop" (exit 1).
  emu_counts.py charged COUNTS
      prints "charged V: S s" per vCPU (the misses times the remote costs,
      numavm_emu.remote_delay_ns) and whether that equals the plugin's own
      delay_ns ("charges match the plugin's delay: yes", else "no", exit 1).
  emu_counts.py tags COUNTS
      prints each tag's entered count and matrix, then each snapshot's tags
      ("snapshot I tag T entered E misses M").
  emu_counts.py stalls COUNTS
      prints "node N bandwidth stalls S" per node.
  emu_counts.py pages COUNTS OUTPUT
      OUTPUT holds a line "range LO HI" (hex addresses): for each vCPU with
      remote misses in tagged intervals, prints how many of its listed pages
      (remote_pages) lie in [LO, HI) and on which nodes, and whether the listed
      misses plus remote_pages_other add up to its remote misses in the tags
      ("pages account for every tagged remote miss: yes", else "no", exit 1).
  emu_counts.py paced COUNTS OUTPUT [--tolerance F]
      OUTPUT holds lines "paced vcpu V tag A over tag B measured R" (R: the
      ratio of the guest's own times of intervals A and B); for each, prints
      "tag A / tag B on vcpu V: model M, measured R: within P %" when R is
      within F (default 0.05) of M, the ratio of the paced model time the
      plugin gave vCPU V in the intervals tagged A and B (per interval
      entered); else "NOT within" with each tag's lag, and the exit status is 1.
"""

import argparse
import json
import sys

from ompnuma.numavm.numavm_emu import is_counts, remote_delay_ns, remote_share, tag_of  # the plugin's one counts reader


def load(path):
    with open(path) as f:
        d = json.load(f)
    if not is_counts(d):
        sys.exit("{}: not an ompnuma-emu-counts/1 file".format(path))
    return d


def pct(share):
    return "none (no misses)" if share is None else "{:.1f}".format(share)


def check(args):
    d = load(args.counts)
    bad = 0
    with open(args.expect) as f:
        for line in f:
            w = line.split()
            if len(w) != 9 or w[0] != "expect":
                continue
            tag, vcpu, node, lines = int(w[2]), int(w[4]), int(w[6]), int(w[8])
            t = tag_of(d, tag)
            if t is None:
                print("tag {}: never entered".format(tag))
                bad += 1
                continue
            m = t["misses"]
            got = m[vcpu][node]
            rest = sum(sum(r) for r in m) - got
            ok = abs(got - lines) <= args.tolerance * lines and rest < args.tolerance * lines
            if ok:
                print("tag {}: vcpu {} node {}: ok".format(tag, vcpu, node))
            else:
                print("tag {}: vcpu {} node {}: counted {} of {} lines, {} elsewhere: {}".format(
                    tag, vcpu, node, got, lines, rest, m))
                bad += 1
    return 1 if bad else 0


def share(args):
    d = load(args.counts)
    if args.tag is None:
        m = d["misses"]
    else:
        t = tag_of(d, args.tag)
        if t is None:
            print("tag {}: never entered".format(args.tag))
            return 1
        m = t["misses"]
    share = remote_share(d, m)
    print("remote share {}".format(pct(share)))
    return 0 if share is not None else 1


def drop(args):
    b = load(args.before)
    a = load(args.after)
    sb, sa = remote_share(b), remote_share(a)
    ok = sb is not None and sa is not None and sa < args.factor * sb
    print("remote share {} -> {}: {}".format(pct(sb), pct(sa), "drops" if ok else "does not drop"))
    return 0 if ok else 1


def charged(args):
    d = load(args.counts)
    ns = remote_delay_ns(d)
    for v, x in enumerate(ns):
        print("charged {}: {:.6f} s".format(v, x / 1e9))
    ok = ns == d["delay_ns"]
    print("charges match the plugin's delay: {}".format("yes" if ok else "no " + str(d["delay_ns"])))
    return 0 if ok else 1


def tags(args):
    d = load(args.counts)
    for t in d["tags"]:
        print("tag {} entered {} misses {}".format(t["tag"], t["entered"], t["misses"]))
    for i, snap in enumerate(d["snapshots"]):
        for t in snap["tags"]:
            print("snapshot {} tag {} entered {} misses {}".format(i, t["tag"], t["entered"], t["misses"]))
    return 0


def stalls(args):
    d = load(args.counts)
    for n, s in enumerate(d["bandwidth_stalls"]):
        print("node {} bandwidth stalls {}".format(n, s))
    return 0


def paced(args):
    d = load(args.counts)
    if "model_ns" not in d:
        sys.exit("{}: not a paced run".format(args.counts))
    bad = 0
    with open(args.output) as f:
        for line in f:
            w = line.split()
            if len(w) != 10 or w[:2] != ["paced", "vcpu"]:
                continue
            v, a, b, measured = int(w[2]), int(w[4]), int(w[7]), float(w[9])
            ta, tb = tag_of(d, a), tag_of(d, b)
            if ta is None or tb is None:
                print("tag {} or {}: never entered".format(a, b))
                bad += 1
                continue
            model = (ta["model_ns"][v] / ta["entered"]) / (tb["model_ns"][v] / tb["entered"])
            ok = abs(measured / model - 1) <= args.tolerance
            print("tag {} / tag {} on vcpu {}: model {:.3f}, measured {:.3f}: {} {:g} %{}".format(
                a, b, v, model, measured, "within" if ok else "NOT within", 100 * args.tolerance,
                "" if ok else " (lag ms: tag {} {}, tag {} {})".format(
                    a, [x / 1e6 for x in ta["lag_ns"]], b, [x / 1e6 for x in tb["lag_ns"]])))
            bad += not ok
    return 1 if bad else 0


def pages(args):
    d = load(args.counts)
    lo = hi = None
    with open(args.output) as f:
        for line in f:
            w = line.split()
            if len(w) == 3 and w[0] == "range":
                lo, hi = int(w[1], 16), int(w[2], 16)
    if lo is None:
        sys.exit("{}: no line \"range LO HI\"".format(args.output))
    bad = 0
    for v, listed in enumerate(d["remote_pages"]):
        tagged = sum(t["misses"][v][n] for t in d["tags"] for n in range(d["nodes"]) if n != d["vcpu_node"][v])
        if not tagged:
            continue
        inside = sum(1 for p in listed if lo <= int(p["page"], 16) < hi)
        nodes = sorted({p["node"] for p in listed})
        ok = sum(p["misses"] for p in listed) + d["remote_pages_other"][v] == tagged
        bad += not ok
        print("vcpu {}: {} of {} pages listed in the range, on nodes {}; pages account for every tagged remote "
              "miss: {}".format(v, inside, len(listed), nodes, "yes" if ok else "no"))
    return 1 if bad else 0


def main(argv):
    p = argparse.ArgumentParser(prog="emu_counts.py")
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("check")
    c.add_argument("counts")
    c.add_argument("expect")
    c.add_argument("--tolerance", type=float, default=0.001)
    s = sub.add_parser("share")
    s.add_argument("counts")
    s.add_argument("--tag", type=int)
    d = sub.add_parser("drop")
    d.add_argument("before")
    d.add_argument("after")
    d.add_argument("--factor", type=float, default=0.5)
    g = sub.add_parser("charged")
    g.add_argument("counts")
    t = sub.add_parser("tags")
    t.add_argument("counts")
    b = sub.add_parser("stalls")
    b.add_argument("counts")
    pc = sub.add_parser("paced")
    pc.add_argument("counts")
    pc.add_argument("output")
    pc.add_argument("--tolerance", type=float, default=0.05)
    pg = sub.add_parser("pages")
    pg.add_argument("counts")
    pg.add_argument("output")
    args = p.parse_args(argv)
    return {"check": check, "share": share, "drop": drop, "charged": charged, "tags": tags, "stalls": stalls,
            "paced": paced, "pages": pages}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
