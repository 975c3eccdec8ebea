#!/usr/bin/env python3
"""app_phylo.py: Debian's OpenMP phylogenetics programs, FastTree (fasttree's fasttreeMP) and IQ-TREE (iqtree's iqtree2), both linked to libgomp.so.1, inferring a tree from a generated nucleotide alignment, for the benchmark harness: Debian programs built against libgomp, unmodified, run by a small caller (build/bin/app-fasttree, build/bin/app-iqtree)."""
import math
import os
import random
import re
import subprocess
import sys
import tempfile
import time

# The build writes one copy of this script per program it found (benchmarks/apps/CMakeLists.txt): which
# program, and its path. The copy in the source tree can only write alignments (--alignment).
PROGRAM = "@OMPNUMA_PHYLO_PROGRAM@"
PROGRAM_PATH = "@OMPNUMA_PHYLO_PATH@"
# What `ompnuma vm` ships with this script (the VM runs the program too, and tags its run for the plugin):
# ompnuma-vm-file: @OMPNUMA_PHYLO_PATH@
# ompnuma-vm-file: ompnuma-emu-mark
# ompnuma-vm-file: ompnuma-start-on
HERE = os.path.dirname(os.path.realpath(__file__))
# The guest-side marker command beside this script (build/bin, or the install's bin): `tag 1` before the
# program and `tag 0` after it make the emulated VM's counts of the program's run apart from this caller's
# (remote_share_tag1_pct); a no-op instruction elsewhere.
EMU_MARK = os.path.join(HERE, "ompnuma-emu-mark")
# The launcher beside it (tools/numaemu/start_on.c): the program is exec'ed on the first CPU this caller may
# use and gets the caller's CPUs back at its entry point, so that its stack and its libraries' data are
# first-touched on that CPU's node in every run, wherever the caller itself happens to run.
START_ON = os.path.join(HERE, "ompnuma-start-on")

SEED = 29
MEAN_BRANCH = 0.05
# Four equally likely rate classes, the means of the quartiles of a Gamma distribution of shape 1 (mean 1):
# sites that evolve at different speeds, which FastTree's CAT model (20 rate categories) fits per site.
RATES = (0.1370, 0.4767, 1.0000, 2.3863)

USAGE = """usage: app-fasttree [TAXA [SITES]]
       app-iqtree [TAXA [SITES]]
       app-fasttree --alignment [TAXA [SITES]] > FILE.fa

A nucleotide alignment of TAXA sequences (200 by default) of SITES sites (1000 by default), generated
here from a fixed seed: a random binary tree of TAXA leaves (two random subtrees joined at a time),
branch lengths exponential with mean %.2f substitutions a site, a uniform random root sequence evolved
down the tree under Jukes-Cantor, each site in one of four rate classes (Gamma of shape 1 in quartiles).
The same arguments give the same alignment in every run (Python's random.Random, one fixed seed).
Then the program on it, its own seed fixed (one tree for one alignment, whatever the team size):
  app-fasttree: fasttreeMP -nt -nopr, FastTree's defaults otherwise (the team: OMP_NUM_THREADS);
  app-iqtree:   iqtree2 -m JC+G4 -fast -seed %d -nt N -quiet, N the first number of OMP_NUM_THREADS, or
                the CPUs this process may run on (IQ-TREE takes no thread count from OpenMP's variables).
The program is exec'ed on the first CPU this caller may use (ompnuma-start-on, where it is beside this
script) and gets this caller's CPUs back at its entry point: its first pages are on one node in every run.
Its stdout and stderr (other than the tree) are copied to this caller's stderr after it ends.
"Time in seconds = ..." is the program's run, from its start to its exit, the generation left out.
"Checksum = ..." is FNV-1a of the Newick tree it wrote, so "identical" is byte for byte.
"Verification = SUCCESSFUL" when it exited with 0 and wrote one Newick tree with every taxon once,
and the tree has at least 80 %% of the generating tree's splits.""" % (MEAN_BRANCH, SEED)


