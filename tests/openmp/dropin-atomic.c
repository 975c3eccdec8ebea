// atomic update, capture, read, write and compare-free min/max loops give the same
// results on the stock runtimes and on the drop-in.
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
// CHECK: update=20000 double=10000.0 captured_distinct=20000 written=7 read=7 max=19999
// LOADED: OMPNUMA DISPLAY ENVIRONMENT BEGIN
#include <omp.h>
#include <stdio.h>

static unsigned char hit[20000];

int main(void)
{
    long up = 0, ctr = 0;
    double d = 0;
    int w = 0, r = 0, mx = 0;
#pragma omp parallel
    {
        for (int i = 0; i < 10000; i++) {
#pragma omp atomic update
            up++;
#pragma omp atomic
            d += 0.5;
            long mine;
#pragma omp atomic capture
            mine = ctr++;
            hit[mine] = 1; /* every captured value is distinct */
            int cur;
            do {
#pragma omp atomic read
                cur = mx;
                if (cur >= (int)mine)
                    break;
            } while (!__sync_bool_compare_and_swap(&mx, cur, (int)mine));
        }
#pragma omp atomic write
        w = 7;
#pragma omp barrier
#pragma omp atomic read
        r = w;
    }
    int distinct = 0;
    for (int i = 0; i < 20000; i++)
        distinct += hit[i];
    printf("update=%ld double=%.1f captured_distinct=%d written=%d read=%d max=%d\n", up, d, distinct, w, r, mx);
    return 0;
}
