"""suite_needs.py SRCROOT SITE_CFG PROBE_RC: the suite's needs are detectable (suite-needs-detectable.test).

Prints one line per finding:
  feature sanitizer-runtime: detected|absent, link probe: ok|fails
  unguarded: FILE   a test that builds with -fsanitize but does not REQUIRE sanitizer-runtime (or asan)
  deps: PACKAGE listed|missing   the set-up installs the sanitizer runtime
"""
import os
import re
import sys

src, site, probe_rc = sys.argv[1], sys.argv[2], int(sys.argv[3])
text = open(site).read()
features = re.search(r'ompnuma_features = "([^"]*)"', text).group(1).split(";")
print("feature sanitizer-runtime: {}, link probe: {}".format(
    "detected" if "sanitizer-runtime" in features else "absent", "ok" if probe_rc == 0 else "fails"))
for root, dirs, files in os.walk(os.path.join(src, "tests")):
    dirs[:] = [d for d in dirs if d != "Inputs"]
    for name in sorted(files):
        if not name.endswith((".c", ".f90", ".test", ".sh")):
            continue
        path = os.path.join(root, name)
        body = open(path, errors="replace").read()
        runs = "\n".join(l for l in body.splitlines() if "RUN:" in l)
        if "-fsanitize" not in runs or "suite_needs.py" in runs:  # the probe of this check itself
            continue
        needs = " ".join(l.split("REQUIRES:", 1)[1] for l in body.splitlines() if "REQUIRES:" in l)
        if not re.search(r"\b(sanitizer-runtime|asan)\b", needs):
            print("unguarded:", os.path.relpath(path, src))
deps = open(os.path.join(src, "tools", "deps", "apt.txt")).read().split()
print("deps: libclang-rt-19-dev", "listed" if "libclang-rt-19-dev" in deps else "missing")
