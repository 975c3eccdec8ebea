#!/usr/bin/env python3
"""npb_count.py: instructions of whole NPB runs, the same LLVM runtime with and without ompnuma (clang builds on libomp.so.5, gcc builds on LLVM's libomp as libgomp.so.1), counted by callgrind."""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import count  # beside this script: the callgrind readers, ompnuma's objects, the environment rules

KERNELS = ("ep", "is", "cg", "mg", "ft")
# (build variant, ompnuma or not). The stock side of a gcc build is LLVM's own runtime under the name
# libgomp.so.1 (it defines libgomp's versioned entry points), so that what the ratio shows is ompnuma,
# not a change of runtime.
CONFIGS = {
    "stock": ("clang", False),
    "ompnuma": ("clang", True),
    "stock-gomp": ("gcc", False),
    "ompnuma-gomp": ("gcc", True),
}


def fail(msg):
    sys.stderr.write("npb_count.py: " + msg + "\n")
    sys.exit(2)


def real_libomp(build):
    """The LLVM runtime the drop-in wraps: the one build/lib/libomp.so (a linker script) names."""
    try:
        with open(os.path.join(build, "lib", "libomp.so")) as f:
            m = re.search(r"INPUT\((\S+)\)", f.read())
    except OSError:
        m = None
    if not m or not os.path.isfile(m.group(1)):
        fail("%s/lib/libomp.so names no LLVM runtime that exists: build first" % build)
    return m.group(1)


def stripped(build, work, names):
    """valgrind 3.19 cannot read clang 19's DWARF 5: stripped copies of the programs and of build/lib."""
    _, libdir, _ = count.stripped_copies(build, work)
    progs = {}
    for name in names:
        src = os.path.join(build, "bin", name)
        if os.path.isfile(src):
            progs[name] = os.path.join(work, name)
            subprocess.run(["objcopy", "--strip-debug", src, progs[name]], check=True)
    gomp = os.path.join(work, "llvm-as-gomp")
    os.makedirs(gomp, exist_ok=True)
    os.symlink(real_libomp(build), os.path.join(gomp, "libgomp.so.1"))
    return progs, libdir, gomp


def environment(config, threads, libdir, gomp, placement):
    env = {k: v for k, v in os.environ.items() if not k.startswith(count.STRIP_PREFIXES)}
    env["OMP_NUM_THREADS"] = str(threads)
    env["KMP_BLOCKTIME"] = "0"  # as count.py: a spinning waiter counts what valgrind's scheduling allows
    variant, ours = CONFIGS[config]
    if ours:
        env["LD_LIBRARY_PATH"] = libdir
        if placement:
            env["OMP_PLACEMENT"] = placement
    elif variant == "gcc":
        env["LD_LIBRARY_PATH"] = gomp
    return env


