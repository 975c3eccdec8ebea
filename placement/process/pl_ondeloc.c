/* pl_ondeloc.c: OnDeLocMap+ (pairs by volume, previous nodes first, round robin) and the mapping interval rule. */
#include <errno.h>
#include <math.h>
#include <string.h>
#include "pl_internal.h"
#include "process/pl_process.h"

typedef struct pair {
    uint64_t vol;
    int      x, y;
} pair_t;

/* Total order (volume descending, then x, then y ascending): every key is
 * distinct, so an unstable sort still gives one answer. */
static int before(const pair_t *a, const pair_t *b)
{
    if (a->vol != b->vol)
        return a->vol > b->vol;
    if (a->x != b->x)
        return a->x < b->x;
    return a->y < b->y;
}

/* Heap sort: O(P log P), in place, no allocation (qsort may malloc). */
static void sift(pair_t *p, size_t root, size_t n)
{
    for (;;) {
        size_t c = 2 * root + 1;
        if (c >= n)
            return;
        /* A max-heap of "comes last" so the sorted array ends with the last pair. */
        if (c + 1 < n && before(&p[c], &p[c + 1]))
            c++;
        if (!before(&p[root], &p[c]))
            return;
        pair_t t = p[root]; p[root] = p[c]; p[c] = t;
        root = c;
    }
}

static void sort_pairs(pair_t *p, size_t n)
{
    if (n < 2)
        return;
    for (size_t i = n / 2; i-- > 0;)
        sift(p, i, n);
    for (size_t end = n - 1; end > 0; end--) {
        pair_t t = p[0]; p[0] = p[end]; p[end] = t;
        sift(p, 0, end);
    }
}

static size_t npairs_max(int n)
{
    return (size_t)n * (size_t)(n - 1) / 2;
}

size_t pl_ondeloc_workspace_bytes(int nranks, int nnodes)
{
    if (nranks < 1 || nnodes < 1 || nnodes > PL_MAX_NODES)
        return 0;
    pl_arena_t a = { NULL, 0, 0 };
    pl_i_take(&a, sizeof(pair_t) * (npairs_max(nranks) ? npairs_max(nranks) : 1));
    pl_i_take(&a, sizeof(long) * (size_t)nnodes * 2);
    return a.used;
}

typedef struct state {
    const pl_topo_t *topo;
    long  *free;      /* [nd] free slots */
    long  *used;      /* [nd] slots taken, for core numbering */
    int    cursor;    /* round-robin position */
    long   k;         /* slots per core */
    pl_mapping_t *out;
} state_t;

static void put(state_t *s, int r, int d)
{
    s->out->node[r] = d;
    if (s->out->core)
        s->out->core[r] = s->topo->capacity[d] ? (int)(s->used[d] % s->topo->capacity[d]) : 0;
    s->used[d]++;
    s->free[d]--;
}

/* The next node from the cursor with at least `need` free slots, or -1. */
static int next_node(state_t *s, long need)
{
    int nd = s->topo->nnodes;
    for (int i = 0; i < nd; i++) {
        int d = (s->cursor + i) % nd;
        if (s->free[d] >= need) {
            s->cursor = (d + 1) % nd;
            return d;
        }
    }
    return -1;
}

static int valid_prev(const state_t *s, const int *prev, int r)
{
    return prev && prev[r] >= 0 && prev[r] < s->topo->nnodes;
}

int pl_ondeloc_map(const pl_topo_t *topo, const pl_comm_matrix_t *comm, const int *prev,
                   pl_mapping_t *out, pl_ondeloc_rule_t *why, void *work, size_t work_bytes)
{
    int rc = pl_check_topo(topo);
    if (rc)
        return rc;
    if (!comm || comm->nranks < 1 || !comm->volume || !out || !out->node
        || out->nthreads != comm->nranks)
        return -EINVAL;
    int n = comm->nranks, nd = topo->nnodes;
    long cores = 0;
    for (int d = 0; d < nd; d++)
        cores += topo->capacity[d];
    if (cores == 0)
        return -ENOSPC;
    size_t need = pl_ondeloc_workspace_bytes(n, nd);
    if (!work || work_bytes < need)
        return -ENOBUFS;

    pl_arena_t a = { work, work_bytes, 0 };
    size_t maxp = npairs_max(n);
    pair_t *pairs = pl_i_take(&a, sizeof(pair_t) * (maxp ? maxp : 1));
    state_t s = { topo, pl_i_take(&a, sizeof(long) * nd * 2), NULL, 0, (n + cores - 1) / cores, out };
    s.used = s.free + nd; /* both slices come from one take of 2 * nd longs */
    for (int d = 0; d < nd; d++) {
        s.free[d] = s.k * topo->capacity[d];
        s.used[d] = 0;
    }
    for (int r = 0; r < n; r++)
        out->node[r] = -1;

    size_t np = 0;
    for (int x = 0; x < n; x++)
        for (int y = x + 1; y < n; y++) {
            uint64_t v = comm->volume[(size_t)x * n + y] + comm->volume[(size_t)y * n + x];
            if (v > 0)
                pairs[np++] = (pair_t){ v, x, y };
        }
    sort_pairs(pairs, np);

    int placed = 0;
    for (size_t i = 0; i < np && placed < n; i++) {
        int x = pairs[i].x, y = pairs[i].y;
        if (out->node[x] >= 0 || out->node[y] >= 0)
            continue;
        pl_ondeloc_rule_t rx = PL_ONDELOC_ROUND_ROBIN, ry = PL_ONDELOC_ROUND_ROBIN;
        int px = valid_prev(&s, prev, x) ? prev[x] : -1;
        int py = valid_prev(&s, prev, y) ? prev[y] : -1;
        if (px >= 0 && px == py && s.free[px] >= 2) {
            put(&s, x, px);
            put(&s, y, py);
            rx = ry = PL_ONDELOC_PREVIOUS;
        } else if (px >= 0 && s.free[px] >= 2) {
            put(&s, x, px);
            put(&s, y, px);
            rx = PL_ONDELOC_PREVIOUS;
            ry = PL_ONDELOC_JOIN;
        } else if (py >= 0 && s.free[py] >= 2) {
            put(&s, x, py);
            put(&s, y, py);
            rx = PL_ONDELOC_JOIN;
            ry = PL_ONDELOC_PREVIOUS;
        }
        if (rx == PL_ONDELOC_ROUND_ROBIN) {
            int d = next_node(&s, 2);
            if (d >= 0) {
                put(&s, x, d);
                put(&s, y, d);
            } else {
                /* Total free slots >= unplaced ranks, so both lookups succeed. */
                put(&s, x, next_node(&s, 1));
                put(&s, y, next_node(&s, 1));
            }
        }
        if (why) {
            why[x] = rx;
            why[y] = ry;
        }
        placed += 2;
    }
    for (int r = 0; r < n; r++) {
        if (out->node[r] >= 0)
            continue;
        if (valid_prev(&s, prev, r) && s.free[prev[r]] >= 1) {
            put(&s, r, prev[r]);
            if (why)
                why[r] = PL_ONDELOC_IDLE_PREVIOUS;
        } else {
            put(&s, r, next_node(&s, 1));
            if (why)
                why[r] = PL_ONDELOC_IDLE_ROUND_ROBIN;
        }
    }

    int moved = 0;
    for (int r = 0; r < n; r++)
        if (!valid_prev(&s, prev, r) || prev[r] != out->node[r])
            moved++;
    return moved;
}

