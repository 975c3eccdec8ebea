/* pl_model.c: the cost model, validation, locality totals and policy names of the placement library. */
#include <errno.h>
#include <math.h>
#include <string.h>
#include "pl_internal.h"

/*
 * Defaults. The model ranks mappings; its unit is one uncontended local
 * reference, so local_ns = 1 and predicted times read as "local-reference
 * equivalents" until the runtime's memory manager replaces local_ns with the
 * latency it calibrated on the machine.
 *
 * node_congestion = 1.0: when every reference of the region is issued from
 * one node, each costs twice an uncontended one. On the paper's machine (four
 * quad-core Opterons, one memory controller per socket) a full socket shares
 * one controller and one link, so one core's bandwidth is about half the
 * socket's share once all four cores stream; the balanced mapping over four
 * nodes then pays 1 + 1/4. It is what makes crowding heavy threads on one node
 * visible, which is the contention Algorithms 2 and 3 of the paper avoid.
 *
 * remote_traffic = 0.5: when every reference is remote, a remote reference
 * costs half a local reference more than its distance alone says: the
 * interconnect, not the controller, saturates first on HyperTransport and QPI
 * class links. Regions that keep most references local pay almost nothing.
 */
void pl_model_default(pl_model_t *model)
{
    model->local_ns = 1.0;
    model->node_congestion = 1.0;
    model->remote_traffic = 0.5;
}

double pl_numa_factor(const pl_topo_t *topo)
{
    if (!topo || topo->nnodes < 1)
        return 1.0;
    if (topo->numa_factor > 0)
        return topo->numa_factor;
    if (topo->nnodes == 1 || !topo->distance)
        return 1.0;
    int nd = topo->nnodes;
    double loc = 0, rem = 0;
    for (int i = 0; i < nd; i++)
        for (int j = 0; j < nd; j++) {
            if (i == j) loc += topo->distance[(size_t)i * nd + j];
            else        rem += topo->distance[(size_t)i * nd + j];
        }
    loc /= nd;
    rem /= (double)nd * (nd - 1);
    return loc > 0 ? rem / loc : 1.0;
}

int pl_check_topo(const pl_topo_t *topo)
{
    if (!topo || topo->nnodes < 1 || topo->nnodes > PL_MAX_NODES || !topo->capacity)
        return -EINVAL;
    /* Finite: the greedy policies order IF + CPImpact scores as integers,
     * which holds for every product of counts and a finite factor. */
    if (!(topo->numa_factor == 0 || (topo->numa_factor >= 1.0 && isfinite(topo->numa_factor))))
        return -EINVAL;
    /* Without a matrix the remote distance is 10 * numa_factor: it must exist. */
    if (!topo->distance && topo->nnodes > 1 && topo->numa_factor < 1.0)
        return -EINVAL;
    int nd = topo->nnodes;
    for (int i = 0; i < nd; i++) {
        if (topo->capacity[i] < 0)
            return -EINVAL;
        if (!topo->distance)
            continue;
        for (int j = 0; j < nd; j++) {
            double d = topo->distance[(size_t)i * nd + j];
            if (!(d > 0) || !isfinite(d))
                return -EINVAL;
        }
    }
    /* Distances near DBL_MAX would sum to an infinite factor. */
    if (!isfinite(pl_numa_factor(topo)))
        return -EINVAL;
    return 0;
}

int pl_check(const pl_topo_t *topo, const pl_tnt_t *tnt)
{
    int rc = pl_check_topo(topo);
    if (rc)
        return rc;
    if (!tnt || tnt->nthreads < 1 || !tnt->refs || tnt->nnodes != topo->nnodes)
        return -EINVAL;
    long cores = 0;
    for (int i = 0; i < topo->nnodes; i++)
        cores += topo->capacity[i];
    if (tnt->nthreads > cores)
        return -ENOSPC;
    return 0;
}

static int check_map(const pl_tnt_t *tnt, const pl_mapping_t *map)
{
    if (!map || !map->node || map->nthreads != tnt->nthreads)
        return -EINVAL;
    for (int t = 0; t < map->nthreads; t++)
        if (map->node[t] < 0 || map->node[t] >= tnt->nnodes)
            return -EINVAL;
    return 0;
}

static int check_model(const pl_model_t *m)
{
    if (!m || !(m->local_ns > 0) || !(m->node_congestion >= 0) || !(m->remote_traffic >= 0)
        || !isfinite(m->local_ns) || !isfinite(m->node_congestion) || !isfinite(m->remote_traffic))
        return -EINVAL;
    return 0;
}

/* Mappings may oversubscribe a node here: the runtime predicts the mapping it
 * observed, which the OS may have crowded. */
int pl_predict(const pl_topo_t *topo, const pl_tnt_t *tnt, const pl_model_t *model,
               const pl_mapping_t *map, double *per_thread, double *critical)
{
    int rc = pl_check_topo(topo);
    if (rc)
        return rc;
    if (!tnt || tnt->nthreads < 1 || !tnt->refs || tnt->nnodes != topo->nnodes)
        return -EINVAL;
    if ((rc = check_model(model)) || (rc = check_map(tnt, map)))
        return rc;
    int n = tnt->nthreads, nd = tnt->nnodes;
    double issue[PL_MAX_NODES];
    memset(issue, 0, sizeof(double) * nd);
    double total = 0, remote = 0;
    for (int t = 0; t < n; t++) {
        const uint64_t *row = tnt->refs + (size_t)t * nd;
        double r = 0;
        for (int d = 0; d < nd; d++)
            r += (double)row[d];
        total += r;
        issue[map->node[t]] += r;
        remote += r - (double)row[map->node[t]];
    }
    double crit = 0;
    for (int t = 0; t < n; t++) {
        double time = 0;
        if (total > 0) {
            const uint64_t *row = tnt->refs + (size_t)t * nd;
            int node = map->node[t];
            double r = 0;
            for (int d = 0; d < nd; d++)
                r += (double)row[d];
            time = pl_i_time(model, pl_i_weighted(topo, row, node), r - (double)row[node],
                             issue[node], remote, total);
        }
        if (per_thread)
            per_thread[t] = time;
        if (time > crit)
            crit = time;
    }
    if (critical)
        *critical = crit;
    return 0;
}

