// migrate-own-pages.c: rt_migrate_own_pages' contract: a node outside 0..RT_MIGRATE_NODES-1 is -1 with EINVAL and moves nothing; a node this process may use answers the pages left (>= 0) and leaves the thread's effective capabilities as they were (CAP_SYS_NICE is set aside only for the call).
// RUN: %clang-omp %s %rt-internals -o %t && %t | FileCheck %s
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rt_migrate.h"

/* The calling thread's effective capabilities, from /proc/thread-self/status. */
static unsigned long long cap_eff(void)
{
    FILE *f = fopen("/proc/thread-self/status", "r");
    char line[256];
    unsigned long long eff = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "CapEff: %llx", &eff) == 1)
            break;
    if (f)
        fclose(f);
    return eff;
}

int main(void)
{
    errno = 0;
    long below = rt_migrate_own_pages(-1);
    printf("node -1: %ld %s\n", below, strerror(errno));
    // CHECK: node -1: -1 Invalid argument
    errno = 0;
    long above = rt_migrate_own_pages(RT_MIGRATE_NODES);
    printf("node %d: %ld %s\n", RT_MIGRATE_NODES, above, strerror(errno));
    // CHECK-NEXT: node 1024: -1 Invalid argument
    /* Node 0 exists everywhere: its own pages' node on one node (nothing
     * to move), a move from the others on several. */
    unsigned long long before = cap_eff();
    char *buf = malloc(1 << 20);
    memset(buf, 1, 1 << 20);
    long left = rt_migrate_own_pages(0);
    printf("node 0: pages left >= 0: %d, capabilities unchanged: %d\n", left >= 0, cap_eff() == before);
    // CHECK-NEXT: node 0: pages left >= 0: 1, capabilities unchanged: 1
    free(buf);
    return 0;
}
