// Many threads touch the same armed pages at the same moment (more threads than cores): each page is resolved once, nobody crashes or waits forever, every byte survives.
// RUN: %clang-omp %s -I%S/Inputs %rt-internals -o %t && env OMP_NUM_THREADS=8 %t | FileCheck %s
#include "memtest.h"
#include "rt_mem.h"
#include <omp.h>
#include <unistd.h>

int main(void)
{
    size_t ps = (size_t)sysconf(_SC_PAGESIZE), pages = 256, n = pages * ps;
    unsigned char *p = rt_mem_alloc(n, OMP_NUMA_FIRST_TOUCH, -1);
    mt_fill(p, n, 2);
    int bad = 0;
    for (int round = 0; round < 20; round++) {
        rt_mem_migrate_on_next_touch(p, n);
#pragma omp parallel reduction(+ : bad)
        {
            /* Every thread walks all pages, starting at a different one, so
             * several threads fault on the same page at once. */
            int t = omp_get_thread_num();
            for (size_t k = 0; k < pages; k++) {
                size_t pg = (k + (size_t)t * 3) % pages;
                if (t % 2)
                    __atomic_fetch_add(&p[pg * ps + (size_t)t], 0, __ATOMIC_RELAXED);   /* a write access */
                else
                    bad += p[pg * ps + 17] != (unsigned char)(((pg * ps + 17) * 2654435761u) >> 13 ^ 2);
            }
        }
    }
    rt_mem_stats_t s;
    rt_mem_get_stats(&s);
    printf("threads: %d\n", omp_get_max_threads());
    printf("bad reads: %d\n", bad);
    printf("data: %s\n", mt_verify(p, n, 2) ? "intact" : "CORRUPT");
    printf("pager faults: %llu (one per page per round)\n", (unsigned long long)s.nt_faults);
    rt_mem_free(p);
    return 0;
}
// CHECK: threads: 8
// CHECK-NEXT: bad reads: 0
// CHECK-NEXT: data: intact
// CHECK-NEXT: pager faults: 5120 (one per page per round)
