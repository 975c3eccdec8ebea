/* pl_imar2.c: IMAR2 (Lorenzo et al.): per-node performance record, ticket lottery, interchange, rollback and adaptive period. */
#include <errno.h>
#include <math.h>
#include <string.h>
#include "pl_internal.h"
#include "online/pl_online.h"

/* ---- SplitMix64 ------------------------------------------------------- */

void pl_rng_seed(pl_rng_t *rng, uint64_t seed)
{
    if (rng)
        rng->state = seed;
}

uint64_t pl_rng_next(pl_rng_t *rng)
{
    uint64_t z = (rng->state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

int pl_rng_below(pl_rng_t *rng, uint64_t n, uint64_t *out)
{
    if (!rng || !out || n == 0)
        return -EINVAL;
    /* 2^64 mod n: outputs below it would make the low residues more likely. */
    uint64_t reject = (0 - n) % n;
    uint64_t r;
    do
        r = pl_rng_next(rng);
    while (r < reject);
    *out = r % n;
    return 0;
}

/* ---- performance ------------------------------------------------------ */

void pl_imar_weights_default(pl_imar_weights_t *w)
{
    if (w)
        *w = (pl_imar_weights_t){ 1.0, 1.0, 1.0 };
}

static int weights_ok(const pl_imar_weights_t *w)
{
    return isfinite(w->alpha) && w->alpha >= 0 && isfinite(w->beta) && w->beta >= 0
           && isfinite(w->gamma) && w->gamma >= 0;
}

static int nonneg(double v) { return isfinite(v) && v >= 0; }

int pl_imar_perf_pmu(const pl_imar_pmu_t *s, const pl_imar_weights_t *w, double *perf)
{
    pl_imar_weights_t def;
    if (!w) {
        pl_imar_weights_default(&def);
        w = &def;
    }
    if (!s || !perf || !weights_ok(w) || !nonneg(s->instructions) || !nonneg(s->bytes)
        || !(s->seconds > 0) || !isfinite(s->seconds) || !(s->latency_cycles > 0)
        || !isfinite(s->latency_cycles))
        return -EINVAL;
    double gips = s->instructions / 1e9 / s->seconds;
    double instb = s->instructions / (s->bytes < 64.0 ? 64.0 : s->bytes);
    *perf = pow(gips, w->alpha) * pow(instb, w->beta) * pow(1.0 / s->latency_cycles, w->gamma);
    return 0;
}

int pl_imar_perf_nopmu(const pl_topo_t *topo, const pl_imar_nopmu_t *s,
                       const pl_imar_weights_t *w, double *perf)
{
    pl_imar_weights_t def;
    if (!w) {
        pl_imar_weights_default(&def);
        w = &def;
    }
    if (!topo || !s || !perf || !s->refs || !weights_ok(w) || pl_check_topo(topo))
        return -EINVAL;
    if (s->node < 0 || s->node >= topo->nnodes || !nonneg(s->work) || !nonneg(s->cpu_s)
        || !(s->wall_s > 0) || !isfinite(s->wall_s) || !nonneg(s->wait_s))
        return -EINVAL;
    double active = s->wall_s - s->wait_s;
    if (s->cpu_s == 0 || !(active > 0))
        return -ENODATA;
    double busy = s->cpu_s < active ? s->cpu_s : active;
    double rate = s->work > 0 ? s->work / busy : 1.0;
    double share = busy / active;
    double refs = 0;
    for (int d = 0; d < topo->nnodes; d++)
        refs += (double)s->refs[d];
    /* The same distance weighting as the cost model (pl_i_weighted). */
    double lat = refs > 0 ? pl_i_weighted(topo, s->refs, s->node) / refs : 1.0;
    *perf = pow(rate, w->alpha) * pow(share, w->beta) * pow(1.0 / lat, w->gamma);
    return 0;
}

/* ---- state ------------------------------------------------------------ */

void pl_imar_params_default(pl_imar_params_t *p)
{
    if (p)
        *p = (pl_imar_params_t){ .t_worse = 1, .t_none = 2, .t_better = 4, .t_free = 4,
                                 .ratio = 0.97, .period_min_ms = 1000.0,
                                 .period_max_ms = 4000.0, .remote_min = 0.1 };
}

static int tickets_ok(int t) { return t >= 0 && t <= PL_IMAR_MAX_TICKETS; }

static int params_ok(const pl_imar_params_t *p)
{
    return tickets_ok(p->t_worse) && tickets_ok(p->t_none) && tickets_ok(p->t_better)
           && tickets_ok(p->t_free) && isfinite(p->ratio) && p->ratio > 0 && p->ratio <= 1
           && isfinite(p->period_min_ms) && p->period_min_ms > 0
           && isfinite(p->period_max_ms) && p->period_max_ms >= p->period_min_ms
           && isfinite(p->remote_min) && p->remote_min >= 0 && p->remote_min <= 1;
}

static const pl_imar_move_t no_move = { -1, -1, -1, -1, 0 };

int pl_imar_init(pl_imar_t *im, const pl_imar_params_t *params,
                 int nnodes, int ncores, const int *core_node,
                 int nthreads, int *core, const int *group,
                 double *record, uint64_t seed)
{
    pl_imar_params_t def;
    if (!params) {
        pl_imar_params_default(&def);
        params = &def;
    }
    if (!im || !core_node || !core || !record || !params_ok(params))
        return -EINVAL;
    if (nnodes < 1 || nnodes > PL_MAX_NODES || ncores < 1 || nthreads < 1)
        return -EINVAL;
    for (int c = 0; c < ncores; c++)
        if (core_node[c] < 0 || core_node[c] >= nnodes)
            return -EINVAL;
    for (int t = 0; t < nthreads; t++)
        if (core[t] < 0 || core[t] >= ncores)
            return -EINVAL;
    /* Indices below are ints: keep nthreads * nnodes and ncores + nthreads in range. */
    if ((int64_t)nthreads * nnodes > INT32_MAX || (int64_t)ncores + nthreads > INT32_MAX)
        return -EINVAL;
    im->params = *params;
    im->nnodes = nnodes;
    im->ncores = ncores;
    im->core_node = core_node;
    im->nthreads = nthreads;
    im->core = core;
    im->group = group;
    im->record = record;
    for (size_t i = 0; i < (size_t)nthreads * nnodes; i++)
        record[i] = PL_IMAR_NO_RECORD;
    im->period_ms = params->period_min_ms;
    im->next_ms = params->period_min_ms;
    im->prev_total = -1.0;
    im->prev_measured = 0;
    im->pending = no_move;
    im->refs = NULL;
    pl_rng_seed(&im->rng, seed);
    return 0;
}

int pl_imar_max_dests(const pl_imar_t *im)
{
    return im ? im->ncores + im->nthreads : -EINVAL;
}

static int perf_ok(const pl_imar_t *im, const double *perf)
{
    for (int t = 0; t < im->nthreads; t++)
        if (isnan(perf[t]) || isinf(perf[t]))
            return 0;
    return 1;
}

static double rec(const pl_imar_t *im, int t, int n) { return im->record[(size_t)t * im->nnodes + n]; }
static int node_of(const pl_imar_t *im, int t) { return im->core_node[im->core[t]]; }

/* The locality gate is on: trials need evidence (remote_min > 0). */
static int gate_on(const pl_imar_t *im) { return im->params.remote_min > 0; }

/* Whether node n holds more of t's references than t's own node, beyond
 * the sampling error of either count (pl_evidence's rule: each count moved
 * against the move by PL_EVIDENCE_Z standard errors). */
static int data_on(const pl_imar_t *im, int t, int n)
{
    const uint64_t *row = im->refs + (size_t)t * (size_t)im->nnodes;
    double there = (double)row[n], here = (double)row[node_of(im, t)];
    return n != node_of(im, t) && there - PL_EVIDENCE_Z * sqrt(there) > here + PL_EVIDENCE_Z * sqrt(here);
}

/* Whether t may migrate: with the gate on, only a thread whose remote share
 * is at least remote_min and whose data is measured to be on another node
 * (data_on); without a TNT, none. With the gate off, every thread. */
static int eligible(const pl_imar_t *im, int t)
{
    if (!gate_on(im))
        return 1;
    if (!im->refs)
        return 0;
    const uint64_t *row = im->refs + (size_t)t * (size_t)im->nnodes;
    double sum = 0;
    for (int n = 0; n < im->nnodes; n++)
        sum += (double)row[n];
    if (!(sum > 0) || 1.0 - (double)row[node_of(im, t)] / sum < im->params.remote_min)
        return 0;
    for (int n = 0; n < im->nnodes; n++)
        if (data_on(im, t, n))
            return 1;
    return 0;
}

int pl_imar_observe(pl_imar_t *im, const double *perf, double *total)
{
    if (!im || !perf || !perf_ok(im, perf))
        return -EINVAL;
    int measured = 0;
    double sum = 0;
    for (int t = 0; t < im->nthreads; t++) {
        if (perf[t] < 0)
            continue;
        im->record[(size_t)t * im->nnodes + node_of(im, t)] = perf[t];
        sum += perf[t];
        measured++;
    }
    if (total)
        *total = sum;
    return measured;
}

static int same_group(const pl_imar_t *im, int a, int b)
{
    return !im->group || im->group[a] == im->group[b];
}

int pl_imar_select(const pl_imar_t *im, const double *perf, int *m, double *norm)
{
    if (!im || !perf || !m || !perf_ok(im, perf))
        return -EINVAL;
    int best = -1;
    double best_norm = 0;
    /* O(N^2) without a workspace: group ids are arbitrary ints (a process id
     * does as well as a team number), and N is a team's size. */
    for (int t = 0; t < im->nthreads; t++) {
        if (perf[t] < 0 || !eligible(im, t))
            continue;
        double sum = 0;
        int k = 0;
        for (int u = 0; u < im->nthreads; u++)
            if (perf[u] >= 0 && same_group(im, t, u)) {
                sum += perf[u];
                k++;
            }
        /* Alone in its group a thread is its own mean (the paper's process
         * with one thread, never selected); a zero mean normalises nothing. */
        if (k < 2 || !(sum > 0))
            continue;
        double v = perf[t] / (sum / k);
        if (best < 0 || v < best_norm) {
            best = t;
            best_norm = v;
        }
    }
    *m = best;
    if (norm)
        *norm = best < 0 ? 0.0 : best_norm;
    return 0;
}

/* Tickets of a thread for a node, against the node it runs on (have < 0: none). */
static int judge(const pl_imar_params_t *p, double there, double here)
{
    if (there < 0 || here < 0)
        return p->t_none;
    return there > here ? p->t_better : p->t_worse;
}

int pl_imar_tickets(const pl_imar_t *im, int m, pl_imar_dest_t *dests, int max_dests,
                    int *ndests, int64_t *total)
{
    if (!im || !dests || !ndests || !total || max_dests < 0 || m < 0 || m >= im->nthreads)
        return -EINVAL;
    int nm = node_of(im, m);
    double here = rec(im, m, nm);
    if (here < 0)
        return -EINVAL;
    const pl_imar_params_t *p = &im->params;
    int n = 0;
    int64_t sum = 0;
    for (int c = 0; c < im->ncores; c++) {
        int d = im->core_node[c];
        if (d == nm)
            continue;
        int tm = judge(p, rec(im, m, d), here);
        int taken = 0;
        for (int s = 0; s < im->nthreads; s++) {
            if (im->core[s] != c)
                continue;
            taken = 1;
            if (n >= max_dests)
                return -ENOBUFS;
            /* The partner would move to m's node: judged there against its own. */
            int ts = judge(p, rec(im, s, nm), rec(im, s, d));
            dests[n++] = (pl_imar_dest_t){ c, s, tm, ts, tm + ts };
            sum += tm + ts;
        }
        if (!taken) {
            if (n >= max_dests)
                return -ENOBUFS;
            dests[n++] = (pl_imar_dest_t){ c, -1, tm, p->t_free, tm + p->t_free };
            sum += tm + p->t_free;
        }
    }
    *ndests = n;
    *total = sum;
    return 0;
}

int pl_imar_pick(const pl_imar_dest_t *dests, int ndests, int64_t r, int *chosen)
{
    if (!dests || !chosen || ndests < 1 || r < 0)
        return -EINVAL;
    for (int i = 0; i < ndests; i++) {
        if (dests[i].tickets < 0)
            return -EINVAL;
        if (r < dests[i].tickets) {
            *chosen = i;
            return 0;
        }
        r -= dests[i].tickets;
    }
    return -EINVAL;
}

int pl_imar_draw(pl_rng_t *rng, const pl_imar_dest_t *dests, int ndests, int *chosen)
{
    if (!rng || !dests || !chosen || ndests < 1)
        return -EINVAL;
    int64_t sum = 0;
    for (int i = 0; i < ndests; i++) {
        if (dests[i].tickets < 0)
            return -EINVAL;
        sum += dests[i].tickets;
    }
    if (sum == 0)
        return -ENODATA;
    uint64_t r;
    pl_rng_below(rng, (uint64_t)sum, &r);
    return pl_imar_pick(dests, ndests, (int64_t)r, chosen);
}

/* The move still describes where the threads are (nobody else moved them). */
static int move_matches(const pl_imar_t *im, const pl_imar_move_t *mv)
{
    if (mv->thread < 0 || mv->thread >= im->nthreads || mv->from_core < 0
        || mv->from_core >= im->ncores || mv->to_core < 0 || mv->to_core >= im->ncores
        || mv->from_core == mv->to_core || mv->partner < -1 || mv->partner >= im->nthreads
        || mv->partner == mv->thread)
        return 0;
    if (im->core[mv->thread] != mv->from_core)
        return 0;
    return mv->partner < 0 || im->core[mv->partner] == mv->to_core;
}

int pl_imar_apply(pl_imar_t *im, const pl_imar_move_t *mv)
{
    if (!im || !mv || !move_matches(im, mv))
        return -EINVAL;
    im->core[mv->thread] = mv->to_core;
    if (mv->partner >= 0)
        im->core[mv->partner] = mv->from_core;
    im->pending = mv->rollback ? no_move : *mv;
    return 0;
}

int pl_imar_remote_max(const pl_imar_t *im, double *max_remote)
{
    if (!im || !max_remote)
        return -EINVAL;
    *max_remote = -1.0;
    if (!im->refs)
        return 0;
    double worst = 0;
    for (int t = 0; t < im->nthreads; t++) {
        const uint64_t *row = im->refs + (size_t)t * (size_t)im->nnodes;
        double sum = 0;
        for (int n = 0; n < im->nnodes; n++)
            sum += (double)row[n];
        if (sum == 0)
            return 0;
        double remote = 1.0 - (double)row[node_of(im, t)] / sum;
        worst = remote > worst ? remote : worst;
    }
    *max_remote = worst;
    return 1;
}

/* With the locality gate on: only destinations on a node measured to hold
 * more of m's references than its own node (data_on) keep their tickets:
 * a move elsewhere cannot bring m nearer its data. m is eligible, so one
 * such node exists; its cores may all hold no ticket (0 tickets are
 * allowed), and the draw then finds none. Returns the new total. */
static int64_t toward_data(const pl_imar_t *im, int m, pl_imar_dest_t *dests, int nd, int64_t total)
{
    if (!gate_on(im))
        return total;
    int64_t kept = 0;
    for (int i = 0; i < nd; i++) {
        if (data_on(im, m, im->core_node[dests[i].core]))
            kept += dests[i].tickets;
        else
            dests[i].tickets = dests[i].tickets_m = dests[i].tickets_s = 0;
    }
    return kept;
}

/* ---- one IMAR2 interval ------------------------------------------------- */

/* The mapping in place (restored, or kept without a gain) runs untouched for
 * the whole period before the next draw. */
static void rest(pl_imar_t *im, pl_imar_step_t *out)
{
    out->period_ms = im->period_ms;
    out->next_ms = im->next_ms = im->period_ms;
    out->rest = 1;
}

int pl_imar2_step(pl_imar_t *im, const double *perf, pl_imar_dest_t *dests, int max_dests,
                  pl_imar_step_t *out)
{
    if (!im || !perf || !dests || !out || !perf_ok(im, perf))
        return -EINVAL;
    /* Checked before anything changes, so a failed step leaves the state as it was. */
    if (max_dests < im->ncores + im->nthreads)
        return -ENOBUFS;
    const pl_imar_params_t *p = &im->params;
    memset(out, 0, sizeof *out);
    out->move = no_move;
    out->prev_total = -1.0;
    out->perf_to = -1.0;
    out->max_remote = -1.0;

    double total = 0;
    int measured = pl_imar_observe(im, perf, &total);
    out->measured = measured;
    out->total = total;

    /* The move applied after the previous step, unless someone has moved
     * those threads since: then it is not ours to judge or undo. */
    pl_imar_move_t judged = im->pending;
    int have_move = judged.thread >= 0 && move_matches(im, &(pl_imar_move_t){
        judged.thread, judged.to_core, judged.from_core, judged.partner, 1 });
    im->pending = no_move;

    int comparable = im->prev_total >= 0 && measured > 0 && measured == im->prev_measured;
    double prev = im->prev_total;
    im->prev_total = measured > 0 ? total : -1.0;
    im->prev_measured = measured;
    int improved = 0;
    /* With the locality gate on (remote_min > 0: do no harm), a trial is a
     * move that must earn its keep: unless the total rose, it is undone,
     * also when the step could not compare (measured threads changed). A
     * trial kept at a total 0.1 % lower moved a thread off a kernel-placed
     * table for good. The paper's IMAR2 (remote_min 0) keeps a trial down
     * to ratio x the previous total. */
    int strict = p->remote_min > 0;
    int worse = comparable && total < p->ratio * prev;
    int unproven = strict && !(comparable && total > prev);
    if (comparable)
        out->prev_total = prev;
    if (worse || (have_move && unproven)) {
        double next = im->period_ms * 2;
        next = next > p->period_max_ms ? p->period_max_ms : next;
        out->period_change = next > im->period_ms;
        im->period_ms = next;
        if (have_move) {
            out->action = PL_IMAR_ROLLBACK;
            out->move = (pl_imar_move_t){ judged.thread, judged.to_core, judged.from_core, judged.partner, 1 };
            rest(im, out);
            return 0;
        }
    } else if (comparable && total > prev && have_move) {
        double next = im->period_ms / 2;
        next = next < p->period_min_ms ? p->period_min_ms : next;
        out->period_change = -(next < im->period_ms);
        im->period_ms = next;
        improved = 1;
    }
    /* A trial kept without a rise (or that could not be judged) has not
     * earned another one at once: the mapping rests for the period first. */
    if (have_move && !improved) {
        rest(im, out);
        return 0;
    }
    out->period_ms = im->period_ms;
    out->next_ms = im->next_ms = im->period_ms;

    /* No thread measured away from its data (or no TNT to say so): a trial
     * can only move one away. The mapping is confirmed as a trial kept
     * would be, so the period doubles: a well-placed team is looked at less
     * and less often, down to one step per period_max. */
    pl_imar_remote_max(im, &out->max_remote);
    int some = 0;
    for (int t = 0; t < im->nthreads && !some; t++)
        some = perf[t] >= 0 && eligible(im, t);
    if (!some) {
        double next = im->period_ms * 2;
        next = next > p->period_max_ms ? p->period_max_ms : next;
        out->period_change = next > im->period_ms;
        im->period_ms = next;
        out->gated = 1;
        rest(im, out);
        return 0;
    }

    int m;
    double norm;
    pl_imar_select(im, perf, &m, &norm);
    if (m < 0)
        return 0;
    int nd;
    int64_t tickets;
    int rc = pl_imar_tickets(im, m, dests, max_dests, &nd, &tickets);
    if (rc)
        return rc;
    tickets = toward_data(im, m, dests, nd, tickets);
    out->ndests = nd;
    out->total_tickets = tickets;
    out->norm = norm;
    int win;
    if (nd == 0 || pl_imar_draw(&im->rng, dests, nd, &win))
        return 0;   /* one node only, or every ticket count 0: nothing to draw */
    const pl_imar_dest_t *w = &dests[win];
    out->action = PL_IMAR_MIGRATE;
    /* A trial is judged after the shortest period, whatever the period. */
    out->next_ms = im->next_ms = p->period_min_ms;
    out->move = (pl_imar_move_t){ m, im->core[m], w->core, w->partner, 0 };
    out->tickets = w->tickets;
    out->perf_from = rec(im, m, node_of(im, m));
    out->perf_to = rec(im, m, im->core_node[w->core]);
    return 0;
}

const char *pl_imar_action_name(pl_imar_action_t a)
{
    switch (a) {
    case PL_IMAR_NONE: return "none";
    case PL_IMAR_MIGRATE: return "migrate";
    case PL_IMAR_ROLLBACK: return "rollback";
    }
    return "?";
}
