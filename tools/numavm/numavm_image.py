"""numavm_image.py: what the guest contains: mirrored host files, their library closure, the initramfs."""

import hashlib
import json
import os
import shutil
import stat
import subprocess

from ompnuma.numavm import numavm_guest

# Paths the guest provides itself; shipping host files there would be wrong.
RESERVED = ("/proc", "/sys", "/dev", "/.numavm")
# hwloc loads its plugins with dlopen, so ldd never lists them. A plugin whose
# closure is larger than this (the libxml2 one pulls 30 MiB of ICU data) is left
# out: each MiB of initramfs costs ~14 ms of boot, and hwloc works without it.
PLUGIN_CLOSURE_CAP = 4 << 20
HWLOC_PLUGIN_DIRS = ("/usr/lib/x86_64-linux-gnu/hwloc", "/usr/lib/hwloc", "/usr/local/lib/hwloc")
# Host tools worth having in every guest (when installed).
BASE_TOOLS = ("numactl", "lstopo-no-graphics", "hwloc-calc", "hwloc-bind")
# Libraries a shipped object loads with dlopen, so ldd never lists them: ompnuma's
# runtime loads elfutils' libdw when it first names code (runtime/os/rt_symbol.c).
# Shipped with the object, with their own closure, where the host has them.
DLOPENED = {"libompnuma.so": ("libdw.so.1",)}
LIBRARY_DIRS = ("/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu", "/usr/lib64", "/lib64", "/usr/lib", "/lib")


class ImageError(Exception):
    """A file cannot be shipped (missing, missing libraries, reserved path)."""


class Tree:
    """A set of guest paths mirroring host paths: files, symlinks and directories.

    Guest paths equal host paths. Symlinks met on the way (/lib -> usr/lib,
    libnuma.so.1 -> libnuma.so.1.0.0) are reproduced and followed, so the
    guest sees the host's layout and every name a program may use."""

    def __init__(self):
        self.entries = {}  # guest path -> ("dir",) | ("file", host path) | ("symlink", target) | ("data", bytes)

    def _dir(self, path):
        if path in ("", "/"):
            return
        self._dir(os.path.dirname(path))
        if path not in self.entries:
            self.entries[path] = ("dir",)

    def add_data(self, path, data):
        self._dir(os.path.dirname(path))
        self.entries[path] = ("data", data)

    def add_dir(self, path):
        self._dir(path)

    def add_symlink(self, path, target):
        self._dir(os.path.dirname(path))
        self.entries[path] = ("symlink", target)

    def add_host(self, path, recurse=True, _depth=0):
        """Mirror host path (absolute) into the tree; directories recursively."""
        if _depth > 40:
            raise ImageError("{}: too many levels of symbolic links".format(path))
        path = os.path.normpath(path)
        check_shippable(path)
        parts = path.split("/")[1:]
        cur = ""
        for i, comp in enumerate(parts):
            cur += "/" + comp
            if os.path.islink(cur):
                target = os.readlink(cur)
                self.add_symlink(cur, target)
                resolved = os.path.normpath(os.path.join(os.path.dirname(cur), target))
                rest = "/".join(parts[i + 1:])
                return self.add_host(resolved + ("/" + rest if rest else ""), recurse, _depth + 1)
        if os.path.isdir(path):
            self._dir(path)
            if recurse:
                for name in sorted(os.listdir(path)):
                    self.add_host(os.path.join(path, name), True, _depth)
        elif os.path.isfile(path):
            self._dir(os.path.dirname(path))
            self.entries[path] = ("file", path)
        elif os.path.exists(path):
            raise ImageError("{}: only regular files, directories and symbolic links can be shipped".format(path))
        else:
            raise ImageError("{}: no such file".format(path))

    def graft(self, prefix, other):
        """Add every entry of other under the directory prefix."""
        self._dir(prefix)
        for path, entry in other.entries.items():
            self._dir(prefix + os.path.dirname(path))
            self.entries[prefix + path] = entry

    def host_files(self):
        return [e[1] for e in self.entries.values() if e[0] == "file"]

    def size(self):
        total = 0
        for e in self.entries.values():
            if e[0] == "file":
                total += os.path.getsize(e[1])
            elif e[0] == "data":
                total += len(e[1])
        return total


def check_shippable(path):
    for r in RESERVED:
        if path == r or path.startswith(r + "/"):
            raise ImageError("{}: cannot ship files under {} (the guest provides its own)".format(path, r))


def is_elf(path):
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


