/* pl.h: the pure placement library: TNT, topology model, mapping, policies, cost model. */
#ifndef OMPNUMA_PL_H
#define OMPNUMA_PL_H

/*
 * Conventions for the whole library
 * ---------------------------------
 * - No system calls, no globals, no printing, no hidden allocation. Every
 *   array is owned by the caller; policies that need scratch space take a
 *   workspace whose size pl_workspace_bytes() tells.
 * - Functions return 0 (or a count) on success and a negative errno value on
 *   failure: -EINVAL for malformed input (Nd = 0, mismatched sizes, NULL
 *   where an array is required, a negative capacity), -ENOSPC when the
 *   threads do not fit the cores, -ENOBUFS when a caller buffer is too small,
 *   -E2BIG when an exhaustive search would exceed its budget.
 * - Determinism: equal inputs give equal outputs; ties are broken towards the
 *   lower thread index, then the lower node index.
 * - Thread and node indices count from 0 (the paper counts from 1).
 */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The machine as placement sees it. Memory-only nodes have capacity 0. */
typedef struct pl_topo {
    int           nnodes;      /* Nd >= 1 */
    const int    *capacity;    /* [nnodes] cores per node that threads may use */
    const double *distance;    /* [nnodes * nnodes] row-major, SLIT units (local = 10);
                                  NULL means 10 local, 10 * numa_factor remote */
    double        numa_factor; /* remote/local latency ratio >= 1; 0 = derive from distance */
} pl_topo_t;

/* Thread-node table: refs[t * nnodes + d] = memory references of thread t to node d. */
typedef struct pl_tnt {
    int             nthreads;  /* N >= 1 */
    int             nnodes;    /* must equal the topology's nnodes */
    const uint64_t *refs;
} pl_tnt_t;

/* A placement: node[t] and core[t] (index of the core within its node, 0-based). */
typedef struct pl_mapping {
    int  nthreads;
    int *node;
    int *core;
} pl_mapping_t;

typedef enum pl_policy {
    PL_POLICY_COMPACT = 0,      /* fill node 0, then node 1, ... (OS "close")   */
    PL_POLICY_SCATTER,          /* round-robin over nodes (OS "spread")         */
    PL_POLICY_EXHAUSTIVE,       /* Algorithm 1: optimum under the cost model
                                   (branch and bound, symmetry pruning); -E2BIG
                                   beyond PL_EXHAUSTIVE_MAX_THREADS threads or
                                   PL_EXHAUSTIVE_BUDGET search nodes            */
    PL_POLICY_MAXLOCAL,         /* Algorithm 2: greedy local accesses, Eq. 1-3  */
    PL_POLICY_CRITPATH,         /* Algorithm 3: critical path, Eq. 4            */
    PL_POLICY_CRITPATH_REFINE,  /* Algorithm 3 + swap/move refinement under the
                                   cost model, also started from maxlocal,
                                   scatter and compact (up to 64 threads); a
                                   fixed work budget bounds it (milliseconds)  */
    PL_POLICY_COUNT
} pl_policy_t;

/* Cost model parameters (see pl_model.c for where each default comes from). */
/*
 * Predicted time of thread t placed on node n (R = the region's total references,
 * I_n = references issued by all threads placed on node n, M = remote references
 * of the whole mapping, w = t's references weighted by distance[n][d] / distance[n][n],
 * rem = t's references to nodes other than n):
 *
 *   time(t) = local_ns * ( w * (1 + node_congestion * I_n / R)
 *                        + remote_traffic * rem * M / R )
 *
 * The region's predicted time is the slowest thread (the critical path).
 * "The same node" below is the node the thread runs on: threads crowded on one
 * node share its cache, memory controller port and link (the paper's "local
 * contention" that Algorithm 2 avoids).
 */
typedef struct pl_model {
    double local_ns;        /* cost of one local reference                      */
    double node_congestion; /* extra cost per reference, per unit of the share
                               of all references that are issued from the same
                               node (the node the thread runs on)              */
    double remote_traffic;  /* extra cost per remote reference, per unit of the
                               share of all references that are remote          */
} pl_model_t;

/* Largest number of nodes the library accepts (pl_check answers -EINVAL above). */
#define PL_MAX_NODES 1024
/* Exhaustive search gives up with -E2BIG beyond this many threads or after
 * visiting this many search nodes (a deterministic budget, not a clock). */
#define PL_EXHAUSTIVE_MAX_THREADS 64
#define PL_EXHAUSTIVE_BUDGET 20000000L

void pl_model_default(pl_model_t *model);

