"""Per region of a verbose log: armings, armings refused by the budget, and whether it decided; with --total, the
whole log's armings and refusals instead."""
import re
import sys

total = sys.argv[1] == "--total"
text = open(sys.argv[-1]).read()
armed, refused, decided = {}, {}, set()
for m in re.finditer(r"pagefault: region (\d+): \d+ of \d+ tracked pages protected", text):
    armed[int(m.group(1))] = armed.get(int(m.group(1)), 0) + 1
for m in re.finditer(r"pagefault: region (\d+): not armed: the sampler spent", text):
    refused[int(m.group(1))] = refused.get(int(m.group(1)), 0) + 1
for m in re.finditer(r"pagefault: region (\d+): the sample of its enclosing execution passes to it", text):
    armed.setdefault(int(m.group(1)), 0)
for m in re.finditer(r"region (\d+) \(.*\): critpath decided", text):
    decided.add(int(m.group(1)))
if total:
    print("armings {} refused {}".format(sum(armed.values()), sum(refused.values())))
    sys.exit(0)
for r in sorted(set(armed) | set(refused)):
    print("region {} armings {} refused {} {}".format(r, armed.get(r, 0), refused.get(r, 0),
                                                     "decided" if r in decided else "undecided"))