def generate(taxa, sites, seed=SEED):
    """(FASTA text, the generating tree's splits): TAXA sequences of SITES sites, named t00000, ... The
    splits are those of the unrooted tree (_normal_splits)."""
    rng = random.Random(seed)
    # The tree: nodes 0..taxa-1 are the leaves, each join makes the next node; parent[c] = (node, length).
    pool, parent, kids = list(range(taxa)), {}, {}
    node = taxa
    while len(pool) > 1:
        a = pool.pop(rng.randrange(len(pool)))
        b = pool.pop(rng.randrange(len(pool)))
        kids[node] = (a, b)
        parent[a] = (node, rng.expovariate(1 / MEAN_BRANCH))
        parent[b] = (node, rng.expovariate(1 / MEAN_BRANCH))
        pool.append(node)
        node += 1
    root = pool[0]
    klass = [rng.randrange(len(RATES)) for _ in range(sites)]
    by_class = [[i for i in range(sites) if klass[i] == c] for c in range(len(RATES))]
    other = {c: bytes(x for x in b"ACGT" if x != c) for c in b"ACGT"}
    seq = {root: bytearray(rng.choice(b"ACGT") for _ in range(sites))}
    stack = [root]
    while stack:
        v = stack.pop()
        for c in kids.get(v, ()):
            s = bytearray(seq[v])
            for rate, where in zip(RATES, by_class):
                # Jukes-Cantor: a site of rate r changes over length t with probability 3/4 (1 - e^(-4rt/3)),
                # to one of the three other bases; which sites change is a binomial sample of the class.
                p = 0.75 * (1 - math.exp(-4 * rate * parent[c][1] / 3))
                for i in rng.sample(where, _binomial(rng, len(where), p)):
                    s[i] = rng.choice(other[s[i]])
            seq[c] = s
            stack.append(c)
        if v >= taxa:
            del seq[v]  # an inner node's sequence, once its children have theirs
    fasta = "".join(">t%05d\n%s\n" % (i, seq[i].decode()) for i in range(taxa))
    # The splits of the unrooted tree: the leaves under each edge, as a bit mask.
    under = {i: 1 << i for i in range(taxa)}
    for v in range(taxa, root + 1):
        under[v] = under[kids[v][0]] | under[kids[v][1]]
    return fasta, _normal_splits((under[v] for v in range(taxa, root)), taxa)


def _binomial(rng, n, p):
    """A Binomial(n, p) draw by geometric skips between successes: one draw of rng per success."""
    if p <= 0:
        return 0
    if p >= 1:
        return n
    lq, k, i = math.log1p(-p), 0, -1
    while True:
        i += int(math.log(1 - rng.random()) / lq) + 1
        if i >= n:
            return k
        k += 1


def _normal_splits(masks, taxa):
    """The non-trivial splits among leaf masks, each written as the side without leaf 0, so that an edge
    and its complement are one split."""
    full = (1 << taxa) - 1
    out = set()
    for m in masks:
        m = m if not m & 1 else full & ~m
        if 2 <= bin(m).count("1") <= taxa - 2:
            out.add(m)
    return out


def newick_splits(text, taxa):
    """The splits of one Newick tree over the leaves t00000..t<taxa-1> (support values and branch lengths
    skipped), or a ValueError saying why it is not one tree with every taxon once."""
    text = text.strip()
    if not text.endswith(";") or text.count(";") != 1:
        raise ValueError("not one Newick tree ending in ';'")
    stack, masks, seen = [0], [], 0
    for tok in re.findall(r"[(),;]|[^(),;]+", text):
        if tok == "(":
            stack.append(0)
        elif tok in ",);":
            if tok == ")":
                under = stack.pop()
                if not stack:
                    raise ValueError("unbalanced ')'")
                stack[-1] |= under
                masks.append(under)
        else:
            name = tok.split(":")[0].strip()
            m = re.fullmatch(r"t(\d{5})", name)
            if m is None:
                if re.fullmatch(r"[0-9.eE+-]*", name):
                    continue  # a branch length alone, or an inner node's support value
                raise ValueError("unknown taxon %r" % name)
            bit = 1 << int(m.group(1))
            if int(m.group(1)) >= taxa or seen & bit:
                raise ValueError("taxon %s unknown or twice" % name)
            seen |= bit
            stack[-1] |= bit
    if len(stack) != 1:
        raise ValueError("unbalanced '('")
    if seen != (1 << taxa) - 1:
        raise ValueError("%d of %d taxa in the tree" % (bin(seen).count("1"), taxa))
    return _normal_splits(masks, taxa)


def fnv1a(data):
    """64-bit FNV-1a of bytes, as 16 hex digits (the corpus's checksums)."""
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
    return "%016x" % h


