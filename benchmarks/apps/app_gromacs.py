#!/usr/bin/env python3
"""app_gromacs.py: Debian's GROMACS (gromacs's gmx, libgromacs linked to libgomp.so.1) running a short molecular dynamics run of a box of SPC/E water built from the package's own files, for the benchmark harness: a Debian program built against libgomp, unmodified, run by a small caller (build/bin/app-gromacs)."""
import hashlib
import math
import os
import re
import subprocess
import sys
import tempfile
import time

# The build writes this script as build/bin/app-gromacs (benchmarks/apps/CMakeLists.txt) where it finds
# gmx and the package's data: the program's path and the directory of spc216.gro and oplsaa.ff.
GMX = "@OMPNUMA_GMX@"
TOPDIR = "@OMPNUMA_GMX_TOP@"
# What `ompnuma vm` ships with this script (the VM runs gmx too, on the package's data):
# ompnuma-vm-file: @OMPNUMA_GMX@
# ompnuma-vm-file: @OMPNUMA_GMX_TOP@

SEED = 29
SPC216_EDGE = 1.86206  # nm: spc216.gro's cubic box, 216 waters equilibrated at 300 K
REF_T = 300.0
MDRUN_FLAGS = ["-ntmpi", "1", "-nb", "cpu", "-pin", "off", "-reprod", "-nstlist", "40"]

USAGE = """usage: app-gromacs [COPIES [STEPS]]

A cubic box of COPIES x COPIES x COPIES copies (2 by default; 2..6) of GROMACS's spc216.gro, 216 SPC/E
waters equilibrated at 300 K in a 1.86206 nm box, tiled by `gmx genconf -nbox` (216 COPIES^3 waters, no
overlap at the copies' faces: the box is periodic), with the package's OPLS-AA force field and its
spce.itp (rigid water, SETTLE). Then `gmx grompp` of an mdp written here and STEPS steps (500 by default;
1..1000000) of 2 fs: leap-frog, Verlet lists, PME with 1.0 nm cut-offs, V-rescale at 300 K, velocities
generated at 300 K with seed %d, no trajectory, and
  gmx mdrun %s -ntomp N
N the first number of OMP_NUM_THREADS, else the CPUs this process may use (mdrun refuses an -ntomp that
differs from OMP_NUM_THREADS). One thread-MPI rank, non-bonded kernels on the CPU, no pinning by GROMACS
(the OpenMP runtime places the team), -reprod: the same result, bit for bit, for one team size.
mdrun's stdout and stderr are copied to this caller's stderr after it ends (genconf's and grompp's if
they fail). "Time in seconds = ..." is mdrun's own wall time of its run (md.log, "Time:"), the set-up
left out. "Checksum = ..." is BLAKE2b (8 bytes) of the final coordinates and velocities mdrun writes
(-c final.g96, 9 decimals: every bit of its single-precision state). "Verification = SUCCESSFUL" when
every step exited with 0, md.log's last frame is step STEPS, its energies and the run's averages are
finite, the final temperature is within 10 %% and the average within 5 %% of 300 K, the final potential
energy is -50 to -42 kJ/mol a water (SPC/E's liquid: about -46.6), and final.g96 has every atom.""" % (
    SEED, " ".join(MDRUN_FLAGS))

TOPOLOGY = """; app-gromacs: %(waters)d SPC/E waters, GROMACS's own force field and water model
#include "oplsaa.ff/forcefield.itp"
#include "oplsaa.ff/spce.itp"

[ system ]
app-gromacs water

[ molecules ]
SOL %(waters)d
"""

MDP = """; app-gromacs: %(steps)d steps of 2 fs of SPC/E water at 300 K
include              = -I%(topdir)s
integrator           = md
dt                   = 0.002
nsteps               = %(steps)d
nstcalcenergy        = 10
nstenergy            = 50
nstlog               = 50
nstxout              = 0
nstvout              = 0
nstfout              = 0
nstxout-compressed   = 0
cutoff-scheme        = Verlet
coulombtype          = PME
rcoulomb             = 1.0
vdwtype              = Cut-off
rvdw                 = 1.0
DispCorr             = EnerPres
fourierspacing       = 0.12
tcoupl               = V-rescale
tc-grps              = System
tau-t                = 0.1
ref-t                = %(ref_t)g
pcoupl               = no
gen-vel              = yes
gen-temp             = %(ref_t)g
gen-seed             = %(seed)d
ld-seed              = %(seed)d
constraints          = none
"""


def team():
    """The team mdrun is told to run (-ntomp): OMP_NUM_THREADS's first number, else the CPUs it may use."""
    first = os.environ.get("OMP_NUM_THREADS", "").split(",")[0].strip()
    return int(first) if first.isdigit() and int(first) > 0 else len(os.sched_getaffinity(0))


def energy_frames(log):
    """[(line index, step or None, {name: value})] of md.log's "Energies (kJ/mol)" tables: names in
    columns of 15 characters, their values on the next line; the averages' table has no step."""
    lines = log.splitlines()
    frames = []
    for i, line in enumerate(lines):
        if line.strip() != "Energies (kJ/mol)":
            continue
        values, j = {}, i + 1
        while j + 1 < len(lines) and lines[j].strip():
            names = [lines[j][k:k + 15].strip() for k in range(0, len(lines[j]), 15)]
            row = lines[j + 1].split()
            if len(row) != len(names):
                break
            try:
                values.update(zip(names, (float(v) for v in row)))
            except ValueError:
                break
            j += 2
        step = None
        for k in range(i - 1, max(i - 12, 0), -1):  # "Writing checkpoint ..." may come between
            if lines[k].split() == ["Step", "Time"] and k + 1 < len(lines):
                step = int(lines[k + 1].split()[0])
                break
        frames.append((i, step, values))
    return frames


