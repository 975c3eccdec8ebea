/* pl_exhaustive.c: Algorithm 1, the optimum under the cost model, by branch and bound with symmetry pruning. */
#include <errno.h>
#include <string.h>
#include "pl_internal.h"

/*
 * The paper enumerates every mapping (16!/(4!)^4 = 63 063 000 for 16 threads
 * on 4 nodes of 4 cores). Cores inside a node are interchangeable under the
 * model, so we enumerate node assignments only, and prune three ways:
 *
 * - Bound. Threads are placed heaviest first. Every term of a placed thread's
 *   time only grows as more threads are placed, so its time computed with
 *   lower bounds of its node's final issue I_n and of the final remote total M
 *   bounds its final time from below. I_n is at least I_n now plus the
 *   smallest remaining threads the node must still take (when the other nodes'
 *   free cores cannot hold them all); M is at least M now plus each remaining
 *   thread's smallest possible remote count. A subtree whose bound is not
 *   below the best mapping found is cut. The search starts from the
 *   critpath+refine mapping, usually already optimal, so most subtrees die
 *   near the root.
 * - Identical threads (equal TNT rows) are interchangeable: among them, node
 *   indices must not decrease in placement order.
 * - Identical nodes (same capacity, same TNT column, and a distance matrix
 *   that a transposition of the two leaves unchanged) are interchangeable: an
 *   empty node of such a class may be used only if it is the lowest-indexed
 *   empty node of its class.
 * Both symmetry rules are necessary conditions for being the lexicographically
 * smallest mapping of an orbit under the combined group, so together they
 * keep one member of every orbit and the optimum is never cut.
 */
typedef struct bb {
    pl_ctx_t *ctx;
    int n, nd;
    const int *cap;
    int *ord;        /* [n] position -> thread, heaviest first              */
    int *prev_same;  /* [n] position of the previous identical thread or -1 */
    int *cls;        /* [nd] lowest node index of the node's class          */
    int *norder;     /* [n * nd] nodes to try per position, cheapest first  */
    int *x;          /* [n] node per position                               */
    int *node;       /* [n] node per thread (the mapping being built)       */
    int *best;       /* [n] best node per thread (caller's output array)    */
    int *used;       /* [nd] */
    double *issue;   /* [nd] I_n of the placed threads */
    double *prefix;  /* [n + 1] sum of row totals of positions < i */
    double *minrem;  /* [n + 1] sum over positions >= i of the smallest remote count */
    unsigned char *seen; /* [nd] scratch of the node-class rule */
    double remote;   /* M of the placed threads */
    double best_crit;
    long visits;
} bb_t;

size_t pl_i_exhaustive_bytes(int n, int nd)
{
    pl_arena_t a = { NULL, 0, 0 };
    pl_i_take(&a, sizeof(int) * n);
    pl_i_take(&a, sizeof(int) * n);
    pl_i_take(&a, sizeof(int) * nd);
    pl_i_take(&a, sizeof(int) * (size_t)n * nd);
    pl_i_take(&a, sizeof(int) * n);
    pl_i_take(&a, sizeof(int) * n);
    pl_i_take(&a, sizeof(int) * nd);
    pl_i_take(&a, sizeof(double) * nd);
    pl_i_take(&a, sizeof(double) * (n + 1));
    pl_i_take(&a, sizeof(double) * (n + 1));
    pl_i_take(&a, (size_t)nd);
    return a.used;
}

static int row_cmp(const pl_ctx_t *ctx, int a, int b)
{
    const uint64_t *ra = ctx->tnt->refs + (size_t)a * ctx->nd, *rb = ctx->tnt->refs + (size_t)b * ctx->nd;
    for (int d = 0; d < ctx->nd; d++)
        if (ra[d] != rb[d])
            return ra[d] > rb[d] ? -1 : 1;
    return 0;
}

/* Heaviest first; identical rows adjacent; then thread index. */
static int heavier(const pl_ctx_t *ctx, int a, int b)
{
    if (ctx->rowsum[a] != ctx->rowsum[b])
        return ctx->rowsum[a] > ctx->rowsum[b];
    int c = row_cmp(ctx, a, b);
    return c ? c < 0 : a < b;
}

static int nodes_interchangeable(const pl_ctx_t *ctx, int i, int j)
{
    const pl_topo_t *topo = ctx->topo;
    int nd = ctx->nd;
    if (topo->capacity[i] != topo->capacity[j])
        return 0;
    for (int t = 0; t < ctx->n; t++)
        if (ctx->tnt->refs[(size_t)t * nd + i] != ctx->tnt->refs[(size_t)t * nd + j])
            return 0;
    for (int a = 0; a < nd; a++) {
        int pa = a == i ? j : a == j ? i : a;
        for (int b = 0; b < nd; b++) {
            int pb = b == i ? j : b == j ? i : b;
            if (pl_i_dist(topo, pa, pb) != pl_i_dist(topo, a, b))
                return 0;
        }
    }
    return 1;
}

/* Lower bound of the final critical path given positions < depth placed. */
static double bound(bb_t *b, int depth)
{
    pl_ctx_t *ctx = b->ctx;
    int left = b->n - depth, free_total = 0;
    for (int d = 0; d < b->nd; d++)
        free_total += b->cap[d] - b->used[d];
    double m = b->remote + b->minrem[depth], worst = 0;
    /* Lower bounds of I_n are computed lazily per node of a placed thread. */
    for (int p = 0; p < depth; p++) {
        int t = b->ord[p], d = b->x[p];
        int must = left - (free_total - (b->cap[d] - b->used[d]));
        double issue = b->issue[d];
        if (must > 0)
            issue += b->prefix[b->n] - b->prefix[b->n - must];
        size_t i = (size_t)t * b->nd + d;
        double time = pl_i_time(ctx->model, ctx->w[i], ctx->rem[i], issue, m, ctx->total);
        if (time > worst)
            worst = time;
    }
    return worst;
}

