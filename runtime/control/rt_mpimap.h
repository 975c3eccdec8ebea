/* rt_mpimap.h: the MPI process mapper (OnDeLoc-MPI): the mapper thread of a host's local rank 0, and how a rank applies its node. */
#ifndef OMPNUMA_RT_MPIMAP_H
#define OMPNUMA_RT_MPIMAP_H

#include <stddef.h>
#include <stdint.h>
#include "rt_mpishm.h"

/* What the mapper of one host works on: the PMPI layer's set-up found it.
 * rt_mpimap_start copies what it keeps. */
typedef struct rt_mpimap_config {
    int           world_rank;    /* the calling rank (world rank 0 logs the settings, verbose) */
    int           world_size;
    int           nlocal;        /* ranks on this host */
    const int    *local_world;   /* [nlocal] their world ranks, by local rank */
    long          key;           /* the host's key in the rows' names (rt_mpishm_name) */
    uint64_t      token;         /* this job on this host: rows of another job are refused */
    const char   *host;
    int           nhosts;        /* hosts in the job (file names get the host when > 1) */
} rt_mpimap_config_t;

typedef struct rt_mpimap rt_mpimap_t;

/* Start the mapper of this host: load the topology OMP_PLACEMENT_MPI names
 * (this machine by default), map every local rank's row (each rank created
 * its own), start the thread. 0, or -1 with errno (EINVAL: bad arguments or
 * topology; rt_mpishm_open's; ENOMEM; pthread_create's) and a one-line
 * reason in why: nothing started. */
int rt_mpimap_start(rt_mpimap_t **out, const rt_mpimap_config_t *cfg, char *why, size_t len);

/* Stop the thread (prompt: it waits on a condition variable), read the rows
 * a last time, write the matrix, bindings and report files that were asked
 * for, unmap the rows, free everything. Safe with NULL. */
void rt_mpimap_stop(rt_mpimap_t *m);

/*
 * The rank's side, called from its next MPI call when the row's epoch is not
 * the one it applied: makes the target node's CPUs the process's allotment
 * (rt_affinity_allot: the one owner of this process's thread moves, whose
 * region loop then places the OpenMP team inside the allotment), which
 * moves every thread of the process there, or in dry run only counts them;
 * then moves the process's own pages to the node (rt_migrate_own_pages).
 * Records what it did in the row. Returns 1 when it applied (or recorded) a
 * new target, 0 when there was nothing consistent to apply yet.
 */
int rt_mpimap_apply(rt_mpi_row_t *row);

#endif
