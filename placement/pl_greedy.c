/* pl_greedy.c: the OS-default mappings (compact, scatter) and the paper's greedy Algorithms 2 and 3. */
#include <errno.h>
#include <string.h>
#include "pl_internal.h"

/* Fill node 0, then node 1, ...: what OMP_PROC_BIND=close gives on a machine
 * whose cores are numbered node by node. */
int pl_i_compact(const pl_topo_t *topo, int n, int *node)
{
    int d = 0, used = 0;
    for (int t = 0; t < n; t++) {
        while (d < topo->nnodes && used >= topo->capacity[d]) { d++; used = 0; }
        if (d >= topo->nnodes)
            return -ENOSPC;
        node[t] = d;
        used++;
    }
    return 0;
}

/* Round-robin over the nodes that still have a free core: OMP_PROC_BIND=spread
 * at node granularity. Precondition: at most PL_MAX_NODES nodes. */
int pl_i_scatter(const pl_topo_t *topo, int n, int *node)
{
    int used[PL_MAX_NODES];
    int nd = topo->nnodes, d = 0;
    memset(used, 0, sizeof(int) * nd);
    for (int t = 0; t < n; t++) {
        int tries = 0;
        while (used[d] >= topo->capacity[d]) {
            d = (d + 1) % nd;
            if (++tries > nd)
                return -ENOSPC;
        }
        node[t] = d;
        used[d]++;
        d = (d + 1) % nd;
    }
    return 0;
}

/*
 * The sorted element list of the paper, kept as one sorted list per node
 * column, ordered by (V descending, thread ascending). Both algorithms only
 * ever look at the largest remaining element of each column, so each column
 * has a cursor that skips threads already placed: every element is passed
 * over at most once, and a selection step costs O(Nd), O(N*Nd) in all after
 * the sort.
 *
 * The sort is a stable LSD radix sort on the bytes of V that are not zero in
 * every entry of the column (three passes for counts below 2^24), started
 * from thread order so that ties stay in thread order: O(N*Nd) instead of the
 * O(N*Nd*log N) of a comparison sort, which is what keeps critpath in
 * microseconds at 1024 threads (the paper uses a parallel radix sort too).
 */
typedef struct kv { uint64_t v; int t; } kv_t;

typedef struct cols {
    const uint64_t *refs;
    int   n, nd;
    int  *order;  /* [nd][n] threads by (V desc, thread asc) */
    int  *pos;    /* [nd] cursor into order                  */
    int  *used;   /* [nd] threads placed on the node */
    unsigned char *placed; /* [n] */
    double *load; /* [nd] CPImpact (critpath) or LC (maxlocal) */
    double *rowsum; /* [n] */
    kv_t *buf[2]; /* [n] each: radix sort ping-pong */
} cols_t;

/* Largest remaining element of column d, or -1. */
static inline int top(cols_t *c, int d)
{
    const int *o = c->order + (size_t)d * c->n;
    int p = c->pos[d];
    while (p < c->n && c->placed[o[p]])
        p++;
    c->pos[d] = p;
    return p < c->n ? o[p] : -1;
}

static void sort_column(cols_t *c, int d)
{
    int n = c->n, nd = c->nd;
    kv_t *a = c->buf[0], *b = c->buf[1];
    uint64_t any = 0;
    for (int t = 0; t < n; t++) {
        a[t].v = c->refs[(size_t)t * nd + d];
        a[t].t = t;
        any |= a[t].v;
    }
    for (int shift = 0; shift < 64 && (any >> shift); shift += 8) {
        int count[257];
        memset(count, 0, sizeof count);
        /* Bucket 255 - byte: descending order, stable within a bucket. */
        for (int i = 0; i < n; i++)
            count[256 - ((a[i].v >> shift) & 255)]++;
        for (int k = 1; k <= 256; k++)
            count[k] += count[k - 1];
        for (int i = 0; i < n; i++)
            b[count[255 - ((a[i].v >> shift) & 255)]++] = a[i];
        kv_t *tmp = a; a = b; b = tmp;
    }
    int *o = c->order + (size_t)d * n;
    for (int i = 0; i < n; i++)
        o[i] = a[i].t;
}

