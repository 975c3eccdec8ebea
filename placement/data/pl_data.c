/* pl_data.c: range actions (migrate, interleave) from sampled addresses, priced against the gain over a region's remaining executions, with the evidence rule of thread moves. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "data/pl_data.h"
#include "pl_internal.h"

/* A sample weighs about SCALE in the tables handed to pl_predict (integers):
 * fine enough for an interleave's 1/k shares and the threads' weights
 * (720720 is the least common multiple of 1..16). */
#define SCALE 720720.0
#define MAX_MASK_NODES 64

/* A piece of a chain: a private run, or shared runs (pl_data.h). */
typedef struct piece {
    int      first, last;   /* its first and last valid sample (indices into the sorted samples) */
    int      range;
    int      user;          /* private: the node of its threads; shared: -1 */
    uint64_t users;         /* nodes whose threads have samples in it */
    int      count;         /* valid samples */
    uint64_t lo, hi;
    /* the option chosen for it */
    pl_data_kind_t kind;
    int      node;
    uint64_t nodes;
    double   pages, cost_us, gain, net;
} piece_t;

typedef struct ctx {
    const pl_topo_t *topo;
    const pl_model_t *model;
    const pl_data_sample_t *s;
    const int *thread_node;
    const pl_data_params_t *p;
    int nt, nd, ns;
    int *map;          /* [nt] nodes for pl_predict (unknown -> 0; such rows stay empty) */
    uint64_t *refs;    /* [nt * nd] the table handed to pl_predict */
    double *before;    /* [nt * nd] */
    double *after;     /* [nt * nd] the chosen prefix */
    double *tmp;       /* [nt * nd] */
    double *flow;      /* [nt * nd * nd] samples (weighed) of thread t moved from d to e by the prefix */
    double *weight;    /* [nt] what one sample of thread t weighs in the tables (SCALE x mean / its count) */
    double crit_before;
} ctx_t;

const char *pl_data_kind_name(pl_data_kind_t kind)
{
    return kind == PL_DATA_MIGRATE ? "migrate" : kind == PL_DATA_INTERLEAVE ? "interleave" : "?";
}

size_t pl_data_workspace_bytes(int nsamples, int nthreads, int nnodes)
{
    if (nsamples < 0 || nthreads < 1 || nnodes < 1 || nnodes > MAX_MASK_NODES)
        return 0;
    size_t cells = (size_t)nthreads * (size_t)nnodes;
    pl_arena_t a = {NULL, 0, 0};
    pl_i_take(&a, sizeof(int) * (size_t)nthreads);
    pl_i_take(&a, sizeof(double) * (size_t)nthreads);
    pl_i_take(&a, sizeof(uint64_t) * cells);
    for (int i = 0; i < 3; i++)
        pl_i_take(&a, sizeof(double) * cells);
    pl_i_take(&a, sizeof(double) * cells * (size_t)nnodes);
    pl_i_take(&a, sizeof(piece_t) * ((size_t)nsamples + 1));
    pl_i_take(&a, sizeof(int) * ((size_t)nsamples + 1));
    return a.used;
}

static int by_addr(const void *x, const void *y)
{
    const pl_data_sample_t *a = x, *b = y;
    if (a->addr != b->addr)
        return a->addr < b->addr ? -1 : 1;
    return (a->thread > b->thread) - (a->thread < b->thread);
}

/* The node of the thread that made sample i, or -1 when it does not count. */
static int user_of(const ctx_t *c, int i)
{
    int t = c->s[i].thread;
    if (t < 0 || t >= c->nt)
        return -1;
    int u = c->thread_node[t];
    return u >= 0 && u < c->nd ? u : -1;
}

/* Whether sample i counts in the table: a known user and a known node. */
static int in_table(const ctx_t *c, int i)
{
    return user_of(c, i) >= 0 && c->s[i].node >= 0 && c->s[i].node < c->nd;
}

