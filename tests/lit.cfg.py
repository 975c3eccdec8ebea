# lit.cfg.py: how ompnuma's tests compile and run. The RUN lines of each test are its specification.
#
# Substitutions (see README "Tests"):
#   %clang-omp / %gcc-omp / %gfortran-omp  compile an OpenMP program (omp_numa.h on the include path)
#   %libompnuma                            link flags for the omp_numa_* API library
#   %stock <cmd>                           run on the stock LLVM runtime (no ompnuma)
#   %dropin <cmd>                          run with ompnuma's lib/ first on LD_LIBRARY_PATH
#   %ompt <cmd>                            run on the stock runtime with ompnuma's OMPT tool (OMP_TOOL_LIBRARIES)
#   %ompnuma                               the command line tool
#   %bindir %libdir %builddir %srcroot %inputs  paths
import ctypes.util
import importlib.machinery
import importlib.util
import os
import shutil
import shlex
import sys
import lit.formats
import lit.util

config.name = "ompnuma"
# RUN lines are POSIX shell (loops, $?, sh -c). lit 23 wants that said twice.
try:
    config.test_format = lit.formats.ShTest(execute_external=True, force_execute_external=True)
except TypeError:
    config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".c", ".f90", ".test", ".sh"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt", "README.md"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.ompnuma_build, "tests")

build = config.ompnuma_build
libdir = os.path.join(build, "lib")
bindir = os.path.join(build, "bin")
incdir = os.path.join(build, "include")

# Tests must not inherit the developer's OpenMP or ompnuma settings.
for var in list(os.environ):
    if var.startswith(("OMP_", "KMP_", "GOMP_", "HWLOC_", "LD_PRELOAD", "LD_LIBRARY_PATH")):
        config.environment.pop(var, None)