int pl_ondeloc_start_nodes(int nranks, int nnodes, const int *cpus, int *start)
{
    if (nranks < 1 || nnodes < 1 || !cpus || !start)
        return -EINVAL;
    int known = 0;
    for (int r = 0; r < nranks; r++) {
        int node = -1, nodes = 0;
        for (int d = 0; d < nnodes; d++) {
            int c = cpus[(size_t)r * nnodes + d];
            if (c < 0)
                return -EINVAL;
            if (c > 0) {
                node = d;
                nodes++;
            }
        }
        start[r] = nodes == 1 ? node : -1;
        known += nodes == 1;
    }
    return known;
}

double pl_ondeloc_local_share(const pl_comm_matrix_t *comm, const int *node)
{
    if (!comm || comm->nranks < 1 || !comm->volume || !node)
        return -EINVAL;
    int n = comm->nranks;
    double all = 0, local = 0;
    for (int x = 0; x < n; x++)
        for (int y = 0; y < n; y++) {
            if (x == y)
                continue;
            double v = (double)comm->volume[(size_t)x * n + y];
            all += v;
            if (node[x] >= 0 && node[x] == node[y])
                local += v;
        }
    return all > 0 ? local / all : 0;
}

int pl_ondeloc_drifted(const pl_comm_matrix_t *recent, const int *node, double decided_share,
                       double min_gain)
{
    if (!recent || recent->nranks < 1 || !recent->volume || !node || !isfinite(min_gain) || min_gain < 0
        || min_gain > 1)
        return -EINVAL;
    int n = recent->nranks, any = 0;
    for (size_t k = 0; k < (size_t)n * n && !any; k++)
        any = recent->volume[k] != 0 && k % ((size_t)n + 1) != 0;
    if (!any)
        return 0;
    return pl_ondeloc_local_share(recent, node) < decided_share - min_gain;
}

int pl_ondeloc_worth(double gain, double rate, double decided_rate, double min_gain)
{
    if (!isfinite(gain) || !isfinite(rate) || rate < 0 || !isfinite(decided_rate) || decided_rate < 0
        || !isfinite(min_gain) || min_gain < 0 || min_gain > 1)
        return -EINVAL;
    double weight = decided_rate > rate ? rate / decided_rate : 1;
    return gain * weight >= min_gain;
}

int pl_ondeloc_thin(double rate, double decided_rate)
{
    if (!isfinite(rate) || rate < 0 || !isfinite(decided_rate) || decided_rate < 0)
        return -EINVAL;
    return rate * 2 < decided_rate;
}

double pl_ondeloc_reference(double rate, double decided_rate, int changed)
{
    int thin = pl_ondeloc_thin(rate, decided_rate);
    if (thin < 0)
        return NAN;
    if (changed || !thin)
        return rate;
    return decided_rate / 2 > rate ? decided_rate / 2 : rate;
}

const char *pl_ondeloc_rule_name(pl_ondeloc_rule_t rule)
{
    static const char *const names[PL_ONDELOC_RULE_COUNT] = {
        "previous", "join", "round-robin", "idle-previous", "idle-round-robin",
    };
    return (unsigned)rule < PL_ONDELOC_RULE_COUNT ? names[rule] : "unknown";
}

int pl_ondeloc_next_interval(const pl_ondeloc_interval_t *rule, double cur_ms, int changed,
                             double *next_ms)
{
    if (!rule || !next_ms || !isfinite(rule->v) || !isfinite(rule->min_ms)
        || !isfinite(rule->max_ms) || !isfinite(cur_ms) || !(rule->v > 1.0)
        || !(rule->min_ms > 0) || rule->max_ms < rule->min_ms || !(cur_ms > 0))
        return -EINVAL;
    double t = changed ? cur_ms / rule->v : cur_ms * rule->v;
    if (t < rule->min_ms)
        t = rule->min_ms;
    if (t > rule->max_ms)
        t = rule->max_ms;
    *next_ms = t;
    return 0;
}
