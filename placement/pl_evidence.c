/* pl_evidence.c: whether the gain a move is predicted to make stands out from the TNT's sampling error. */
#include <errno.h>
#include <math.h>
#include "pl_internal.h"

/* (before - after) / before of the critical path under the model, on refs. */
static int relative_gain(const pl_topo_t *topo, const pl_tnt_t *tnt, const pl_model_t *model, const int *from,
                         const int *to, double *gain)
{
    pl_mapping_t before = {.nthreads = tnt->nthreads, .node = (int *)from};
    pl_mapping_t after = {.nthreads = tnt->nthreads, .node = (int *)to};
    double b, a;
    int rc = pl_predict(topo, tnt, model, &before, NULL, &b);
    if (rc == 0)
        rc = pl_predict(topo, tnt, model, &after, NULL, &a);
    if (rc == 0)
        *gain = b > 0 ? (b - a) / b : 0.0;
    return rc;
}

int pl_evidence(const pl_topo_t *topo, const pl_tnt_t *tnt, const pl_model_t *model, const int *from,
                const int *to, uint64_t *scratch, pl_evidence_t *out)
{
    if (!from || !to || !scratch || !out || pl_check(topo, tnt) != 0)
        return -EINVAL;
    int nd = tnt->nnodes;
    *out = (pl_evidence_t){.least = tnt->nthreads ? UINT64_MAX : 0};
    /* The moved table is kept in 1/256ths of a reference (the model's
     * relative gain does not depend on the scale) unless a count is too
     * large for that to fit. */
    double scale = 256.0;
    for (size_t i = 0; i < (size_t)tnt->nthreads * (size_t)nd; i++)
        if (tnt->refs[i] > (UINT64_C(1) << 48))
            scale = 1.0;
    for (int t = 0; t < tnt->nthreads; t++) {
        const uint64_t *row = tnt->refs + (size_t)t * (size_t)nd;
        uint64_t *adv = scratch + (size_t)t * (size_t)nd;
        int a = from[t], b = to[t];
        if (a < 0 || a >= nd || b < 0 || b >= nd)
            return -EINVAL;
        uint64_t sum = 0;
        for (int d = 0; d < nd; d++) {
            sum += row[d];
            /* Against the move: what it brings nearer counts less, what it takes away more. */
            double c = (double)row[d], err = PL_EVIDENCE_Z * sqrt(c);
            double w = a == b ? 0.0 : pl_i_dist(topo, a, d) - pl_i_dist(topo, b, d);
            double moved = w > 0 ? fmax(0.0, c - err) : w < 0 ? c + err : c;
            adv[d] = (uint64_t)llround(moved * scale);
        }
        out->refs += sum;
        if (sum < out->least)
            out->least = sum;
        out->moved += a != b;
    }
    pl_tnt_t moved_against = {.nthreads = tnt->nthreads, .nnodes = nd, .refs = scratch};
    int rc = relative_gain(topo, tnt, model, from, to, &out->gain);
    if (rc == 0)
        rc = relative_gain(topo, &moved_against, model, from, to, &out->worst);
    if (rc != 0)
        return rc;
    out->enough = out->moved > 0 && out->gain > 0 && out->worst > 0;
    return 0;
}

int pl_promising(uint64_t local, uint64_t remote)
{
    return local + remote >= PL_PROMISE_MIN && remote > local;
}

int pl_budget_fits(uint64_t spent, uint64_t next, uint64_t run, double percent, int promising)
{
    if (percent <= 0)
        return 1;
    return (double)spent + (double)next <= (double)run * percent / 100.0 * (promising ? PL_PROMISE_FACTOR : 1);
}

int pl_home(uint64_t local, uint64_t remote)
{
    if (remote >= local)
        return 0;
    double n = (double)local + (double)remote, r = (double)remote;
    if (n > 2000.0) /* the binomial's normal approximation, with continuity correction */
        return (n / 2 - r - 0.5) / sqrt(n / 4) > 2.3263478740408408; /* the 99th percentile */
    /* P(X <= r) for X ~ B(n, 1/2): C(n, r) / 2^n in logs (2^-n underflows),
     * then the terms from k = r down, each k / (n - k + 1) of the one
     * before, until they no longer count. */
    double log_term = -n * log(2.0);
    for (double i = 1; i <= r; i++)
        log_term += log((n - r + i) / i);
    double term = exp(log_term), sum = 0.0;
    for (double k = r; k >= 0 && term > sum * 1e-12; k--) {
        sum += term;
        term *= k / (n - k + 1);
    }
    return sum < PL_HOME_ALPHA;
}
