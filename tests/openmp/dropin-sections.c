// sections: every section runs exactly once, with lastprivate from the last one,
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
// CHECK: ran=1,1,1,1,1 last=5 reduction=15
// LOADED: OMPNUMA DISPLAY ENVIRONMENT BEGIN
#include <omp.h>
#include <stdio.h>

int main(void)
{
    int ran[5] = {0}, last = 0, red = 0;
#pragma omp parallel
#pragma omp sections lastprivate(last) reduction(+ : red)
    {
#pragma omp section
        { ran[0]++; last = 1; red += 1; }
#pragma omp section
        { ran[1]++; last = 2; red += 2; }
#pragma omp section
        { ran[2]++; last = 3; red += 3; }
#pragma omp section
        { ran[3]++; last = 4; red += 4; }
#pragma omp section
        { ran[4]++; last = 5; red += 5; }
    }
    printf("ran=%d,%d,%d,%d,%d last=%d reduction=%d\n", ran[0], ran[1], ran[2], ran[3], ran[4], last, red);
    return 0;
}