def launch(cmd):
    """CMD run to its end, its stdout and stderr captured: started through START_ON where it is built, or
    directly where it is not, or where the launcher could not trace the program (exit 126 and its own
    message, copied to this caller's stderr)."""
    if os.access(START_ON, os.X_OK):
        run = subprocess.run([START_ON, str(min(os.sched_getaffinity(0)))] + cmd,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if run.returncode != 126 or not run.stderr.startswith(b"ompnuma-start-on:"):
            return run
        sys.stderr.write(run.stderr.decode(errors="replace"))
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def run_fasttree(alignment, workdir):
    """(command, exit status, the tree's bytes, threads it reported, its log-likelihood, the rest of its
    output)."""
    cmd = [PROGRAM_PATH, "-nt", "-nopr", alignment]
    run = launch(cmd)
    err = run.stderr.decode(errors="replace")
    threads = re.search(r"OpenMP \((\d+) threads\)", err)
    lnl = re.findall(r"LogLk = (-?[0-9.]+)", err)
    return cmd, run.returncode, run.stdout, threads and threads.group(1), lnl and lnl[-1], err


def iqtree_threads():
    """The team IQ-TREE is told to run (-nt): OMP_NUM_THREADS's first number, else the CPUs it may use."""
    first = os.environ.get("OMP_NUM_THREADS", "").split(",")[0].strip()
    return int(first) if first.isdigit() and int(first) > 0 else len(os.sched_getaffinity(0))


def run_iqtree(alignment, workdir):
    """Like run_fasttree: IQ-TREE writes its tree and report into files named after -pre."""
    pre = os.path.join(workdir, "run")
    cmd = [PROGRAM_PATH, "-s", alignment, "-m", "JC+G4", "-fast", "-seed", str(SEED),
           "-nt", str(iqtree_threads()), "-pre", pre, "-quiet"]
    run = launch(cmd)
    out = run.stdout.decode(errors="replace") + run.stderr.decode(errors="replace")
    tree = log = ""
    for suffix in (".treefile", ".log"):
        try:
            with open(pre + suffix, "rb") as f:
                data = f.read()
        except OSError:
            continue
        if suffix == ".treefile":
            tree = data
        else:
            log = data.decode(errors="replace")
    threads = re.search(r"Kernel:.* (\d+) threads", log)
    lnl = re.findall(r"BEST SCORE FOUND : (-?[0-9.]+)", log)
    return cmd, run.returncode, tree or b"", threads and threads.group(1), lnl and lnl[-1], out


RUNNERS = {"fasttree": run_fasttree, "iqtree": run_iqtree}


def main(argv):
    name = "app-" + (PROGRAM if PROGRAM in RUNNERS else "phylo")
    if argv[:1] in (["-h"], ["--help"]):
        print(USAGE)
        return 0
    alignment = argv[:1] == ["--alignment"]
    args = argv[1:] if alignment else argv
    try:
        taxa, sites = ([int(x) for x in args] + [200, 1000][len(args):]) if len(args) <= 2 else (0, 0)
    except ValueError:
        taxa = sites = 0
    if not 4 <= taxa <= 99999 or not 1 <= sites <= 10000000:
        print("%s: TAXA 4..99999, SITES 1..10000000\n%s" % (name, USAGE), file=sys.stderr)
        return 2
    fasta, truth = generate(taxa, sites)
    if alignment:
        sys.stdout.write(fasta)
        return 0
    if PROGRAM not in RUNNERS:
        print("%s: run the build's copies, build/bin/app-fasttree or app-iqtree (they know their program)" % name,
              file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix=name + ".") as d:
        path = os.path.join(d, "alignment.fa")
        with open(path, "w") as f:
            f.write(fasta)
        mark = os.access(EMU_MARK, os.X_OK)
        if mark:
            subprocess.run([EMU_MARK, "tag", "1"])
        t0 = time.monotonic()
        cmd, status, tree, threads, lnl, rest = RUNNERS[PROGRAM](path, d)
        seconds = time.monotonic() - t0
        if mark:
            subprocess.run([EMU_MARK, "tag", "0"])
    sys.stderr.write(rest)
    # The command as a reader would type it: the files this caller names left out (-s FILE, -pre FILE).
    shown = [x for i, x in enumerate(cmd) if not x.startswith(d) and not (
        x in ("-s", "-pre") and i + 1 < len(cmd) and cmd[i + 1].startswith(d))]
    print("%s: %s %s, %d taxa, %d sites, seed %d, %s threads" % (
        name, os.path.basename(shown[0]), " ".join(shown[1:]), taxa, sites, SEED, threads or "?"))
    why = ""
    if status != 0:
        why = "%s exit status %d" % (os.path.basename(cmd[0]), status)
    else:
        try:
            found = newick_splits(tree.decode(errors="replace"), taxa)
            kept = len(found & truth)
            print("Splits of the generating tree found = %d of %d" % (kept, len(truth)))
            print("Splits not in the generating tree = %d of %d" % (len(found - truth), len(found)))
            if kept < 0.8 * len(truth):
                why = "fewer than 80 % of the generating tree's splits"
        except ValueError as e:
            why = "its tree: %s" % e
    if lnl:
        print("Log-likelihood = %s" % lnl)
    print("Checksum = %s" % fnv1a(tree))
    print("Time in seconds = %.6f" % seconds)
    if why:
        print("%s: verification failed: %s" % (name, why), file=sys.stderr)
    print("Verification = %s" % ("UNSUCCESSFUL" if why else "SUCCESSFUL"))
    return 1 if why else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