for var in ("HOME", "TMPDIR", "PATH"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
config.environment["OMP_NUM_THREADS"] = "2"

# The Python package (pyproject.toml) as this build ships it: build/share/ompnuma/python, links to the
# tree's folders. It comes first on the tests' PYTHONPATH and is the one lit's extensions import, so that
# the tests run this tree's Python whatever copy of the package the interpreter has installed.
pydir = os.path.join(build, "share", "ompnuma", "python")
config.environment["PYTHONPATH"] = pydir
_spec = importlib.machinery.PathFinder.find_spec("ompnuma", [pydir])
if _spec is None:
    lit_config.fatal("{} holds no Python package ompnuma: build first (tools/bootstrap build)".format(pydir))
sys.modules["ompnuma"] = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(sys.modules["ompnuma"])

common = "-O1 -g -I{}".format(incdir)
sanitize = " -fsanitize=address,undefined -fno-omit-frame-pointer" if config.ompnuma_sanitize else ""
def compiler(path, extra=""):
    return "{} -fopenmp {}{}{}".format(path, common, extra, sanitize)

# clang finds omp.h and omp-tools.h in its own resource directory; gcc keeps its
# own omp.h and stddef.h and gets LLVM's omp-tools.h only after them.
config.substitutions.append(("%clang-omp", compiler(config.ompnuma_clang)))
config.substitutions.append(("%gcc-path", config.ompnuma_gcc))
config.substitutions.append(("%clang-path", config.ompnuma_clang))
config.substitutions.append(("%gcc-omp", compiler(config.ompnuma_gcc, " -idirafter " + config.ompnuma_omp_include)))
config.substitutions.append(("%gfortran-omp", "{} -fopenmp -O1 -g -I{}".format(config.ompnuma_gfortran, incdir)))
config.substitutions.append(("%libompnuma", "-L{0} -lompnuma -Wl,-rpath,{0}".format(libdir)))
# %memlib: libompnuma.so by path (a -L to build/lib would make -lomp pick the
# drop-in facade at link time). %rt-internals: white-box tests of runtime
# internals: every part's include directory and the static libraries, from
# the build's targets (tests/CMakeLists.txt).
config.substitutions.insert(0, ("%memlib", "{0}/libompnuma.so -Wl,-rpath,{0}".format(libdir)))
config.substitutions.insert(0, ("%rt-internals", " ".join(
    ["-I" + d for d in config.ompnuma_internal_includes] + config.ompnuma_internal_libs +
    ["-lhwloc", "-lnuma", "-ldw", "-lelf", "-lpthread", "-ldl", "-lm"])))
config.substitutions.append(("%stock", "env -u LD_LIBRARY_PATH"))
config.substitutions.append(("%dropin", "env LD_LIBRARY_PATH={}".format(libdir)))
# The other route: ompnuma's OMPT tool on the stock runtime, no drop-in.
config.substitutions.append(("%ompt", "env -u LD_LIBRARY_PATH OMP_TOOL_LIBRARIES={}".format(
    os.path.join(libdir, "libompnuma.so"))))
config.substitutions.append(("%ompnuma", os.path.join(bindir, "ompnuma")))
config.substitutions.append(("%bindir", bindir))
config.substitutions.append(("%libdir", libdir))
config.substitutions.append(("%builddir", build))
config.substitutions.append(("%srcroot", config.ompnuma_src))
config.substitutions.append(("%real-libomp", config.ompnuma_real_libomp))
config.substitutions.append(("%python", config.ompnuma_python))
config.substitutions.append(("%FileCheck", config.ompnuma_filecheck))
config.substitutions.append(("%not", config.ompnuma_not))

# Plain `FileCheck` and `not` in RUN lines resolve through PATH to LLVM 19's.
llvm_bin = os.path.dirname(os.path.realpath(config.ompnuma_filecheck)) if config.ompnuma_filecheck else ""
config.environment["PATH"] = os.pathsep.join(p for p in (llvm_bin, bindir, config.environment.get("PATH", "")) if p)

for feature in config.ompnuma_features:
    if feature:
        config.available_features.add(feature)
if config.ompnuma_sanitize:
    config.available_features.add("asan")
# app-<name>: the application corpus's caller build/bin/app-<name> is built (benchmarks/apps builds each
# only where its Debian packages are installed, benchmarks/apps/deps.txt; CI does not install them).
if os.path.isdir(bindir):
    for _name in os.listdir(bindir):
        if _name.startswith("app-") and os.access(os.path.join(bindir, _name), os.X_OK):
            config.available_features.add(_name)
# avx2: the CPU running the tests has AVX2, for which the placement library's
# greedy set-up has its own path (tested against the portable one).
try:
    with open("/proc/cpuinfo") as _f:
        if any(_l.startswith("flags") and " avx2" in _l for _l in _f):
            config.available_features.add("avx2")
except OSError:
    pass
# debuginfod: libdebuginfod is installed, whose servers (DEBUGINFOD_URLS) libdwfl's standard search for
# separate debug files asks over the network.
if ctypes.util.find_library("debuginfod"):
    config.available_features.add("debuginfod")
# as-nobody: the suite runs as root with setpriv(1), so that a test can run a
# program as user nobody, for whom file permissions hold.
if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("setpriv"):
    config.available_features.add("as-nobody")
    config.substitutions.append(("%as-nobody", "setpriv --reuid=65534 --regid=65534 --clear-groups"))
# cpuset-v1: the suite runs as root where cgroup v1's cpuset controller is mounted at /sys/fs/cgroup/cpuset,
# so that a test can run a program in a cpuset of its own (tests/runtime/os/Inputs/in_cpuset.py).
if hasattr(os, "geteuid") and os.geteuid() == 0 and os.access("/sys/fs/cgroup/cpuset/cpuset.cpus", os.R_OK) \
        and os.access("/sys/fs/cgroup/cpuset", os.W_OK):
    config.available_features.add("cpuset-v1")
# fake-sysfs: the suite runs as root with unshare(1) and /proc/self/cpuset, so that a test can show a program a
# machine of its own making in a private mount namespace (tests/runtime/os/Inputs/fake_machine.py).
if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("unshare") and os.path.exists("/proc/self/cpuset"):
    config.available_features.add("fake-sysfs")
# kernel-timing: tests whose outcome depends on how fast the guest kernel
# scans and migrates (Linux's automatic NUMA balancing); run them with
# OMPNUMA_TEST_KERNEL_TIMING=1, they are not part of the default suite.
if os.environ.get("OMPNUMA_TEST_KERNEL_TIMING") == "1":
    config.available_features.add("kernel-timing")

# Extensions: each tests/<layer>/lit_ext.py may add features and substitutions
# (for example the NUMA virtual machine tier). They run in sorted order.
for name in sorted(os.listdir(config.test_source_root)):
    ext = os.path.join(config.test_source_root, name, "lit_ext.py")
    if os.path.isfile(ext):
        spec = importlib.util.spec_from_file_location("ompnuma_lit_ext_" + name, ext)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        mod.configure(config, lit_config)
