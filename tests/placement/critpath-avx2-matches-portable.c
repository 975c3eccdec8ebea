// critpath-avx2-matches-portable.c: the AVX2 set-up of the greedy policies (column minima, row-major threading) gives the same critpath and maxlocal mappings and traces as the portable one, on tables that reach its corners.
// REQUIRES: avx2
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include <string.h>
#include "pl_internal.h"
#include "pl_test.h"

/* Families: wide random, block-local, all-shared (narrow range, large
 * offset), ties everywhere, all equal, values with the top bit set (the
 * unsigned order through signed compares; rows that overflow 64 bits), one
 * column constant and the others random. */
static uint64_t value(int fam, uint64_t *s, int t, int d, int n, int nd)
{
    uint64_t r = test_rng(s);
    int home = (int)((long)t * nd / n);
    switch (fam) {
    case 0: return r % 10000000;
    case 1: return d == home ? 850000 + r % 90000 : 9000 + r % 900;
    case 2: return 1000000 + r % 100001;
    case 3: return r % 3;
    case 4: return 777;
    case 5: return r % 2 ? UINT64_MAX - r % 1000 : (r >> 1) + (r % 5);
    default: return d == 1 ? 123456 : r % 4096;
    }
}

/* One greedy run with the set-up chosen by simd; node[] and the trace. */
static int run(int critpath, int simd, const pl_topo_t *topo, const pl_tnt_t *tnt, int *node,
               pl_trace_t *tr, void *work, size_t bytes)
{
    pl_arena_t a = { work, bytes, 0 };
    memset(node, 0xff, sizeof(int) * tnt->nthreads);
    return critpath ? pl_i_critpath(topo, tnt, node, &a, tr, simd)
                    : pl_i_maxlocal(topo, tnt, node, &a, tr, simd);
}

static int same_trace(const pl_trace_t *x, const pl_trace_t *y)
{
    if (x->nsteps != y->nsteps || x->ncands != y->ncands || x->truncated || y->truncated)
        return 0;
    for (int i = 0; i < x->nsteps; i++)
        if (memcmp(&x->steps[i], &y->steps[i], sizeof(pl_step_t)))
            return 0;
    for (int i = 0; i < x->ncands; i++)
        if (memcmp(&x->cands[i], &y->cands[i], sizeof(pl_candidate_t)))
            return 0;
    return 1;
}

int main(void)
{
    /* nd a multiple of 4 takes the AVX2 path: one to four vectors of a
     * block of 16 columns, several blocks (20, 36); the others (7, 18) fall
     * back to the portable set-up even when asked for AVX2. */
    static const struct { int n, nd; } shapes[] = {
        { 1024, 16 }, { 1023, 16 }, { 64, 4 }, { 96, 8 }, { 120, 12 }, { 200, 20 },
        { 300, 36 }, { 7, 4 }, { 100, 7 }, { 90, 18 },
    };
    printf("avx2 path: %d\n", pl_i_greedy_simd());
    // CHECK: avx2 path: 1
    int cases = 0, differ = 0;
    uint64_t seed = 20261124;
    for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++) {
        int n = shapes[sh].n, nd = shapes[sh].nd;
        int *cap = malloc(sizeof(int) * nd);
        uint64_t *refs = malloc(sizeof(uint64_t) * (size_t)n * nd);
        int *node0 = malloc(sizeof(int) * n), *node1 = malloc(sizeof(int) * n);
        pl_step_t *st0 = malloc(sizeof(pl_step_t) * n), *st1 = malloc(sizeof(pl_step_t) * n);
        pl_candidate_t *c0 = malloc(sizeof(pl_candidate_t) * (size_t)n * nd);
        pl_candidate_t *c1 = malloc(sizeof(pl_candidate_t) * (size_t)n * nd);
        size_t bytes = pl_i_greedy_bytes(n, nd);
        void *work = malloc(bytes);
        for (int fam = 0; fam < 7; fam++)
            for (int rep = 0; rep < 4; rep++) {
                /* An even split, a spare core or two, and on odd repetitions a
                 * node without cores whose column is never read. */
                for (int d = 0; d < nd; d++)
                    cap[d] = (n + nd - 1) / nd;
                cap[test_rng(&seed) % (uint64_t)nd] += 2;
                if (rep % 2 && nd > 2) {
                    int z = (int)(test_rng(&seed) % (uint64_t)nd);
                    cap[(z + 1) % nd] += cap[z];
                    cap[z] = 0;
                }
                for (int t = 0; t < n; t++)
                    for (int d = 0; d < nd; d++)
                        refs[(size_t)t * nd + d] = value(fam, &seed, t, d, n, nd);
                pl_topo_t topo = { nd, cap, NULL, rep < 2 ? 2.0 : 1.5 };
                pl_tnt_t tnt = { n, nd, refs };
                for (int cp = 0; cp < 2; cp++) {
                    pl_trace_t t0 = { st0, n, 0, c0, n * nd, 0, 0 };
                    pl_trace_t t1 = { st1, n, 0, c1, n * nd, 0, 0 };
                    int rc0 = run(cp, 0, &topo, &tnt, node0, &t0, work, bytes);
                    int rc1 = run(cp, 1, &topo, &tnt, node1, &t1, work, bytes);
                    cases++;
                    if (rc0 || rc1 || memcmp(node0, node1, sizeof(int) * n) || !same_trace(&t0, &t1)) {
                        if (differ++ < 5)
                            printf("DIFFER %s shape %dx%d family %d rep %d rc %d/%d\n",
                                   cp ? "critpath" : "maxlocal", n, nd, fam, rep, rc0, rc1);
                    }
                }
            }
        free(cap); free(refs); free(node0); free(node1); free(st0); free(st1);
        free(c0); free(c1); free(work);
    }
    printf("cases %d differ %d\n", cases, differ);
    // CHECK-NOT: DIFFER
    // CHECK: cases 560 differ 0
    return differ != 0;
}
