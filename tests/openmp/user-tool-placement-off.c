// With OMP_PLACEMENT=off (and no report asked for) ompnuma stays out of the
// way, but a user's tool in OMP_TOOL_LIBRARIES still starts and sees every
// event; nothing from ompnuma is printed.
// REQUIRES: clang
// RUN: %clang-omp -shared -fPIC %S/Inputs/user-tool.c -o %t.tool.so
// RUN: %clang-omp %s -o %t
// RUN: %dropin env OMP_TOOL_LIBRARIES=%t.tool.so OMP_PLACEMENT=off %t > %t.out 2> %t.err
// RUN: FileCheck %s --input-file %t.out --check-prefix=OUT
// RUN: FileCheck %s --input-file %t.err --implicit-check-not=tool: --implicit-check-not=ompnuma
//
// OUT: regions run 2
// CHECK: tool: initialize thread_begin=always parallel_begin=always
// CHECK-NEXT: tool: thread_begin initial
// CHECK-DAG: tool: parallel_begin requested=2 team
// CHECK-DAG: tool: parallel_begin requested=2 team
// CHECK-DAG: tool: thread_begin worker
// CHECK: tool: finalize
#include <omp.h>
#include <stdio.h>

int main(void)
{
    int n = 0;
    for (int i = 0; i < 2; i++) {
#pragma omp parallel
#pragma omp master
        n++;
    }
    printf("regions run %d\n", n);
    return 0;
}
