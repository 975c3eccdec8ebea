/* pl_refine.c: local search (moves and swaps under the cost model) that polishes a greedy mapping. */
#include <errno.h>
#include <string.h>
#include "pl_internal.h"

/* Work limit of one refinement, in thread-time evaluations (each candidate
 * mapping costs N). About 10 ms on a current core; enough for the full
 * neighbourhood to converge up to 64 threads. */
#define REFINE_BUDGET 10000000L
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

int pl_i_refine(pl_ctx_t *ctx, int *node, pl_arena_t *a)
{
    int n = ctx->n, nd = ctx->nd;
    search_t s = { ctx, node, pl_i_take(a, sizeof(int) * nd), 0, 0, REFINE_BUDGET };
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