def g96_atoms(text):
    """The lines of final.g96's POSITION block."""
    m = re.search(r"^POSITION\n(.*?)^END$", text, re.S | re.M)
    return len(m.group(1).splitlines()) if m else 0


def run(cmd, cwd):
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return p.returncode, p.stdout.decode(errors="replace")


def main(argv):
    name = "app-gromacs"
    if argv[:1] in (["-h"], ["--help"]):
        print(USAGE)
        return 0
    try:
        copies, steps = ([int(x) for x in argv] + [2, 500][len(argv):]) if len(argv) <= 2 else (0, 0)
    except ValueError:
        copies = steps = 0
    if not 2 <= copies <= 6 or not 1 <= steps <= 1000000:
        print("%s: COPIES 2..6, STEPS 1..1000000\n%s" % (name, USAGE), file=sys.stderr)
        return 2
    if GMX.startswith("@"):
        print("%s: run the build's copy, build/bin/app-gromacs (it knows gmx and its data)" % name,
              file=sys.stderr)
        return 2
    waters, n = 216 * copies ** 3, team()
    mdrun = [GMX, "-quiet", "mdrun", "-s", "md.tpr", "-deffnm", "md", "-c", "final.g96"] + MDRUN_FLAGS + [
        "-ntomp", str(n)]
    why, out, log, final, seconds, elapsed = "", "", "", "", None, 0.0
    with tempfile.TemporaryDirectory(prefix=name + ".") as d:
        with open(os.path.join(d, "topol.top"), "w") as f:
            f.write(TOPOLOGY % {"waters": waters})
        with open(os.path.join(d, "md.mdp"), "w") as f:
            f.write(MDP % {"steps": steps, "topdir": TOPDIR, "ref_t": REF_T, "seed": SEED})
        for step, cmd in (("genconf", [GMX, "-quiet", "genconf", "-f", os.path.join(TOPDIR, "spc216.gro"),
                                       "-nbox", str(copies), str(copies), str(copies), "-o", "conf.gro"]),
                          ("grompp", [GMX, "-quiet", "grompp", "-f", "md.mdp", "-c", "conf.gro", "-p", "topol.top",
                                      "-o", "md.tpr", "-po", "mdout.mdp"])):
            status, text = run(cmd, d)
            if status != 0:
                sys.stderr.write(text)
                why = "gmx %s exit status %d" % (step, status)
                break
        if not why:
            t0 = time.monotonic()
            status, out = run(mdrun, d)
            elapsed = time.monotonic() - t0
            for fname in ("md.log", "final.g96"):
                try:
                    with open(os.path.join(d, fname), errors="replace") as f:
                        text = f.read()
                except OSError:
                    text = ""
                if fname == "md.log":
                    log = text
                else:
                    final = text
            if status != 0:
                why = "gmx mdrun exit status %d" % status
    sys.stderr.write(out)
    threads = re.search(r"^Using (\d+) OpenMP threads?", log, re.M)
    print("%s: gmx mdrun %s -ntomp %d, %d SPC/E waters (spc216.gro %dx%dx%d, box %.3f nm), %d steps of 2 fs, "
          "seed %d, %s threads" % (name, " ".join(MDRUN_FLAGS), n, waters, copies, copies, copies,
                                   copies * SPC216_EDGE, steps, SEED, threads.group(1) if threads else "?"))
    wall = re.search(r"^\s*Time:\s+\S+\s+(\S+)", log, re.M)
    if wall:
        seconds = float(wall.group(1))
    elif not why and log:
        why = "no run time in md.log"
    frames = energy_frames(log)
    averages = next((i for i, line in enumerate(log.splitlines()) if "A V E R A G E S" in line), -1)
    last = [fr for fr in frames if averages < 0 or fr[0] < averages]
    mean = [fr for fr in frames if averages >= 0 and fr[0] > averages]
    if not why:
        t_last = last[-1][2].get("Temperature", math.nan) if last else math.nan
        t_mean = mean[0][2].get("Temperature", math.nan) if mean else math.nan
        epot = last[-1][2].get("Potential", math.nan) / waters if last else math.nan
        print("Temperature = %.2f K (final), %.2f K (average)" % (t_last, t_mean))
        print("Potential energy = %.3f kJ/mol a water (final)" % epot)
        drift = re.search(r"Conserved energy drift: (\S+) kJ/mol/ps per atom", log)
        if drift:
            print("Conserved energy drift = %s kJ/mol/ps per atom" % drift.group(1))
        if not last or last[-1][1] != steps:
            why = "md.log's last energies are not those of step %d" % steps
        elif not mean:
            why = "no averages in md.log"
        elif not all(math.isfinite(v) for fr in (last[-1], mean[0]) for v in fr[2].values()):
            why = "an energy is not finite"
        elif not abs(t_last - REF_T) <= 0.10 * REF_T or not abs(t_mean - REF_T) <= 0.05 * REF_T:
            why = "temperature out of range"
        elif not -50.0 <= epot <= -42.0:
            why = "potential energy a water out of range"
        elif g96_atoms(final) != 3 * waters:
            why = "final.g96 has %d atoms, not %d" % (g96_atoms(final), 3 * waters)
    print("Checksum = %s" % hashlib.blake2b(final.encode(), digest_size=8).hexdigest())
    print("Time in seconds = %.6f" % (seconds if seconds is not None else elapsed))
    if why:
        print("%s: verification failed: %s" % (name, why), file=sys.stderr)
    print("Verification = %s" % ("UNSUCCESSFUL" if why else "SUCCESSFUL"))
    return 1 if why else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
