/* mpi_p2p.c: point-to-point wrappers: blocking, non-blocking, persistent and Sendrecv sends counted per peer; receives and waits only apply a remap. */
#include <pthread.h>
#include <stdint.h>

#include "mpi_state.h"

/* One send of count elements of type to rank dest of comm. */
static void count_send(mpi_kind_t kind, MPI_Comm comm, int dest, int count, MPI_Datatype type)
{
    if (dest == MPI_PROC_NULL || !mpi_on())
        return;
    mpi_add(kind, mpi_world_of(comm, dest), mpi_bytes(count, type));
}

#define SEND_WRAPPER(NAME)                                                                          \
    OMPNUMA_EXPORT int MPI_##NAME(const void *buf, int count, MPI_Datatype type, int dest, int tag, \
                                  MPI_Comm comm)                                                    \
    {                                                                                               \
        mpi_kind_t k = mpi_enter();                                                                 \
        int rc = PMPI_##NAME(buf, count, type, dest, tag, comm);                                    \
        if (rc == MPI_SUCCESS)                                                                      \
            count_send(k, comm, dest, count, type);                                                 \
        mpi_leave();                                                                                \
        return rc;                                                                                  \
    }

SEND_WRAPPER(Send)
SEND_WRAPPER(Bsend)
SEND_WRAPPER(Ssend)
SEND_WRAPPER(Rsend)

#define ISEND_WRAPPER(NAME)                                                                         \
    OMPNUMA_EXPORT int MPI_##NAME(const void *buf, int count, MPI_Datatype type, int dest, int tag, \
                                  MPI_Comm comm, MPI_Request *req)                                  \
    {                                                                                               \
        mpi_kind_t k = mpi_enter();                                                                 \
        int rc = PMPI_##NAME(buf, count, type, dest, tag, comm, req);                               \
        if (rc == MPI_SUCCESS)                                                                      \
            count_send(k, comm, dest, count, type);                                                 \
        mpi_leave();                                                                                \
        return rc;                                                                                  \
    }

ISEND_WRAPPER(Isend)
ISEND_WRAPPER(Ibsend)
ISEND_WRAPPER(Issend)
ISEND_WRAPPER(Irsend)

OMPNUMA_EXPORT int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest, int stag,
                                void *rbuf, int rcount, MPI_Datatype rtype, int source, int rtag,
                                MPI_Comm comm, MPI_Status *status)
{
    mpi_kind_t k = mpi_enter();
    int rc = PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm,
                           status);
    if (rc == MPI_SUCCESS)
        count_send(k, comm, dest, scount, stype);
    mpi_leave();
    return rc;
}

OMPNUMA_EXPORT int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest, int stag,
                                        int source, int rtag, MPI_Comm comm, MPI_Status *status)
{
    mpi_kind_t k = mpi_enter();
    int rc = PMPI_Sendrecv_replace(buf, count, type, dest, stag, source, rtag, comm, status);
    if (rc == MPI_SUCCESS)
        count_send(k, comm, dest, count, type);
    mpi_leave();
    return rc;
}

/* ------------------------------------------------------ persistent sends */

/*
 * A persistent send is counted at each MPI_Start, so the table remembers
 * (request -> peer, bytes) from *_init until MPI_Request_free. Fixed size,
 * open addressing: nothing is allocated in any hook; a table that is full
 * counts the start as untracked (the report shows how many).
 */
#define PTAB_SIZE 4096
typedef struct ptab_entry {
    MPI_Request req;      /* MPI_REQUEST_NULL: free */
    int         used;     /* 1 live, 2 deleted (keeps probe chains intact) */
    int         peer;     /* world rank */
    uint64_t    bytes;
} ptab_entry_t;

static ptab_entry_t ptab[PTAB_SIZE];
static pthread_mutex_t ptab_lock = PTHREAD_MUTEX_INITIALIZER;

static unsigned ptab_hash(MPI_Request r)
{
    uintptr_t h = (uintptr_t)r;
    h ^= h >> 17;
    h *= 0xed5ad4bbU;
    h ^= h >> 11;
    return (unsigned)(h % PTAB_SIZE);
}

static void ptab_put(MPI_Request r, int peer, uint64_t bytes)
{
    pthread_mutex_lock(&ptab_lock);
    unsigned h = ptab_hash(r);
    int stored = 0;
    for (unsigned i = 0; i < PTAB_SIZE; i++) {
        ptab_entry_t *e = &ptab[(h + i) % PTAB_SIZE];
        if (e->used != 1 || e->req == r) {
            *e = (ptab_entry_t){ r, 1, peer, bytes };
            stored = 1;
            break;
        }
    }
    pthread_mutex_unlock(&ptab_lock);
    if (!stored && mpi_g.row)
        atomic_fetch_add_explicit(&mpi_g.row->untracked_starts, 1, memory_order_relaxed);
}

