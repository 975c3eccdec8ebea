// Freeing memory while pages are still armed for next touch: the pager forgets them, heap pages come back accessible for the next allocation, and nothing faults later.
// RUN: %clang-omp %s -I%S/Inputs %memlib -o %t && %t | FileCheck %s
#include "memtest.h"
#include <unistd.h>

int main(void)
{
    size_t ps = (size_t)sysconf(_SC_PAGESIZE);
    for (int i = 0; i < 300; i++) {   /* more armings than the dispatcher has slots */
        unsigned char *p = omp_numa_alloc(8 * ps, OMP_NUMA_BIND, 0);   /* from the heap */
        mt_fill(p, 8 * ps, (unsigned)i);
        if (omp_numa_migrate_on_next_touch(p, 8 * ps) != 0) {
            printf("arm %d: FAIL %s\n", i, strerror(errno));
            return 1;
        }
        p[3 * ps] = p[3 * ps];   /* resolve one page, leave the others armed */
        omp_numa_free(p);
    }
    printf("armed and freed: 300\n");
    /* The same heap pages again: accessible, no fault handler involved. */
    unsigned char *q = omp_numa_alloc(8 * ps, OMP_NUMA_BIND, 0);
    printf("reused pages: %s\n", mt_prot(q));
    mt_fill(q, 8 * ps, 7);
    printf("data: %s\n", mt_verify(q, 8 * ps, 7) ? "intact" : "CORRUPT");
    omp_numa_free(q);

    unsigned char *big = omp_numa_alloc(64 * ps, OMP_NUMA_FIRST_TOUCH, -1);
    mt_fill(big, 64 * ps, 4);
    omp_numa_migrate_on_next_touch(big, 64 * ps);
    omp_numa_free(big);
    printf("mapped area freed while armed: done\n");
    return 0;
}
// CHECK: armed and freed: 300
// CHECK-NEXT: reused pages: rw-p
// CHECK-NEXT: data: intact
// CHECK-NEXT: mapped area freed while armed: done
