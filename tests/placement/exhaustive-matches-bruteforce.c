// exhaustive-matches-bruteforce.c: the branch-and-bound exhaustive policy finds the same optimum as plain enumeration of every capacity-respecting mapping.
// Covers identical threads, identical nodes, uneven capacities and non-uniform distance matrices (where symmetry pruning must not apply).
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include <math.h>
#include "pl_test.h"

static double brute_best;
static int brute_count;

static void brute(const pl_topo_t *topo, const pl_tnt_t *tnt, const pl_model_t *m, int *node,
                  int *used, int t)
{
    if (t == tnt->nthreads) {
        int core[16];
        pl_mapping_t map = { tnt->nthreads, node, core };
        double crit;
        pl_predict(topo, tnt, m, &map, NULL, &crit);
        if (crit < brute_best)
            brute_best = crit;
        brute_count++;
        return;
    }
    for (int d = 0; d < topo->nnodes; d++) {
        if (used[d] >= topo->capacity[d])
            continue;
        used[d]++;
        node[t] = d;
        brute(topo, tnt, m, node, used, t + 1);
        used[d]--;
    }
}

int main(void)
{
    uint64_t s = 12345;
    pl_model_t m;
    pl_model_default(&m);
    int agree = 0, cases = 0, mappings = 0;
    for (int c = 0; c < 120; c++) {
        int nd = 2 + (int)(test_rng(&s) % 3);           /* 2..4 nodes */
        int cap[4], cores = 0;
        for (int d = 0; d < nd; d++) {
            cap[d] = 1 + (int)(test_rng(&s) % 3);      /* 1..3 cores */
            cores += cap[d];
        }
        int n = 1 + (int)(test_rng(&s) % (uint64_t)(cores < 8 ? cores : 8));
        uint64_t refs[8 * 4];
        int kind = c % 4;
        for (int t = 0; t < n; t++)
            for (int d = 0; d < nd; d++) {
                uint64_t v = test_rng(&s) % 1000;
                if (kind == 1 && t > 0)               /* identical threads */
                    v = refs[d];
                if (kind == 2)                        /* identical nodes, uneven threads */
                    v = 100 * (uint64_t)(t + 1);
                refs[t * nd + d] = v;
            }
        double dist[16];
        for (int i = 0; i < nd; i++)
            for (int j = 0; j < nd; j++)
                dist[i * nd + j] = i == j ? 10 : 12 + (double)((i + j) % 3) * 5;
        if (kind == 2)                                /* keep all nodes alike */
            for (int d = 0; d < nd; d++)
                cap[d] = cap[0];
        cores = 0;
        for (int d = 0; d < nd; d++)
            cores += cap[d];
        if (n > cores)
            n = cores;
        pl_topo_t topo = { nd, cap, kind == 3 ? dist : NULL, kind == 3 ? 0 : 1.6 };
        pl_tnt_t tnt = { n, nd, refs };
        int node[8], core[8], used[4] = { 0 };
        pl_mapping_t map = { n, node, core };
        if (test_decide(PL_POLICY_EXHAUSTIVE, &topo, &tnt, &m, &map, NULL))
            continue;
        double crit;
        pl_predict(&topo, &tnt, &m, &map, NULL, &crit);
        brute_best = INFINITY;
        brute_count = 0;
        int bn[8];
        brute(&topo, &tnt, &m, bn, used, 0);
        mappings += brute_count;
        cases++;
        if (fabs(crit - brute_best) <= 1e-9 * brute_best && test_respects_capacity(&topo, &map))
            agree++;
        else
            printf("case %d: exhaustive %.6f brute force %.6f\n", c, crit, brute_best);
    }
    printf("agree %d of %d cases (%s)\n", agree, cases, mappings > 10000 ? "over 10000 mappings" : "few mappings");
    // CHECK-NOT: case
    // CHECK: agree 120 of 120 cases (over 10000 mappings)
    return 0;
}