def ldd_closure(files, env_overrides):
    """Shared libraries the host's loader resolves for these ELF files.

    ldd runs with LD_LIBRARY_PATH and LD_PRELOAD as the guest command will
    have them (env_overrides), so the guest loader finds exactly these.
    Returns (libraries, missing) where missing is [(file, soname)]."""
    elves = [f for f in files if is_elf(f)]
    if not elves:
        return [], []
    env = {k: v for k, v in os.environ.items() if k not in ("LD_LIBRARY_PATH", "LD_PRELOAD")}
    for k in ("LD_LIBRARY_PATH", "LD_PRELOAD"):
        if k in env_overrides:
            env[k] = env_overrides[k]
    libs, missing = [], []
    # One ldd call for many files prints "file:" headers; a single file has none.
    chunk = 200
    for start in range(0, len(elves), chunk):
        batch = elves[start:start + chunk]
        proc = subprocess.run(["ldd"] + batch, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              env=env, check=False)
        current = batch[0]
        for raw in proc.stdout.decode("utf-8", "surrogateescape").splitlines():
            if not raw.startswith(("\t", " ")):
                if raw.endswith(":") and raw[:-1] in batch:
                    current = raw[:-1]
                continue
            line = raw.strip()
            if "=>" in line:
                name, _, rest = line.partition("=>")
                rest = rest.strip()
                if rest.startswith("not found"):
                    missing.append((current, name.strip()))
                    continue
                lib = rest.rsplit(" (", 1)[0].strip()
                if lib.startswith("/"):
                    libs.append(lib)
            elif line.startswith("/"):
                # The dynamic loader itself: "/lib64/ld-linux-x86-64.so.2 (0x...)".
                libs.append(line.rsplit(" (", 1)[0].strip())
    return sorted(set(libs)), missing


def dlopened(files):
    """The host paths of the libraries these files load with dlopen (DLOPENED), where installed."""
    out = []
    for f in files:
        for soname in DLOPENED.get(os.path.basename(f), ()):
            found = [os.path.join(d, soname) for d in LIBRARY_DIRS if os.path.exists(os.path.join(d, soname))]
            out.extend(found[:1])
    return sorted(set(out))


def add_with_closure(tree, paths, env_overrides):
    """Mirror paths and the libraries they need (also those they load with dlopen, DLOPENED);
    raise ImageError naming any missing library."""
    for p in paths:
        tree.add_host(p)
    for lib in dlopened(sorted(set(os.path.realpath(f) for f in tree.host_files()))):
        tree.add_host(lib)
    files = sorted(set(os.path.realpath(f) for f in tree.host_files()))
    libs, missing = ldd_closure(files, env_overrides)
    if missing:
        lines = ["{} needs {}, which the host's loader cannot find".format(f, so) for f, so in missing]
        raise ImageError("missing shared libraries:\n  " + "\n  ".join(lines))
    for lib in libs:
        tree.add_host(lib)


# A script names more files to ship with lines of this form (the programs it runs, their data).
SCRIPT_FILE_TAG = "# ompnuma-vm-file:"

# Run by the script's Python interpreter on the host, one JSON object: the executable (unresolved: a
# venv's interpreter is a symlink out of it) and the venv's pyvenv.cfg; the files of the modules the
# script imports (modulefinder reads its code, the conditional imports too; found first in the script's
# own directory, as when it runs), of those the interpreter imports as it starts, and the whole encodings
# package (a script's coding declaration, a codec looked up by name); the modules modulefinder could not
# find that the interpreter can import (through an import hook, such as an editable install's).
PYTHON_MODULES = r"""
import encodings, importlib.util, json, modulefinder, os, sys
script = sys.argv[1]
sys.path[0] = os.path.dirname(os.path.realpath(script))
finder = modulefinder.ModuleFinder()
finder.run_script(script)
files = [m.__file__ for m in list(finder.modules.values()) + list(sys.modules.values())
         if getattr(m, "__file__", None)]
enc = os.path.dirname(encodings.__file__)
files += [os.path.join(enc, f) for f in os.listdir(enc) if f.endswith(".py")]
def from_file(name):
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return False
    return spec is not None and spec.has_location
hooked = sorted(n for n in finder.badmodules if "." not in n and from_file(n))
cfg = os.path.join(sys.prefix, "pyvenv.cfg")
print(json.dumps({"executable": sys.executable, "venv": cfg if sys.prefix != sys.base_prefix else None,
                  "files": files, "hooked": hooked}))
"""


