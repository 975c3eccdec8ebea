/* data_test.h: helpers of the data-placement tests: sample tables written in the test, a plan with a workspace of exactly the advertised size, one line per action. */
#ifndef DATA_TEST_H
#define DATA_TEST_H
#include <stdio.h>
#include <stdlib.h>
#include "data/pl_data.h"

#define PG 4096ull
#define MIB (1024ull * 1024ull)

/* n samples of thread t at addresses lo, lo + step, ..., on node `node`. */
static inline int add_block(pl_data_sample_t *s, int at, int n, uint64_t lo, uint64_t step, int t, int node)
{
    for (int i = 0; i < n; i++)
        s[at + i] = (pl_data_sample_t){.addr = lo + (uint64_t)i * step, .thread = t, .node = node};
    return at + n;
}

/* splitmix64 */
static inline uint64_t data_rng(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Default parameters: 4 KiB pages, MaMI's migration line (120 + 11 us per page). */
static inline pl_data_params_t data_params(double cp_ms, double executions)
{
    return (pl_data_params_t){.page_bytes = PG, .mig_fixed_us = 120, .mig_page_us = 11, .cp_ns = cp_ms * 1e6,
                              .executions = executions};
}

/* Plan and print: rc, the totals, then one line per action (addresses relative to base, in KiB). */
static inline int show_plan(const char *what, const pl_topo_t *topo, pl_data_sample_t *s, int ns, int nt,
                            const int *thread_node, const pl_data_range_t *ranges, int nranges,
                            const pl_data_params_t *p, uint64_t base)
{
    pl_model_t model;
    pl_model_default(&model);
    size_t wb = pl_data_workspace_bytes(ns, nt, topo->nnodes);
    void *w = malloc(wb ? wb : 1);
    pl_data_action_t act[16];
    pl_data_plan_t plan;
    int rc = pl_data_plan(topo, &model, s, ns, nt, thread_node, ranges, nranges, p, act, 16, &plan, w, wb);
    free(w);
    printf("%s: rc %d samples %llu remote %llu candidates %d actions %d gain %.3f worst %.3f saved %.1f ms "
           "cost %.1f ms pages %.0f enough %d\n", what, rc, (unsigned long long)plan.samples,
           (unsigned long long)plan.remote, plan.candidates, plan.nactions, plan.gain, plan.worst,
           plan.worst_saved_us / 1e3, plan.cost_us / 1e3, plan.pages, plan.enough);
    for (int i = 0; rc == 0 && i < plan.nactions; i++)
        printf("%s:   %s [%llu, %llu) KiB node %d nodes %#llx shared %d samples %llu remote %llu pages %.0f\n",
               what, pl_data_kind_name(act[i].kind), (unsigned long long)((act[i].lo - base) / 1024),
               (unsigned long long)((act[i].hi - base) / 1024), act[i].node, (unsigned long long)act[i].nodes,
               act[i].shared, (unsigned long long)act[i].samples, (unsigned long long)act[i].remote, act[i].pages);
    return rc;
}
#endif