/* The model's critical path of table t (scaled doubles), threads where they run. */
static double crit_of(ctx_t *c, const double *t)
{
    size_t cells = (size_t)c->nt * (size_t)c->nd;
    for (size_t k = 0; k < cells; k++)
        c->refs[k] = t[k] > 0 ? (uint64_t)llround(t[k]) : 0;
    pl_tnt_t tnt = {.nthreads = c->nt, .nnodes = c->nd, .refs = c->refs};
    pl_mapping_t map = {.nthreads = c->nt, .node = c->map};
    double crit = 0;
    if (pl_predict(c->topo, &tnt, c->model, &map, NULL, &crit) != 0)
        return 0;
    return crit;
}

static int popcount64(uint64_t x)
{
    return __builtin_popcountll(x);
}

/* Apply option (kind, node, nodes) of piece pc to table t and, when flow is
 * not NULL, record what moved where. */
static void apply(ctx_t *c, const piece_t *pc, pl_data_kind_t kind, int node, uint64_t nodes, double *t,
                  double *flow)
{
    int nd = c->nd, k = popcount64(nodes);
    for (int i = pc->first; i <= pc->last; i++) {
        if (!in_table(c, i))
            continue;
        int th = c->s[i].thread, d = c->s[i].node;
        double *row = t + (size_t)th * (size_t)nd, w = c->weight[th];
        double *fl = flow ? flow + ((size_t)th * (size_t)nd + (size_t)d) * (size_t)nd : NULL;
        if (kind == PL_DATA_MIGRATE) {
            if (node == d)
                continue;
            row[d] -= w;
            row[node] += w;
            if (fl)
                fl[node] += w;
            continue;
        }
        row[d] -= w;
        for (int e = 0; e < nd; e++)
            if ((nodes >> e) & 1) {
                row[e] += w / k;
                if (fl && e != d)
                    fl[e] += w / k;
            }
    }
}

/* Pages option (kind, node, nodes) moves: the piece's pages times the share
 * of its samples not already where the option puts them (a sample of
 * unknown node counts as moving). */
static double pages_moved(const ctx_t *c, const piece_t *pc, pl_data_kind_t kind, int node, uint64_t nodes)
{
    int k = popcount64(nodes);
    double stay = 0, all = 0;
    for (int i = pc->first; i <= pc->last; i++) {
        if (user_of(c, i) < 0)
            continue;
        all++;
        int d = c->s[i].node;
        if (d < 0 || d >= c->nd)
            continue;
        if (kind == PL_DATA_MIGRATE)
            stay += d == node;
        else
            stay += ((nodes >> d) & 1) ? 1.0 / k : 0.0;
    }
    double pages = (double)(pc->hi - pc->lo) / (double)c->p->page_bytes;
    return all > 0 ? pages * (1.0 - stay / all) : 0.0;
}

/* The gain of option (kind, node, nodes) of pc alone on the table, and its pages. */
static double alone(ctx_t *c, const piece_t *pc, pl_data_kind_t kind, int node, uint64_t nodes, double *pages)
{
    size_t cells = (size_t)c->nt * (size_t)c->nd;
    memcpy(c->tmp, c->before, cells * sizeof *c->tmp);
    apply(c, pc, kind, node, nodes, c->tmp, NULL);
    *pages = pages_moved(c, pc, kind, node, nodes);
    double after = crit_of(c, c->tmp);
    return c->crit_before > 0 ? (c->crit_before - after) / c->crit_before : 0.0;
}

/* Choose pc's option: private, migrate to its node; shared, interleave over
 * its users' nodes or migrate to one of them, whichever the model predicts
 * shortest (ties: fewer pages). Sets its gain (0: no option gains). */