/* Looks r up; del: remove it. 1 when found. */
static int ptab_get(MPI_Request r, int del, int *peer, uint64_t *bytes)
{
    int found = 0;
    pthread_mutex_lock(&ptab_lock);
    unsigned h = ptab_hash(r);
    for (unsigned i = 0; i < PTAB_SIZE; i++) {
        ptab_entry_t *e = &ptab[(h + i) % PTAB_SIZE];
        if (e->used == 0)
            break;
        if (e->used == 1 && e->req == r) {
            found = 1;
            if (peer)
                *peer = e->peer;
            if (bytes)
                *bytes = e->bytes;
            if (del)
                e->used = 2;
            break;
        }
    }
    pthread_mutex_unlock(&ptab_lock);
    return found;
}

#define PSEND_WRAPPER(NAME)                                                                         \
    OMPNUMA_EXPORT int MPI_##NAME(const void *buf, int count, MPI_Datatype type, int dest, int tag, \
                                  MPI_Comm comm, MPI_Request *req)                                  \
    {                                                                                               \
        mpi_enter();                                                                                \
        int rc = PMPI_##NAME(buf, count, type, dest, tag, comm, req);                               \
        if (rc == MPI_SUCCESS && mpi_on() && dest != MPI_PROC_NULL)                                 \
            ptab_put(*req, mpi_world_of(comm, dest), mpi_bytes(count, type));                       \
        mpi_leave();                                                                                \
        return rc;                                                                                  \
    }

PSEND_WRAPPER(Send_init)
PSEND_WRAPPER(Bsend_init)
PSEND_WRAPPER(Ssend_init)
PSEND_WRAPPER(Rsend_init)

static void count_start(mpi_kind_t k, MPI_Request r)
{
    int peer;
    uint64_t bytes;
    if (mpi_on() && ptab_get(r, 0, &peer, &bytes))
        mpi_add(k, peer, bytes);
}

OMPNUMA_EXPORT int MPI_Start(MPI_Request *req)
{
    mpi_kind_t k = mpi_enter();
    MPI_Request r = *req;
    int rc = PMPI_Start(req);
    if (rc == MPI_SUCCESS)
        count_start(k, r);
    mpi_leave();
    return rc;
}

OMPNUMA_EXPORT int MPI_Startall(int n, MPI_Request reqs[])
{
    mpi_kind_t k = mpi_enter();
    int rc = PMPI_Startall(n, reqs);
    if (rc == MPI_SUCCESS)
        for (int i = 0; i < n; i++)
            count_start(k, reqs[i]);
    mpi_leave();
    return rc;
}

OMPNUMA_EXPORT int MPI_Request_free(MPI_Request *req)
{
    mpi_enter();
    MPI_Request r = *req;
    int rc = PMPI_Request_free(req);
    if (rc == MPI_SUCCESS && r != MPI_REQUEST_NULL)
        ptab_get(r, 1, NULL, NULL);
    mpi_leave();
    return rc;
}

/* ------------------------------------------ receives and completions: a remap point */

OMPNUMA_EXPORT int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                            MPI_Status *status)
{
    mpi_enter();
    int rc = PMPI_Recv(buf, count, type, source, tag, comm, status);
    mpi_leave();
    return rc;
}

OMPNUMA_EXPORT int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                             MPI_Request *req)
{
    mpi_enter();
    int rc = PMPI_Irecv(buf, count, type, source, tag, comm, req);
    mpi_leave();
    return rc;
}

OMPNUMA_EXPORT int MPI_Wait(MPI_Request *req, MPI_Status *status)
{
    mpi_enter();
    int rc = PMPI_Wait(req, status);
    mpi_leave();
    return rc;
}

OMPNUMA_EXPORT int MPI_Waitall(int n, MPI_Request reqs[], MPI_Status statuses[])
{
    mpi_enter();
    int rc = PMPI_Waitall(n, reqs, statuses);
    mpi_leave();
    return rc;
}

OMPNUMA_EXPORT int MPI_Test(MPI_Request *req, int *flag, MPI_Status *status)
{
    mpi_enter();
    int rc = PMPI_Test(req, flag, status);
    mpi_leave();
    return rc;
}
