// A chained tool whose initialize declines gets, from the inquiry functions it looked up before declining, what
// stock libomp answers once no tool is active: no thread data, no processor, no parallel or task information,
// callbacks neither set nor returned, and a callback it registered before declining (task_create) is never called.
// On the OMPT route ompnuma's own tool keeps the runtime's OMPT on, and those functions used to answer as
// for an active tool (a thread data word, the CPU, the region's parallel data). On the drop-in, where the
// runtime starts the tool itself (regions taken at the ABI), the runtime answers. Called inside a parallel
// region and in serial code; the output equals stock's on both routes.
// REQUIRES: clang
// RUN: %clang-omp -shared -fPIC %S/Inputs/declining-inquiry-tool.c -o %t.tool.so
// RUN: %clang-omp %s -ldl -o %t
// RUN: env OMP_TOOL_LIBRARIES=%t.tool.so %stock %t %t.tool.so > %t.stock 2>/dev/null
// RUN: env OMP_TOOL_LIBRARIES=%t.tool.so OMP_PLACEMENT=critpath %dropin %t %t.tool.so > %t.dropin 2>/dev/null
// RUN: diff %t.stock %t.dropin
// RUN: FileCheck %s < %t.dropin
// RUN: %stock env OMP_TOOL_LIBRARIES=%libdir/libompnuma.so:%t.tool.so OMP_PLACEMENT=critpath %t %t.tool.so > %t.ompt 2>/dev/null
// RUN: diff %t.stock %t.ompt
// CHECK: declining-inquiry-tool: initialize declines
// CHECK-NEXT: inside a region:
// CHECK-NEXT: thread_data null
// CHECK-NEXT: proc_id -1
// CHECK: parallel_info 0
// CHECK-NEXT: task_info 0
// CHECK: in serial code:
// CHECK-NEXT: thread_data null
// CHECK: a task ran
// CHECK-NOT: task_create
#include <dlfcn.h>
#include <omp.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    /* The tool library stays loaded after declining; the runtime opened it, RTLD_LOCAL. */
#pragma omp parallel num_threads(1)
    ;
    void *tool = argc > 1 ? dlopen(argv[1], RTLD_LAZY | RTLD_NOLOAD) : NULL;
    void (*probe)(void) = tool ? (void (*)(void))dlsym(tool, "declined_tool_probe") : NULL;
    if (!probe) {
        printf("no probe\n");
        return 1;
    }
#pragma omp parallel num_threads(2)
    if (omp_get_thread_num() == 0) {
        printf("inside a region:\n");
        probe();
    }
    printf("in serial code:\n");
    probe();
#pragma omp parallel num_threads(2)
#pragma omp single
#pragma omp task
    printf("a task ran\n");
    return 0;
}
