// Simple and nestable locks (set, test, unset) serialise updates the same way on
// the stock runtimes and on the drop-in.
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
// CHECK: lock=2000 test_lock_acquired=1
// CHECK-NEXT: nest_lock=4000 depth_seen=2
// LOADED: OMPNUMA DISPLAY ENVIRONMENT BEGIN
#include <omp.h>
#include <stdio.h>

int main(void)
{
    omp_lock_t l;
    omp_nest_lock_t n;
    omp_init_lock(&l);
    omp_init_nest_lock(&n);
    long a = 0, b = 0;
    int got = 0, depth = 0;
#pragma omp parallel
    {
        for (int i = 0; i < 1000; i++) {
            omp_set_lock(&l);
            a++;
            omp_unset_lock(&l);
            omp_set_nest_lock(&n);
            b++;
            int d = omp_test_nest_lock(&n); /* already owned: nesting count 2 */
            b++;
            if (d > depth)
                depth = d;
            omp_unset_nest_lock(&n);
            omp_unset_nest_lock(&n);
        }
#pragma omp barrier
#pragma omp single
        {
            got = omp_test_lock(&l); /* nobody holds it now */
            if (got)
                omp_unset_lock(&l);
        }
    }
    omp_destroy_lock(&l);
    omp_destroy_nest_lock(&n);
    printf("lock=%ld test_lock_acquired=%d\n", a, got);
    printf("nest_lock=%ld depth_seen=%d\n", b, depth);
    return 0;
}
