#!/usr/bin/env python3
"""run.py: EPCC overheads of the stock runtime and of ompnuma's drop-in (default policy and `off`), alternated process by process, with ratios to stock."""
import os
import sys

from ompnuma.harness import bench

# The target: an empty parallel region with ompnuma loaded and settled costs at most 1.05x stock
# on 2 threads. Every default below can be overridden on the command line (see --help).
DEFAULTS = {"configs": "stock,ompnuma,ompnuma-off,ompnuma-sampling", "repeats": 5, "threads": 2,
            "target_metric": "parallel-empty_ns", "tolerance": 0.05}


def main(argv):
    """run.py [--args 'PROGRAM ARGS'] [harness options]: the benchmark is overhead-epcc with PROGRAM ARGS."""
    args = ""
    if "--args" in argv:
        i = argv.index("--args")
        if i + 1 >= len(argv):
            sys.stderr.write("run.py: --args needs the overhead-epcc arguments as one string\n")
            return 2
        args = argv[i + 1]
        argv = argv[:i] + argv[i + 2:]
    os.environ.setdefault("OMPNUMA_BENCH_PROG", "benchmarks/overhead/run.py")
    spec = "overhead-epcc" + (":" + args if args else "")
    return bench.main(argv + [spec], DEFAULTS)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
