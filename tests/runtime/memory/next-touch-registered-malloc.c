// Memory from malloc, registered and armed for next touch: only the pages
// entirely inside the registered area are protected (all of them). Its first and last
// pages, which it shares with malloc's neighbours (the allocator's records,
// the pager's own), stay accessible, and nothing faults outside the area.
// Before, arming protected those pages too, and the pager's own record,
// allocated beside the buffer, faulted as it was written (SIGSEGV in the
// arming call). 20 rounds, each allocating beside armed memory; data intact.
// RUN: %clang-omp %s -I%S/Inputs %memlib -o %t && %t | FileCheck %s
// CHECK: rounds 20, protected pages inside the area in every round, data intact
#include "memtest.h"
#include <unistd.h>

/* Bytes of [lo, hi) that /proc/self/maps shows with no access (---p). */
static size_t protected_bytes(uintptr_t lo, uintptr_t hi, uintptr_t *outside)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[512];
    size_t in = 0;
    *outside = 0;
    while (f && fgets(line, sizeof line, f)) {
        unsigned long a, b;
        char perm[5];
        if (sscanf(line, "%lx-%lx %4s", &a, &b, perm) != 3 || strcmp(perm, "---p") != 0)
            continue;
        uintptr_t x = a > lo ? a : lo, y = b < hi ? b : hi;
        if (x < y)
            in += y - x;
        else if (b > lo - (8u << 12) && a < hi + (8u << 12))
            *outside = 1; /* a protected page next to the area */
    }
    if (f)
        fclose(f);
    return in;
}

int main(void)
{
    uintptr_t ps = (uintptr_t)sysconf(_SC_PAGESIZE);
    size_t size = 3 * ps;
    int good = 1;
    for (int round = 0; round < 20; round++) {
        unsigned char *m = malloc(size + 17);
        mt_fill(m, size + 17, (unsigned)round);
        uintptr_t base = (uintptr_t)m + 1;
        if (omp_numa_register(m + 1, size) != 0 || omp_numa_migrate_on_next_touch(m + 1, size) != 0) {
            printf("round %d: FAIL %s\n", round, strerror(errno));
            return 1;
        }
        /* The pages the area owns whole. */
        uintptr_t lo = (base + ps - 1) & ~(ps - 1), hi = (base + size) & ~(ps - 1), outside;
        size_t in = protected_bytes(base & ~(ps - 1), (base + size + ps - 1) & ~(ps - 1), &outside);
        if (in != hi - lo || outside || protected_bytes(base & ~(ps - 1), lo, &outside) ||
            protected_bytes(hi, (base + size + ps - 1) & ~(ps - 1), &outside)) {
            printf("round %d: FAIL a shared page is protected\n", round);
            good = 0;
        }
        void *beside = malloc(100); /* the allocator writes next to the area */
        free(beside);
        omp_numa_unregister(m + 1);
        unsigned char *want = malloc(size + 17);
        mt_fill(want, size + 17, (unsigned)round);
        if (memcmp(m, want, size + 17) != 0) {
            printf("round %d: FAIL data changed\n", round);
            good = 0;
        }
        free(want);
        free(m);
    }
    printf("rounds 20, %s\n", good ? "protected pages inside the area in every round, data intact" : "FAILED");
    return !good;
}