static void choose(ctx_t *c, piece_t *pc)
{
    const pl_data_params_t *p = c->p;
    double best = 0, best_pages = 0;
    pc->gain = 0;
    for (int opt = -1; opt < c->nd; opt++) {
        pl_data_kind_t kind;
        int node;
        uint64_t nodes;
        if (opt < 0) { /* interleave, shared pieces only */
            if (pc->user >= 0 || popcount64(pc->users) < 2)
                continue;
            kind = PL_DATA_INTERLEAVE, node = -1, nodes = pc->users;
        } else {
            if (p->no_migrate || (pc->user >= 0 ? opt != pc->user : !((pc->users >> opt) & 1)))
                continue;
            kind = PL_DATA_MIGRATE, node = opt, nodes = 1ull << opt;
        }
        double pages, g = alone(c, pc, kind, node, nodes, &pages);
        if (g > best * (1 + PL_I_EPS) || (g > 0 && g >= best * (1 - PL_I_EPS) && pages < best_pages)) {
            best = g, best_pages = pages;
            pc->kind = kind, pc->node = node, pc->nodes = nodes;
        }
    }
    if (best <= 0)
        return;
    pc->gain = best;
    pc->pages = best_pages;
    pc->cost_us = p->mig_fixed_us + p->mig_page_us * best_pages;
    pc->net = best * p->cp_ns / 1000.0 * p->executions - pc->cost_us;
}

/* The boundary page between samples a < b: each keeps the pages nearer to it,
 * a page halfway goes to b, a page both share to b. */
static uint64_t boundary(uint64_t a, uint64_t b, uint64_t pg)
{
    uint64_t pa = a & ~(pg - 1), pb = b & ~(pg - 1);
    uint64_t gap = (pb - pa) / pg;
    return pa + ((gap + 1) / 2) * pg;
}

/* Valid sample before i (after i) within the chain [c0, c1], or -1. */
static int valid_before(const ctx_t *c, int i, int c0)
{
    for (int k = i - 1; k >= c0; k--)
        if (user_of(c, k) >= 0)
            return k;
    return -1;
}

static int valid_after(const ctx_t *c, int i, int c1)
{
    for (int k = i + 1; k <= c1; k++)
        if (user_of(c, k) >= 0)
            return k;
    return -1;
}

/* The pages of a piece whose samples lie in chain [c0, c1] of range r. */
static void extent(const ctx_t *c, piece_t *pc, int c0, int c1, const pl_data_range_t *r, uint64_t half)
{
    uint64_t pg = c->p->page_bytes;
    int before = valid_before(c, pc->first, c0), after = valid_after(c, pc->last, c1);
    uint64_t first = c->s[pc->first].addr & ~(pg - 1), last = c->s[pc->last].addr & ~(pg - 1);
    if (before >= 0)
        pc->lo = boundary(c->s[before].addr, c->s[pc->first].addr, pg);
    else
        pc->lo = first - r->lo > half ? first - half : r->lo;
    if (after >= 0)
        pc->hi = boundary(c->s[pc->last].addr, c->s[after].addr, pg);
    else
        pc->hi = r->hi - last > pg + half ? last + pg + half : r->hi;
}

typedef struct stretch {
    int first, last, count;
    uint64_t users;
} stretch_t;

/* Valid samples strictly between a and b, their users added to *users. */
static int between(const ctx_t *c, int a, int b, uint64_t *users)
{
    int n = 0;
    for (int i = a + 1; i < b; i++) {
        int u = user_of(c, i);
        if (u >= 0) {
            n++;
            *users |= 1ull << u;
        }
    }
    return n;
}

/* Whether a private run of `count` samples of node u is, by chance, part of
 * shared piece sh: in a table where u makes a share q of the samples (q
 * estimated as (u's samples + 1) / (all + 2)), such a run occurs with
 * probability q^(count - 1); it is kept apart below 2^-(2 min_run - 1), the
 * chance of a run of 2 x min_run when two nodes alternate evenly. */
static int by_chance(const ctx_t *c, const piece_t *sh, int u, int count, int min_run)
{
    int mine = 0, all = 0;
    for (int i = sh->first; i <= sh->last; i++) {
        int v = user_of(c, i);
        all += v >= 0;
        mine += v == u;
    }
    double q = (mine + 1.0) / (all + 2.0);
    return (count - 1) * log2(q) >= -(2.0 * min_run - 1.0);
}