int pl_locality(const pl_tnt_t *tnt, const pl_mapping_t *map, uint64_t *local, uint64_t *remote)
{
    if (!tnt || tnt->nthreads < 1 || tnt->nnodes < 1 || !tnt->refs)
        return -EINVAL;
    int rc = check_map(tnt, map);
    if (rc)
        return rc;
    uint64_t loc = 0, rem = 0;
    for (int t = 0; t < tnt->nthreads; t++) {
        const uint64_t *row = tnt->refs + (size_t)t * tnt->nnodes;
        for (int d = 0; d < tnt->nnodes; d++)
            if (__builtin_add_overflow(d == map->node[t] ? loc : rem, row[d],
                                       d == map->node[t] ? &loc : &rem))
                return -EOVERFLOW;
    }
    if (local)  *local = loc;
    if (remote) *remote = rem;
    return 0;
}

/* ---- precomputed context used by the searches ---- */

size_t pl_i_ctx_bytes(int n, int nd)
{
    pl_arena_t a = { NULL, 0, 0 };
    pl_i_take(&a, sizeof(double) * n);
    pl_i_take(&a, sizeof(double) * (size_t)n * nd);
    pl_i_take(&a, sizeof(double) * (size_t)n * nd);
    pl_i_take(&a, sizeof(double) * nd);
    return a.used;
}

int pl_i_ctx_init(pl_ctx_t *ctx, pl_arena_t *a, const pl_topo_t *topo,
                  const pl_tnt_t *tnt, const pl_model_t *model)
{
    int n = tnt->nthreads, nd = tnt->nnodes;
    ctx->topo = topo;
    ctx->tnt = tnt;
    ctx->model = model;
    ctx->n = n;
    ctx->nd = nd;
    ctx->rowsum = pl_i_take(a, sizeof(double) * n);
    ctx->w = pl_i_take(a, sizeof(double) * (size_t)n * nd);
    ctx->rem = pl_i_take(a, sizeof(double) * (size_t)n * nd);
    ctx->issue = pl_i_take(a, sizeof(double) * nd);
    if (!ctx->rowsum || !ctx->w || !ctx->rem || !ctx->issue)
        return -ENOBUFS;
    ctx->total = 0;
    for (int t = 0; t < n; t++) {
        const uint64_t *row = tnt->refs + (size_t)t * nd;
        double r = 0;
        for (int d = 0; d < nd; d++)
            r += (double)row[d];
        ctx->rowsum[t] = r;
        ctx->total += r;
        for (int k = 0; k < nd; k++) {
            ctx->w[(size_t)t * nd + k] = pl_i_weighted(topo, row, k);
            ctx->rem[(size_t)t * nd + k] = r - (double)row[k];
        }
    }
    return 0;
}

void pl_i_eval(pl_ctx_t *ctx, const int *node, double *crit, double *sum, int *crit_thread)
{
    int n = ctx->n, nd = ctx->nd;
    memset(ctx->issue, 0, sizeof(double) * nd);
    double remote = 0;
    for (int t = 0; t < n; t++) {
        ctx->issue[node[t]] += ctx->rowsum[t];
        remote += ctx->rem[(size_t)t * nd + node[t]];
    }
    double c = 0, s = 0;
    int ct = 0;
    if (ctx->total > 0) {
        for (int t = 0; t < n; t++) {
            size_t i = (size_t)t * nd + node[t];
            double time = pl_i_time(ctx->model, ctx->w[i], ctx->rem[i], ctx->issue[node[t]],
                                    remote, ctx->total);
            s += time;
            if (time > c) { c = time; ct = t; }
        }
    }
    *crit = c;
    if (sum) *sum = s;
    if (crit_thread) *crit_thread = ct;
}

void pl_i_number_cores(int n, int nd, const int *node, int *core, int *scratch_nd)
{
    memset(scratch_nd, 0, sizeof(int) * nd);
    for (int t = 0; t < n; t++)
        core[t] = scratch_nd[node[t]]++;
}

/* ---- names ---- */

static const char *const policy_names[PL_POLICY_COUNT] = {
    [PL_POLICY_COMPACT] = "compact",
    [PL_POLICY_SCATTER] = "scatter",
    [PL_POLICY_EXHAUSTIVE] = "exhaustive",
    [PL_POLICY_MAXLOCAL] = "maxlocal",
    [PL_POLICY_CRITPATH] = "critpath",
    [PL_POLICY_CRITPATH_REFINE] = "critpath+refine",
};

const char *pl_policy_name(pl_policy_t policy)
{
    if ((int)policy < 0 || policy >= PL_POLICY_COUNT)
        return "unknown";
    return policy_names[policy];
}

int pl_policy_from_name(const char *name, pl_policy_t *policy)
{
    if (!name || !policy)
        return -EINVAL;
    for (int p = 0; p < PL_POLICY_COUNT; p++)
        if (strcmp(name, policy_names[p]) == 0) {
            *policy = (pl_policy_t)p;
            return 0;
        }
    return -EINVAL;
}
