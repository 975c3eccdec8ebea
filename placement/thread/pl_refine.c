/* pl_refine.c: local search (moves and swaps under the cost model) that polishes a greedy mapping. */
#include <errno.h>
#include <string.h>
#include "pl_internal.h"

/* Work limit of critpath+refine, in thread-time evaluations (each candidate
 * mapping costs N), shared by all starts: a few milliseconds of one core,
 * enough for the full neighbourhood to converge up to 64 threads. */
#define REFINE_BUDGET 4000000L
/* Above this many threads only moves and swaps that involve the node of the
 * critical thread are tried: the full swap neighbourhood is O(N^2) mappings. */
#define REFINE_FULL_MAX 64

typedef struct search {
    pl_ctx_t *ctx;
    int *node, *used;
    double crit, sum;
    long budget;
} search_t;

/* Lexicographic (critical path, then the sum of thread times): the sum lets
 * the search walk plateaus where a second thread is as slow as the first. */
static int accept(search_t *s)
{
    double c, sum;
    s->budget -= s->ctx->n;
    pl_i_eval(s->ctx, s->node, &c, &sum, NULL);
    if (c < s->crit * (1 - PL_I_EPS) || (c <= s->crit && sum < s->sum * (1 - PL_I_EPS))) {
        s->crit = c;
        s->sum = sum;
        return 1;
    }
    return 0;
}

static int try_move(search_t *s, int t, int d)
{
    int from = s->node[t];
    if (d == from || s->used[d] >= s->ctx->topo->capacity[d])
        return 0;
    s->node[t] = d;
    if (accept(s)) {
        s->used[from]--;
        s->used[d]++;
        return 1;
    }
    s->node[t] = from;
    return 0;
}

static int try_swap(search_t *s, int t, int u)
{
    int a = s->node[t], b = s->node[u];
    if (a == b)
        return 0;
    s->node[t] = b;
    s->node[u] = a;
    if (accept(s))
        return 1;
    s->node[t] = a;
    s->node[u] = b;
    return 0;
}

size_t pl_i_refine_bytes(int n, int nd)
{
    (void)n; /* the search state is per node; the mapping is the caller's */
    pl_arena_t a = { NULL, 0, 0 };
    pl_i_take(&a, sizeof(int) * nd);
    return a.used;
}

int pl_i_refine(pl_ctx_t *ctx, int *node, pl_arena_t *a, long budget)
{
    int n = ctx->n, nd = ctx->nd;
    search_t s = { ctx, node, pl_i_take(a, sizeof(int) * nd), 0, 0, budget };
    if (!s.used)
        return -ENOBUFS;
    memset(s.used, 0, sizeof(int) * nd);
    for (int t = 0; t < n; t++)
        s.used[node[t]]++;
    int ct;
    pl_i_eval(ctx, node, &s.crit, &s.sum, &ct);
    if (ctx->total <= 0)
        return 0;
    int improved = 1;
    while (improved && s.budget > 0) {
        improved = 0;
        pl_i_eval(ctx, node, &s.crit, &s.sum, &ct);
        int hot = node[ct];
        for (int t = 0; t < n && s.budget > 0; t++) {
            if (n > REFINE_FULL_MAX && node[t] != hot)
                continue;
            for (int d = 0; d < nd; d++)
                improved |= try_move(&s, t, d);
        }
        for (int t = 0; t < n && s.budget > 0; t++) {
            int full = n <= REFINE_FULL_MAX;
            for (int u = t + 1; u < n && s.budget > 0; u++)
                if (full || node[t] == hot || node[u] == hot)
                    improved |= try_swap(&s, t, u);
        }
    }
    return 0;
}

size_t pl_i_polish_bytes(int n, int nd)
{
    pl_arena_t a = { NULL, 0, 0 };
    pl_i_take(&a, sizeof(int) * n);
    size_t g = pl_i_greedy_bytes(n, nd), r = pl_i_refine_bytes(n, nd);
    return a.used + (g > r ? g : r);
}

/*
 * Local search is only as good as where it starts: critpath's mapping is the
 * first start; Algorithm 2's, scatter's and compact's are the others, each
 * refined, and the best critical path wins (the earlier start on ties). Each
 * start covers a different family: compact for regions that gain from
 * sharing a node, scatter for bandwidth-bound ones, maxlocal for local data.
 * Above REFINE_FULL_MAX threads only critpath's start is refined, with the
 * whole budget: the restricted neighbourhood needs it more than new starts.
 */
int pl_i_polish(pl_ctx_t *ctx, int *node, pl_arena_t *a)
{
    int n = ctx->n;
    pl_arena_t base = *a;
    int starts = n > REFINE_FULL_MAX ? 1 : 4;
    int rc = pl_i_refine(ctx, node, a, REFINE_BUDGET / starts);
    if (rc)
        return rc;
    double best;
    pl_i_eval(ctx, node, &best, NULL, NULL);
    int *alt = pl_i_take(&base, sizeof(int) * n);
    if (!alt)
        return -ENOBUFS;
    for (int start = 0; start < starts - 1; start++) {
        pl_arena_t phase = base;
        if (start == 0)      rc = pl_i_maxlocal(ctx->topo, ctx->tnt, alt, &phase, NULL, pl_i_greedy_simd());
        else if (start == 1) rc = pl_i_scatter(ctx->topo, n, alt);
        else                 rc = pl_i_compact(ctx->topo, n, alt);
        if (rc)
            return rc;
        phase = base;
        if ((rc = pl_i_refine(ctx, alt, &phase, REFINE_BUDGET / starts)))
            return rc;
        double c;
        pl_i_eval(ctx, alt, &c, NULL, NULL);
        if (c < best * (1 - PL_I_EPS)) {
            best = c;
            memcpy(node, alt, sizeof(int) * n);
        }
    }
    return 0;
}