/* Emit a piece, joining it with the chain's last pieces while the samples
 * say they are one shared table (pl_data.h):
 *   - two shared pieces in a row are one;
 *   - a private run between two shared pieces joins them when it is shorter
 *     than 2 x min_run, or next to one of them when a run as long is likely
 *     there by chance (by_chance);
 *   - a private piece of node u after another of u, with only samples of
 *     other nodes between them (left alone, or a shared piece), makes one
 *     shared piece of all: the others use u's pages there. */
static void emit(const ctx_t *c, piece_t *pieces, int *np, int chain_start, int first, int last, int count,
                 int user, uint64_t users, int range)
{
    int min_run = c->p->min_run > 0 ? c->p->min_run : PL_DATA_MIN_RUN;
    piece_t *pv = *np > chain_start ? &pieces[*np - 1] : NULL;
    piece_t *s1 = *np >= chain_start + 2 ? &pieces[*np - 2] : NULL;
    piece_t *join = NULL; /* the first piece the new one swallows */
    piece_t self = {.first = first, .last = last, .user = user, .users = users, .count = count};
    if (!pv)
        ;
    else if (user < 0 && pv->user < 0)
        join = pv;
    else if (user < 0 && s1 && s1->user < 0 && pv->count < 2 * min_run)
        join = s1;
    else if (user < 0 && by_chance(c, &self, pv->user, pv->count, min_run))
        join = pv;
    else if (user >= 0 && pv->user == user)
        join = pv;
    else if (user >= 0 && pv->user < 0 && s1 && s1->user == user)
        join = s1;
    else if (user >= 0 && pv->user < 0 && by_chance(c, pv, user, count, min_run))
        join = pv;
    if (!join) {
        self.range = range;
        pieces[(*np)++] = self;
        return;
    }
    /* All from join to the new piece becomes one shared piece, emitted again
     * so that it can join the pieces before it. */
    int from = join->first;
    uint64_t all = users;
    int n = count + between(c, join->first - 1, first, &all);
    *np = (int)(join - pieces);
    emit(c, pieces, np, chain_start, from, last, n, -1, all, range);
}

static void flush_stretch(const ctx_t *c, piece_t *pieces, int *np, int chain_start, stretch_t *st, int range)
{
    int min_run = c->p->min_run > 0 ? c->p->min_run : PL_DATA_MIN_RUN;
    if (st->count >= min_run && popcount64(st->users) >= 2)
        emit(c, pieces, np, chain_start, st->first, st->last, st->count, -1, st->users, range);
    st->count = 0;
    st->users = 0;
}

/* Pieces of chain [c0, c1] of range r (runs, stretches, pl_data.h). */
static void chain_pieces(const ctx_t *c, int c0, int c1, int range, piece_t *pieces, int *np)
{
    int min_run = c->p->min_run > 0 ? c->p->min_run : PL_DATA_MIN_RUN;
    int start = *np;
    stretch_t st = {0};
    int run_user = -1, run_first = -1, run_last = -1, run_count = 0;
    for (int i = c0; i <= c1 + 1; i++) {
        int u = i <= c1 ? user_of(c, i) : -2;
        if (u == -1)
            continue; /* a sample that does not count neither breaks nor joins a run */
        if (u == run_user) {
            run_last = i;
            run_count++;
            continue;
        }
        if (run_count >= min_run) {
            flush_stretch(c, pieces, np, start, &st, range);
            emit(c, pieces, np, start, run_first, run_last, run_count, run_user, 1ull << run_user, range);
        } else if (run_count > 0) {
            if (!st.count)
                st.first = run_first;
            st.last = run_last;
            st.count += run_count;
            st.users |= 1ull << run_user;
        }
        run_user = u, run_first = i, run_last = i, run_count = 1;
    }
    flush_stretch(c, pieces, np, start, &st, range);
}

/* The worst-case table: `before` with the prefix's flows moved against it
 * by z standard errors (pl_data.h), into c->tmp. */
