// home-sign-test.c: a thread is at home when its remote references are too few to be half of them by chance (1 %).
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include "pl_test.h"

/* P(X <= r) for X ~ B(n, 1/2), by Pascal's triangle, as the reference. */
static double tail(int n, int r)
{
    static double row[512];
    row[0] = 1.0;
    for (int i = 1; i <= n; i++) {
        row[i] = 0.0;
        for (int k = i; k > 0; k--)
            row[k] = (row[k] + row[k - 1]) / 2;
        row[0] /= 2;
    }
    double s = 0;
    for (int k = 0; k <= r; k++)
        s += row[k];
    return s;
}

int main(void)
{
    // The thresholds: fewest references that make a home, by remote count.
    for (int remote = 0; remote <= 3; remote++) {
        int n = remote + 1;
        while (!pl_home((uint64_t)(n - remote), (uint64_t)remote))
            n++;
        printf("remote %d: home from %d references\n", remote, n);
    }
    // CHECK: remote 0: home from 7 references
    // CHECK: remote 1: home from 11 references
    // CHECK: remote 2: home from 14 references
    // CHECK: remote 3: home from 17 references
    printf("[0,3] %d [13,3] %d [3,0] %d [0,0] %d [8,0] %d\n", pl_home(0, 3), pl_home(13, 3), pl_home(3, 0),
           pl_home(0, 0), pl_home(8, 0));
    // CHECK: [0,3] 0 [13,3] 0 [3,0] 0 [0,0] 0 [8,0] 1
    // Exact against Pascal's triangle wherever it is computed exactly.
    int wrong = 0, checked = 0;
    for (int n = 1; n <= 400; n += 3)
        for (int r = 0; r < n; r++) {
            checked++;
            wrong += pl_home((uint64_t)(n - r), (uint64_t)r) != (tail(n, r) < PL_HOME_ALPHA);
        }
    printf("exact: %d of %d disagree\n", wrong, checked);
    // CHECK: exact: 0 of {{[0-9]+}} disagree
    // Both sides of the normal approximation agree near the switch, and a large table is not slow.
    printf("1990/2000: %d %d; 2010/2020: %d %d\n", pl_home(1990 - 942, 942), pl_home(1990 - 943, 943),
           pl_home(2010 - 952, 952), pl_home(2010 - 953, 953));
    // CHECK: 1990/2000: 1 0; 2010/2020: 1 0
    printf("large: %d %d\n", pl_home(UINT64_C(1) << 40, UINT64_C(1) << 39), pl_home(3, UINT64_C(1) << 40));
    // CHECK: large: 1 0
    return 0;
}