static int dfs(bb_t *b, int depth)
{
    if (++b->visits > PL_EXHAUSTIVE_BUDGET)
        return -E2BIG;
    if (depth == b->n) {
        double crit;
        pl_i_eval(b->ctx, b->node, &crit, NULL, NULL);
        if (crit < b->best_crit * (1 - PL_I_EPS)) {
            b->best_crit = crit;
            memcpy(b->best, b->node, sizeof(int) * b->n);
        }
        return 0;
    }
    int t = b->ord[depth], nd = b->nd;
    int lowest = b->prev_same[depth] >= 0 ? b->x[b->prev_same[depth]] : 0;
    /* Node-class rule: the first empty node met (in index order) per class. */
    memset(b->seen, 0, (size_t)nd);
    int first_empty[PL_MAX_NODES];
    for (int d = 0; d < nd; d++) {
        first_empty[d] = 0;
        if (b->used[d] == 0 && !b->seen[b->cls[d]]) {
            b->seen[b->cls[d]] = 1;
            first_empty[d] = 1;
        }
    }
    const int *order = b->norder + (size_t)depth * nd;
    for (int k = 0; k < nd; k++) {
        int d = order[k];
        if (d < lowest || b->used[d] >= b->cap[d])
            continue;
        if (b->used[d] == 0 && !first_empty[d])
            continue;
        size_t i = (size_t)t * nd + d;
        b->x[depth] = d;
        b->node[t] = d;
        b->used[d]++;
        b->issue[d] += b->ctx->rowsum[t];
        b->remote += b->ctx->rem[i];
        int rc = 0;
        if (bound(b, depth + 1) < b->best_crit * (1 - PL_I_EPS))
            rc = dfs(b, depth + 1);
        b->remote -= b->ctx->rem[i];
        b->issue[d] -= b->ctx->rowsum[t];
        b->used[d]--;
        if (rc)
            return rc;
    }
    return 0;
}

/* node[] holds a feasible mapping on entry (the starting upper bound) and the
 * optimum on return. */
int pl_i_exhaustive(pl_ctx_t *ctx, int *node, pl_arena_t *a)
{
    int n = ctx->n, nd = ctx->nd;
    if (n > PL_EXHAUSTIVE_MAX_THREADS)
        return -E2BIG;
    bb_t b = { .ctx = ctx, .n = n, .nd = nd, .cap = ctx->topo->capacity, .best = node };
    b.ord = pl_i_take(a, sizeof(int) * n);
    b.prev_same = pl_i_take(a, sizeof(int) * n);
    b.cls = pl_i_take(a, sizeof(int) * nd);
    b.norder = pl_i_take(a, sizeof(int) * (size_t)n * nd);
    b.x = pl_i_take(a, sizeof(int) * n);
    b.node = pl_i_take(a, sizeof(int) * n);
    b.used = pl_i_take(a, sizeof(int) * nd);
    b.issue = pl_i_take(a, sizeof(double) * nd);
    b.prefix = pl_i_take(a, sizeof(double) * (n + 1));
    b.minrem = pl_i_take(a, sizeof(double) * (n + 1));
    b.seen = pl_i_take(a, (size_t)nd);
    if (!b.seen)
        return -ENOBUFS;

    /* Insertion sort: n <= PL_EXHAUSTIVE_MAX_THREADS. */
    for (int i = 0; i < n; i++) {
        int t = i, j = i;
        while (j > 0 && heavier(ctx, t, b.ord[j - 1])) { b.ord[j] = b.ord[j - 1]; j--; }
        b.ord[j] = t;
    }
    b.prefix[0] = 0;
    for (int p = 0; p < n; p++) {
        b.prev_same[p] = (p > 0 && row_cmp(ctx, b.ord[p - 1], b.ord[p]) == 0) ? p - 1 : -1;
        b.prefix[p + 1] = b.prefix[p] + ctx->rowsum[b.ord[p]];
    }
    b.minrem[n] = 0;
    for (int p = n - 1; p >= 0; p--) {
        int t = b.ord[p];
        double lo = -1;
        for (int d = 0; d < nd; d++)
            if (b.cap[d] > 0 && (lo < 0 || ctx->rem[(size_t)t * nd + d] < lo))
                lo = ctx->rem[(size_t)t * nd + d];
        b.minrem[p] = b.minrem[p + 1] + (lo > 0 ? lo : 0);
    }
    for (int d = 0; d < nd; d++) {
        b.cls[d] = d;
        for (int e = 0; e < d; e++)
            if (b.cls[e] == e && nodes_interchangeable(ctx, e, d)) { b.cls[d] = e; break; }
        b.used[d] = 0;
        b.issue[d] = 0;
    }
    for (int p = 0; p < n; p++) {
        int t = b.ord[p], *o = b.norder + (size_t)p * nd;
        for (int k = 0; k < nd; k++) {
            int d = k, j = k;
            double wd = ctx->w[(size_t)t * nd + d];
            while (j > 0 && ctx->w[(size_t)t * nd + o[j - 1]] > wd) { o[j] = o[j - 1]; j--; }
            o[j] = d;
        }
    }
    b.remote = 0;
    pl_i_eval(ctx, node, &b.best_crit, NULL, NULL);
    if (ctx->total <= 0)
        return 0;
    return dfs(&b, 0);
}
