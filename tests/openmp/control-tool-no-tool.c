// omp_control_tool() returns -2 (no tool) on the drop-in as on stock when
// the program has no OMPT tool of its own: ompnuma's tool is not the user's.
// REQUIRES: clang
// RUN: %clang-omp %s -o %t
// RUN: %stock %t > %t.stock
// RUN: env OMP_PLACEMENT=critpath %dropin %t > %t.dropin
// RUN: diff %t.stock %t.dropin
// RUN: FileCheck %s < %t.dropin
// CHECK: control_tool before=-2 after=-2
#include <omp.h>
#include <stdio.h>

int main(void)
{
    int before = omp_control_tool(omp_control_tool_flush, 0, NULL), n = 0;
#pragma omp parallel
#pragma omp atomic
    n++;
    printf("control_tool before=%d after=%d\n", before, omp_control_tool(omp_control_tool_flush, 0, NULL));
    return n > 0 ? 0 : 1;
}
