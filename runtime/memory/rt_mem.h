/* rt_mem.h: the NUMA memory manager (MaMI-like): policies, per-node heaps, registration, attach hints, migration, next touch, costs. */
#ifndef OMPNUMA_RT_MEM_H
#define OMPNUMA_RT_MEM_H

#include <stddef.h>
#include <stdint.h>

/* Allocation policies (openmp/ maps omp_numa_policy_t onto these). */
typedef enum rt_mem_policy {
    RT_MEM_FIRST_TOUCH = 0,  /* each page on the node of the thread that first touches it */
    RT_MEM_BIND,             /* every page on the given node */
    RT_MEM_INTERLEAVE,       /* pages round-robin over all valid nodes */
    RT_MEM_NEXT_TOUCH        /* each page moves to the node of its next toucher */
} rt_mem_policy_t;

/* When rt_mem_update_hints re-places a team. */
typedef enum rt_mem_when {
    RT_MEM_NOW = 0,          /* at once, from the calling thread */
    RT_MEM_AT_BARRIER        /* once every thread of the team has called */
} rt_mem_when_t;

/*
 * Every function follows the runtime's error convention (rt_core.h: -1,
 * NULL or a negative cost, with errno), which is omp_numa.h's. Nodes are the kernel's node numbers,
 * 0 .. rt_mem_num_nodes()-1; a node is valid when the process may allocate
 * memory on it. All functions are thread-safe; none is async-signal-safe.
 * The omp_numa_* entry points (openmp/om_api_memory.c) call these directly;
 * their documentation in omp_numa.h is the specification.
 */

/* Allocations up to this size come from the per-node heaps (BIND only);
 * larger ones are mapped directly. */
#define RT_MEM_HEAP_MAX      (256u * 1024u)
/* Size of one heap chunk (one mmap + one mbind per chunk). */
#define RT_MEM_HEAP_CHUNK    (4u * 1024u * 1024u)
/* Transparent huge page size assumed for pager granularity (x86-64). */
#define RT_MEM_HUGE_SIZE     (2u * 1024u * 1024u)

int    rt_mem_num_nodes(void);
int    rt_mem_node_valid(int node);
int    rt_mem_node_of_cpu(int cpu);
int    rt_mem_thread_node(void);
size_t rt_mem_page_size(void);

void  *rt_mem_alloc(size_t size, int policy, int node);
int    rt_mem_free(void *ptr);
int    rt_mem_register(void *ptr, size_t size);
int    rt_mem_unregister(void *ptr);
int    rt_mem_attach(void *ptr, size_t size, int thread_num);
int    rt_mem_detach(void *ptr);
/* Buffers attached now (no lock: what a source asks before it samples). */
size_t rt_mem_attachments(void);
/* Called by the thread that attached a buffer, after the attachment is in
 * (no lock held): what samples attachments may see something now. Each
 * listener is added once, before the first region (at most 4). */
typedef void (*rt_mem_attached_fn)(void);
void rt_mem_on_attach(rt_mem_attached_fn fn);
int    rt_mem_migrate_on_next_touch(void *ptr, size_t size);
int    rt_mem_migrate_to_node(void *ptr, size_t size, int node);
int    rt_mem_nodes_of(const void *ptr, size_t size, size_t *pages_per_node);
double rt_mem_cost_migrate(size_t size, int from, int to);
double rt_mem_cost_access(size_t size, int from, int to, int is_write);
int    rt_mem_node_memory(int node, size_t *total, size_t *free);

/* ---- the program's own memory (rt_mem_place.c) ---- */

/*
 * Memory the program allocated itself (not through this manager), placed
 * for it by the runtime: the present pages of [lo, hi) (page-aligned) go to
 * one node, or are spread over several (huge-page units when the range
 * holds two per node or more, else pages), with a record of where each page
 * was, so that the move can be undone completely. Pages never touched are
 * left alone: they go where their first toucher runs. Spreading also sets
 * an interleave policy on the range: pages faulted later are spread too, and
 * Linux's automatic NUMA balancing leaves the range alone. Ranges this
 * manager allocated or registered, and ranges under a policy of the
 * program's own, are refused with EPERM.
 */
