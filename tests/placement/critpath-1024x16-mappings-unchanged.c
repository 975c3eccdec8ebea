// critpath-1024x16-mappings-unchanged.c: critpath's mappings of seeded 1024-thread tables on 16 and 15 nodes hash to what the implementation before issue 17's speed-ups (commit 9079252) decided; critpath-matches-reference checks every step against a plain Algorithm 3.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
// CHECK-COUNT-10: same as before
// CHECK: all 10 mappings as before
#include <string.h>
#include "pl_test.h"

/* Families: uniform random counts, block-local (the thread's own node
 * heavy), all-shared (a narrow band: large buckets, radix-sorted), ties
 * everywhere, large values (several radix passes). */
static uint64_t value(int fam, uint64_t *s, int t, int d, int n, int nd)
{
    uint64_t r = test_rng(s);
    switch (fam) {
    case 0: return r % 10000000;
    case 1: return d == (int)((long)t * nd / n) ? 765000 + r % 170000 : 8460 + r % 1880;
    case 2: return 1000000 + r % 100000;
    case 3: return r % 4;
    default: return (r >> 9) % ((uint64_t)1 << 50);
    }
}

/* FNV-1a over the node of every thread. */
static uint64_t hash(const int *node, int n)
{
    uint64_t h = 1469598103934665603ULL;
    for (int t = 0; t < n; t++) {
        h ^= (uint64_t)node[t];
        h *= 1099511628211ULL;
    }
    return h;
}

int main(void)
{
    /* Recorded from the build of commit 9079252 (this test's generator and
     * shapes): families 0 to 4 on 16 nodes, then on 15 (odd: a column
     * threaded alone) with one node of no cores. */
    static const uint64_t before[10] = {
        0xf8bddd074c72deafULL, 0x1bde09b924220983ULL, 0x008affda2e629c45ULL,
        0x757036a1d533c46fULL, 0xeab962e72485ce95ULL, 0x81a392f766f24a54ULL,
        0x7a65f9230a774d39ULL, 0xc1b2780b46058662ULL, 0x668085d282d22b76ULL,
        0x1822166b662564a2ULL,
    };
    int n = 1024, same = 0;
    uint64_t *refs = malloc(sizeof(uint64_t) * (size_t)n * 16);
    int *node = malloc(sizeof(int) * n), *core = malloc(sizeof(int) * n), cap[16];
    for (int i = 0; i < 10; i++) {
        int nd = i < 5 ? 16 : 15, fam = i % 5;
        uint64_t seed = 1700 + (uint64_t)i;
        for (int d = 0; d < nd; d++)
            cap[d] = i < 5 ? 64 : 74;
        if (i >= 5)
            cap[3] = 0;
        for (int t = 0; t < n; t++)
            for (int d = 0; d < nd; d++)
                refs[(size_t)t * nd + d] = value(fam, &seed, t, d, n, nd);
        pl_topo_t topo = { nd, cap, NULL, 2.0 };
        pl_tnt_t tnt = { n, nd, refs };
        pl_mapping_t map = { n, node, core };
        int rc = test_decide(PL_POLICY_CRITPATH, &topo, &tnt, NULL, &map, NULL);
        uint64_t h = hash(node, n);
        if (rc == 0 && h == before[i]) {
            printf("table %d (family %d, %d nodes): same as before\n", i, fam, nd);
            same++;
        } else {
            printf("table %d (family %d, %d nodes): rc %d, hash %016llx, before %016llx\n", i, fam, nd, rc,
                   (unsigned long long)h, (unsigned long long)before[i]);
        }
    }
    printf("all %d mappings as before\n", same);
    free(refs); free(node); free(core);
    return same == 10 ? 0 : 1;
}
