// hybrid-openmp-team-follows.c: a hybrid MPI+OpenMP rank whose team OpenMP bound to CPU 0 (OMP_PLACES={0}): after the remap every thread of the team runs on all of its node's CPUs, not squeezed on one core.
// REQUIRES: mpi
// RUN: %mpicc -fopenmp %s -o %t
// RUN: %mpirun -np 2 --bind-to none -x OMP_NUM_THREADS=3 -x OMP_PROC_BIND=true -x "OMP_PLACES={0}" -x LD_PRELOAD=%libompnuma_mpi -x OMP_PLACEMENT_MPI=ondeloc,interval=10 %t | FileCheck %s
// RUN: %mpirun -np 2 --bind-to none -x OMP_NUM_THREADS=3 -x OMP_PROC_BIND=true -x "OMP_PLACES={0}" %t | FileCheck %s --check-prefix=OFF
#define _GNU_SOURCE
#include <mpi.h>
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static cpu_set_t all;

/* Threads of the team whose CPUs are the node's (all of this one-node machine's). */
static int team_on_all(void)
{
    int n = 0;
#pragma omp parallel reduction(+ : n)
    {
        cpu_set_t m;
        n += sched_getaffinity(0, sizeof m, &m) == 0 && CPU_EQUAL(&m, &all);
    }
    return n;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    int r;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    /* This machine has one node: its CPUs are all online CPUs (OpenMP already
     * bound this thread to CPU 0, so its own mask does not say). */
    CPU_ZERO(&all);
    for (long c = 0; c < sysconf(_SC_NPROCESSORS_ONLN); c++)
        CPU_SET(c, &all);
    int before = team_on_all();
    char out = 1, in;
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        MPI_Sendrecv(&out, 1, MPI_CHAR, 1 - r, 0, &in, 1, MPI_CHAR, 1 - r, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        clock_gettime(CLOCK_MONOTONIC, &t);
        int done = team_on_all() == omp_get_max_threads();
        int elapsed = (int)((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000);
        int stop = done || elapsed > 1500, both = 0;
        MPI_Allreduce(&stop, &both, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        if (both)
            break;
        usleep(2000);
    }
    printf("rank %d: team of %d, on the node's %d cpus before %d after %d\n", r, omp_get_max_threads(),
           CPU_COUNT(&all), before, team_on_all());
    MPI_Finalize();
    return 0;
}
// CHECK-DAG: rank 0: team of 3, on the node's {{[2-9]|[1-9][0-9]+}} cpus before 0 after 3
// CHECK-DAG: rank 1: team of 3, on the node's {{[2-9]|[1-9][0-9]+}} cpus before 0 after 3
// OFF-DAG: rank 0: team of 3, on the node's {{[0-9]+}} cpus before 0 after 0
// OFF-DAG: rank 1: team of 3, on the node's {{[0-9]+}} cpus before 0 after 0
