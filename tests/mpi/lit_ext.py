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
  %mpi-two-hosts     mpirun options that start the job on two emulated hosts,
                     hosta and hostb (2 slots each, more with --oversubscribe):
                     each host's daemon runs in a UTS namespace of that name
                     (Inputs/fake-host-agent.sh as the rsh agent)

Feature
  uts-namespace      `unshare --uts` works here (needed by %mpi-two-hosts)
"""
import os
import shutil
import subprocess


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
    inputs = os.path.join(os.path.dirname(os.path.abspath(__file__)), "Inputs")
    hosts = os.path.join(config.test_exec_root, "mpi-two-hosts.txt")
    os.makedirs(config.test_exec_root, exist_ok=True)
    with open(hosts, "w") as f:
        f.write("hosta slots=2\nhostb slots=2\n")
    config.substitutions.insert(0, ("%mpi-two-hosts", "--hostfile {} --mca plm_rsh_agent {}".format(
        hosts, os.path.join(inputs, "fake-host-agent.sh"))))
    try:
        if subprocess.run(["unshare", "--uts", "true"], capture_output=True, timeout=10).returncode == 0:
            config.available_features.add("uts-namespace")
    except (OSError, subprocess.SubprocessError):
        pass
    if not (mpirun and mpicc and os.path.exists(lib)):
        lit_config.note("mpi tier disabled: mpirun, mpicc or {} missing".format(lib))
        return
    config.available_features.add("mpi")
