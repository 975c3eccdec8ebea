"""check_report.py: summarise an OMP_PLACEMENT_MPI report (JSON) in stable lines for FileCheck.

usage: check_report.py REPORT [--pairs A:B,C:D,...] [--entry first|last]
Prints, for the chosen timeline entry (default last):
  nodes N0 N1 ... moved M    the decision, and how many ranks it moved
  pairs together: K/P        pairs whose ranks share a node
  pair nodes distinct: D     distinct nodes among the pairs that share one
and for the report: remaps, whether every rank applied its final node, the
ranks' start nodes and memory moves (by world rank), the threads each rank
moved (min), dry run, and whether the interval grew.
"""
import json
import sys


def main(argv):
    path = argv[1]
    pairs = []
    entry = "last"
    i = 2
    while i < len(argv):
        if argv[i] == "--pairs":
            pairs = [tuple(int(x) for x in p.split(":")) for p in argv[i + 1].split(",")]
            i += 2
        elif argv[i] == "--entry":
            entry = argv[i + 1]
            i += 2
        else:
            sys.exit("unknown argument " + argv[i])
    with open(path) as f:
        rep = json.load(f)["mpi"]
    tl = rep["timeline"]
    print("remaps {} decisions>=remaps {}".format(rep["remaps"], rep["decisions"] >= rep["remaps"]))
    if not tl:
        print("no timeline")
        return
    e = tl[0] if entry == "first" else tl[-1]
    local = rep["local_ranks"]
    node = {local[k]: e["nodes"][k] for k in range(len(local))}
    print("nodes " + " ".join(str(node[r]) for r in sorted(node)) + " moved {}".format(e["moved"]))
    if pairs:
        together = [p for p in pairs if node[p[0]] == node[p[1]]]
        print("pairs together: {}/{}".format(len(together), len(pairs)))
        print("pair nodes distinct: {}".format(len({node[p[0]] for p in together})))
    ranks = rep["ranks"]
    final = {r["rank"]: r for r in ranks}
    last = tl[-1]
    applied = all(final[local[k]]["applied_node"] == last["nodes"][k] for k in range(len(local)))
    print("every rank applied its node: {}".format("yes" if applied else "no"))
    # Reports written before start nodes and timed memory moves have neither field.
    print("start nodes " + " ".join(str(final[w].get("start_node", "-")) for w in sorted(final)))
    print("memory moves " + " ".join(str(final[w].get("migrations", "-")) for w in sorted(final)))
    print("threads per rank >= {}".format(min(r["threads"] for r in ranks)))
    print("threads refused {}".format(sum(r["threads_refused"] for r in ranks)))
    print("dry run {}".format("yes" if rep["dry_run"] else "no"))
    first_interval = tl[0]["interval_ms"]
    print("interval grew: {}".format("yes" if rep["final_interval_ms"] > first_interval else "no"))


if __name__ == "__main__":
    main(sys.argv)
