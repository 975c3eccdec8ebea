/* mpi_coll.c: collective wrappers, counted by the traffic they imply: what this rank's data must reach, peer by peer. */
#include "mpi_state.h"

/*
 * The model (the MPI library's algorithm is invisible to PMPI, and differs
 * between versions and sizes; the traffic the semantics imply does not):
 *   Bcast, Scatter(v)         root -> every other rank: its block
 *   Reduce, Gather(v)         every non-root -> root: its contribution
 *   Allreduce, Allgather(v)   every rank -> every other rank: its contribution
 *   Alltoall(v,w)             every rank -> rank j: block j
 *   Reduce_scatter(_block)    every rank -> rank j: the part j receives
 *   Scan, Exscan              rank r -> every rank above r: its contribution
 *   Barrier                   every rank -> every other rank: one message, 0 bytes
 * Self-traffic is not counted. Collectives on intercommunicators are not
 * counted (their roots and groups follow other rules).
 */

typedef struct coll {
    mpi_kind_t  kind;
    int         rank, size;
    const int  *world; /* NULL: comm is MPI_COMM_WORLD */
} coll_t;

/* 0 when the collective on comm is to be counted. */
static int coll_open(coll_t *c, mpi_kind_t kind, MPI_Comm comm)
{
    if (!mpi_on() || comm == MPI_COMM_NULL)
        return -1;
    int inter = 0;
    if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter)
        return -1;
    c->kind = kind;
    if (PMPI_Comm_rank(comm, &c->rank) != MPI_SUCCESS || PMPI_Comm_size(comm, &c->size) != MPI_SUCCESS)
        return -1;
    c->world = NULL;
    if (comm != MPI_COMM_WORLD) {
        int n;
        c->world = mpi_comm_world_ranks(comm, &n);
        if (!c->world || n != c->size)
            return -1;
    }
    return 0;
}

static void to(const coll_t *c, int j, uint64_t bytes)
{
    if (j != c->rank && j >= 0 && j < c->size)
        mpi_add(c->kind, c->world ? c->world[j] : j, bytes);
}

static void to_all(const coll_t *c, uint64_t bytes)
{
    for (int j = 0; j < c->size; j++)
        to(c, j, bytes);
}

static void to_above(const coll_t *c, uint64_t bytes)
{
    for (int j = c->rank + 1; j < c->size; j++)
        to(c, j, bytes);
}

/* The root's block, sized on the root only: elsewhere its count and type
 * are not significant (a scatter's non-roots), and may name a datatype that
 * exists only on the root, which PMPI_Type_size would refuse, fatally. */
static void from_root(MPI_Comm comm, mpi_kind_t k, int root, int count, MPI_Datatype type)
{
    coll_t c;
    if (!coll_open(&c, k, comm) && c.rank == root)
        to_all(&c, mpi_bytes(count, type));
}

/* A non-root's contribution, sized on non-roots only (the root's may be
 * MPI_IN_PLACE, its send type then not significant). */
static void to_root(MPI_Comm comm, mpi_kind_t k, int root, int count, MPI_Datatype type)
{
    coll_t c;
    if (!coll_open(&c, k, comm) && c.rank != root)
        to(&c, root, mpi_bytes(count, type));
}

static void everyone(MPI_Comm comm, mpi_kind_t k, uint64_t bytes)
{
    coll_t c;
    if (!coll_open(&c, k, comm))
        to_all(&c, bytes);
}

static void scatterv(MPI_Comm comm, mpi_kind_t k, int root, const int *counts, MPI_Datatype type)
{
    coll_t c;
    if (!coll_open(&c, k, comm) && c.rank == root && counts)
        for (int j = 0; j < c.size; j++)
            to(&c, j, mpi_bytes(counts[j], type));
}

static void alltoallv(MPI_Comm comm, mpi_kind_t k, const int *counts, MPI_Datatype type)
{
    coll_t c;
    if (!coll_open(&c, k, comm) && counts)
        for (int j = 0; j < c.size; j++)
            to(&c, j, mpi_bytes(counts[j], type));
}