static void worst_table(ctx_t *c)
{
    int nt = c->nt, nd = c->nd;
    size_t cells = (size_t)nt * (size_t)nd;
    memcpy(c->tmp, c->before, cells * sizeof *c->tmp);
    for (int t = 0; t < nt; t++) {
        int u = c->map[t];
        double w = c->weight[t];
        for (int d = 0; w > 0 && d < nd; d++) {
            const double *fl = c->flow + ((size_t)t * (size_t)nd + (size_t)d) * (size_t)nd;
            double have = c->before[(size_t)t * (size_t)nd + (size_t)d] / w;
            for (int e = 0; e < nd; e++) {
                double f = fl[e] / w; /* samples */
                if (e == d || f <= 0)
                    continue;
                double err = PL_EVIDENCE_Z * sqrt(f), dd = pl_i_dist(c->topo, u, d), de = pl_i_dist(c->topo, u, e);
                double moved = de < dd ? fmax(0.0, f - err) : de > dd ? fmin(have, f + err) : f;
                c->tmp[(size_t)t * (size_t)nd + (size_t)d] -= moved * w;
                c->tmp[(size_t)t * (size_t)nd + (size_t)e] += moved * w;
            }
        }
    }
}

static int check_params(const pl_data_params_t *p)
{
    if (!p || !p->page_bytes || (p->page_bytes & (p->page_bytes - 1)) || p->min_run < 0)
        return -EINVAL;
    const double v[] = {p->mig_fixed_us, p->mig_page_us, p->cp_ns, p->executions};
    for (size_t i = 0; i < sizeof v / sizeof *v; i++)
        if (!(v[i] >= 0) || !isfinite(v[i]))
            return -EINVAL;
    return 0;
}

static int check_ranges(const pl_data_range_t *r, int n, uint64_t pg)
{
    if (n < 0 || (n > 0 && !r))
        return -EINVAL;
    for (int i = 0; i < n; i++) {
        if (r[i].lo >= r[i].hi || (r[i].lo & (pg - 1)) || (r[i].hi & (pg - 1)))
            return -EINVAL;
        if (i > 0 && r[i].lo < r[i - 1].hi)
            return -EINVAL;
    }
    return 0;
}

static int by_net(const void *x, const void *y, void *arg)
{
    const piece_t *pieces = arg;
    const piece_t *a = &pieces[*(const int *)x], *b = &pieces[*(const int *)y];
    if (a->net != b->net)
        return a->net > b->net ? -1 : 1;
    return (a->lo > b->lo) - (a->lo < b->lo);
}

/* Sort candidate indices by net saving, best first (insertion sort: qsort has no context). */
static void sort_candidates(int *idx, int n, piece_t *pieces)
{
    for (int i = 1; i < n; i++) {
        int v = idx[i], j = i;
        while (j > 0 && by_net(&v, &idx[j - 1], pieces) < 0) {
            idx[j] = idx[j - 1];
            j--;
        }
        idx[j] = v;
    }
}

