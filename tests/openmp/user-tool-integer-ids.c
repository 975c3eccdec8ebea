// A chained tool that stores integer ids in parallel_data (for the initial
// task too) neither crashes ompnuma nor loses its ids: in the loop's work
// event inside a region it sees the id it gave that region, as on stock.
// REQUIRES: clang
// RUN: %clang-omp -shared -fPIC %S/Inputs/id-tool.c -o %t.tool.so
// RUN: %clang-omp %s -o %t
// RUN: env OMP_TOOL_LIBRARIES=%t.tool.so %stock %t > %t.stock
// RUN: env OMP_TOOL_LIBRARIES=%t.tool.so OMP_PLACEMENT=critpath %dropin %t > %t.dropin
// RUN: diff %t.stock %t.dropin
// RUN: FileCheck %s < %t.dropin
// CHECK-COUNT-3: id-tool: parallel_end sees the same id as the loop inside
// CHECK: s=
#include <omp.h>
#include <stdio.h>

int main(void)
{
    long s = 0;
    for (int k = 0; k < 3; k++) {
#pragma omp parallel for reduction(+ : s)
        for (int i = 0; i < 10; i++)
            s += i;
    }
    printf("s=%ld\n", s);
    return 0;
}
