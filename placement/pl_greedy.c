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
 * The sort is lazy, because cursors rarely reach the bottom of a column
 * (nodes fill up first): one stable counting pass splits each column into
 * BUCKETS ranges of V, highest first, and a bucket is sorted exactly only when
 * its cursor reaches it (insertion sort when small, else a stable LSD radix
 * sort on the bits below the bucket's prefix). Everything is O(N*Nd) plus the
 * buckets actually read; starting from thread order and staying stable keeps
 * ties in thread order. This is what keeps critpath in microseconds at 1024
 * threads (the paper uses a parallel radix sort for the same reason).
 */
#define BUCKET_BITS 8
#define BUCKETS (1 << BUCKET_BITS)
#define INSERTION_MAX 32

typedef struct kv { uint64_t v; int t; } kv_t;

typedef struct cols {
    const uint64_t *refs;
    int   n, nd;
    int  *col;        /* [nd][n] threads of each column, bucketed, sorted up to sorted_end */
    kv_t *tmp;        /* [n] scratch of the exact bucket sort */
    unsigned char *bk;/* [n][nd] scratch: bucket of each element */
    int  *count;      /* [nd][BUCKETS + 1] scratch: bucket histograms */
    uint64_t *vmax;   /* [nd] */
    int  *bend;       /* [nd][BUCKETS] end of each bucket (highest bucket first) */
    int  *next_bucket;/* [nd] */
    int  *sorted_end; /* [nd] */
    int  *pos;        /* [nd] cursor */
    int  *shift;      /* [nd] bucket = BUCKETS - 1 - (v >> shift) */
    int  *used;       /* [nd] threads placed on the node */
    unsigned char *placed; /* [n] */
    double *load;     /* [nd] CPImpact (critpath) or LC (maxlocal) */
    double *rowsum;   /* [n] */
    int  *cand;       /* [nd] critpath: cached top thread of the column, -1 closed */
    double *impact;   /* [nd] critpath: IF of the cached top */
} cols_t;

static inline int kv_before(kv_t a, kv_t b)
{
    return a.v > b.v || (a.v == b.v && a.t < b.t);
}

/* Sort col[d][lo, hi) exactly; its entries share the bits of v above shift. */
static void sort_bucket(cols_t *c, int d, int lo, int hi)
{
    int *o = c->col + (size_t)d * c->n + lo;
    int n = hi - lo, nd = c->nd;
    kv_t *a = c->tmp, *b = c->tmp + n;
    for (int i = 0; i < n; i++) {
        a[i].t = o[i];
        a[i].v = c->refs[(size_t)o[i] * nd + d];
    }
    if (n <= INSERTION_MAX) {
        for (int i = 1; i < n; i++) {
            kv_t x = a[i];
            int j = i;
            while (j > 0 && kv_before(x, a[j - 1])) { a[j] = a[j - 1]; j--; }
            a[j] = x;
        }
    } else {
        for (int sh = 0; sh < c->shift[d]; sh += 8) {
            int count[257];
            int bits = c->shift[d] - sh < 8 ? c->shift[d] - sh : 8;
            unsigned mask = (1u << bits) - 1;
            memset(count, 0, sizeof count);
            /* Bucket mask - digit: descending order, stable within a digit. */
            for (int i = 0; i < n; i++)
                count[mask - ((a[i].v >> sh) & mask) + 1]++;
            for (int k = 1; k <= 256; k++)
                count[k] += count[k - 1];
            for (int i = 0; i < n; i++)
                b[count[mask - ((a[i].v >> sh) & mask)]++] = a[i];
            kv_t *x = a; a = b; b = x;
        }
    }
    for (int i = 0; i < n; i++)
        o[i] = a[i].t;
}

/* Largest remaining element of column d, or -1. */
static inline int top(cols_t *c, int d)
{
    const int *o = c->col + (size_t)d * c->n;
    for (;;) {
        int p = c->pos[d], e = c->sorted_end[d];
        while (p < e && c->placed[o[p]])
            p++;
        c->pos[d] = p;
        if (p < e)
            return o[p];
        if (e >= c->n)
            return -1;
        int b = c->next_bucket[d]++;
        int hi = c->bend[(size_t)d * BUCKETS + b];
        sort_bucket(c, d, e, hi);
        c->sorted_end[d] = hi;
    }
}

/*
 * Bucket every column: two row-major passes over the TNT (the first also
 * gives the row totals and column ranges), then one scatter per column that
 * reads only the byte-sized bucket indices. Columns are never walked with a
 * stride through the 64-bit table, which would read it once per node.
 */
static void bucket_columns(cols_t *c, const pl_topo_t *topo)
{
    int n = c->n, nd = c->nd;
    /* The OR of a column has the bit length of its maximum: buckets split
     * [0, 2^bits) and cost no compare per element. Row totals are summed in
     * 64 bits when no row can overflow (every column below 2^bits_d, and the
     * sum of those bounds below 2^64), else in double. */
    for (int d = 0; d < nd; d++)
        c->vmax[d] = 0;
    for (int t = 0; t < n; t++) {
        const uint64_t *row = c->refs + (size_t)t * nd;
        uint64_t r = 0;
        for (int d = 0; d < nd; d++) {
            r += row[d];
            c->vmax[d] |= row[d];
        }
        c->rowsum[t] = (double)r;
    }
    unsigned __int128 bound = 0;
    for (int d = 0; d < nd; d++) {
        int bits = 0;
        for (uint64_t span = c->vmax[d]; span; span >>= 1)
            bits++;
        c->shift[d] = bits > BUCKET_BITS ? bits - BUCKET_BITS : 0;
        bound += (unsigned __int128)1 << bits;
    }
    if (bound > (unsigned __int128)UINT64_MAX)
        for (int t = 0; t < n; t++) {
            double r = 0;
            for (int d = 0; d < nd; d++)
                r += (double)c->refs[(size_t)t * nd + d];
            c->rowsum[t] = r;
        }
    memset(c->count, 0, sizeof(int) * (size_t)nd * (BUCKETS + 1));
    for (int t = 0; t < n; t++) {
        const uint64_t *row = c->refs + (size_t)t * nd;
        unsigned char *bk = c->bk + (size_t)t * nd;
        for (int d = 0; d < nd; d++) {
            /* Highest values first: bucket 0 holds the top of the range. */
            int b = BUCKETS - 1 - (int)(row[d] >> c->shift[d]);
            bk[d] = (unsigned char)b;
            c->count[(size_t)d * (BUCKETS + 1) + b + 1]++;
        }
    }
    for (int d = 0; d < nd; d++) {
        int *count = c->count + (size_t)d * (BUCKETS + 1);
        int *bend = c->bend + (size_t)d * BUCKETS;
        c->next_bucket[d] = 0;
        c->sorted_end[d] = 0;
        c->pos[d] = 0;
        if (topo->capacity[d] <= 0) {
            /* A node without cores never receives a thread: no column to read. */
            c->pos[d] = c->sorted_end[d] = n;
            c->next_bucket[d] = BUCKETS;
            continue;
        }
        for (int k = 1; k <= BUCKETS; k++)
            count[k] += count[k - 1];
        for (int k = 0; k < BUCKETS; k++)
            bend[k] = count[k + 1];
        int *o = c->col + (size_t)d * n;
        const unsigned char *bk = c->bk + d;
        for (int i = 0; i < n; i++)
            o[count[bk[(size_t)i * nd]]++] = i;
    }
}

static size_t critpath_sel_bytes(int n, int nd);

size_t pl_i_greedy_bytes(int n, int nd)
{
    pl_arena_t a = { NULL, 0, 0 };
    pl_i_take(&a, sizeof(int) * (size_t)n * nd);
    pl_i_take(&a, sizeof(kv_t) * 2 * (size_t)n);
    pl_i_take(&a, (size_t)n * nd);
    pl_i_take(&a, sizeof(int) * (size_t)nd * (BUCKETS + 1));
    pl_i_take(&a, sizeof(uint64_t) * nd);
    pl_i_take(&a, sizeof(int) * (size_t)nd * BUCKETS);
    for (int i = 0; i < 6; i++)
        pl_i_take(&a, sizeof(int) * nd);
    pl_i_take(&a, (size_t)n);
    pl_i_take(&a, sizeof(double) * nd);
    pl_i_take(&a, sizeof(double) * n);
    pl_i_take(&a, sizeof(double) * nd);
    return a.used + critpath_sel_bytes(n, nd);
}

static int cols_init(cols_t *c, pl_arena_t *a, const pl_topo_t *topo, const pl_tnt_t *tnt)
{
    int n = tnt->nthreads, nd = tnt->nnodes;
    c->refs = tnt->refs;
    c->n = n;
    c->nd = nd;
    c->col = pl_i_take(a, sizeof(int) * (size_t)n * nd);
    c->tmp = pl_i_take(a, sizeof(kv_t) * 2 * (size_t)n);
    c->bk = pl_i_take(a, (size_t)n * nd);
    c->count = pl_i_take(a, sizeof(int) * (size_t)nd * (BUCKETS + 1));
    c->vmax = pl_i_take(a, sizeof(uint64_t) * nd);
    c->bend = pl_i_take(a, sizeof(int) * (size_t)nd * BUCKETS);
    c->next_bucket = pl_i_take(a, sizeof(int) * nd);
    c->sorted_end = pl_i_take(a, sizeof(int) * nd);
    c->pos = pl_i_take(a, sizeof(int) * nd);
    c->shift = pl_i_take(a, sizeof(int) * nd);
    c->used = pl_i_take(a, sizeof(int) * nd);
    c->cand = pl_i_take(a, sizeof(int) * nd);
    c->placed = pl_i_take(a, (size_t)n);
    c->load = pl_i_take(a, sizeof(double) * nd);
    c->rowsum = pl_i_take(a, sizeof(double) * n);
    c->impact = pl_i_take(a, sizeof(double) * nd);
    if (!c->impact)
        return -ENOBUFS;
    memset(c->placed, 0, (size_t)n);
    for (int d = 0; d < nd; d++) {
        c->used[d] = 0;
        c->load[d] = 0;
    }
    bucket_columns(c, topo);
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
/* Selection state of critpath: a tournament tree over the node columns and,
 * per thread, the list of columns whose candidate it is. */
typedef struct sel {
    cols_t *c;
    int p;        /* leaves: a power of two >= nd */
    int *win;     /* [2p] best column of each subtree, -1 none */
    int *head;    /* [n] first column whose candidate is the thread, -1 none */
    int *next;    /* [nd] links of those lists */
} sel_t;

static size_t critpath_sel_bytes(int n, int nd)
{
    int p = 1;
    while (p < nd)
        p *= 2;
    pl_arena_t a = { NULL, 0, 0 };
    pl_i_take(&a, sizeof(int) * 2 * (size_t)p);
    pl_i_take(&a, sizeof(int) * n);
    pl_i_take(&a, sizeof(int) * nd);
    return a.used;
}

/* The column whose candidate has the lower IF + CPImpact, then the lower
 * thread, then the lower node: the paper's findLowestCPElement with our ties. */
static inline int sel_better(const cols_t *c, int a, int b)
{
    if (a < 0) return b;
    if (b < 0) return a;
    double sa = c->impact[a] + c->load[a], sb = c->impact[b] + c->load[b];
    if (sa != sb)
        return sa < sb ? a : b;
    if (c->cand[a] != c->cand[b])
        return c->cand[a] < c->cand[b] ? a : b;
    return a < b ? a : b;
}

static void sel_update(sel_t *s, int d)
{
    int i = s->p + d;
    s->win[i] = s->c->cand[d] >= 0 ? d : -1;
    for (i /= 2; i >= 1; i /= 2)
        s->win[i] = sel_better(s->c, s->win[2 * i], s->win[2 * i + 1]);
}

static void sel_link(sel_t *s, int d, int t)
{
    s->c->cand[d] = t;
    if (t < 0)
        return;
    /* A column leaves a list only when the list's thread is placed, and then
     * the whole list is consumed: no unlinking, no back links. */
    s->next[d] = s->head[t];
    s->head[t] = d;
}

/* Refresh the candidate (and its IF) of column d from its cursor. */
static void sel_refill(sel_t *s, const pl_topo_t *topo, int d, double factor)
{
    cols_t *c = s->c;
    int t = c->used[d] < topo->capacity[d] ? top(c, d) : -1;
    sel_link(s, d, t);
    if (t >= 0) {
        double v = (double)c->refs[(size_t)t * c->nd + d];
        c->impact[d] = v + factor * (c->rowsum[t] - v);
    }
}

int pl_i_critpath(const pl_topo_t *topo, const pl_tnt_t *tnt, int *node,
                  pl_arena_t *a, pl_trace_t *trace)
{
    cols_t c;
    int rc = cols_init(&c, a, topo, tnt);
    if (rc)
        return rc;
    double factor = pl_numa_factor(topo);
    int n = tnt->nthreads, nd = tnt->nnodes;
    /*
     * A step changes only the columns whose candidate was the placed thread
     * (its own node's among them, whose CPImpact grew): they are found through
     * the thread's list and re-seeded in the tree, O(log Nd) each, instead of
     * rescanning all Nd columns.
     */
    sel_t s = { .c = &c, .p = 1 };
    while (s.p < nd)
        s.p *= 2;
    s.win = pl_i_take(a, sizeof(int) * 2 * (size_t)s.p);
    s.head = pl_i_take(a, sizeof(int) * n);
    s.next = pl_i_take(a, sizeof(int) * nd);
    if (!s.next)
        return -ENOBUFS;
    for (int t = 0; t < n; t++)
        s.head[t] = -1;
    for (int i = 0; i < 2 * s.p; i++)
        s.win[i] = -1;
    for (int d = 0; d < nd; d++) {
        sel_refill(&s, topo, d, factor);
        s.win[s.p + d] = c.cand[d] >= 0 ? d : -1;
    }
    for (int i = s.p - 1; i >= 1; i--)
        s.win[i] = sel_better(&c, s.win[2 * i], s.win[2 * i + 1]);
    trace_begin(trace);
    for (int step = 0; step < n; step++) {
        int bd = s.win[1];
        if (bd < 0)
            return -ENOSPC;
        int bt = c.cand[bd];
        if (trace) {
            /* e_max: the largest V among the candidates (the paper's getFistMaxElement). */
            int mt = -1, md = -1, first = trace->ncands;
            uint64_t vmax = 0;
            for (int d = 0; d < nd; d++) {
                int t = c.cand[d];
                if (t < 0)
                    continue;
                uint64_t v = c.refs[(size_t)t * nd + d];
                if (mt < 0 || v > vmax || (v == vmax && t < mt)) { vmax = v; mt = t; md = d; }
                trace_cand(trace, t, d, (double)v, c.impact[d], c.load[d], c.impact[d] + c.load[d]);
            }
            trace_step(trace, first, bt, bd, mt, md, 0.0);
        }
        place(&c, node, bt, bd);
        c.load[bd] += c.impact[bd];
        int d = s.head[bt];
        s.head[bt] = -1;
        while (d >= 0) {
            int nx = s.next[d];
            sel_refill(&s, topo, d, factor);
            sel_update(&s, d);
            d = nx;
        }
    }
    return 0;
}
