"""A verbose log's page-sampler faults against what one costs beyond its resolver: each sampled execution's faults
are charged their resolver's time and, for each, the round trip the first arming timed (the trap, the signal,
sigreturn: the part a resolver cannot time of itself)."""
import re
import sys

text = open(sys.argv[1]).read()
trips = [float(t) for t in re.findall(r"pagefault: a fault costs (\d+\.\d+) us beyond its resolver's", text)]
rows = [(int(n), float(full), float(resolver)) for n, full, resolver in
        re.findall(r"pagefault: region \d+: (\d+) faults, \d+ page states visited, (\d+\.\d+) ms on the faulting "
                   r"threads, (\d+\.\d+) ms of it in the resolver", text)]
print("timed once", len(trips) == 1, "measured", bool(trips) and trips[0] > 0)
sampled = [row for row in rows if row[0] > 0]
# Beyond the resolver: the faults times the round trip, to the log's rounding (1 us a figure).
beyond = [((full - resolver) * 1e3, n * trips[0]) for n, full, resolver in sampled] if trips else []
print("sampled", len(sampled) > 0, "charged", bool(beyond) and all(abs(got - want) <= 0.02 * want + 2.0
                                                                     for got, want in beyond))