typedef struct rt_mem_undo {
    uintptr_t lo, hi;
    int16_t  *node;        /* [pages] kernel node of each page before the move, -1 not present */
    int       policy;      /* the range got an interleave policy (undone: the default again) */
    uint64_t  moved;       /* pages that went where they were sent */
    uint64_t  failed;      /* present pages that stayed elsewhere (shared with another process, busy) */
    uint64_t  back;        /* pages the undo sent back */
    double    move_ms, undo_ms;
} rt_mem_undo_t;

/* 0, or -1 with errno (EINVAL, EPERM, ENOSYS, ENOMEM, move_pages' or
 * mbind's); the record is filled as far as the move went (an undo puts
 * back what moved, even after a failure) and must be freed. */
int  rt_mem_place_range(uintptr_t lo, uintptr_t hi, int node, rt_mem_undo_t *undo);
int  rt_mem_spread_range(uintptr_t lo, uintptr_t hi, const int *nodes, int n, rt_mem_undo_t *undo);
/* Every recorded page back on its node, the default policy back. 0 or -1 with errno. */
int  rt_mem_undo_range(rt_mem_undo_t *undo);
void rt_mem_undo_free(rt_mem_undo_t *undo);

/* ---- a sampler's pages ---- */

/*
 * A counter source that samples by protecting pages (rt_src_pagefault.c)
 * makes them invisible to move_pages: the kernel reports a PROT_NONE page
 * as not present and never moves it. So rt_mem_nodes_of,
 * rt_mem_migrate_to_node and rt_mem_migrate_on_next_touch first call
 * hold(start, end): the sampler gives back every page it holds in the range
 * and protects nothing until done() (it must not sleep meanwhile on
 * anything the caller holds). Set once, by the source that starts.
 */
typedef struct rt_mem_sampler {
    void (*hold)(uintptr_t start, uintptr_t end);
    void (*done)(void);
} rt_mem_sampler_t;

void rt_mem_set_sampler(const rt_mem_sampler_t *sampler);

/* ---- attach hints, for the `hints` counter source and the bubble scheduler ---- */

/* One attached buffer as it is now. */
typedef struct rt_mem_hint {
    const void *base;           /* as given to omp_numa_attach */
    size_t      bytes;          /* attached size (page-rounded extent) */
    int         thread_num;     /* the owner: omp_get_thread_num() in its team */
    int         home;           /* node holding most of its placed pages, -1 if none placed */
    size_t     *pages_per_node; /* [nnodes] placed pages per node (points into the snapshot) */
    size_t      unplaced;       /* pages not yet touched (or not readable) */
} rt_mem_hint_t;

/*
 * Snapshot of every attachment, with each buffer's placement queried from
 * the kernel now (one move_pages query per buffer). On success *out is an
 * array of the returned count, *nnodes the length of each pages_per_node;
 * free it with rt_mem_hints_free. Returns the count (0: no attachment, *out
 * NULL), or -1 with errno ENOMEM. Costs one system call per attached buffer:
 * call it when deciding, not per event.
 */
int  rt_mem_hints_snapshot(rt_mem_hint_t **out, int *nnodes);
void rt_mem_hints_free(rt_mem_hint_t *hints, int n);

/*
 * Fold a snapshot into a thread x node table: each attached buffer is one
 * reference per placed page from its owner thread (thread_num < team_size)
 * to the topology node of the kernel node holding it (rt_mach's topology).
 * Adds to tnt[team_size * nnodes] and, when samples is not NULL, to
 * samples[team_size]. Returns the references added.
 */
uint64_t rt_mem_hints_fold(const rt_mem_hint_t *hints, int nhints, int nkernel, int team_size, int nnodes,
                           uint64_t *tnt, uint64_t *samples);

/*
 * Re-placement hook, set by the placement side (issue 4/8). It is called by
 * omp_numa_update_hints: with RT_MEM_NOW by the calling thread, with
 * RT_MEM_AT_BARRIER by the last thread of the team to make the call. It
 * receives a fresh snapshot (valid only during the call), the team's size
 * and the caller's nesting level (omp_get_level()), and decides and requests
 * the re-placement (typically: pin each thread at its next implicit-task
 * begin). It runs outside any lock of the memory manager and may call
 * rt_mem_* functions. Returns 0, or -1 with errno, which omp_numa_update_hints
 * returns to its caller. NULL uninstalls; without a hook, update_hints fails
 * with ENOSYS.
 */
