/* rt_policy.c: one way to run a policy from the runtime: workspace, model, timing, the runtime's error convention. */
#include <errno.h>
#include <stdlib.h>

#include "rt_core.h"
#include "rt_policy.h"

static pl_model_t model;
static int model_ready;

const pl_model_t *rt_policy_model(void)
{
    if (!__atomic_load_n(&model_ready, __ATOMIC_ACQUIRE)) {
        pl_model_default(&model); /* idempotent: a race writes the same values */
        __atomic_store_n(&model_ready, 1, __ATOMIC_RELEASE);
    }
    return &model;
}

int rt_policy_run(pl_policy_t policy, const pl_topo_t *topo, const uint64_t *refs, int team, int *nodes,
                  int *cores, double *us)
{
    pl_tnt_t tnt = {.nthreads = team, .nnodes = topo->nnodes, .refs = refs};
    pl_mapping_t map = {.nthreads = team, .node = nodes, .core = cores};
    size_t bytes = pl_workspace_bytes(policy, team, topo->nnodes);
    void *work = bytes ? malloc(bytes) : NULL;
    if (bytes && !work) {
        errno = ENOMEM;
        return -1;
    }
    uint64_t t0 = rt_now_ns();
    int rc = pl_decide(policy, topo, &tnt, rt_policy_model(), &map, work, bytes);
    *us = (double)(rt_now_ns() - t0) / 1e3;
    free(work);
    if (rc != 0) {
        errno = -rc;
        return -1;
    }
    return 0;
}
