"""bench_json_shape.py: prints the shape of a harness results.json (keys, run order, metrics and which configurations have medians and ratios) for FileCheck."""
import json
import sys

with open(sys.argv[1]) as f:
    doc = json.load(f)
print("keys: " + " ".join(sorted(doc)))
print("baseline: %s repeats: %d failed_runs: %d" % (doc["baseline"], doc["repeats"], doc["failed_runs"]))
print("configs: " + " ".join(c["name"] for c in doc["configs"]))
for c in doc["configs"]:
    print("config %s: variant=%s dropin=%s env=%s" % (c["name"], c["variant"], c["dropin"],
                                                        ",".join("%s=%s" % kv for kv in sorted(c["env"].items()))))
print("order: " + " ".join("%s/%s" % (b, c) for b, c in doc["order"]))
for r in doc["runs"]:
    print("run %d: %s %s round %d verified=%s reason=%s metrics=%s" % (
        r["seq"], r["benchmark"], r["config"], r["round"], r["verified"], r["reason"] or "-",
        ",".join(sorted(r["metrics"]))))
for b in doc["benchmarks"]:
    print("benchmark %s: program=%s args=%s skipped=%s" % (b["id"], b["program"].split("/")[-1], " ".join(b["args"]),
                                                           ",".join(sorted(b["skipped"])) or "-"))
    for m, row in b["metrics"].items():
        print("  metric %s unit=%s better=%s median=%s ratio=%s" % (
            m, row["unit"], row["better"], ",".join(row["median"]),
            ",".join("%s:%s" % (c, "num" if isinstance(r, float) else r) for c, r in row["ratio"].items())))
    for c, v in b["verification"].items():
        print("  verification %s: %d/%d" % (c, v["successful"], v["runs"]))