static void above(MPI_Comm comm, mpi_kind_t k, uint64_t bytes)
{
    coll_t c;
    if (!coll_open(&c, k, comm))
        to_above(&c, bytes);
}

/* A contribution that may be MPI_IN_PLACE: then it is the receive side's. */
static uint64_t contribution(const void *sbuf, int scount, MPI_Datatype stype, int rcount,
                             MPI_Datatype rtype)
{
    return sbuf == MPI_IN_PLACE ? mpi_bytes(rcount, rtype) : mpi_bytes(scount, stype);
}

#define WRAP_BEGIN mpi_kind_t k = mpi_enter();
#define WRAP_END(COUNT)                                                                         \
    if (rc == MPI_SUCCESS) {                                                                    \
        COUNT;                                                                                 \
    }                                                                                          \
    mpi_leave();                                                                               \
    return rc;

OMPNUMA_EXPORT int MPI_Barrier(MPI_Comm comm)
{
    WRAP_BEGIN int rc = PMPI_Barrier(comm);
    WRAP_END(everyone(comm, k, 0))
}

OMPNUMA_EXPORT int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    WRAP_BEGIN int rc = PMPI_Bcast(buf, count, type, root, comm);
    WRAP_END(from_root(comm, k, root, count, type))
}

OMPNUMA_EXPORT int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                              int root, MPI_Comm comm)
{
    WRAP_BEGIN int rc = PMPI_Reduce(sbuf, rbuf, count, type, op, root, comm);
    WRAP_END(to_root(comm, k, root, count, type))
}

OMPNUMA_EXPORT int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                                 MPI_Comm comm)
{
    WRAP_BEGIN int rc = PMPI_Allreduce(sbuf, rbuf, count, type, op, comm);
    WRAP_END(everyone(comm, k, mpi_bytes(count, type)))
}

OMPNUMA_EXPORT int MPI_Gather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                              MPI_Datatype rtype, int root, MPI_Comm comm)
{
    WRAP_BEGIN int rc = PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
    WRAP_END(to_root(comm, k, root, scount, stype))
}

OMPNUMA_EXPORT int MPI_Gatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                               const int rcounts[], const int displs[], MPI_Datatype rtype, int root,
                               MPI_Comm comm)
{
    WRAP_BEGIN int rc = PMPI_Gatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm);
    WRAP_END(to_root(comm, k, root, scount, stype))
}

OMPNUMA_EXPORT int MPI_Scatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                               MPI_Datatype rtype, int root, MPI_Comm comm)
{
    WRAP_BEGIN int rc = PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
    WRAP_END(from_root(comm, k, root, scount, stype))
}

OMPNUMA_EXPORT int MPI_Scatterv(const void *sbuf, const int scounts[], const int displs[],
                                MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, int root,
                                MPI_Comm comm)
{
    WRAP_BEGIN int rc = PMPI_Scatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm);
    WRAP_END(scatterv(comm, k, root, scounts, stype))
}

OMPNUMA_EXPORT int MPI_Allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                                 MPI_Datatype rtype, MPI_Comm comm)
{
    WRAP_BEGIN int rc = PMPI_Allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm);
    WRAP_END(everyone(comm, k, contribution(sbuf, scount, stype, rcount, rtype)))
}

OMPNUMA_EXPORT int MPI_Allgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                                  const int rcounts[], const int displs[], MPI_Datatype rtype,
                                  MPI_Comm comm)
{
    WRAP_BEGIN int rc = PMPI_Allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm);
    /* In place, this rank's block is its own entry of rcounts. */
    int me = -1;
    if (sbuf == MPI_IN_PLACE)
        PMPI_Comm_rank(comm, &me);
    WRAP_END(everyone(comm, k, me >= 0 && rcounts ? mpi_bytes(rcounts[me], rtype)
                                                   : mpi_bytes(scount, stype)))
}

OMPNUMA_EXPORT int MPI_Alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                                MPI_Datatype rtype, MPI_Comm comm)
{
    WRAP_BEGIN int rc = PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm);
    WRAP_END(everyone(comm, k, contribution(sbuf, scount, stype, rcount, rtype)))
}

