// A chained user tool keeps its own parallel_data: a record it stores at
// parallel begin is what it gets back in every member's implicit task and at
// parallel end, on the drop-in exactly as on the stock runtime (ompnuma's own
// word lives elsewhere), also for nested teams, and at every barrier: also
// with the migration monitor alone (imar2, no report), where ompnuma does not
// register sync_region itself and the tool's goes to the runtime through a
// wrapper.
// REQUIRES: clang
// RUN: %clang-omp -shared -fPIC %S/Inputs/data-tool.c -o %t.tool.so
// RUN: %clang-omp %s -o %t
// RUN: env OMP_TOOL_LIBRARIES=%t.tool.so %stock %t 2> %t.stock
// RUN: env OMP_TOOL_LIBRARIES=%t.tool.so OMP_PLACEMENT_REPORT=%t.json %dropin %t 2> %t.dropin
// RUN: FileCheck %s < %t.stock
// RUN: env OMP_TOOL_LIBRARIES=%t.tool.so OMP_PLACEMENT=imar2 %dropin %t 2> %t.monitor
// RUN: FileCheck %s < %t.dropin
// RUN: FileCheck %s < %t.monitor
// CHECK: data-tool: parallel_data kept 30, clobbered 0, member tasks saw it 40, barriers 20
#include <omp.h>
#include <stdio.h>

int main(void)
{
    long s = 0;
    omp_set_max_active_levels(2);
    for (int i = 0; i < 10; i++) {
#pragma omp parallel num_threads(2) reduction(+ : s)
        {
#pragma omp parallel num_threads(1)
            s += omp_get_thread_num();
        }
    }
    printf("s=%ld\n", s);
    return 0;
}
