// rt_kernel_list reads the lists the kernel writes (a node's cpulist, the online nodes, a cpuset's CPUs):
// ranges and single members, ascending, a trailing newline or none; it counts every member even past the
// room it was given, and refuses what is not such a list (a descending or overlapping range, a sign, a
// stray character) rather than guess. White box.
// RUN: %clang-omp %s %rt-internals -o %t && %t | FileCheck %s
#include <stdio.h>

#include "rt_util.h"

static void show(const char *text, long cap)
{
    int out[8] = {0};
    long n = rt_kernel_list(text, out, cap);
    printf("%ld:", n);
    for (long i = 0; i < n && i < cap; i++)
        printf(" %d", out[i]);
    printf("\n");
}

int main(void)
{
    show("0-3,8,10-11\n", 8);   // CHECK: 7: 0 1 2 3 8 10 11
    show("5", 8);               // CHECK-NEXT: 1: 5
    show("\n", 8);              // CHECK-NEXT: 0:
    show("0-1023\n", 4);        // CHECK-NEXT: 1024: 0 1 2 3
    show("3-1\n", 8);           // CHECK-NEXT: -1:
    show("0-3,2\n", 8);         // CHECK-NEXT: -1:
    show("-1\n", 8);            // CHECK-NEXT: -1:
    show("0,+1\n", 8);          // CHECK-NEXT: -1:
    show("0 1\n", 8);           // CHECK-NEXT: -1:
    show("0-x\n", 8);           // CHECK-NEXT: -1:
    return 0;
}
