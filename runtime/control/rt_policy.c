/* rt_policy.c: one way to run a policy from the runtime: workspace, model, timing, the runtime's error convention. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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

/* One workspace kept between decisions, as large as the largest a decision
 * needed, for the process's life: regions decide one after another, and a
 * decision on pages already touched saves their faults. A fresh 1024 x 16
 * critpath workspace (300 KiB) took about 60 faults, which more than
 * doubled the decision in the runtime (230-270 us, 90-110 with the kept
 * one). A decision that finds it in use (primaries of two teams deciding
 * at once) allocates its own. */
static void *kept;
static size_t kept_bytes;
static int kept_busy;

static void *workspace_take(size_t bytes, int *own)
{
    *own = 1;
    if (!bytes)
        return NULL;
    if (__atomic_exchange_n(&kept_busy, 1, __ATOMIC_ACQUIRE))
        return malloc(bytes);
    if (kept_bytes < bytes) {
        free(kept);
        kept = malloc(bytes);
        kept_bytes = kept ? bytes : 0;
    }
    if (!kept) {
        __atomic_store_n(&kept_busy, 0, __ATOMIC_RELEASE);
        return NULL;
    }
    *own = 0;
    return kept;
}

static void workspace_give_back(void *work, int own);

void rt_policy_prepare(pl_policy_t policy, int team, int nnodes)
{
    if (nnodes < 2)
        return;
    size_t bytes = pl_workspace_bytes(policy, team, nnodes);
    int own;
    if (!bytes || __atomic_load_n(&kept_bytes, __ATOMIC_RELAXED) >= bytes)
        return;
    void *work = workspace_take(bytes, &own);
    if (work && !own)
        memset(work, 0, bytes);
    workspace_give_back(work, own);
}

static void workspace_give_back(void *work, int own)
{
    if (own)
        free(work);
    else
        __atomic_store_n(&kept_busy, 0, __ATOMIC_RELEASE);
}

int rt_policy_run(pl_policy_t policy, const pl_topo_t *topo, const uint64_t *refs, int team, int *nodes,
                  int *cores, double *us)
{
    pl_tnt_t tnt = {.nthreads = team, .nnodes = topo->nnodes, .refs = refs};
    pl_mapping_t map = {.nthreads = team, .node = nodes, .core = cores};
    size_t bytes = pl_workspace_bytes(policy, team, topo->nnodes);
    int own;
    void *work = workspace_take(bytes, &own);
    if (bytes && !work) {
        errno = ENOMEM;
        return -1;
    }
    uint64_t t0 = rt_now_ns();
    int rc = pl_decide(policy, topo, &tnt, rt_policy_model(), &map, work, bytes);
    *us = (double)(rt_now_ns() - t0) / 1e3;
    workspace_give_back(work, own);
    if (rc != 0) {
        errno = -rc;
        return -1;
    }
    return 0;
}
