// Unnamed and named critical sections exclude each other the same way on the
// stock runtimes and on the drop-in.
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
// CHECK: unnamed=20000 alpha=20000 beta=10000 max_inside=1
// LOADED: OMPNUMA DISPLAY ENVIRONMENT BEGIN
#include <omp.h>
#include <stdio.h>

int main(void)
{
    long u = 0, a = 0, b = 0;
    int inside = 0, max_inside = 0;
#pragma omp parallel
    for (int i = 0; i < 10000; i++) {
#pragma omp critical
        {
            inside++;
            if (inside > max_inside)
                max_inside = inside;
            u += 1;
            inside--;
        }
#pragma omp critical(alpha)
        a += 1;
#pragma omp critical(beta)
        b += omp_get_thread_num() == 0;
    }
    printf("unnamed=%ld alpha=%ld beta=%ld max_inside=%d\n", u, a, b, max_inside);
    return 0;
}
