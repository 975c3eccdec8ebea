#!/usr/bin/env python3
"""check_layers.py: fail on an #include that goes up the layers, an include circle between files, or a system call made outside runtime/os.

The layers, from the bottom (docs/architecture.md):
  placement/                      pure decisions
  runtime/core                    conventions, settings, log            -> placement
  runtime/os                      every system call                     -> core
  runtime/memory, runtime/region  memory manager; region table, threads -> os
  runtime/sources                 counter sources                       -> memory
  runtime/control                 the loops                             -> region, sources
  runtime/ (root)                 init, events, report                  -> control
  openmp/, mpi/                   facades, ABI route, OMPT tool, API; PMPI layer -> runtime
A part may include its own headers and those of every part it depends on,
directly or through others. The CMake targets enforce the same edges at
compile time; this check says which line breaks them, and also finds
circles: file A includes B's header while B includes A's (a .c and its .h
are one module). A raw system call, syscall(2), is made only in runtime/os,
where each is declared once with its contract (rt_sys.h and the os headers).

Usage: check_layers.py [ROOT]   (ROOT: the repository, default: this script's)
Exit status: 0 clean, 1 violations (one line each), 2 bad usage.
"""
import os
import re
import sys

DEPS = {
    "placement": set(),
    "core": {"placement"},
    "os": {"core"},
    "memory": {"os"},
    "region": {"os"},
    "sources": {"memory"},
    "control": {"region", "sources"},
    "runtime": {"control"},
    "openmp": {"runtime"},
    "mpi": {"runtime"},
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# A call of syscall(2), not a word that ends in it (rt_syscall); comments are blanked first.
SYSCALL = re.compile(r'(?<![A-Za-z0-9_])syscall\s*\(\s*SYS_')
COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*', re.S)


def code_of(text):
    """text with its comments blanked, newlines kept (line numbers stay true)."""
    return COMMENT.sub(lambda m: re.sub(r'[^\n]', ' ', m.group(0)), text)


def closure(part):
    seen, todo = {part}, [part]
    while todo:
        for d in DEPS[todo.pop()]:
            if d not in seen:
                seen.add(d)
                todo.append(d)
    return seen


def part_of(rel):
    top = rel.split("/")[0]
    if top == "runtime":
        sub = rel.split("/")[1] if rel.count("/") >= 2 else ""
        return sub if sub in DEPS else "runtime"
    return top if top in DEPS else None


def sources(root):
    for top in ("placement", "runtime", "openmp", "mpi"):
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for f in files:
                if f.endswith((".c", ".h")):
                    path = os.path.join(dirpath, f)
                    yield os.path.relpath(path, root).replace(os.sep, "/")


def sccs(graph):
    """Tarjan's strongly connected components of {node: set(nodes)}."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def check(root):
    files = sorted(sources(root))
    by_name = {}
    for rel in files:
        by_name.setdefault(os.path.basename(rel), []).append(rel)
    problems, graph = [], {}
    for rel in files:
        part = part_of(rel)
        if part is None:
            continue
        allowed = closure(part)
        module = rel.rsplit(".", 1)[0]
        graph.setdefault(module, set())
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        if part != "os":
            for m in SYSCALL.finditer(code_of(text)):
                problems.append("%s:%d: a system call outside runtime/os" % (rel, text.count("\n", 0, m.start()) + 1))
        for m in INCLUDE.finditer(text):
            name = m.group(1)
            # Subfolder includes ("online/pl_online.h") resolve against the placement root.
            targets = by_name.get(os.path.basename(name), [])
            if len(targets) != 1:
                continue  # a system, generated or ambiguous header: not ours to judge
            target = targets[0]
            tpart = part_of(target)
            line = text.count("\n", 0, m.start()) + 1
            if tpart is not None and tpart not in allowed:
                problems.append("%s:%d: includes %s: %s may not depend on %s" % (rel, line, name, part, tpart))
            tmod = target.rsplit(".", 1)[0]
            if tmod != module:
                graph[module].add(tmod)
    for comp in sccs(graph):
        if len(comp) > 1:
            problems.append("include circle among: %s" % ", ".join(comp))
    return problems


def main(argv):
    if len(argv) > 2 or (len(argv) == 2 and argv[1] in ("-h", "--help")):
        print(__doc__.strip().splitlines()[0] + "\nusage: check_layers.py [ROOT]", file=sys.stderr)
        return 2
    root = argv[1] if len(argv) == 2 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if not os.path.isdir(os.path.join(root, "runtime")):
        print("check_layers: %s: no runtime/ folder here" % root, file=sys.stderr)
        return 2
    problems = check(root)
    for p in problems:
        print(p)
    if problems:
        print("check_layers: %d problem%s" % (len(problems), "" if len(problems) == 1 else "s"))
        return 1
    print("check_layers: layers and includes ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
