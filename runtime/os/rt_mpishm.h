/* rt_mpishm.h: one POSIX shared-memory row per MPI rank: its per-peer traffic counters and the node its host's mapper chose for it. */
#ifndef OMPNUMA_RT_MPISHM_H
#define OMPNUMA_RT_MPISHM_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Who writes what. The rank owns its row (it creates, fills and unlinks it);
 * it adds to cell[] (cumulative, never reset: the mapper keeps the previous
 * reading and takes deltas per interval) and writes the applied_* fields.
 * The mapper (local rank 0 of the host) writes the target fields, then
 * increments epoch with release order; the rank reads epoch with acquire
 * order at its next MPI call and applies the target when epoch changed,
 * re-reading epoch afterwards (a seqlock: a remap published while it read
 * is applied at the following call).
 */
#define RT_MPISHM_MAGIC   0x326d706e756d6f21ULL  /* layout version 2 */
#define RT_MPISHM_MASK_WORDS 16                  /* 1024 CPUs */

typedef struct rt_mpi_cell {
    _Atomic uint64_t bytes;
    _Atomic uint64_t msgs;
} rt_mpi_cell_t;

typedef struct rt_mpi_row {
    uint64_t magic;
    uint64_t token;             /* this job on this host (local rank 0's choice) */
    int32_t  creator_pid;       /* the rank's pid: a dead creator marks a stale object */
    int32_t  world_rank;
    int32_t  world_size;        /* number of cells */
    int32_t  pad0;
    /* target, written by the mapper */
    _Atomic uint32_t epoch;
    _Atomic int32_t  node;      /* index in the mapper's topology */
    _Atomic int32_t  os_node;   /* the kernel's node number, -1 when not this machine */
    _Atomic int32_t  dry_run;   /* 1: record, do not apply */
    _Atomic uint64_t cpumask[RT_MPISHM_MASK_WORDS];
    /* what the rank did, written by the rank */
    _Atomic uint32_t applied_epoch;
    _Atomic int32_t  applied_node;
    _Atomic int32_t  applied_threads;   /* threads moved (or that would be, dry run) */
    _Atomic int32_t  applied_failed;    /* threads the kernel refused to move */
    _Atomic int64_t  applied_pages;     /* pages the last memory move left behind, -1: it failed */
    _Atomic uint64_t applied_count;     /* remaps applied */
    /* traffic that is not the application's */
    _Atomic uint64_t internal_bytes, internal_msgs; /* MPI calls made inside other MPI calls */
    _Atomic uint64_t own_bytes, own_msgs;           /* ompnuma's own set-up and wind-down */
    _Atomic uint64_t untracked_starts;              /* persistent sends the table could not hold */
    /* the memory moves of the remaps applied, written by the rank */
    _Atomic uint64_t migrate_calls;     /* migrate_pages calls */
    _Atomic uint64_t migrate_ns;        /* time in them */
    _Atomic uint64_t migrate_moved;     /* pages the host migrated during them (/proc/vmstat) */
    _Atomic uint64_t migrate_anon;      /* the rank's resident anonymous pages as each began: what
                                           the mapper prices a move by (migrate_ns per such page) */
    _Atomic int64_t  migrated_to;       /* 1 + the kernel node the memory last moved to, 0 none; before
                                           its first publish the mapper sets it to a bound rank's start node */
    rt_mpi_cell_t cell[];       /* [world_size] what this rank sent to each world rank */
} rt_mpi_row_t;

/* Bytes of a row for a job of world_size ranks. */
size_t rt_mpishm_row_bytes(int world_size);

/* "/ompnuma-mpi.<uid>.<key>.<rank>" into buf. */
void rt_mpishm_name(char *buf, size_t len, long key, int world_rank);

/*
 * Create the row `name` (mode 0600) and map it. An object already under that
 * name is stale when its magic is wrong, its size is not this job's or its
 * creator is dead or its token is another's: it is unlinked and replaced and
 * *replaced is set to 1.
 * Returns 0 and *row, or -1 with errno: EEXIST (a live object of this
 * job: another process created this rank's row), EINVAL (bad arguments),
 * or shm_open's, ftruncate's, mmap's.
 */
int rt_mpishm_create(const char *name, int world_rank, int world_size, uint64_t token,
                     rt_mpi_row_t **row, int *replaced);

/* Map another rank's row (the mapper). 0 and *row, or -1 with errno:
 * EPROTO (not a row of this job: wrong magic, token or size), EINVAL, or
 * shm_open's, mmap's. */
int rt_mpishm_open(const char *name, int world_size, uint64_t token, rt_mpi_row_t **row);

void rt_mpishm_unmap(rt_mpi_row_t *row, int world_size);

/* Remove the name of world rank world_rank's row of host key (processes
 * that map it keep their mapping). 0, or -1 with errno (ENOENT: none). */
int rt_mpishm_unlink(long key, int world_rank);

/* Unlink every "/ompnuma-mpi.<uid>.<key>.*" of this user whose key (the
 * pid of a host's local rank 0) is a dead process. Returns how many. */
int rt_mpishm_sweep(void);

#endif
