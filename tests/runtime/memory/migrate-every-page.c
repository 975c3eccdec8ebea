// In a 4-node guest, migrate_to_node moves every page of a buffer to each node in turn, whatever its previous placement (first touch, interleave, never touched, transparent huge pages), checked page by page; data intact.
// REQUIRES: numa-vm
// ALLOW_RETRIES: 2
// RUN: %clang-omp %s -I%S/Inputs -I%S/../memory/Inputs %memlib -lnuma -o %t
// The guest enables transparent huge pages first (the harness boots with them off).
// RUN: %numa-vm-run(4x1) --file %t -- sh -c "echo always > /sys/kernel/mm/transparent_hugepage/enabled && %t" | FileCheck %s
#include "memtest.h"
#include "vmpages.h"
#include <sys/mman.h>

#define HUGE (2u << 20)

static void tour(const char *name, unsigned char *p, size_t bytes, size_t filled, unsigned seed)
{
    size_t n = bytes / (size_t)sysconf(_SC_PAGESIZE);
    int order[4] = { 2, 1, 3, 0 };
    for (int k = 0; k < 4; k++) {
        int rc = omp_numa_migrate_to_node(p, bytes, order[k]);
        printf("%s -> node %d: rc %d, %zu of %zu pages there, data %s\n", name, order[k], rc,
               vm_count_on(p, n, order[k]), n, mt_verify(p, filled, seed) ? "intact" : "CORRUPT");
    }
}

int main(void)
{
    size_t ps = (size_t)sysconf(_SC_PAGESIZE), bytes = 512 * ps;
    unsigned char *a = omp_numa_alloc(bytes, OMP_NUMA_FIRST_TOUCH, -1);
    mt_fill(a, bytes / 2, 1);   /* half never touched */
    tour("first touch, half untouched", a, bytes, bytes / 2, 1);
    omp_numa_free(a);

    unsigned char *b = omp_numa_alloc(bytes, OMP_NUMA_INTERLEAVE, -1);
    mt_fill(b, bytes, 2);
    tour("interleaved", b, bytes, bytes, 2);
    omp_numa_free(b);

    /* Two whole transparent huge pages, registered. */
    unsigned char *m = mmap(NULL, 3 * HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    unsigned char *h = (unsigned char *)(((uintptr_t)m + HUGE - 1) & ~(uintptr_t)(HUGE - 1));
    madvise(h, 2 * HUGE, MADV_HUGEPAGE);
    mt_fill(h, 2 * HUGE, 3);
    omp_numa_register(h, 2 * HUGE);
    printf("huge buffer backed by THP: %s\n", vm_thp_kb(h, 2 * HUGE) == 2 * HUGE / 1024 ? "yes" : "no");
    tour("huge pages", h, 2 * HUGE, 2 * HUGE, 3);
    omp_numa_unregister(h);
    return 0;
}
// CHECK: first touch, half untouched -> node 2: rc 0, 512 of 512 pages there, data intact
// CHECK-NEXT: first touch, half untouched -> node 1: rc 0, 512 of 512 pages there, data intact
// CHECK-NEXT: first touch, half untouched -> node 3: rc 0, 512 of 512 pages there, data intact
// CHECK-NEXT: first touch, half untouched -> node 0: rc 0, 512 of 512 pages there, data intact
// CHECK-NEXT: interleaved -> node 2: rc 0, 512 of 512 pages there, data intact
// CHECK-NEXT: interleaved -> node 1: rc 0, 512 of 512 pages there, data intact
// CHECK-NEXT: interleaved -> node 3: rc 0, 512 of 512 pages there, data intact
// CHECK-NEXT: interleaved -> node 0: rc 0, 512 of 512 pages there, data intact
// CHECK-NEXT: huge buffer backed by THP: yes
// CHECK-NEXT: huge pages -> node 2: rc 0, 1024 of 1024 pages there, data intact
// CHECK-NEXT: huge pages -> node 1: rc 0, 1024 of 1024 pages there, data intact
// CHECK-NEXT: huge pages -> node 3: rc 0, 1024 of 1024 pages there, data intact
// CHECK-NEXT: huge pages -> node 0: rc 0, 1024 of 1024 pages there, data intact
