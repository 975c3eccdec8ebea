// OMP_TOOL_LIBRARIES naming a library that depends on libomp but defines no
// ompt_start_tool, or naming libomp itself, starts no tool and the program
// runs as on stock (it recursed until SIGSEGV on the drop-in), with
// placement on or off.
// REQUIRES: clang
// RUN: %clang-omp -shared -fPIC %S/Inputs/uses-libomp.c -o %t.dep.so
// RUN: %clang-omp %s -o %t
// RUN: %stock env OMP_TOOL_LIBRARIES=%t.dep.so %t > %t.stock
// RUN: FileCheck %s < %t.stock
// RUN: for libs in %t.dep.so libomp.so.5 %t.dep.so:libomp.so.5:%t.dep.so; do \
// RUN:   for placement in critpath off; do \
// RUN:     env OMP_TOOL_LIBRARIES=$libs OMP_PLACEMENT=$placement %dropin %t > %t.dropin 2> %t.err || exit 1; \
// RUN:     diff %t.stock %t.dropin || exit 1; \
// RUN:     test ! -s %t.err || exit 1; \
// RUN:   done; done
// CHECK: n=1 control_tool=-2
#include <omp.h>
#include <stdio.h>

int main(void)
{
    int n = 0;
#pragma omp parallel
#pragma omp atomic
    n++;
    printf("n=%d control_tool=%d\n", n > 0, omp_control_tool(omp_control_tool_flush, 0, NULL));
    return 0;
}
