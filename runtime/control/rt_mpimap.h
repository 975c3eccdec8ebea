/* rt_mpimap.h: the MPI process mapper (OnDeLoc-MPI): the mapper thread of a host's local rank 0, and how a rank applies its node. */
#ifndef OMPNUMA_RT_MPIMAP_H
#define OMPNUMA_RT_MPIMAP_H

#include <sched.h>
#include <stddef.h>
#include "rt_affinity.h"
#include "rt_mpishm.h"
#include "rt_topology.h"

/* What the mapper of one host works on. Every array stays the caller's and
 * must live until rt_mpimap_stop returns. */
typedef struct rt_mpimap_config {
    const rt_topo_t *topo;
    int           world_size;
    int           nlocal;        /* ranks on this host */
    const int    *local_world;   /* [nlocal] their world ranks, by local rank */
    rt_mpi_row_t **rows;         /* [nlocal] their rows, mapped */
    const char   *host;
    int           nhosts;        /* hosts in the job (file names get the host when > 1) */
} rt_mpimap_config_t;

typedef struct rt_mpimap rt_mpimap_t;

/* Start the mapper thread. 0, or -1 with errno (EINVAL, ENOMEM, pthread_create's): nothing started. */
int rt_mpimap_start(rt_mpimap_t **out, const rt_mpimap_config_t *cfg);

/* Stop the thread (prompt: it waits on a condition variable), read the rows
 * a last time, write the matrix, bindings and report files that were asked
 * for, free everything. Safe with NULL. */
void rt_mpimap_stop(rt_mpimap_t *m);

/* Decisions taken so far (tests and the report). */
int rt_mpimap_decisions(const rt_mpimap_t *m);

/*
 * The rank's side, called from its next MPI call when the row's epoch is not
 * the one it applied: makes the target node's CPUs the process's allotment
 * through `allot` (the owner of this process's thread moves: libompnuma.so's
 * when ompnuma's OpenMP tool is loaded, so that its region loop places the
 * team inside the allotment; NULL: this copy's rt_affinity_allot), which
 * moves every thread of the process there, or in dry run only counts them;
 * then migrates the process's pages to the node. Records what it did in the
 * row. Returns 1 when it applied (or recorded) a new target, 0 when there
 * was nothing consistent to apply yet.
 */
int rt_mpimap_apply(rt_mpi_row_t *row, rt_affinity_allot_fn *allot);

#endif