def script_run(path, search_path):
    """How the guest runs an interpreted script (a `#!` first line), or None for anything else:
    (argv, files, warnings). argv runs it without the script and its arguments: the interpreter the
    host's lookup of the `#!` line ends at (resolved through the host's PATH, that line may end in a
    shell-script wrapper, pyenv's shims, which the guest cannot follow; the job root has no /bin/sh of
    its own). files: what to ship with it: the interpreter, the files the script's SCRIPT_FILE_TAG lines
    name, and for a Python script the modules it and its interpreter import. `#!/usr/bin/env NAME` is
    taken, with -S splitting the rest into words; env's other options and assignments are refused, as
    a `#!` line is that its host cannot run."""
    try:
        with open(path, "rb") as f:
            head = f.read(65536).decode("utf-8", "surrogateescape")
    except OSError as e:
        raise ImageError("{}: {}".format(path, e.strerror))
    if not head.startswith("#!"):
        return None
    line = head[2:].split("\n", 1)[0].strip()
    if not line:
        raise ImageError("{}: an empty #! line".format(path))
    # The kernel splits at the first blank and passes the rest of the line as one argument.
    interp, rest = (line.split(None, 1) + [""])[:2]
    args = [rest] if rest else []
    if os.path.basename(interp) == "env":
        words = rest.split()
        if words[:1] in (["-S"], ["--split-string"]):
            words = words[1:]
        elif len(words) > 1:
            words = []  # env looks for a program named by the whole rest, blanks and all
        if not words or words[0].startswith("-") or "=" in words[0]:
            raise ImageError("{}: #!{}: env's options other than -S, and its assignments, are not supported"
                             .format(path, line))
        interp, args = words[0], words[1:]
        found = shutil.which(interp, path=search_path)
    else:
        found = interp if os.path.isfile(interp) else None
    if not found:
        raise ImageError("{}: its interpreter {} is not on the host".format(path, interp))
    # A relative path is the script's own directory's (a file installed beside it).
    here = os.path.dirname(os.path.realpath(path))
    files = [os.path.join(here, ln[len(SCRIPT_FILE_TAG):].strip()) for ln in head.splitlines()
             if ln.startswith(SCRIPT_FILE_TAG)]
    for f in files:
        if not os.path.lexists(f):
            raise ImageError("{}: names {} to ship ({}), which is not on the host".format(path, f, SCRIPT_FILE_TAG))
    warnings = []
    if os.path.basename(interp).startswith("python"):
        found, modules, hooked = python_closure(found, path, search_path)
        files += modules
        if hooked:
            warnings.append("{} imports {} through an import hook the VM cannot follow (an editable "
                            "install?): not shipped".format(path, ", ".join(hooked)))
    return [found] + args, [found] + files, warnings


def python_closure(found, script, search_path):
    """(the executable the host runs for the interpreter found, the files to ship with it, the modules
    imported through hooks): PYTHON_MODULES, run by it."""
    env = dict(os.environ, PATH=search_path)
    run = subprocess.run([found, "-c", PYTHON_MODULES, script], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env=env, universal_newlines=True)
    try:
        out = json.loads(run.stdout) if run.returncode == 0 else None
    except ValueError:
        out = None
    if not out:
        last = run.stderr.strip().splitlines()
        raise ImageError("{}: {} cannot list the modules it imports{}".format(
            script, found, ": " + last[-1] if last else ""))
    files = [f for f in out["files"] if os.path.isfile(f)] + ([out["venv"]] if out["venv"] else [])
    return out["executable"], sorted(set(files)), out["hooked"]


def find_busybox():
    path = shutil.which("busybox")
    if not path:
        raise ImageError("busybox is not installed (Debian package busybox-static)")
    path = os.path.realpath(path)
    libs, _ = ldd_closure([path], {})
    if libs:
        raise ImageError("{} is dynamically linked; the guest needs busybox-static".format(path))
    return path


def busybox_applets(busybox):
    out = subprocess.run([busybox, "--list"], stdout=subprocess.PIPE, check=True).stdout.decode()
    return sorted(a for a in out.split() if a and "/" not in a)


def hwloc_plugins():
    chosen = []
    for d in HWLOC_PLUGIN_DIRS:
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            plugin = os.path.join(d, name)
            if not name.endswith(".so"):
                continue
            libs, missing = ldd_closure([plugin], {})
            if missing:
                continue
            if sum(os.path.getsize(os.path.realpath(l)) for l in libs) > PLUGIN_CLOSURE_CAP:
                continue
            chosen.append(plugin)
    return chosen


