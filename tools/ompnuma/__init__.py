"""ompnuma: the project's Python as one package (pyproject.toml maps each subpackage onto a folder of the tree).

  ompnuma.numavm   tools/numavm        the NUMA VM harness (`ompnuma vm`) and the emulator's counts reader
  ompnuma.report   tools/report        the exit report renderer (`ompnuma report`)
  ompnuma.harness  benchmarks/harness  the benchmark harness (`ompnuma bench`, benchmarks/run)
  ompnuma.demo     tools/demo          the emulated demo's summary

The tree's scripts import it as installed by tools/bootstrap (editable); a build or an installation ships it as
<prefix>/share/ompnuma/python/ompnuma, which `ompnuma`'s Python subcommands and the lit suite put first on
PYTHONPATH, so that they run the Python of their own build."""
import os


def share_dir(module_file):
    """<prefix>/share/ompnuma when module_file (a module's __file__) is in the copy of this package that a build
    or an installation ships there (share/ompnuma/python/ompnuma/<subpackage>/), else None: a module of the
    source tree."""
    parts = os.path.abspath(module_file).split(os.sep)
    if parts[-6:-2] == ["share", "ompnuma", "python", "ompnuma"]:
        return os.sep.join(parts[:-4])
    return None


def built_file(module_file, *rel):
    """The path of a built file, <prefix>/<rel...>, or None when it is not there. The prefixes tried: the build or
    installation that ships module_file (share_dir), then $OMPNUMA_BUILD_DIR or the source tree's build/."""
    share = share_dir(module_file)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(module_file))))
    for prefix in (os.path.join(share, "..", "..") if share else None,
                   os.environ.get("OMPNUMA_BUILD_DIR") or os.path.join(root, "build")):
        if prefix and os.path.isfile(os.path.join(prefix, *rel)):
            return os.path.abspath(os.path.join(prefix, *rel))
    return None
