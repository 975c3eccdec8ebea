// A chained tool sees only its own data, as on stock: thread_data is clean
// at its thread_begin, ompt_get_parallel_info and ompt_get_task_info return
// the parallel_data it wrote (not ompnuma's record), ompt_get_callback
// returns its own functions (not ompnuma's wrappers) and nothing for events
// it did not register, and ompt_set_callback answers as the runtime does.
// REQUIRES: clang
// RUN: %clang-omp -shared -fPIC %S/Inputs/probe-tool.c -o %t.tool.so
// RUN: %clang-omp %s -o %t
// RUN: env OMP_TOOL_LIBRARIES=%t.tool.so %stock %t > %t.stock
// RUN: env OMP_TOOL_LIBRARIES=%t.tool.so OMP_PLACEMENT=critpath %dropin %t > %t.dropin
// RUN: diff %t.stock %t.dropin
// RUN: FileCheck %s < %t.dropin
// CHECK: probe-tool: set results 5 5 5 5 5
// CHECK: probe-tool: get_callback own 1 1 1 1, unregistered 0 0
// CHECK: s=135
// CHECK: probe-tool: thread_data clean 2 dirty 0
// CHECK: probe-tool: parallel_info own 6 other 0
// CHECK: probe-tool: task_info own 6 other 0
#include <omp.h>
#include <stdio.h>

int main(void)
{
    long s = 0;
    for (int k = 0; k < 3; k++) {
#pragma omp parallel for reduction(+ : s) num_threads(2)
        for (int i = 0; i < 10; i++)
            s += i;
    }
    printf("s=%ld\n", s);
    return 0;
}
