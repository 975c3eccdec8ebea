// single (with nowait and copyprivate) and masked/master run once per encounter
// on the stock runtimes and on the drop-in.
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
// CHECK: single=10 nowait=10 master=10 copyprivate=42,42
// LOADED: OMPNUMA DISPLAY ENVIRONMENT BEGIN
#include <omp.h>
#include <stdio.h>

int main(void)
{
    int single = 0, nowait = 0, master = 0, cp[2] = {0, 0};
#pragma omp parallel
    {
        for (int i = 0; i < 10; i++) {
#pragma omp single
            single++;
#pragma omp single nowait
            {
#pragma omp atomic
                nowait++;
            }
#pragma omp master
            master++;
#pragma omp barrier
        }
        int v = 0;
#pragma omp single copyprivate(v)
        v = 42;
        cp[omp_get_thread_num() & 1] = v;
    }
    printf("single=%d nowait=%d master=%d copyprivate=%d,%d\n", single, nowait, master, cp[0], cp[1]);
    return 0;
}
