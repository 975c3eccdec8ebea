"""A verbose log's page-sampler costs against its trial of one page: each sampled execution's faults are charged
their resolver's time and, for each, the round trip the first arming timed (the trap, the signal, sigreturn: the
part a resolver cannot time of itself), and the first arming was priced before it read residency: every tracked
page's, at what the trial read of one."""
import re
import sys

text = open(sys.argv[1]).read()
trials = [tuple(float(x) for x in m) for m in re.findall(
    r"pagefault: a sampled page costs (\d+\.\d+) us to protect and (\d+\.\d+) us to fault, (\d+\.\d+) us of it beyond "
    r"its resolver", text)]
estimates = [tuple(float(x) for x in m) for m in re.findall(
    r"pagefault: residency (\d+\.\d+) us a tracked page: the first arming's (\d+) tracked pages estimated at "
    r"(\d+\.\d+) ms more", text)]
rows = [(int(n), float(full), float(resolver)) for n, full, resolver in
        re.findall(r"pagefault: region \d+: (\d+) faults, \d+ page states visited, (\d+\.\d+) ms on the faulting "
                   r"threads, (\d+\.\d+) ms of it in the resolver", text)]
print("timed once", len(trials) == 1, "measured", bool(trials) and trials[0][0] > 0 and trials[0][2] > 0)


def near(got, want):  # to the log's rounding: 1 ns a figure in us, 1 us in ms
    return abs(got - want) <= 0.02 * want + 2.0


if estimates:
    resid, total, estimate = estimates[0]
    print("priced", len(estimates) == 1 and near(estimate * 1e3, total * resid), "tracked", int(total),
          "residency read", resid > 0)
if trials:
    trip = trials[0][2]
    beyond = [((full - resolver) * 1e3, n * trip) for n, full, resolver in rows if n > 0]
    print("sampled", len(beyond) > 0, "charged", bool(beyond) and all(near(got, want) for got, want in beyond))
