/* pl_decide.c: policy dispatch and workspace sizing of the placement library. */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include "pl_internal.h"

static size_t max2(size_t a, size_t b) { return a > b ? a : b; }

/* Layout: the context (refine, exhaustive), the number_cores scratch, then
 * the largest of the phases, which run one after another and reuse the tail
 * (the greedy heaps are dead once critpath has written node[]). */
size_t pl_workspace_bytes(pl_policy_t policy, int nthreads, int nnodes)
{
    if (nthreads < 1 || nnodes < 1)
        return 0;
    int n = nthreads, nd = nnodes;
    pl_arena_t a = { NULL, 0, 16 }; /* 16: slack to align the caller's pointer */
    pl_i_take(&a, sizeof(int) * nd); /* number_cores */
    switch (policy) {
    case PL_POLICY_COMPACT:
    case PL_POLICY_SCATTER:
        break;
    case PL_POLICY_MAXLOCAL:
    case PL_POLICY_CRITPATH:
        a.used += pl_i_greedy_bytes(n, nd);
        break;
    case PL_POLICY_CRITPATH_REFINE:
        a.used += pl_i_ctx_bytes(n, nd);
        a.used += max2(pl_i_greedy_bytes(n, nd), pl_i_polish_bytes(n, nd));
        break;
    case PL_POLICY_EXHAUSTIVE:
        a.used += pl_i_ctx_bytes(n, nd);
        a.used += max2(pl_i_greedy_bytes(n, nd),
                       max2(pl_i_polish_bytes(n, nd), pl_i_exhaustive_bytes(n, nd)));
        break;
    default:
        return 0;
    }
    return a.used;
}

int pl_decide_traced(pl_policy_t policy, const pl_topo_t *topo, const pl_tnt_t *tnt,
                     const pl_model_t *model, pl_mapping_t *out, void *work,
                     size_t work_bytes, pl_trace_t *trace)
{
    int rc = pl_check(topo, tnt);
    if (rc)
        return rc;
    if ((int)policy < 0 || policy >= PL_POLICY_COUNT || !out || !out->node || !out->core
        || out->nthreads != tnt->nthreads)
        return -EINVAL;
    int needs_model = policy == PL_POLICY_CRITPATH_REFINE || policy == PL_POLICY_EXHAUSTIVE;
    if (needs_model && (!model || !(model->local_ns > 0) || !(model->node_congestion >= 0)
                        || !(model->remote_traffic >= 0)))
        return -EINVAL;
    size_t need = pl_workspace_bytes(policy, tnt->nthreads, tnt->nnodes);
    if (work_bytes < need || (need && !work))
        return -ENOBUFS;
    if (trace)
        trace->nsteps = trace->ncands = trace->truncated = 0;

    int n = tnt->nthreads, nd = tnt->nnodes;
    pl_arena_t a = { work, work_bytes, 0 };
    size_t mis = (uintptr_t)work & 15;
    if (mis) {
        a.p += 16 - mis;
        a.left -= 16 - mis;
    }
    int *scratch = pl_i_take(&a, sizeof(int) * nd);
    pl_ctx_t ctx;
    if (needs_model && (rc = pl_i_ctx_init(&ctx, &a, topo, tnt, model)))
        return rc;
    pl_arena_t phase = a;
    int simd = pl_i_greedy_simd();

    switch (policy) {
    case PL_POLICY_COMPACT:
        rc = pl_i_compact(topo, n, out->node);
        break;
    case PL_POLICY_SCATTER:
        rc = pl_i_scatter(topo, n, out->node);
        break;
    case PL_POLICY_MAXLOCAL:
        rc = pl_i_maxlocal(topo, tnt, out->node, &phase, trace, simd);
        break;
    case PL_POLICY_CRITPATH:
        rc = pl_i_critpath(topo, tnt, out->node, &phase, trace, simd);
        break;
    case PL_POLICY_CRITPATH_REFINE:
    case PL_POLICY_EXHAUSTIVE:
        /* Only critpath+refine reports its greedy phase: exhaustive's answer
         * does not come from those steps. */
        rc = pl_i_critpath(topo, tnt, out->node, &phase,
                           policy == PL_POLICY_CRITPATH_REFINE ? trace : NULL, simd);
        if (!rc) {
            phase = a;
            rc = pl_i_polish(&ctx, out->node, &phase);
        }
        if (!rc && policy == PL_POLICY_EXHAUSTIVE) {
            phase = a;
            rc = pl_i_exhaustive(&ctx, out->node, &phase);
        }
        break;
    default:
        rc = -EINVAL;
    }
    if (rc)
        return rc;
    pl_i_number_cores(n, nd, out->node, out->core, scratch);
    return 0;
}

int pl_decide(pl_policy_t policy, const pl_topo_t *topo, const pl_tnt_t *tnt,
              const pl_model_t *model, pl_mapping_t *out, void *work, size_t work_bytes)
{
    return pl_decide_traced(policy, topo, tnt, model, out, work, work_bytes, NULL);
}
