// all-threads-follow-node.c: on this machine (not a dry run) every thread of a rank, not only the one calling MPI, is moved to the rank's share of its node at its next MPI call: three threads of each rank pinned to CPU 0 all end on their rank's CPUs, and the two ranks' CPUs split node 0 between them.
// REQUIRES: mpi
// RUN: %mpicc %s -lpthread -o %t
// RUN: %mpirun -np 2 --bind-to none -x LD_PRELOAD=%libompnuma_mpi -x OMP_PLACEMENT_MPI="ondeloc,interval=10,report=%t.json" %t | FileCheck %s
// RUN: %python %S/Inputs/check_report.py %t.json | FileCheck %s --check-prefix=REPORT
// Without the mapper the threads stay where the program put them.
// RUN: %mpirun -np 2 --bind-to none %t | FileCheck %s --check-prefix=OFF
#define _GNU_SOURCE
#include <mpi.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include "Inputs/share.h"

static cpu_set_t all;
static volatile int done;

static void *helper(void *arg)
{
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(0, &one);
    pthread_setaffinity_np(pthread_self(), sizeof one, &one);
    while (!done)
        usleep(1000);
    return NULL;
}

/* Whether thread t runs on the CPUs `all` (the rank's). */
static int on_all(pthread_t t)
{
    cpu_set_t m;
    return pthread_getaffinity_np(t, sizeof m, &m) == 0 && CPU_EQUAL(&m, &all);
}

/* The rank's CPUs are its main thread's; the other two follow them, and the
 * ranks split the node. */
static int followed(pthread_t *h)
{
    sched_getaffinity(0, sizeof all, &all);
    int n = on_all(pthread_self()) + on_all(h[0]) + on_all(h[1]);
    return shares_cover_node(&all) ? n : 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int r;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    pthread_t h[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&h[i], NULL, helper, NULL);
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(0, &one);
    sched_setaffinity(0, sizeof one, &one);
    usleep(20000); /* the helpers have pinned themselves */
    char out = 1, in;
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        MPI_Sendrecv(&out, 1, MPI_CHAR, 1 - r, 0, &in, 1, MPI_CHAR, 1 - r, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        clock_gettime(CLOCK_MONOTONIC, &t);
        int moved = followed(h) == 3;
        int elapsed = (t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000;
        int stop = moved || elapsed > 1500;
        int both = 0;
        MPI_Allreduce(&stop, &both, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        if (both)
            break;
        usleep(2000);
    }
    int n = followed(h);
    printf("rank %d: %d of 3 threads on the rank's share of node 0\n", r, n);
    fflush(stdout);
    done = 1;
    for (int i = 0; i < 2; i++)
        pthread_join(h[i], NULL);
    MPI_Finalize();
    return 0;
}
// CHECK-DAG: rank 0: 3 of 3 threads on the rank's share of node 0
// CHECK-DAG: rank 1: 3 of 3 threads on the rank's share of node 0
// REPORT: every rank applied its node: yes
// REPORT: threads per rank >= {{[3-9]|[1-9][0-9]+}}
// REPORT: threads refused 0
// REPORT: dry run no
// OFF-DAG: rank 0: 0 of 3 threads on the rank's share of node 0
// OFF-DAG: rank 1: 0 of 3 threads on the rank's share of node 0
