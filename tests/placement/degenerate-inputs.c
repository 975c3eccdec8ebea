// degenerate-inputs.c: every policy handles zero TNTs, one thread, one node, identical threads, full capacity, memory-only nodes, and rejects impossible inputs with the documented errno.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include <math.h>
#include <string.h>
#include "pl_test.h"

static pl_model_t model;

/* Runs every policy; prints one line per policy with rc, capacity check and mapping. */
static void all(const char *what, const pl_topo_t *topo, const pl_tnt_t *tnt)
{
    printf("%s\n", what);
    for (int p = 0; p < PL_POLICY_COUNT; p++) {
        int node[64], core[64];
        memset(node, -1, sizeof node);
        pl_mapping_t map = { tnt->nthreads, node, core };
        int rc = test_decide((pl_policy_t)p, topo, tnt, &model, &map, NULL);
        printf("  %-15s rc %d", pl_policy_name((pl_policy_t)p), rc);
        if (!rc) {
            double crit;
            pl_predict(topo, tnt, &model, &map, NULL, &crit);
            printf(" ok %d crit %.1f map", test_respects_capacity(topo, &map), crit);
            for (int t = 0; t < tnt->nthreads && t < 16; t++)
                printf(" %d", node[t]);
        }
        printf("\n");
    }
}

