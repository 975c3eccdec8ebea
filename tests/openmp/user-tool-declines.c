// A chained tool whose initialize declines leaves the program's OMPT entry
// points as on stock: omp_control_tool() returns -2 (no tool), the tool is
// never finalized. A tool that registers the control callback gets the
// program's omp_control_tool() calls, and one that registers nothing makes
// it return -1, on the drop-in as on stock.
// REQUIRES: clang
// RUN: %clang-omp -shared -fPIC %S/Inputs/declining-tool.c -o %t.declining.so
// RUN: %clang-omp -shared -fPIC %S/Inputs/control-tool.c -o %t.control.so
// RUN: %clang-omp -shared -fPIC %S/Inputs/user-tool.c -o %t.plain.so
// RUN: %clang-omp %s -o %t
// RUN: for tool in declining control plain; do \
// RUN:   env OMP_TOOL_LIBRARIES=%t.$tool.so %stock %t > %t.stock.$tool 2>/dev/null && \
// RUN:   env OMP_TOOL_LIBRARIES=%t.$tool.so OMP_PLACEMENT=critpath %dropin %t > %t.dropin.$tool 2>/dev/null && \
// RUN:   diff %t.stock.$tool %t.dropin.$tool || exit 1; done
// RUN: FileCheck %s --check-prefix=DECLINE < %t.dropin.declining
// RUN: FileCheck %s --check-prefix=CONTROL < %t.dropin.control
// RUN: FileCheck %s --check-prefix=PLAIN < %t.dropin.plain
// DECLINE: declining-tool: initialize declines
// DECLINE-NEXT: control_tool=-2
// DECLINE-NOT: finalize
// CONTROL: control-tool: command 1 modifier 7
// CONTROL-NEXT: control_tool=101
// PLAIN: control_tool=-1
#include <omp.h>
#include <stdio.h>

int main(void)
{
    int n = 0;
#pragma omp parallel
#pragma omp atomic
    n++;
    printf("control_tool=%d\n", omp_control_tool(omp_control_tool_start, 7, NULL));
    return n > 0 ? 0 : 1;
}