int pl_data_plan(const pl_topo_t *topo, const pl_model_t *model, pl_data_sample_t *samples, int nsamples,
                 int nthreads, const int *thread_node, const pl_data_range_t *ranges, int nranges,
                 const pl_data_params_t *params, pl_data_action_t *actions, int max_actions,
                 pl_data_plan_t *plan, void *work, size_t work_bytes)
{
    int rc = pl_check_topo(topo);
    if (rc)
        return rc;
    if (!model || !(model->local_ns > 0) || nthreads < 1 || nsamples < 0 || (nsamples && !samples) ||
        !thread_node || !plan || max_actions < 0 || (max_actions && !actions) || topo->nnodes > MAX_MASK_NODES)
        return -EINVAL;
    if ((rc = check_params(params)) || (rc = check_ranges(ranges, nranges, params->page_bytes)))
        return rc;
    size_t need = pl_data_workspace_bytes(nsamples, nthreads, topo->nnodes);
    if (!work || work_bytes < need)
        return -ENOBUFS;
    int nt = nthreads, nd = topo->nnodes;
    size_t cells = (size_t)nt * (size_t)nd;
    pl_arena_t a = {work, work_bytes, 0};
    ctx_t c = {.topo = topo, .model = model, .s = samples, .thread_node = thread_node, .p = params, .nt = nt,
               .nd = nd, .ns = nsamples};
    c.map = pl_i_take(&a, sizeof(int) * (size_t)nt);
    c.weight = pl_i_take(&a, sizeof(double) * (size_t)nt);
    c.refs = pl_i_take(&a, sizeof(uint64_t) * cells);
    c.before = pl_i_take(&a, sizeof(double) * cells);
    c.after = pl_i_take(&a, sizeof(double) * cells);
    c.tmp = pl_i_take(&a, sizeof(double) * cells);
    c.flow = pl_i_take(&a, sizeof(double) * cells * (size_t)nd);
    piece_t *pieces = pl_i_take(&a, sizeof(piece_t) * ((size_t)nsamples + 1));
    int *idx = pl_i_take(&a, sizeof(int) * ((size_t)nsamples + 1));
    *plan = (pl_data_plan_t){0};

    for (int t = 0; t < nt; t++)
        c.map[t] = thread_node[t] >= 0 && thread_node[t] < nd ? thread_node[t] : 0;
    if (nsamples > 1)
        qsort(samples, (size_t)nsamples, sizeof *samples, by_addr);
    memset(c.before, 0, cells * sizeof *c.before);
    memset(c.flow, 0, cells * (size_t)nd * sizeof *c.flow);
    memset(c.weight, 0, (size_t)nt * sizeof *c.weight);
    int counted = 0;
    for (int i = 0; i < nsamples; i++) {
        if (!in_table(&c, i))
            continue;
        counted += c.weight[samples[i].thread]++ == 0;
        plan->samples++;
        plan->remote += samples[i].node != user_of(&c, i);
    }
    /* Every thread's samples weigh the same in all: a row's count says
     * which pages the sampler watched and who touched them first, not how
     * much the thread works (pl_data.h). */
    for (int t = 0; t < nt; t++)
        c.weight[t] = c.weight[t] > 0 ? SCALE * ((double)plan->samples / counted) / c.weight[t] : 0.0;
    for (int i = 0; i < nsamples; i++)
        if (in_table(&c, i))
            c.before[(size_t)samples[i].thread * (size_t)nd + (size_t)samples[i].node] += c.weight[samples[i].thread];
    memcpy(c.after, c.before, cells * sizeof *c.after);
    c.crit_before = plan->samples ? crit_of(&c, c.before) : 0;
    if (!(c.crit_before > 0))
        return 0;

    /* Pieces, range by range, chain by chain. */
    uint64_t pg = params->page_bytes;
    int np = 0, i = 0;
    for (int r = 0; r < nranges; r++) {
        while (i < nsamples && samples[i].addr < ranges[r].lo)
            i++;
        int j = i;
        while (j < nsamples && samples[j].addr < ranges[r].hi)
            j++;
        int nvalid = 0, fv = -1, lv = -1;
        for (int k = i; k < j; k++)
            if (user_of(&c, k) >= 0) {
                nvalid++;
                lv = k;
                fv = fv < 0 ? k : fv;
            }
        if (!ranges[r].movable || nvalid == 0) {
            i = j;
            continue;
        }
        uint64_t bridge = params->bridge_bytes;
        if (!bridge) {
            uint64_t span = samples[lv].addr - samples[fv].addr;
            bridge = nvalid > 1 ? 2 * (span / (uint64_t)(nvalid - 1)) : pg;
        }
        bridge = (bridge + pg - 1) & ~(pg - 1);
        uint64_t half = (bridge / 2) & ~(pg - 1);
        int c0 = fv, prev = fv;
        for (int k = fv + 1; k <= j; k++) {
            if (k < j && user_of(&c, k) < 0)
                continue;
            if (k < j && samples[k].addr - samples[prev].addr <= bridge) {
                prev = k;
                continue;
            }
            int before = np;
            chain_pieces(&c, c0, prev, r, pieces, &np);
            for (int q = before; q < np; q++)
                extent(&c, &pieces[q], c0, prev, &ranges[r], half);
            c0 = prev = k;
        }
        i = j;
    }

    /* Each piece's option alone; the candidates, best net saving first. */
    int ncand = 0;
    for (int q = 0; q < np; q++) {
        choose(&c, &pieces[q]);
        if (pieces[q].gain > 0 && pieces[q].hi > pieces[q].lo)
            idx[ncand++] = q;
    }
    sort_candidates(idx, ncand, pieces);
    plan->candidates = ncand;
    if (ncand > max_actions)
        ncand = max_actions;

    /* The prefix with the largest net saving at worst. */
    double scale = params->cp_ns / 1000.0 * params->executions;
    double best_net = -HUGE_VAL, cost = 0, pages = 0;
    int best = 0;
    for (int k = 0; k < ncand; k++) {
        const piece_t *pc = &pieces[idx[k]];
        apply(&c, pc, pc->kind, pc->node, pc->nodes, c.after, c.flow);
        cost += pc->cost_us;
        pages += pc->pages;
        double gain = (c.crit_before - crit_of(&c, c.after)) / c.crit_before;
        worst_table(&c);
        double worst = (c.crit_before - crit_of(&c, c.tmp)) / c.crit_before;
        double net = worst * scale - cost;
        if (net > best_net) {
            best_net = net;
            best = k + 1;
            plan->gain = gain, plan->worst = worst, plan->cost_us = cost, plan->pages = pages;
        }
    }
    plan->nactions = best;
    plan->saved_us = plan->gain * scale;
    plan->worst_saved_us = plan->worst * scale;
    plan->enough = best > 0 && plan->worst > 0 && plan->worst_saved_us > plan->cost_us;
    for (int k = 0; k < best; k++) {
        const piece_t *pc = &pieces[idx[k]];
        pl_data_action_t *act = &actions[k];
        *act = (pl_data_action_t){.kind = pc->kind, .lo = pc->lo, .hi = pc->hi, .range = pc->range,
                                  .node = pc->node, .nodes = pc->nodes, .shared = pc->user < 0,
                                  .pages = pc->pages, .cost_us = pc->cost_us, .gain = pc->gain};
        for (int s = pc->first; s <= pc->last; s++)
            if (in_table(&c, s)) {
                act->samples++;
                act->remote += samples[s].node != user_of(&c, s);
            }
    }
    return 0;
}

