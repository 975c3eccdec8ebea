// critpath-matches-reference.c: critpath's mappings and traces equal those of a plain Algorithm 3 (full sorts, linear scans) on many seeded random tables of several shapes, 1024x16 among them.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include <string.h>
#include "pl_test.h"

/*
 * The reference: Su et al. Algorithm 3 as the paper writes it, without any of
 * the library's speed-ups. Each node column is sorted in full by (V descending,
 * thread ascending); every step takes the largest unplaced element of each
 * node that still has a free core, and picks the lowest IF + CPImpact[node],
 * ties to the lower thread, then the lower node. IF is Eq. 4:
 * V + NUMA factor * (row total - V), the row total summed exactly (the tables
 * here keep every row below 2^64, where the library sums exactly too).
 */
static const uint64_t *g_refs;
static int g_nd, g_col;

static int by_value_desc(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    uint64_t vx = g_refs[(size_t)x * g_nd + g_col], vy = g_refs[(size_t)y * g_nd + g_col];
    if (vx != vy)
        return vx > vy ? -1 : 1;
    return (x > y) - (x < y);
}

/* Writes node[] and, per step, the chosen thread and node; returns 0 or -1
 * when the threads do not fit. */
static int reference(const pl_topo_t *topo, const pl_tnt_t *tnt, int *node, int *st, int *sd)
{
    int n = tnt->nthreads, nd = tnt->nnodes, rc = 0;
    int *order = malloc(sizeof(int) * (size_t)n * nd), *cur = calloc(nd, sizeof(int));
    int *used = calloc(nd, sizeof(int));
    char *placed = calloc(n, 1);
    double *load = calloc(nd, sizeof(double)), *rowsum = malloc(sizeof(double) * n);
    double factor = pl_numa_factor(topo);
    for (int t = 0; t < n; t++) {
        uint64_t s = 0;
        for (int d = 0; d < nd; d++)
            s += tnt->refs[(size_t)t * nd + d];
        rowsum[t] = (double)s;
    }
    g_refs = tnt->refs;
    g_nd = nd;
    for (int d = 0; d < nd; d++) {
        for (int t = 0; t < n; t++)
            order[(size_t)d * n + t] = t;
        g_col = d;
        qsort(order + (size_t)d * n, n, sizeof(int), by_value_desc);
    }
    for (int step = 0; step < n; step++) {
        int bt = -1, bd = -1;
        double best = 0;
        for (int d = 0; d < nd; d++) {
            if (used[d] >= topo->capacity[d])
                continue;
            while (cur[d] < n && placed[order[(size_t)d * n + cur[d]]])
                cur[d]++;
            int t = order[(size_t)d * n + cur[d]];
            double v = (double)tnt->refs[(size_t)t * nd + d];
            double score = v + factor * (rowsum[t] - v) + load[d];
            if (bt < 0 || score < best || (score == best && t < bt)) {
                best = score; bt = t; bd = d;
            }
        }
        if (bt < 0) { rc = -1; break; }
        double v = (double)tnt->refs[(size_t)bt * nd + bd];
        load[bd] += v + factor * (rowsum[bt] - v);
        placed[bt] = 1;
        used[bd]++;
        node[bt] = bd;
        st[step] = bt;
        sd[step] = bd;
    }
    free(order); free(cur); free(used); free(placed); free(load); free(rowsum);
    return rc;
}

/* Value families: wide random, narrow random (many ties), block-local,
 * all-shared, tiny values (ties everywhere), powers of two, large values. */
static uint64_t value(int fam, uint64_t *s, int t, int d, int n, int nd)
{
    uint64_t r = test_rng(s);
    int home = (int)((long)t * nd / n);
    switch (fam) {
    case 0: return r % 10000000;
    case 1: return 50000 + r % 200;
    case 2: return d == home ? 800000 + r % 100000 : r % 20000;
    case 3: return 60000 + r % 8000;
    case 4: return r % 3;
    case 5: return (uint64_t)1 << (r % 40);
    default: return (r >> 8) % ((uint64_t)1 << 55);
    }
}