def base_tree(busybox, modules_dir, modules):
    """The initramfs shared by every run of a machine: the agent, modules, /base (the job's lower layer)."""
    tree = Tree()
    tree.add_data("/init", numavm_guest.INIT.encode())
    tree.add_symlink("/bin", "usr/bin")
    tree.entries["/usr/bin/busybox"] = ("file", busybox)
    tree.add_dir("/usr/bin")
    for applet in busybox_applets(busybox):
        if applet != "busybox":
            tree.add_symlink("/usr/bin/" + applet, "busybox")
    for d in ("/proc", "/sys", "/dev", "/jobs", "/host", "/modules"):
        tree.add_dir(d)
    for m in modules:
        tree.entries["/modules/{}.ko".format(m)] = ("file", os.path.join(modules_dir, m + ".ko"))

    # /base: the read-only lower layer every job's files go over.
    base = Tree()
    tools = [shutil.which(t) for t in BASE_TOOLS]
    tools = [t for t in tools if t]
    for extra in ("/etc/ld.so.cache", "/etc/ld.so.conf"):
        # The host's loader cache: the guest loader then resolves every shipped
        # library exactly as the host did; entries naming files that were not
        # shipped fall through to the default directories.
        if os.path.isfile(extra):
            base.add_host(extra)
    if os.path.isdir("/etc/ld.so.conf.d"):
        base.add_host("/etc/ld.so.conf.d")
    add_with_closure(base, tools + hwloc_plugins(), {})
    base.add_data("/etc/passwd", b"root:x:0:0:root:/root:/bin/sh\n")
    base.add_data("/etc/group", b"root:x:0:\n")
    for d in ("/proc", "/sys", "/dev", "/tmp", "/root", "/.numavm/bin"):
        base.add_dir(d)
    base.entries["/.numavm/bin/busybox"] = ("file", busybox)
    for applet in busybox_applets(busybox):
        if applet != "busybox":
            base.add_symlink("/.numavm/bin/" + applet, "busybox")
    tree.graft("/base", base)
    return tree


def tree_key(tree, extra=""):
    """Content key of a tree: paths, kinds, and each host file's size and mtime."""
    h = hashlib.sha256(extra.encode())
    for path in sorted(tree.entries):
        e = tree.entries[path]
        h.update(path.encode("utf-8", "surrogateescape") + b"\0" + e[0].encode() + b"\0")
        if e[0] == "file":
            st = os.stat(e[1])
            h.update("{}:{}:{}".format(e[1], st.st_size, st.st_mtime_ns).encode("utf-8", "surrogateescape"))
        elif e[0] == "symlink":
            h.update(e[1].encode("utf-8", "surrogateescape"))
        elif e[0] == "data":
            h.update(e[1])
    return h.hexdigest()[:24]


# --- newc cpio, the format the kernel unpacks into its initial root file system.

def _cpio_entry(out, ino, name, mode, data):
    name_b = name.encode("utf-8", "surrogateescape") + b"\0"
    fields = [ino, mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(name_b), 0]
    out.write(b"070701" + b"".join(b"%08X" % f for f in fields))
    out.write(name_b)
    out.write(b"\0" * ((-(110 + len(name_b))) % 4))
    out.write(data)
    out.write(b"\0" * ((-len(data)) % 4))


def write_cpio(tree, out, prefix=""):
    """Append tree (paths prefixed with prefix) to the open binary file out as one archive."""
    ino = 1
    # Sorted paths put every directory before what it contains.
    for path in sorted(tree.entries):
        e = tree.entries[path]
        name = (prefix + path).lstrip("/")
        if e[0] == "dir":
            mode, data = stat.S_IFDIR | (0o1777 if path.endswith("/tmp") else 0o755), b""
        elif e[0] == "symlink":
            mode, data = stat.S_IFLNK | 0o777, e[1].encode("utf-8", "surrogateescape")
        elif e[0] == "data":
            mode, data = stat.S_IFREG | 0o755, e[1]
        else:
            st = os.stat(e[1])
            mode = stat.S_IFREG | stat.S_IMODE(st.st_mode)
            with open(e[1], "rb") as f:
                data = f.read()
        _cpio_entry(out, ino, name, mode, data)
        ino += 1
    _cpio_entry(out, ino, "TRAILER!!!", 0, b"")
    # The kernel skips NUL padding between concatenated archives.
    pos = out.tell()
    out.write(b"\0" * ((-pos) % 512))


def copy_tree(tree, root):
    """Materialise tree under the host directory root (for the pooled VM's 9p share)."""
    for path in sorted(tree.entries):
        e = tree.entries[path]
        dest = root + path
        if e[0] == "dir":
            os.makedirs(dest, exist_ok=True)
            os.chmod(dest, 0o1777 if path.endswith("/tmp") else 0o755)
        elif e[0] == "symlink":
            os.symlink(e[1], dest)
        elif e[0] == "data":
            with open(dest, "wb") as f:
                f.write(e[1])
            os.chmod(dest, 0o755)
        else:
            shutil.copyfile(e[1], dest)
            os.chmod(dest, stat.S_IMODE(os.stat(e[1]).st_mode))