int pl_data_promising(const pl_topo_t *topo, const pl_tnt_t *tnt, const pl_model_t *model, const pl_mapping_t *map,
                      uint64_t *scratch)
{
    if (!topo || !tnt || !map || !scratch || !tnt->refs || !map->node || map->nthreads != tnt->nthreads ||
        tnt->nnodes != topo->nnodes)
        return -EINVAL;
    uint64_t local, remote;
    int rc = pl_locality(tnt, map, &local, &remote);
    if (rc != 0)
        return rc;
    if (remote < PL_PROMISE_MIN || remote * PL_DATA_PROMISE_SHARE < local + remote)
        return 0;
    int nt = tnt->nthreads, nn = tnt->nnodes;
    for (int t = 0; t < nt; t++) { /* pl_locality checked the nodes and the sums */
        uint64_t sum = 0, *row = scratch + (size_t)t * (size_t)nn;
        for (int d = 0; d < nn; d++) {
            sum += tnt->refs[(size_t)t * (size_t)nn + (size_t)d];
            row[d] = 0;
        }
        row[map->node[t]] = sum;
    }
    pl_tnt_t at_home = {.nthreads = nt, .nnodes = nn, .refs = scratch};
    double now, best;
    if ((rc = pl_predict(topo, tnt, model, map, NULL, &now)) != 0 ||
        (rc = pl_predict(topo, &at_home, model, map, NULL, &best)) != 0)
        return rc;
    return now > 0 && now - best >= PL_DATA_PROMISE_GAIN * now;
}

int pl_data_prefer(const pl_data_plan_t *plan, double threads_saved_us, double threads_cost_us)
{
    if (!plan || !plan->enough)
        return 0;
    double threads = threads_saved_us - threads_cost_us;
    return plan->worst_saved_us - plan->cost_us > (threads > 0 ? threads : 0);
}
