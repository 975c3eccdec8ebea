/* pl_internal.h: shared helpers of the placement library (not installed, not for callers). */
#ifndef OMPNUMA_PL_INTERNAL_H
#define OMPNUMA_PL_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "pl.h"

/* Distance from a thread on node n to memory on node d, in SLIT units.
 * Precondition: pl_check accepted topo. */
static inline double pl_i_dist(const pl_topo_t *topo, int n, int d)
{
    if (topo->distance)
        return topo->distance[(size_t)n * topo->nnodes + d];
    return n == d ? 10.0 : 10.0 * topo->numa_factor;
}

/* References of one TNT row weighted by the distance from node n, in local
 * references. Every caller computes it through this function so that
 * pl_predict and the searches produce bit-identical times. */
static inline double pl_i_weighted(const pl_topo_t *topo, const uint64_t *row, int n)
{
    double acc = 0.0;
    for (int d = 0; d < topo->nnodes; d++)
        acc += (double)row[d] * pl_i_dist(topo, n, d);
    return acc / pl_i_dist(topo, n, n);
}

/* time(t) of pl.h's model from its parts; issue = I_n, remote = M, total = R > 0. */
static inline double pl_i_time(const pl_model_t *m, double w, double rem,
                               double issue, double remote, double total)
{
    return m->local_ns * (w * (1.0 + m->node_congestion * issue / total)
                          + m->remote_traffic * rem * remote / total);
}

/*
 * Precomputed model of one decision: weighted references w[t][n], remote
 * references rem[t][n], row totals. The searches (refine, exhaustive) evaluate
 * thousands of mappings from these tables in O(N) each.
 */
typedef struct pl_ctx {
    const pl_topo_t  *topo;
    const pl_tnt_t   *tnt;
    const pl_model_t *model;
    int     n, nd;
    double  total;     /* all references of the region */
    double *rowsum;    /* [n]      */
    double *w;         /* [n * nd] */
    double *rem;       /* [n * nd] */
    double *issue;     /* [nd] scratch: I_n of the mapping being evaluated */
} pl_ctx_t;

/* Bump allocator over the caller's workspace: 16-byte aligned slices. */
typedef struct pl_arena { char *p; size_t left; size_t used; } pl_arena_t;

static inline void *pl_i_take(pl_arena_t *a, size_t bytes)
{
    size_t sz = (bytes + 15) & ~(size_t)15;
    a->used += sz;
    if (!a->p || sz > a->left) { a->left = 0; return NULL; }
    void *r = a->p;
    a->p += sz;
    a->left -= sz;
    return r;
}

/* Bytes the context tables take (counted by the same pl_i_take sizes). */
size_t pl_i_ctx_bytes(int n, int nd);
/* Fill ctx from the arena; -ENOBUFS when it does not fit. */
int pl_i_ctx_init(pl_ctx_t *ctx, pl_arena_t *a, const pl_topo_t *topo,
                  const pl_tnt_t *tnt, const pl_model_t *model);
/* Critical time and the sum of thread times of node assignment node[]
 * (thread-index order summation, like pl_predict). crit_thread may be NULL. */
void pl_i_eval(pl_ctx_t *ctx, const int *node, double *crit, double *sum, int *crit_thread);

/* The greedy policies write node[] (and the trace); cores are numbered by
 * pl_i_number_cores afterwards. simd: take the AVX2 set-up, which the
 * caller passes as pl_i_greedy_simd() says (1 where the CPU has AVX2);
 * both set-ups give the same decisions. */
size_t pl_i_greedy_bytes(int n, int nd);
int pl_i_greedy_simd(void);
int pl_i_compact(const pl_topo_t *topo, int n, int *node);
int pl_i_scatter(const pl_topo_t *topo, int n, int *node);
int pl_i_maxlocal(const pl_topo_t *topo, const pl_tnt_t *tnt, int *node,
                  pl_arena_t *a, pl_trace_t *trace, int simd);
int pl_i_critpath(const pl_topo_t *topo, const pl_tnt_t *tnt, int *node,
                  pl_arena_t *a, pl_trace_t *trace, int simd);

/* Local search from node[] (improved in place). */
size_t pl_i_refine_bytes(int n, int nd);
int pl_i_refine(pl_ctx_t *ctx, int *node, pl_arena_t *a, long budget);

/* Refine from critpath's node[] and from the other greedy starts; keep the best. */
size_t pl_i_polish_bytes(int n, int nd);
int pl_i_polish(pl_ctx_t *ctx, int *node, pl_arena_t *a);

size_t pl_i_exhaustive_bytes(int n, int nd);
int pl_i_exhaustive(pl_ctx_t *ctx, int *node, pl_arena_t *a);

/* core[t] = number of threads below t on node[t]: deterministic, dense. */
void pl_i_number_cores(int n, int nd, const int *node, int *core, int *scratch_nd);

/* Relative tolerance under which two model times count as equal. */
#define PL_I_EPS 1e-12

/* The topology rules of pl_check without a TNT (the bubble scheduler has
 * none and accepts more threads than cores): 0 or -EINVAL. */
int pl_check_topo(const pl_topo_t *topo);

#endif