int main(void)
{
    pl_model_default(&model);
    int cap4[4] = { 4, 4, 4, 4 };
    pl_topo_t t44 = { 4, cap4, NULL, 1.5 };

    uint64_t zero[8 * 4] = { 0 };
    pl_tnt_t tz = { 8, 4, zero };
    all("zero TNT", &t44, &tz);
    // A region without references costs nothing wherever it runs.
    // CHECK-LABEL: zero TNT
    // CHECK-COUNT-6: rc 0 ok 1 crit 0.0

    uint64_t one[4] = { 10, 500, 20, 30 };
    pl_tnt_t t1 = { 1, 4, one };
    all("one thread", &t44, &t1);
    // Locality-aware policies put the thread beside its data (node 1):
    // w = 500 + 1.5 * 60 = 590, doubled by node congestion (it issues all
    // references), plus 0.5 * 60 * 60 / 560 of remote traffic = 1183.2.
    // CHECK-LABEL: one thread
    // CHECK: compact{{ +}}rc 0 ok 1 crit {{[0-9.]+}} map 0
    // CHECK: exhaustive{{ +}}rc 0 ok 1 crit 1183.2 map 1
    // CHECK: maxlocal{{ +}}rc 0 ok 1 crit 1183.2 map 1
    // CHECK: critpath{{ +}}rc 0 ok 1 crit 1183.2 map 1
    // CHECK: critpath+refine{{ +}}rc 0 ok 1 crit 1183.2 map 1

    int cap1[1] = { 4 };
    pl_topo_t t1n = { 1, cap1, NULL, 0 };
    uint64_t col[4] = { 5, 6, 7, 8 };
    pl_tnt_t tc = { 4, 1, col };
    all("one node", &t1n, &tc);
    // The slowest thread, 8 local references, doubled by node congestion.
    // CHECK-LABEL: one node
    // CHECK-COUNT-6: rc 0 ok 1 crit 16.0 map 0 0 0 0

    uint64_t same[8 * 4];
    for (int i = 0; i < 32; i++)
        same[i] = 1000;
    pl_tnt_t ts = { 8, 4, same };
    all("identical threads", &t44, &ts);
    // Identical threads and nodes: two per node is the only balanced answer.
    // CHECK-LABEL: identical threads
    // CHECK: exhaustive{{ +}}rc 0 ok 1 crit [[BAL:[0-9.]+]]
    // CHECK: critpath{{ +}}rc 0 ok 1 crit [[BAL]] map 0 1 2 3 0 1 2 3
    // CHECK: critpath+refine{{ +}}rc 0 ok 1 crit [[BAL]]

    uint64_t full[16 * 4];
    uint64_t s = 7;
    for (int i = 0; i < 64; i++)
        full[i] = test_rng(&s) % 100000;
    pl_tnt_t tf = { 16, 4, full };
    all("full capacity", &t44, &tf);
    // CHECK-LABEL: full capacity
    // CHECK-COUNT-6: rc 0 ok 1

    int capm[3] = { 2, 0, 2 };
    pl_topo_t tm = { 3, capm, NULL, 2.0 };
    uint64_t mem[4 * 3] = { 1, 900, 1, 1, 900, 1, 2, 900, 2, 3, 800, 9 };
    pl_tnt_t tmm = { 4, 3, mem };
    all("memory-only node", &tm, &tmm);
    // Node 1 holds the data but has no cores: nobody runs there.
    // CHECK-LABEL: memory-only node
    // CHECK-COUNT-6: rc 0 ok 1

    printf("errors\n");
    // CHECK-LABEL: errors
    uint64_t big[17 * 4] = { 0 };
    pl_tnt_t t17 = { 17, 4, big };
    int node[17], core[17];
    pl_mapping_t m17 = { 17, node, core };
    for (int p = 0; p < PL_POLICY_COUNT; p++)
        printf("more threads than cores: %s %s\n", pl_policy_name((pl_policy_t)p),
               test_decide((pl_policy_t)p, &t44, &t17, &model, &m17, NULL) == -ENOSPC ? "ENOSPC" : "wrong");
    // CHECK-COUNT-6: more threads than cores: {{.*}} ENOSPC
    pl_topo_t t0 = { 0, cap4, NULL, 1.5 };
    printf("Nd = 0: %s\n", pl_check(&t0, &tz) == -EINVAL ? "EINVAL" : "wrong");
    // CHECK: Nd = 0: EINVAL
    pl_tnt_t tbad = { 8, 3, zero };
    printf("mismatched sizes: %s\n", pl_check(&t44, &tbad) == -EINVAL ? "EINVAL" : "wrong");
    // CHECK: mismatched sizes: EINVAL
    pl_tnt_t tnull = { 8, 4, NULL };
    printf("NULL refs: %s\n", pl_check(&t44, &tnull) == -EINVAL ? "EINVAL" : "wrong");
    // CHECK: NULL refs: EINVAL
    int capneg[4] = { 4, -1, 4, 4 };
    pl_topo_t tneg = { 4, capneg, NULL, 1.5 };
    printf("negative capacity: %s\n", pl_check(&tneg, &tz) == -EINVAL ? "EINVAL" : "wrong");
    // CHECK: negative capacity: EINVAL
    pl_topo_t tnf = { 4, cap4, NULL, 0 };
    printf("no distances, no factor: %s\n", pl_check(&tnf, &tz) == -EINVAL ? "EINVAL" : "wrong");
    // CHECK: no distances, no factor: EINVAL
    /* The greedy policies order their scores as integers: a factor must be finite. */
    pl_topo_t tinf = { 4, cap4, NULL, INFINITY };
    double huge[16];
    for (int i = 0; i < 16; i++)
        huge[i] = i % 5 ? 1e308 : 1e-300; /* finite, but the derived factor is not */
    pl_topo_t thuge = { 4, cap4, huge, 0 };
    printf("infinite factor: %s %s\n", pl_check(&tinf, &tz) == -EINVAL ? "EINVAL" : "wrong",
           pl_check(&thuge, &tz) == -EINVAL ? "EINVAL" : "wrong");
    // CHECK: infinite factor: EINVAL EINVAL
    int n8[8], c8[8];
    pl_mapping_t m8 = { 8, n8, c8 }, m7 = { 7, n8, c8 };
    char small[8];
    printf("small workspace: %s\n",
           pl_decide(PL_POLICY_CRITPATH, &t44, &tz, &model, &m8, small, sizeof small) == -ENOBUFS ? "ENOBUFS" : "wrong");
    // CHECK: small workspace: ENOBUFS
    printf("mapping size: %s\n", test_decide(PL_POLICY_CRITPATH, &t44, &tz, &model, &m7, NULL) == -EINVAL ? "EINVAL" : "wrong");
    // CHECK: mapping size: EINVAL
    pl_policy_t pol;
    printf("policy names: %s %s\n", pl_policy_from_name("critpath+refine", &pol) == 0 && pol == PL_POLICY_CRITPATH_REFINE ? "ok" : "wrong",
           pl_policy_from_name("fastest", &pol) == -EINVAL ? "EINVAL" : "wrong");
    // CHECK: policy names: ok EINVAL
    uint64_t e64[65 * 1] = { 0 };
    int cap65[1] = { 65 };
    pl_topo_t t65 = { 1, cap65, NULL, 0 };
    pl_tnt_t tt65 = { 65, 1, e64 };
    int n65[65], c65[65];
    pl_mapping_t m65 = { 65, n65, c65 };
    printf("exhaustive too large: %s\n", test_decide(PL_POLICY_EXHAUSTIVE, &t65, &tt65, &model, &m65, NULL) == -E2BIG ? "E2BIG" : "wrong");
    // CHECK: exhaustive too large: E2BIG
    return 0;
}