def run_count(prog, cls, env, out, libdir, own):
    """Instructions of one whole run: every thread's, or (own) those in ompnuma's objects, summed over the
    threads' own dumps (callgrind --separate-threads)."""
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out]
    if own:
        cmd += ["--separate-threads=yes"]
    r = subprocess.run(cmd + [prog, cls], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    if r.returncode != 0 or not re.search(r"Verification\s*=\s*SUCCESSFUL", r.stdout):
        tail = (r.stdout + r.stderr).strip().splitlines()[-4:]
        fail("%s %s: the counted run failed (exit %d): %s" % (os.path.basename(prog), cls, r.returncode,
                                                                    " | ".join(tail)))
    if own:
        dumps = [f for f in os.listdir(os.path.dirname(out)) if re.match(re.escape(os.path.basename(out)) + r"-\d+$", f)]
        total = sum(count.own_cost(os.path.join(os.path.dirname(out), f), libdir)[1] for f in dumps) if dumps else None
        for f in dumps:
            os.remove(os.path.join(os.path.dirname(out), f))
    else:
        _, total = count.parse_dump(out)
        os.remove(out)
    if total is None:
        fail("%s: no instruction summary in %s" % (os.path.basename(prog), out))
    return total


def main(argv):
    ap = argparse.ArgumentParser(prog="npb_count.py", description=__doc__)
    ap.add_argument("--build", default=os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))), "build"), help="ompnuma build directory (default: <source>/build)")
    ap.add_argument("--kernels", default=",".join(KERNELS), help="NPB kernels (default %s)" % ",".join(KERNELS))
    ap.add_argument("--classes", default="W", help="NPB classes (default W)")
    ap.add_argument("--threads", type=int, default=2, help="team size (default 2)")
    ap.add_argument("--configs", default="stock,ompnuma,stock-gomp,ompnuma-gomp",
                    help="among %s; each ompnuma one is compared with the stock one of its build" %
                    ", ".join(CONFIGS))
    ap.add_argument("--placement", default="", help="OMP_PLACEMENT of the ompnuma configurations (default: unset)")
    ap.add_argument("--own", action="store_true", help="also count the part inside ompnuma (a second run)")
    ap.add_argument("--json", help="write every count to this file")
    a = ap.parse_args(argv)
    kernels = [k for k in a.kernels.split(",") if k]
    classes = [c for c in a.classes.split(",") if c]
    configs = [c for c in a.configs.split(",") if c]
    if [k for k in kernels if k not in KERNELS] or [c for c in configs if c not in CONFIGS] or a.threads < 1:
        fail("--kernels among %s, --configs among %s, --threads >= 1" % (",".join(KERNELS),
                                                                               ",".join(CONFIGS)))
    for tool in ("valgrind", "objcopy"):
        if not shutil.which(tool):
            fail("%s is not installed" % tool)
    real_libomp(a.build)
    work = tempfile.mkdtemp(prefix="ompnuma-npbcount-")
    rows = []
    try:
        names = ["npb-" + k + suffix for k in kernels for suffix in ("", "-gcc")]
        progs, libdir, gomp = stripped(a.build, work, names)
        for k in kernels:
            for cls in classes:
                res = {}
                for c in configs:
                    name = "npb-" + k + ("-gcc" if CONFIGS[c][0] == "gcc" else "")
                    if name not in progs:
                        continue
                    env = environment(c, a.threads, libdir, gomp, a.placement)
                    out = os.path.join(work, "cg.out")
                    res[c] = {"total": run_count(progs[name], cls, env, out, libdir, False)}
                    if a.own and CONFIGS[c][1]:
                        res[c]["ompnuma"] = run_count(progs[name], cls, env, out, libdir, True)
                rows.append((k, cls, res))
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print("instructions of a whole run (callgrind, all threads), %d threads, KMP_BLOCKTIME=0%s" %
          (a.threads, ", OMP_PLACEMENT=" + a.placement if a.placement else ""))
    head = ["kernel", "class"] + configs
    for c in configs:
        if CONFIGS[c][1] and ("stock" if CONFIGS[c][0] == "clang" else "stock-gomp") in configs:
            head.append(c + "/" + ("stock" if CONFIGS[c][0] == "clang" else "stock-gomp"))
        if a.own and CONFIGS[c][1]:
            head.append(c + ":ompnuma")
    table = [head]
    for k, cls, res in rows:
        line = [k, cls] + ["%d" % res[c]["total"] if c in res else "-" for c in configs]
        for c in configs:
            base = "stock" if CONFIGS[c][0] == "clang" else "stock-gomp"
            if CONFIGS[c][1] and base in configs:
                ok = c in res and base in res and res[base]["total"]
                line.append("%.4f" % (res[c]["total"] / res[base]["total"]) if ok else "-")
            if a.own and CONFIGS[c][1]:
                line.append("%d" % res[c]["ompnuma"] if c in res else "-")
        table.append(line)
    widths = [max(len(r[i]) for r in table) for i in range(len(head))]
    for r in table:
        print("  ".join(x.rjust(widths[i]) if i > 1 else x.ljust(widths[i]) for i, x in enumerate(r)))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"threads": a.threads, "placement": a.placement,
                       "runs": [{"kernel": k, "class": cls, "counts": res} for k, cls, res in rows]}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
