// npb-randlc-check-values: the NPB generator gives the published first values, vranlc and jump-ahead agree with stepping one at a time.
// REQUIRES: clang
// RUN: %clang-omp -I%srcroot/benchmarks/npb %s %srcroot/benchmarks/npb/npb_common.c -I%srcroot/runtime/os -lm -o %t
// RUN: %t | FileCheck %s

#include "npb_common.h"

#include <stdio.h>
#include <stdlib.h>

/* Shortest decimal that reads back as v: the form the facts file quotes. */
static const char *shortest(double v)
{
    static char buf[40];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    return buf;
}

int main(void)
{
    /* First three values from each seed (npb-facts.md 1.1). */
    // CHECK: 55909509111989 0.7945219111887383
    // CHECK-NEXT: 61155031930969 0.8690652738745399
    // CHECK-NEXT: 45573031421645 0.6476317284643329
    // CHECK-NEXT: 32883653486115 0.46730482219622616
    // CHECK-NEXT: 0.7825026306504554
    // CHECK-NEXT: 0.5557317432659801
    double x = 314159265.0;
    for (int i = 0; i < 3; i++) {
        double v = randlc(&x, NPB_RNG_A);
        printf("%.0f %s\n", x, shortest(v));
    }
    x = 271828183.0;
    double v = randlc(&x, NPB_RNG_A);
    printf("%.0f %s\n", x, shortest(v));
    printf("%s\n", shortest(randlc(&x, NPB_RNG_A)));
    printf("%s\n", shortest(randlc(&x, NPB_RNG_A)));

    /* vranlc = n single steps, for lengths around its 4-way interleaving
     * (0 to 4 leftovers, short vectors below its threshold). */
    // CHECK-NEXT: vranlc mismatches: 0
    int bad = 0;
    for (int n = 0; n <= 21; n++) {
        double y[32];
        double s1 = 314159265.0, s2 = 314159265.0;
        vranlc(n, &s1, NPB_RNG_A, y);
        for (int i = 0; i < n; i++)
            bad += randlc(&s2, NPB_RNG_A) != y[i];
        bad += s1 != s2;
    }
    printf("vranlc mismatches: %d\n", bad);

    /* Jump-ahead = stepping, including the multiplier of a whole EP batch
     * (2^17 steps) applied twice. */
    // CHECK-NEXT: pow46(a, 0) = 1
    // CHECK-NEXT: skip mismatches: 0
    printf("pow46(a, 0) = %.0f\n", npb_pow46(NPB_RNG_A, 0));
    bad = 0;
    double s = 271828183.0;
    for (uint64_t k = 1; k <= 2 << 17 << 1; k++) {
        randlc(&s, NPB_RNG_A);
        if ((k & (k - 1)) == 0 || k % 99991 == 0 || k == 2 << 17 << 1)
            bad += npb_skip46(271828183.0, NPB_RNG_A, k) != s;
    }
    double batch = npb_pow46(NPB_RNG_A, 2 << 17);
    bad += npb_skip46(271828183.0, batch, 2) != s;
    printf("skip mismatches: %d\n", bad);
    return 0;
}