size_t pl_i_greedy_bytes(int n, int nd)
{
    pl_arena_t a = { NULL, 0, 0 };
    pl_i_take(&a, sizeof(int) * (size_t)n * nd);
    pl_i_take(&a, sizeof(int) * nd);
    pl_i_take(&a, sizeof(int) * nd);
    pl_i_take(&a, (size_t)n);
    pl_i_take(&a, sizeof(double) * nd);
    pl_i_take(&a, sizeof(double) * n);
    pl_i_take(&a, sizeof(kv_t) * n);
    pl_i_take(&a, sizeof(kv_t) * n);
    return a.used;
}

static int cols_init(cols_t *c, pl_arena_t *a, const pl_topo_t *topo, const pl_tnt_t *tnt)
{
    int n = tnt->nthreads, nd = tnt->nnodes;
    c->refs = tnt->refs;
    c->n = n;
    c->nd = nd;
    c->order = pl_i_take(a, sizeof(int) * (size_t)n * nd);
    c->pos = pl_i_take(a, sizeof(int) * nd);
    c->used = pl_i_take(a, sizeof(int) * nd);
    c->placed = pl_i_take(a, (size_t)n);
    c->load = pl_i_take(a, sizeof(double) * nd);
    c->rowsum = pl_i_take(a, sizeof(double) * n);
    c->buf[0] = pl_i_take(a, sizeof(kv_t) * n);
    c->buf[1] = pl_i_take(a, sizeof(kv_t) * n);
    if (!c->order || !c->pos || !c->used || !c->placed || !c->load || !c->rowsum || !c->buf[1])
        return -ENOBUFS;
    memset(c->placed, 0, (size_t)n);
    for (int t = 0; t < n; t++) {
        double r = 0;
        for (int d = 0; d < nd; d++)
            r += (double)tnt->refs[(size_t)t * nd + d];
        c->rowsum[t] = r;
    }
    for (int d = 0; d < nd; d++) {
        c->used[d] = 0;
        c->load[d] = 0;
        /* A node without cores never receives a thread: no column to sort. */
        c->pos[d] = n;
        if (topo->capacity[d] > 0) {
            sort_column(c, d);
            c->pos[d] = 0;
        }
    }
    return 0;
}

static void trace_begin(pl_trace_t *tr)
{
    if (!tr)
        return;
    tr->nsteps = tr->ncands = tr->truncated = 0;
}

static void trace_cand(pl_trace_t *tr, int t, int d, double v, double impact, double load,
                       double score)
{
    if (!tr)
        return;
    if (!tr->cands || tr->ncands >= tr->max_cands) { tr->truncated = 1; return; }
    tr->cands[tr->ncands++] = (pl_candidate_t){ t, d, v, impact, load, score };
}

static void trace_step(pl_trace_t *tr, int first, int t, int d, int mt, int md, double thr)
{
    if (!tr)
        return;
    if (!tr->steps || tr->nsteps >= tr->max_steps) { tr->truncated = 1; return; }
    int nc = tr->ncands - first;
    tr->steps[tr->nsteps++] = (pl_step_t){ t, d, mt, md, thr, first, nc < 0 ? 0 : nc };
}

/* e_max over the column tops: largest V, then lower thread, then lower node. */
static void find_max(cols_t *c, const pl_topo_t *topo, int *mt, int *md)
{
    *mt = *md = -1;
    uint64_t best = 0;
    for (int d = 0; d < c->nd; d++) {
        if (c->used[d] >= topo->capacity[d])
            continue;
        int t = top(c, d);
        if (t < 0)
            continue;
        uint64_t v = c->refs[(size_t)t * c->nd + d];
        if (*mt < 0 || v > best || (v == best && t < *mt)) {
            best = v; *mt = t; *md = d;
        }
    }
}

static void place(cols_t *c, int *node, int t, int d)
{
    node[t] = d;
    c->placed[t] = 1;
    c->used[d]++;
}

