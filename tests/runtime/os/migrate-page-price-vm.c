// migrate-page-price-vm.c: rt_migrate_page_ns, the price of one page move the MPI mapper weighs a remap's memory moves by before any was made: in a 2-node guest it measures a price between the two nodes; nodes outside 0..RT_MIGRATE_NODES-1, or the same node twice, are -1 with EINVAL; a node the guest does not have is -1 and moves nothing.
// REQUIRES: numa-vm
// ALLOW_RETRIES: 2
// RUN: %clang-omp %s %rt-internals -o %t
// RUN: %numa-vm-run(2x1) --file %t -- %t | FileCheck %s
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "rt_migrate.h"

int main(void)
{
    errno = 0;
    double below = rt_migrate_page_ns(-1, 0);
    printf("nodes -1, 0: %g %s\n", below, strerror(errno));
    // CHECK: nodes -1, 0: -1 Invalid argument
    errno = 0;
    double same = rt_migrate_page_ns(1, 1);
    printf("nodes 1, 1: %g %s\n", same, strerror(errno));
    // CHECK-NEXT: nodes 1, 1: -1 Invalid argument
    double there = rt_migrate_page_ns(0, 1), back = rt_migrate_page_ns(1, 0);
    printf("nodes 0, 1 and 1, 0 priced: %d %d\n", there > 0, back > 0);
    // CHECK-NEXT: nodes 0, 1 and 1, 0 priced: 1 1
    errno = 0;
    double absent = rt_migrate_page_ns(0, 5);
    printf("node 5: %g, errno set: %d\n", absent, errno != 0);
    // CHECK-NEXT: node 5: -1, errno set: 1
    return 0;
}
