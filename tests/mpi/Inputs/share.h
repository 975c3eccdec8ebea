/* share.h: whether the ranks of this one-node machine hold the mapper's shares of it: their CPUs pairwise disjoint and together all of the node's. */
#ifndef SHARE_H
#define SHARE_H
#define _GNU_SOURCE
#include <mpi.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

/* 1 when every rank's CPUs (mine, gathered) are disjoint from the others'
 * and all of them together are the machine's online CPUs. */
static int shares_cover_node(const cpu_set_t *mine)
{
    int n;
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    cpu_set_t *all = malloc(sizeof *all * (size_t)n), node, seen;
    MPI_Allgather(mine, (int)sizeof *mine, MPI_BYTE, all, (int)sizeof *mine, MPI_BYTE, MPI_COMM_WORLD);
    CPU_ZERO(&node);
    CPU_ZERO(&seen);
    for (long c = 0; c < sysconf(_SC_NPROCESSORS_ONLN); c++)
        CPU_SET(c, &node);
    int ok = 1;
    for (int i = 0; i < n; i++) {
        cpu_set_t both;
        CPU_AND(&both, &seen, &all[i]);
        ok &= CPU_COUNT(&both) == 0 && CPU_COUNT(&all[i]) > 0;
        CPU_OR(&seen, &seen, &all[i]);
    }
    free(all);
    return ok && CPU_EQUAL(&seen, &node);
}
#endif