/*
 * Algorithm 2 (MaxLocal). Each step takes e_max, the largest remaining
 * element, and the largest remaining element of every other node that still
 * has a free core. Moving thread i away from its best node j to node k is
 * worth it only when V(k) >= V(e_max) / NUMA factor (Eq. 1-2), so candidates
 * below that threshold are dropped. Among the rest the node with the lowest
 * local contention LC wins (findLowestLocalContentionElement), ties going to
 * the larger V as in the paper's example (e(3,2) "because it has most local
 * memory references"), then to the lower thread and node. When e_max's own
 * node is the least contended, e_max itself is taken.
 */
int pl_i_maxlocal(const pl_topo_t *topo, const pl_tnt_t *tnt, int *node,
                  pl_arena_t *a, pl_trace_t *trace)
{
    cols_t c;
    int rc = cols_init(&c, a, topo, tnt);
    if (rc)
        return rc;
    double factor = pl_numa_factor(topo);
    int nd = tnt->nnodes;
    trace_begin(trace);
    for (int step = 0; step < tnt->nthreads; step++) {
        int mt, md;
        find_max(&c, topo, &mt, &md);
        if (mt < 0)
            return -ENOSPC;
        double thr = (double)c.refs[(size_t)mt * nd + md] / factor;
        int bt = -1, bd = -1, first = trace ? trace->ncands : 0;
        for (int d = 0; d < nd; d++) {
            if (c.used[d] >= topo->capacity[d])
                continue;
            int t = top(&c, d);
            double v = (double)c.refs[(size_t)t * nd + d];
            trace_cand(trace, t, d, v, 0.0, c.load[d], v);
            if (v < thr)
                continue;
            if (bt < 0) { bt = t; bd = d; continue; }
            double bv = (double)c.refs[(size_t)bt * nd + bd];
            if (c.load[d] < c.load[bd]
                || (c.load[d] == c.load[bd] && (v > bv || (v == bv && t < bt)))) {
                bt = t; bd = d;
            }
        }
        place(&c, node, bt, bd);
        c.load[bd] += (double)c.refs[(size_t)bt * nd + bd];
        trace_step(trace, first, bt, bd, mt, md, thr);
    }
    return 0;
}

/*
 * Algorithm 3 (MinCP). The candidates of a step are the largest remaining
 * element of every node with a free core (e_max is one of them); the one with
 * the lowest IF + CPImpact[node] wins, ties to the lower thread, then node,
 * and CPImpact[node] += IF.
 *
 * IF follows Eq. 4: IF(i, j) = V(i, j) + NUMA factor * sum of i's references
 * to the other nodes. The paper's Table 3 prints, in its IF column, only the
 * remote sums (4592431 for e(2,1)) while its CPImpact[1] = 9715950 is the
 * Eq. 4 value of e(1,1) with factor 1.5; we use Eq. 4 throughout. The choice
 * of Table 3, e(3,2), is the same either way.
 */
int pl_i_critpath(const pl_topo_t *topo, const pl_tnt_t *tnt, int *node,
                  pl_arena_t *a, pl_trace_t *trace)
{
    cols_t c;
    int rc = cols_init(&c, a, topo, tnt);
    if (rc)
        return rc;
    double factor = pl_numa_factor(topo);
    int nd = tnt->nnodes;
    trace_begin(trace);
    for (int step = 0; step < tnt->nthreads; step++) {
        int mt = -1, md = -1, bt = -1, bd = -1, first = trace ? trace->ncands : 0;
        uint64_t vmax = 0;
        double best = 0, bif = 0;
        for (int d = 0; d < nd; d++) {
            if (c.used[d] >= topo->capacity[d])
                continue;
            int t = top(&c, d);
            uint64_t v = c.refs[(size_t)t * nd + d];
            if (mt < 0 || v > vmax || (v == vmax && t < mt)) { vmax = v; mt = t; md = d; }
            double impact = (double)v + factor * (c.rowsum[t] - (double)v);
            double score = impact + c.load[d];
            trace_cand(trace, t, d, (double)v, impact, c.load[d], score);
            if (bt < 0 || score < best || (score == best && t < bt)) {
                best = score; bif = impact; bt = t; bd = d;
            }
        }
        if (bt < 0)
            return -ENOSPC;
        place(&c, node, bt, bd);
        c.load[bd] += bif;
        trace_step(trace, first, bt, bd, mt, md, 0.0);
    }
    return 0;
}
