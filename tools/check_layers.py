#!/usr/bin/env python3
"""check_layers.py: fail on an #include that goes up the layers, an include circle between files, a system call made outside runtime/os, or a shared record's field written outside its declared writers.

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

A record several parts see (the region record, and the loop's state of a
region, which others read) has its writers declared per field in WRITERS
below: a write to a field from any other file, or a field declared
nowhere, is a problem. A write is an assignment (= and the compound ones),
++ or --, memset/memcpy into it, or its address taken anywhere but in an
__atomic_load_n (atomic stores, exchanges and adds take it), through a
pointer declared with the record's type in the same function or, for a
field no other struct of the tree has, through any expression. A tree
without a record's header (a planted one) is not checked for it: the
line that says all is well names the records it checked.

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

# Who may write each field of a shared record: {type: (its header, {field: files})}; "*" is every field.
REGION = "runtime/region/rt_region.c"
EVENTS = ("runtime/rt_events.c", "runtime/rt_events.h")
LOOP = "runtime/control/rt_loop.c"
WRITERS = {
    "rt_region_t": ("runtime/region/rt_region.h", {
        # identity: set once, when the table creates the record
        **{f: {REGION} for f in ("codeptr", "team_size", "id", "parent_id", "parent_index", "level", "construct")},
        # each thread's slot; a thread that ends leaves the slots it held
        "slot": {REGION, "runtime/region/rt_thread.c", *EVENTS},
        # the pins: the loop's decisions; each thread's bubble CPU, and its way back after a rollback
        "pin_cpu": {REGION, LOOP, "runtime/rt_events.c"},
        "back_cpu": {REGION, LOOP, "runtime/rt_events.c"},
        # where the loop is: written by the loop alone, read by the events at every execution
        **{f: {LOOP} for f in ("outcome", "measuring", "quiet", "confirming", "pins_applied", "blind", "resting")},
        # the TNT: the counter source fills it (through rt_loop_sample), the loop clears it to sample again
        "tnt": {REGION, LOOP},
        # what the events see and count at every execution
        **{f: {REGION, "runtime/rt_events.c"} for f in ("tid", "seen_cpu", "redirect", "busy_sum", "cp_min")},
        **{f: {"runtime/rt_events.c"} for f in ("nested", "cache_checked", "met", "timed_executions", "cp_sum",
                                                "cp_max", "source_pending", "source_waits", "repins", "refs_seen")},
        **{f: {"runtime/rt_events.c", "runtime/region/rt_region.h"} for f in ("ending", "executions")},
    }),
    "rt_loop_region_t": ("runtime/control/rt_loop.h", {"*": {LOOP}}),
}
# Comments and the insides of string and character literals, blanked (braces in strings would break scopes).
NOT_CODE = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
ASSIGN = re.compile(r'\s*(?:<<=|>>=|[-+*/%&|^]=|=(?!=)|\+\+|--)')


def code_of(text):
    """text with its comments blanked, newlines kept (line numbers stay true)."""
    return COMMENT.sub(lambda m: re.sub(r'[^\n]', ' ', m.group(0)), text)


def code_only(text):
    """text with comments and literal contents blanked, newlines kept."""
    return NOT_CODE.sub(lambda m: m.group(0)[0] + re.sub(r'[^\n]', ' ', m.group(0)[1:-1]) + m.group(0)[-1]
                        if m.group(0)[0] in "\"'" else re.sub(r'[^\n]', ' ', m.group(0)), text)


def body_fields(body):
    """The field names declared in a struct's body (nested bodies left out)."""
    while re.search(r'\{[^{}]*\}', body):
        body = re.sub(r'\{[^{}]*\}', ' ', body)
    fields = []
    for decl in body.split(";"):
        decl = re.sub(r'_Alignas\s*\([^)]*\)', ' ', decl)
        for part in decl.split(","):
            names = re.findall(r'([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)*(?::\s*\d+\s*)?$', part.strip())
            if names:
                fields.append(names[0])
    return fields


def struct_bodies(code):
    """(typedef name or "", body) of every struct and union defined in code."""
    out = []
    for m in re.finditer(r'\b(?:struct|union)\s*\w*\s*\{', code):
        depth, i = 0, m.end() - 1
        while i < len(code):
            depth += code[i] == "{"
            depth -= code[i] == "}"
            if depth == 0:
                break
            i += 1
        name = re.match(r'\}\s*(\w+)\s*;', code[i:])
        out.append((name.group(1) if name else "", code[m.end():i]))
    return out


def chunks(code):
    """(start, end) of each top-level declaration or function (its body included)."""
    out, depth, start = [], 0, 0
    for i, c in enumerate(code):
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                out.append((start, i + 1))
                start = i + 1
        elif c == ";" and depth == 0:
            out.append((start, i + 1))
            start = i + 1
    out.append((start, len(code)))
    return out