/* NUMA factor of a topology: its numa_factor if > 0, else the mean remote
 * distance over the mean local distance (1.0 for a single node). */
double pl_numa_factor(const pl_topo_t *topo);

/* Validate a topology / TNT pair: 0 or a negative errno (see above). */
int pl_check(const pl_topo_t *topo, const pl_tnt_t *tnt);

/* Scratch bytes pl_decide needs for this policy and size. */
size_t pl_workspace_bytes(pl_policy_t policy, int nthreads, int nnodes);

/* Decide a mapping. out->nthreads must equal tnt->nthreads and out->node /
 * out->core must have room for that many entries. work may be NULL when
 * pl_workspace_bytes() is 0. Returns 0 or a negative errno. */
int pl_decide(pl_policy_t policy, const pl_topo_t *topo, const pl_tnt_t *tnt,
              const pl_model_t *model, pl_mapping_t *out, void *work, size_t work_bytes);

/* Predicted time of each thread under the model (per_thread may be NULL) and
 * of the region, the slowest thread, in *critical. Returns 0 or -errno. */
int pl_predict(const pl_topo_t *topo, const pl_tnt_t *tnt, const pl_model_t *model,
               const pl_mapping_t *map, double *per_thread, double *critical);

/* Local and remote reference totals of a mapping. */
int pl_locality(const pl_tnt_t *tnt, const pl_mapping_t *map, uint64_t *local, uint64_t *remote);

/*
 * Decision trace of the greedy policies (maxlocal, critpath; the first phase of
 * critpath+refine): one step per placed thread, in placement order, with the
 * candidates that step compared. Filled as far as the arrays allow; nsteps and
 * ncands say how many entries were written, truncated is 1 when some did not fit.
 * Other policies leave nsteps = ncands = 0.
 */
typedef struct pl_candidate {
    int    thread, node;
    double value;      /* TNT value V(thread, node)                               */
    double impact;     /* critpath: IF(thread, node) (Eq. 4); maxlocal: 0          */
    double node_load;  /* critpath: CPImpact[node]; maxlocal: LC[node], both before
                          this step                                                */
    double score;      /* critpath: impact + node_load (lowest wins);
                          maxlocal: value (eligible when >= the step's threshold)   */
} pl_candidate_t;

typedef struct pl_step {
    int    thread, node;     /* the decision of this step                      */
    int    max_thread, max_node; /* e_max: the largest remaining TNT element      */
    double threshold;        /* maxlocal: V(e_max) / NUMA factor (Eq. 2); else 0 */
    int    first_cand, ncand;/* this step's candidates in the candidate array    */
} pl_step_t;

typedef struct pl_trace {
    pl_step_t      *steps;   int max_steps; int nsteps;
    pl_candidate_t *cands;   int max_cands; int ncands;
    int             truncated;
} pl_trace_t;

/* pl_decide with a trace (trace may be NULL, then it is pl_decide). */
int pl_decide_traced(pl_policy_t policy, const pl_topo_t *topo, const pl_tnt_t *tnt,
                     const pl_model_t *model, pl_mapping_t *out, void *work,
                     size_t work_bytes, pl_trace_t *trace);

const char *pl_policy_name(pl_policy_t policy);
/* Accepts the names pl_policy_name returns ("compact", "scatter", "exhaustive",
 * "maxlocal", "critpath", "critpath+refine"). 0 or -EINVAL. */
int pl_policy_from_name(const char *name, pl_policy_t *policy);

/*
 * TNT files (CSV): one row per thread, one column per node; an optional
 * header row (any non-numeric first field); blank lines and lines starting
 * with '#' are comments, except '# region NAME', which starts a new table
 * for the region NAME (symbol or code address). Tables before any
 * '# region' line have an empty name and apply to every region.
 *
 * Two passes, no allocation: call with tables == NULL to learn how many
 * tables and cells there are, then with buffers that large.
 */
typedef struct pl_csv_table {
    char      name[128];     /* region name, "" for the default table */
    int       nthreads, nnodes;
    uint64_t *refs;          /* points into the caller's cells buffer */
} pl_csv_table_t;

/* Returns the number of tables (>= 1) or a negative errno; on failure err
 * receives one line saying which line of the text is wrong and why (ragged
 * row, negative or non-numeric count, empty input). *ncells receives the
 * number of cells needed. */
int pl_csv_parse(const char *text, size_t len,
                 pl_csv_table_t *tables, int max_tables,
                 uint64_t *cells, size_t max_cells, size_t *ncells,
                 char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif /* OMPNUMA_PL_H */
