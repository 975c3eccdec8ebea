"""break_report.py GOOD.json PREFIX: write PREFIX.<name>.json, each a report broken one way (report-bad-files.test)."""
import json
import sys

good = json.load(open(sys.argv[1]))
text = json.dumps(good)


def write(name, body):
    with open("{}.{}.json".format(sys.argv[2], name), "w") as f:
        f.write(body)


def variant(name, change):
    d = json.loads(text)
    change(d)
    write(name, json.dumps(d))


variant("string-factor", lambda d: d["topology"].__setitem__("numa_factor", "two"))
variant("list-topology", lambda d: d.__setitem__("topology", []))
write("huge-float", text.replace('"numa_factor": ', '"numa_factor": 1e400, "x": ', 1))
write("huge-int", text.replace('"numa_factor": ', '"numa_factor": 1' + "0" * 400 + ', "x": ', 1))
write("nan", text.replace('"numa_factor": ', '"numa_factor": NaN, "x": ', 1))
write("deep", "[" * 100000 + "]" * 100000)
write("top-list", "[]")
# Shapes the schema cannot say: a table of 3 rows (3 columns) for a team of 2 on 2 nodes.
variant("tnt-shape", lambda d: d["regions"][0].__setitem__("tnt", [[1, 2, 3]] * (d["regions"][0]["team_size"] + 1)))
# Control characters in the program's and a region's names.
variant("control", lambda d: (d.__setitem__("program", "p\nompnuma: forged"),
                              d["regions"][0].__setitem__("symbol", "a\x1b[31mred")))
