# hints-blind-until-attach.c's two regions, in the order they first ran: executions, what was timed or sampled, the outcome.
import json
import sys

regions = [g for g in json.load(open(sys.argv[1]))["regions"] if g["level"] == 1]
before, after = regions[0], regions[1]
print("before executions", before["executions"], "timed", before["timed_executions"],
      "tnt", sum(map(sum, before["tnt"])), "outcome", before["outcome"], "why", before["why"])
# decided (dry run: the synthetic topology), or unchanged when the evidence rule finds the gain within the noise
# (a loaded machine): either way a decision on the TNT the hints gave.
print("after executions", after["executions"], "tnt", "every thread" if all(sum(row) for row in after["tnt"]) else
      after["tnt"], "outcome", "a decision" if after["outcome"] in ("decided", "unchanged") else after["outcome"])
