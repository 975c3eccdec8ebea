/* pl_test.h: shared data and helpers of the placement unit tests (the paper's Table 1, a seeded generator). */
#ifndef PL_TEST_H
#define PL_TEST_H
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "pl.h"

/* Table 1 of the paper (NPB MG, 8 threads, 4 nodes), rows = threads. */
static const uint64_t paper_table1[8 * 4] = {
    1770108, 1765296, 1766348, 1765584,
    1631249, 1530389, 1529758, 1532284,
    1554151, 1554991, 1552323, 1552409,
    331659,  330097,  330903,  329727,
    984706,  985755,  987233,  987138,
    985833,  986215,  985754,  988217,
    988661,  986670,  989070,  988749,
    984706,  985755,  987233,  987138,
};

/* splitmix64: reproducible random TNTs. */
static inline uint64_t test_rng(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Decide with a malloc'ed workspace of exactly the advertised size. */
static inline int test_decide(pl_policy_t p, const pl_topo_t *topo, const pl_tnt_t *tnt,
                              const pl_model_t *m, pl_mapping_t *map, pl_trace_t *tr)
{
    size_t wb = pl_workspace_bytes(p, tnt->nthreads, tnt->nnodes);
    void *w = malloc(wb ? wb : 1);
    int rc = pl_decide_traced(p, topo, tnt, m, map, w, wb, tr);
    free(w);
    return rc;
}

/* 1 when no node holds more threads than its capacity and cores are distinct
 * and dense within each node. */
static inline int test_respects_capacity(const pl_topo_t *topo, const pl_mapping_t *map)
{
    int used[PL_MAX_NODES] = { 0 };
    for (int t = 0; t < map->nthreads; t++) {
        int d = map->node[t];
        if (d < 0 || d >= topo->nnodes || map->core[t] < 0 || map->core[t] >= topo->capacity[d])
            return 0;
        for (int u = 0; u < t; u++)
            if (map->node[u] == d && map->core[u] == map->core[t])
                return 0;
        used[d]++;
    }
    for (int d = 0; d < topo->nnodes; d++)
        if (used[d] > topo->capacity[d])
            return 0;
    return 1;
}
#endif