int main(void)
{
    static const struct { int n, nd, spare; } shapes[] = {
        { 1024, 16, 0 }, { 1024, 16, 3 }, { 8, 4, 0 }, { 16, 4, 1 }, { 64, 8, 0 },
        { 100, 7, 2 }, { 300, 3, 0 }, { 257, 33, 1 }, { 200, 64, 0 }, { 1, 1, 0 },
        { 5, 2, 7 }, { 512, 2, 0 }, { 96, 12, 0 },
    };
    int nshapes = (int)(sizeof shapes / sizeof shapes[0]), cases = 0, mismatches = 0, steps_checked = 0;
    uint64_t seed = 20261123;
    for (int sh = 0; sh < nshapes; sh++) {
        int n = shapes[sh].n, nd = shapes[sh].nd;
        int *cap = malloc(sizeof(int) * nd);
        uint64_t *refs = malloc(sizeof(uint64_t) * (size_t)n * nd);
        int *node = malloc(sizeof(int) * n), *core = malloc(sizeof(int) * n);
        int *rnode = malloc(sizeof(int) * n), *st = malloc(sizeof(int) * n), *sd = malloc(sizeof(int) * n);
        pl_step_t *steps = malloc(sizeof(pl_step_t) * n);
        pl_candidate_t *cands = malloc(sizeof(pl_candidate_t) * (size_t)n * nd);
        int reps = n >= 512 ? 6 : 20;
        for (int fam = 0; fam < 7; fam++)
            for (int rep = 0; rep < reps; rep++) {
                /* Capacities: an even split plus spare cores spread at random,
                 * and now and then a node without cores. */
                int base = (n + nd - 1) / nd;
                for (int d = 0; d < nd; d++)
                    cap[d] = base;
                for (int k = 0; k < shapes[sh].spare; k++)
                    cap[test_rng(&seed) % (uint64_t)nd]++;
                if (nd > 2 && rep % 3 == 1) {
                    int z = (int)(test_rng(&seed) % (uint64_t)nd);
                    cap[(z + 1) % nd] += cap[z];
                    cap[z] = 0;
                }
                for (int t = 0; t < n; t++)
                    for (int d = 0; d < nd; d++)
                        refs[(size_t)t * nd + d] = value(fam, &seed, t, d, n, nd);
                double factor = rep % 2 ? 1.5 : 1.0 + (double)(test_rng(&seed) % 1000) / 250.0;
                pl_topo_t topo = { nd, cap, NULL, factor };
                pl_tnt_t tnt = { n, nd, refs };
                pl_model_t m;
                pl_model_default(&m);
                pl_mapping_t map = { n, node, core };
                pl_trace_t tr = { steps, n, 0, cands, n * nd, 0, 0 };
                /* Traced on odd repetitions: the trace must not change a decision. */
                int rc = test_decide(PL_POLICY_CRITPATH, &topo, &tnt, &m, &map, rep % 2 ? &tr : NULL);
                int rrc = reference(&topo, &tnt, rnode, st, sd);
                cases++;
                int bad = rc != 0 || rrc != 0 || memcmp(node, rnode, sizeof(int) * n) != 0;
                if (!bad && rep % 2) {
                    bad = tr.nsteps != n || tr.truncated;
                    for (int s = 0; !bad && s < n; s++, steps_checked++)
                        bad = steps[s].thread != st[s] || steps[s].node != sd[s];
                }
                if (bad && mismatches++ < 5)
                    printf("MISMATCH shape %dx%d family %d rep %d rc %d/%d\n", n, nd, fam, rep, rc, rrc);
            }
        free(cap); free(refs); free(node); free(core); free(rnode); free(st); free(sd);
        free(steps); free(cands);
    }
    printf("cases %d mismatches %d traced steps %d\n", cases, mismatches, steps_checked);
    // CHECK-NOT: MISMATCH
    // CHECK: cases 1526 mismatches 0 traced steps {{[1-9][0-9]*}}
    return mismatches != 0;
}
