"""tests/mpi/lit_ext.py: the MPI tier: feature `mpi` and the %mpi* substitutions.

Feature
  mpi        mpirun and mpicc are on PATH and libompnuma_mpi.so was built
             (CMake builds it only when it finds MPI). Mark tests `REQUIRES: mpi`.

Substitutions
  %mpicc             compile an MPI program (the MPI library's own wrapper)
  %mpirun            mpirun for a 2-core machine: --oversubscribe, as root too,
                     bounded by `timeout` so that a hang fails instead of blocking
  %libompnuma_mpi    the PMPI library, for -x LD_PRELOAD=...
  %mpishm            the directory of POSIX shared memory objects (/dev/shm)
"""
import os
import shutil


def configure(config, lit_config):
    lib = os.path.join(config.ompnuma_build, "lib", "libompnuma_mpi.so")
    mpirun = shutil.which("mpirun", path=config.environment.get("PATH"))
    mpicc = shutil.which("mpicc", path=config.environment.get("PATH"))
    config.substitutions.insert(0, ("%libompnuma_mpi", lib))
    config.substitutions.insert(0, ("%mpishm", "/dev/shm"))
    config.substitutions.insert(0, ("%mpicc", "{} -O1 -g -Wall".format(mpicc or "mpicc")))
    # Open MPI refuses root without the flag; the flag is harmless otherwise.
    config.substitutions.insert(0, ("%mpirun", "timeout 60 {} --oversubscribe --allow-run-as-root "
                                    "--mca btl self,vader,tcp".format(mpirun or "mpirun")))
    if not (mpirun and mpicc and os.path.exists(lib)):
        lit_config.note("mpi tier disabled: mpirun, mpicc or {} missing".format(lib))
        return
    config.available_features.add("mpi")