def skip_access(code, i):
    """From just after `p->field`: past its subscripts and member accesses."""
    while True:
        j = i
        while j < len(code) and code[j] in " \t\n":
            j += 1
        if j < len(code) and code[j] == "[":
            depth = 0
            while j < len(code):
                depth += code[j] == "["
                depth -= code[j] == "]"
                j += 1
                if depth == 0:
                    break
            i = j
            continue
        m = re.match(r'(?:\.|->)\s*\w+', code[j:])
        if m:
            i = j + m.end()
            continue
        return i


def foreign_writes(rel, code, rules, elsewhere):
    """Writes in code (one file, rel) to a field of a WRITERS record by a file not among its writers: through
    a pointer declared with the record's type, or, for a field no other struct has (elsewhere: the other
    structs' field names), through any expression."""
    problems = []
    for typename, (header, fields, writers) in rules.items():
        unique = fields - elsewhere
        tag = typename[:-2] if typename.endswith("_t") else typename
        decl = re.compile(r'\b(?:' + re.escape(typename) + r'|struct\s+' + re.escape(tag) + r')\s*\*+\s*(?:const\s+)?(\w+)([^;{()]*)')
        for start, end in chunks(code):
            chunk = code[start:end]
            names = set()
            for m in decl.finditer(chunk):
                names.add(m.group(1))
                names.update(re.findall(r',\s*\*+\s*(\w+)', m.group(2)))
            typed = r'(?<![\w.>])(?:' + "|".join(sorted(names)) + r')\s*->\s*(\w+)\b' if names else None
            anyhow = r'->\s*(' + "|".join(sorted(unique)) + r')\b' if unique else None
            if not typed and not anyhow:
                continue
            access = re.compile("|".join("(?:%s)" % a for a in (typed, anyhow) if a))
            for m in access.finditer(chunk):
                field = next(g for g in m.groups() if g)
                allowed = writers.get(field, writers.get("*"))
                if field not in fields or allowed is None or rel in allowed:
                    continue
                before = chunk[:m.start()].rstrip()
                after = chunk[skip_access(chunk, m.end()):]
                written = (ASSIGN.match(after) or before.endswith(("++", "--")) or
                           re.search(r'\b(?:memset|memcpy|memmove)\s*\(\s*$', before) or
                           (before.endswith("&") and not before.endswith("&&") and
                            not re.search(r'\b__atomic_load_n\s*\(\s*&$', before)))
                if written:
                    line = code.count("\n", 0, start + m.start()) + 1
                    problems.append("%s:%d: writes %s.%s, which only %s may write" % (
                        rel, line, typename, field, ", ".join(sorted(allowed))))
    return problems


def writer_rules(root, problems):
    """WRITERS with each record's fields read from its header, for the headers the tree has; a field without
    writers, or writers of a field the record has not, is a problem."""
    rules = {}
    for typename, (header, writers) in WRITERS.items():
        path = os.path.join(root, header)
        if not os.path.isfile(path):
            continue  # not in this tree (a planted one): the success line names the records it checked
        with open(path, encoding="utf-8", errors="replace") as fh:
            fields = next((body_fields(b) for n, b in struct_bodies(code_only(fh.read())) if n == typename), None)
        if fields is None:
            continue  # likewise
        for f in fields:
            if f not in writers and "*" not in writers:
                problems.append("%s: %s.%s has no declared writers (tools/check_layers.py WRITERS)" % (
                    header, typename, f))
        for f in sorted(set(writers) - set(fields) - {"*"}):
            problems.append("%s: %s has no field %s, whose writers tools/check_layers.py WRITERS declares" % (
                header, typename, f))
        rules[typename] = (header, set(fields), writers)
    return rules


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
    rules = writer_rules(root, problems)
    elsewhere = set()
    for rel in files:
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as fh:
            for name, body in struct_bodies(code_only(fh.read())):
                if name not in rules:
                    elsewhere.update(body_fields(body))
    for rel in files:
        part = part_of(rel)
        if part is None:
            continue
        allowed = closure(part)
        module = rel.rsplit(".", 1)[0]
        graph.setdefault(module, set())
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        problems.extend(foreign_writes(rel, code_only(text), rules, elsewhere))
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
    return problems, sorted(rules)


def main(argv):
    if len(argv) > 2 or (len(argv) == 2 and argv[1] in ("-h", "--help")):
        print(__doc__.strip().splitlines()[0] + "\nusage: check_layers.py [ROOT]", file=sys.stderr)
        return 2
    root = argv[1] if len(argv) == 2 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if not os.path.isdir(os.path.join(root, "runtime")):
        print("check_layers: %s: no runtime/ folder here" % root, file=sys.stderr)
        return 2
    problems, checked = check(root)
    for p in problems:
        print(p)
    if problems:
        print("check_layers: %d problem%s" % (len(problems), "" if len(problems) == 1 else "s"))
        return 1
    print("check_layers: layers and includes ok; writers checked for %s" % (", ".join(checked) or "no record"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
