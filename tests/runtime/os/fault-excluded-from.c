// rt_fault_excluded_from: the page sampler takes a mapping right above a guard page for a known thread's
// stack only when an excluded range begins exactly where the mapping does (the thread's stack, from its
// guard's end up). A range that merely reaches into it is the TCB margin of the thread whose block lies
// below (RT_FAULT_TCB_ABOVE spills over the guard page between the two blocks): taken for a stack, it let
// the rest of an unknown thread's stack be protected, and GROMACS's OpenBLAS thread died of a signal frame
// the kernel could not write (SIGSEGV, SI_KERNEL; tests/benchmarks/apps-gromacs-dropin.test, 1 run in 3).
// White box.
// RUN: %clang-omp %s %rt-internals -o %t && %t | FileCheck %s
#include <stdint.h>
#include <stdio.h>

#include "rt_fault.h"

int main(void)
{
    const uintptr_t page = 4096, lo = (uintptr_t)1 << 40; /* where the mapping above a guard page begins */
    uintptr_t next = 0;
    rt_fault_exclude(lo - 3 * page, lo + 2 * page); /* the lower block's TCB margin, over the guard */
    printf("margin: overlaps %d, begins here %d\n", rt_fault_excluded(lo, lo + page, &next),
           rt_fault_excluded_from(lo, &next));
    // CHECK: margin: overlaps 1, begins here 0
    rt_fault_exclude(lo, lo + 16 * page);           /* a known thread's stack */
    rt_fault_exclude(lo, lo + 8 * page);
    int from = rt_fault_excluded_from(lo, &next);
    printf("stack: begins here %d, ends %lu pages up\n", from, (unsigned long)((next - lo) / page));
    // CHECK: stack: begins here 1, ends 16 pages up
    return 0;
}
