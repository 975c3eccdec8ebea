/* mpi_state.h: the PMPI layer's state and the inline counting it does inside every wrapped MPI call. */
#ifndef OMPNUMA_MPI_STATE_H
#define OMPNUMA_MPI_STATE_H

#include <mpi.h>
#include <stdatomic.h>
#include <stdint.h>
#include "rt_core.h"
#include "rt_mpi.h"

typedef struct mpi_state {
    atomic_int    active;      /* counting and applying (set-up done, not finalized) */
    atomic_int    init_called;
    atomic_int    applying;    /* a thread of this rank is applying a remap */
    int           finalized;
    const rt_mpi_ops_t *rt;    /* the runtime (libompnuma.so's table), once loaded */
    rt_mpi_rank_t me;          /* this rank and its host, for the runtime */
    MPI_Comm      local;       /* the ranks of this host (MPI_COMM_TYPE_SHARED) */
    int           comm_keyval; /* communicator -> world ranks cache */
    rt_mpi_row_t *row;         /* this rank's row */
    char          host[256];
    int          *local_world; /* [me.nlocal] the host's ranks' world ranks */
} mpi_state_t;

extern mpi_state_t mpi_g;
/* Depth of wrapped MPI calls on this thread: a call made while another is
 * running (an MPI library or MPI-IO calling MPI inside MPI) is the MPI
 * library's traffic, not the application's. */
extern __thread int mpi_depth;

typedef enum mpi_kind { MPI_KIND_APP = 0, MPI_KIND_INTERNAL, MPI_KIND_OWN } mpi_kind_t;

/* Count one message of `bytes` to world rank `peer`. */
static inline void mpi_add(mpi_kind_t kind, int peer, uint64_t bytes)
{
    rt_mpi_row_t *r = mpi_g.row;
    if (!r)
        return;
    if (kind == MPI_KIND_APP) {
        if (peer < 0 || peer >= mpi_g.me.world_size)
            return;
        atomic_fetch_add_explicit(&r->cell[peer].bytes, bytes, memory_order_relaxed);
        atomic_fetch_add_explicit(&r->cell[peer].msgs, 1, memory_order_relaxed);
    } else if (kind == MPI_KIND_INTERNAL) {
        atomic_fetch_add_explicit(&r->internal_bytes, bytes, memory_order_relaxed);
        atomic_fetch_add_explicit(&r->internal_msgs, 1, memory_order_relaxed);
    } else {
        atomic_fetch_add_explicit(&r->own_bytes, bytes, memory_order_relaxed);
        atomic_fetch_add_explicit(&r->own_msgs, 1, memory_order_relaxed);
    }
}

/* At the start of every wrapped call: returns the kind its traffic is, and
 * applies a new node the mapper published (outermost calls only). */
static inline mpi_kind_t mpi_enter(void)
{
    int outer = mpi_depth++ == 0;
    if (!atomic_load_explicit(&mpi_g.active, memory_order_relaxed))
        return MPI_KIND_APP;
    rt_mpi_row_t *r = mpi_g.row;
    if (outer && r
        && atomic_load_explicit(&r->epoch, memory_order_acquire)
               != atomic_load_explicit(&r->applied_epoch, memory_order_relaxed)
        && !atomic_exchange_explicit(&mpi_g.applying, 1, memory_order_acquire)) {
        /* One thread applies; the others go on with their call. */
        mpi_g.rt->apply(r);
        atomic_store_explicit(&mpi_g.applying, 0, memory_order_release);
    }
    return outer ? MPI_KIND_APP : MPI_KIND_INTERNAL;
}

static inline void mpi_leave(void)
{
    mpi_depth--;
}

static inline int mpi_on(void)
{
    return atomic_load_explicit(&mpi_g.active, memory_order_relaxed);
}

/* Bytes of count elements of type (0 for MPI_DATATYPE_NULL or errors). */
static inline uint64_t mpi_bytes(int count, MPI_Datatype type)
{
    int sz = 0;
    if (count <= 0 || type == MPI_DATATYPE_NULL || PMPI_Type_size(type, &sz) != MPI_SUCCESS || sz < 0)
        return 0;
    return (uint64_t)count * (uint64_t)sz;
}

/* World ranks of comm's ranks (the remote group of an intercommunicator):
 * NULL for MPI_COMM_WORLD (identity) and when unknown (*size = -1). The
 * table is built at the first use of each communicator and cached on it. */
const int *mpi_comm_world_ranks(MPI_Comm comm, int *size);

/* World rank of rank `r` of comm, or -1. */
static inline int mpi_world_of(MPI_Comm comm, int r)
{
    if (comm == MPI_COMM_WORLD)
        return r;
    int n;
    const int *t = mpi_comm_world_ranks(comm, &n);
    return t && r >= 0 && r < n ? t[r] : -1;
}

/* Set-up after MPI_Init*, wind-down before MPI_Finalize, and before MPI_Abort. */
void mpi_setup(void);
void mpi_teardown(void);
void mpi_unlink_rows(void);

#endif
