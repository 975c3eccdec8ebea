// critpath-beats-os-defaults.c: property test on random TNTs of six access-pattern families: every policy respects capacity, critpath is never worse than both compact and scatter, critpath+refine never worse than either.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include "pl_test.h"

/* Families: block-local, shifted, all-shared, heavy thread, hot node, random. */
static void gen(int fam, int n, int nd, uint64_t *s, uint64_t *refs)
{
    int heavy = (int)(test_rng(s) % (uint64_t)n);
    for (int t = 0; t < n; t++) {
        int home = t * nd / n;
        uint64_t work = 800000 + test_rng(s) % 400000;
        if (fam == 3 && t == heavy)
            work *= 3;
        for (int d = 0; d < nd; d++) {
            uint64_t noise = 95 + test_rng(s) % 11; /* percent */
            uint64_t share;                         /* per mille */
            switch (fam) {
            case 0: case 3: share = d == home ? 850 : 150 / (uint64_t)nd; break;
            case 1: share = d == (home + 1) % nd ? 850 : 150 / (uint64_t)nd; break;
            case 2: share = 1000 / (uint64_t)nd; break;
            case 4: share = (d == 0 ? 600 : 0) + (d == home ? 300 : 0) + 100 / (uint64_t)nd; break;
            default: share = test_rng(s) % 1000; break;
            }
            refs[t * nd + d] = work * share / 1000 * noise / 100;
        }
    }
}

int main(void)
{
    static const int shapes[3][2] = { { 2, 8 }, { 4, 4 }, { 8, 8 } };
    pl_model_t m;
    pl_model_default(&m);
    uint64_t s = 2024;
    int cases = 0, capacity_bad = 0, cp_worse_both = 0, ref_worse_either = 0;
    static uint64_t refs[64 * 8];
    for (int sh = 0; sh < 3; sh++) {
        int nd = shapes[sh][0], cap[8];
        for (int d = 0; d < nd; d++)
            cap[d] = shapes[sh][1];
        pl_topo_t topo = { nd, cap, NULL, 1.5 };
        for (int fam = 0; fam < 6; fam++)
            for (int k = 0; k < 12; k++) {
                int n = k % 2 ? nd * shapes[sh][1] : nd * shapes[sh][1] / 2 + k % 3;
                gen(fam, n, nd, &s, refs);
                pl_tnt_t tnt = { n, nd, refs };
                double crit[PL_POLICY_COUNT];
                for (int p = 0; p < PL_POLICY_COUNT; p++) {
                    if (p == PL_POLICY_EXHAUSTIVE)
                        continue;
                    int node[64], core[64];
                    pl_mapping_t map = { n, node, core };
                    if (test_decide((pl_policy_t)p, &topo, &tnt, &m, &map, NULL) || !test_respects_capacity(&topo, &map))
                        capacity_bad++;
                    pl_predict(&topo, &tnt, &m, &map, NULL, &crit[p]);
                }
                double c = crit[PL_POLICY_COMPACT], sc = crit[PL_POLICY_SCATTER];
                double tol = 1 + 1e-9;
                cp_worse_both += crit[PL_POLICY_CRITPATH] > c * tol && crit[PL_POLICY_CRITPATH] > sc * tol;
                ref_worse_either += crit[PL_POLICY_CRITPATH_REFINE] > c * tol || crit[PL_POLICY_CRITPATH_REFINE] > sc * tol;
                cases++;
            }
    }
    printf("cases %d: capacity violations %d, critpath worse than both %d, refine worse than either %d\n",
           cases, capacity_bad, cp_worse_both, ref_worse_either);
    // CHECK: cases 216: capacity violations 0, critpath worse than both 0, refine worse than either 0
    return 0;
}
