// Parallel loops with reductions give the same results on the stock runtimes
// and on ompnuma's drop-in (clang: libomp.so.5 facade, gcc: libgomp.so.1 facade).
// REQUIRES: clang, gcc
// RUN: %clang-omp %s -o %t.clang
// RUN: %stock %t.clang > %t.clang.stock
// RUN: %dropin env OMP_PLACEMENT_DISPLAY_ENV=true %t.clang > %t.clang.dropin 2> %t.clang.err
// RUN: diff %t.clang.stock %t.clang.dropin
// RUN: FileCheck %s < %t.clang.dropin
// RUN: FileCheck %s --check-prefix=LOADED < %t.clang.err
// RUN: %gcc-omp %s -o %t.gcc
// RUN: %stock %t.gcc > %t.gcc.stock
// RUN: %dropin env OMP_PLACEMENT_DISPLAY_ENV=true %t.gcc > %t.gcc.dropin 2> %t.gcc.err
// RUN: diff %t.gcc.stock %t.gcc.dropin
// RUN: FileCheck %s < %t.gcc.dropin
// RUN: FileCheck %s --check-prefix=LOADED < %t.gcc.err
//
// CHECK: sum=499500 max=999 min=0 and=1 or=1 xor=0
// CHECK-NEXT: static=328350 dynamic=328350 guided=328350
// CHECK-NEXT: collapse=4950 fsum=500500.0
// CHECK-NEXT: threads=2
// LOADED: OMPNUMA DISPLAY ENVIRONMENT BEGIN
// LOADED: OMPNUMA DISPLAY ENVIRONMENT END
#include <omp.h>
#include <stdio.h>

int main(void)
{
    long sum = 0;
    int mx = -1, mn = 1 << 30, land = 1, lor = 0, lxor = 0;
#pragma omp parallel for reduction(+ : sum) reduction(max : mx) reduction(min : mn) \
    reduction(&& : land) reduction(|| : lor) reduction(^ : lxor)
    for (int i = 0; i < 1000; i++) {
        sum += i;
        mx = i > mx ? i : mx;
        mn = i < mn ? i : mn;
        land = land && i >= 0;
        lor = lor || i == 500;
        lxor ^= i & 1; /* 500 odd numbers: even parity */
    }
    printf("sum=%ld max=%d min=%d and=%d or=%d xor=%d\n", sum, mx, mn, land, lor, lxor);

    long s1 = 0, s2 = 0, s3 = 0;
#pragma omp parallel
    {
#pragma omp for schedule(static) reduction(+ : s1)
        for (int i = 0; i < 100; i++)
            s1 += (long)i * i;
#pragma omp for schedule(dynamic, 3) reduction(+ : s2)
        for (int i = 0; i < 100; i++)
            s2 += (long)i * i;
#pragma omp for schedule(guided) reduction(+ : s3)
        for (int i = 0; i < 100; i++)
            s3 += (long)i * i;
    }
    printf("static=%ld dynamic=%ld guided=%ld\n", s1, s2, s3);

    long c = 0;
    double f = 0;
#pragma omp parallel for collapse(2) reduction(+ : c)
    for (int i = 0; i < 100; i++)
        for (int j = 0; j < 100; j++)
            c += (i < j);
#pragma omp parallel for reduction(+ : f)
    for (int i = 1; i <= 1000; i++)
        f += i; /* exact in double whatever the order */
    printf("collapse=%ld fsum=%.1f\n", c, f);

    int threads = 0;
#pragma omp parallel
#pragma omp single
    threads = omp_get_num_threads();
    printf("threads=%d\n", threads);
    return 0;
}