OMPNUMA_EXPORT int MPI_Alltoallv(const void *sbuf, const int scounts[], const int sdispls[],
                                 MPI_Datatype stype, void *rbuf, const int rcounts[], const int rdispls[],
                                 MPI_Datatype rtype, MPI_Comm comm)
{
    WRAP_BEGIN int rc = PMPI_Alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype,
                                       comm);
    WRAP_END(sbuf == MPI_IN_PLACE ? alltoallv(comm, k, rcounts, rtype)
                                  : alltoallv(comm, k, scounts, stype))
}

OMPNUMA_EXPORT int MPI_Reduce_scatter_block(const void *sbuf, void *rbuf, int rcount, MPI_Datatype type,
                                            MPI_Op op, MPI_Comm comm)
{
    WRAP_BEGIN int rc = PMPI_Reduce_scatter_block(sbuf, rbuf, rcount, type, op, comm);
    WRAP_END(everyone(comm, k, mpi_bytes(rcount, type)))
}

OMPNUMA_EXPORT int MPI_Reduce_scatter(const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype type,
                                      MPI_Op op, MPI_Comm comm)
{
    WRAP_BEGIN int rc = PMPI_Reduce_scatter(sbuf, rbuf, rcounts, type, op, comm);
    WRAP_END(alltoallv(comm, k, rcounts, type))
}

OMPNUMA_EXPORT int MPI_Scan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                            MPI_Comm comm)
{
    WRAP_BEGIN int rc = PMPI_Scan(sbuf, rbuf, count, type, op, comm);
    WRAP_END(above(comm, k, mpi_bytes(count, type)))
}

OMPNUMA_EXPORT int MPI_Exscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                              MPI_Comm comm)
{
    WRAP_BEGIN int rc = PMPI_Exscan(sbuf, rbuf, count, type, op, comm);
    WRAP_END(above(comm, k, mpi_bytes(count, type)))
}

/* Non-blocking collectives: the same traffic, counted when posted. */

OMPNUMA_EXPORT int MPI_Ibarrier(MPI_Comm comm, MPI_Request *req)
{
    WRAP_BEGIN int rc = PMPI_Ibarrier(comm, req);
    WRAP_END(everyone(comm, k, 0))
}

OMPNUMA_EXPORT int MPI_Ibcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm,
                              MPI_Request *req)
{
    WRAP_BEGIN int rc = PMPI_Ibcast(buf, count, type, root, comm, req);
    WRAP_END(from_root(comm, k, root, count, type))
}

OMPNUMA_EXPORT int MPI_Ireduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                               int root, MPI_Comm comm, MPI_Request *req)
{
    WRAP_BEGIN int rc = PMPI_Ireduce(sbuf, rbuf, count, type, op, root, comm, req);
    WRAP_END(to_root(comm, k, root, count, type))
}

OMPNUMA_EXPORT int MPI_Iallreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                                  MPI_Comm comm, MPI_Request *req)
{
    WRAP_BEGIN int rc = PMPI_Iallreduce(sbuf, rbuf, count, type, op, comm, req);
    WRAP_END(everyone(comm, k, mpi_bytes(count, type)))
}

OMPNUMA_EXPORT int MPI_Iallgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                                  MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req)
{
    WRAP_BEGIN int rc = PMPI_Iallgather(sbuf, scount, stype, rbuf, rcount, rtype, comm, req);
    WRAP_END(everyone(comm, k, contribution(sbuf, scount, stype, rcount, rtype)))
}

OMPNUMA_EXPORT int MPI_Ialltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                                 MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req)
{
    WRAP_BEGIN int rc = PMPI_Ialltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm, req);
    WRAP_END(everyone(comm, k, contribution(sbuf, scount, stype, rcount, rtype)))
}

OMPNUMA_EXPORT int MPI_Igather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                               MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request *req)
{
    WRAP_BEGIN int rc = PMPI_Igather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, req);
    WRAP_END(to_root(comm, k, root, scount, stype))
}

OMPNUMA_EXPORT int MPI_Iscatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                                MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request *req)
{
    WRAP_BEGIN int rc = PMPI_Iscatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, req);
    WRAP_END(from_root(comm, k, root, scount, stype))
}