typedef int (*rt_mem_replace_fn)(const rt_mem_hint_t *hints, int nhints, int nnodes,
                                 int team_size, int level, void *ctx);
void rt_mem_set_replace_hook(rt_mem_replace_fn fn, void *ctx);

/*
 * The runtime half of omp_numa_update_hints. team_key identifies the team
 * among the teams active at once (the openmp layer derives it from the
 * nesting level and ancestor thread numbers), team_size its number of
 * threads. RT_MEM_NOW runs the hook at once. RT_MEM_AT_BARRIER counts
 * arrivals per team and runs the hook in the thread that arrives last; the
 * others return 0 at once (nobody waits). Returns 0, or -1 with errno
 * EINVAL (bad when, team_size < 1), ENOSYS (no hook), ENOMEM, or the hook's.
 */
int rt_mem_update_hints(int when, uint64_t team_key, int team_size, int level);

/* ---- statistics ---- */

typedef struct rt_mem_stats {
    size_t   heap_bytes;        /* bytes held by the per-node heaps (all nodes) */
    size_t   live_allocs;       /* allocations not yet freed */
    size_t   registered;        /* registered areas */
    size_t   attached;          /* attachments */
    uint64_t pages_moved;       /* by migrate_to_node */
    uint64_t pages_move_failed; /* pages migrate_to_node could not move (data left in place) */
    uint64_t nt_faults;         /* next-touch faults that migrated a unit */
    uint64_t nt_pages_moved;    /* pages moved by next touch */
    uint64_t nt_failed;         /* pages next touch could not move (left in place, accessible) */
} rt_mem_stats_t;
void rt_mem_get_stats(rt_mem_stats_t *out);

/* ---- costs (rt_mem_cost.c) ---- */

/* The migration line (us per call, per page) for a decision made while the
 * program runs: `ompnuma calibrate`'s cache for this machine; without one,
 * the price a page took in a trial on this machine (rt_migrate_page_ns:
 * 16 of the process's own pages between the calling thread's node and
 * another, once per process, milliseconds at most), the call's cost in
 * it; never a calibration (that would stall the program for seconds:
 * rt_mem_model may calibrate). 0 with source filled ("calibrated: ...",
 * "a trial here: ..."), or -1 when there is neither (one node, moves
 * refused: the caller keeps its own line). */
int  rt_mem_cost_line(double *a_us, double *b_us, char *source, size_t len);

/* The calibrated model. Migration: a_us + b_us * pages. Access: latency and
 * bandwidth measured locally, scaled by distance(from, to) / distance(from, from). */
typedef struct rt_mem_model {
    double a_us, b_us;          /* migration cost line */
    double lat_ns;              /* local load-to-use latency (pointer chase) */
    double read_mbs, write_mbs; /* local bandwidth, MB/s (1e6 bytes) */
    double memcpy_mbs;          /* local memcpy bandwidth, for comparison */
    int    moved;               /* 1: pages really moved between two nodes; 0: one node, b estimated */
    char   source[64];          /* "measured", "cache: PATH" */
} rt_mem_model_t;

/* Measure the model on this machine (about 0.1 s). Returns 0 or -1 with errno. */
int  rt_mem_calibrate(rt_mem_model_t *out);
/* The model in use: from the cache file when it matches this machine, else
 * measured once at first use. Returns 0 or -1 with errno. */
int  rt_mem_model(rt_mem_model_t *out);
/* The cache file for this machine (NUL-terminated path). Returns 0, or -1 with
 * ENOENT when neither XDG_CACHE_HOME nor HOME is set. */
int  rt_mem_cache_path(char *buf, size_t len);
/* Write / read the cache file. Return 0 or -1 with errno (read: ENOENT when
 * absent, EINVAL when it describes another machine or is malformed). */
int  rt_mem_cache_write(const rt_mem_model_t *m);
int  rt_mem_cache_read(rt_mem_model_t *m);

#endif
