// hybrid-openmp-team-follows.c: hybrid MPI+OpenMP ranks whose teams OpenMP bound to CPU 0 (OMP_PLACES={0}): after the remap every thread of each team runs on its rank's share of the node, and the two ranks' shares split the node (not every team squeezed on one core).
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
#include "Inputs/share.h"

static cpu_set_t all;

/* Threads of the team whose CPUs are the rank's (`all`, set by rank_cpus). */
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
    /* The rank's CPUs: the mapper's share of this one-node machine, once the
     * ranks' CPUs split it (OpenMP bound this thread to CPU 0 before). */
    sched_getaffinity(0, sizeof all, &all);
    /* The team first (its threads exist before any traffic, so before any
     * remap), then the collective. */
    int before = team_on_all();
    before = shares_cover_node(&all) ? before : 0;
    char out = 1, in;
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        MPI_Sendrecv(&out, 1, MPI_CHAR, 1 - r, 0, &in, 1, MPI_CHAR, 1 - r, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        clock_gettime(CLOCK_MONOTONIC, &t);
        sched_getaffinity(0, sizeof all, &all);
        int done = shares_cover_node(&all) && team_on_all() == omp_get_max_threads();
        int elapsed = (int)((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000);
        int stop = done || elapsed > 1500, both = 0;
        MPI_Allreduce(&stop, &both, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        if (both)
            break;
        usleep(2000);
    }
    sched_getaffinity(0, sizeof all, &all);
    int after = shares_cover_node(&all) ? team_on_all() : 0;
    printf("rank %d: team of %d, on the rank's share of the node before %d after %d\n", r, omp_get_max_threads(),
           before, after);
    MPI_Finalize();
    return 0;
}
// CHECK-DAG: rank 0: team of 3, on the rank's share of the node before 0 after 3
// CHECK-DAG: rank 1: team of 3, on the rank's share of the node before 0 after 3
// OFF-DAG: rank 0: team of 3, on the rank's share of the node before 0 after 0
// OFF-DAG: rank 1: team of 3, on the rank's share of the node before 0 after 0
