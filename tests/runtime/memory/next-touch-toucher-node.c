// In a 2x2 guest with threads pinned on CPUs 0 (node 0) and 2 (node 1), each armed page moves to the node of the thread that touches it next: small pages one by one, transparent huge pages as whole 2 MiB units that do not bounce; data intact.
// REQUIRES: numa-vm
// ALLOW_RETRIES: 2
// RUN: %clang-omp %s -I%S/Inputs -I%S/../memory/Inputs %memlib -lnuma -o %t
// The guest enables transparent huge pages first (the harness boots with them off).
// RUN: %numa-vm-run(2x2) --file %t --env OMP_NUM_THREADS=2 --env OMP_PLACES='{0},{2}' --env OMP_PROC_BIND=true -- sh -c "echo always > /sys/kernel/mm/transparent_hugepage/enabled && %t" | FileCheck %s
#include "memtest.h"
#include "vmpages.h"
#include <omp.h>
#include <sys/mman.h>

#define HUGE (2u << 20)

int main(void)
{
    size_t ps = (size_t)sysconf(_SC_PAGESIZE), n = 512, bytes = n * ps;
    /* Starts on node 0, armed at once: the main thread's fill is its next touch. */
    unsigned char *p = omp_numa_alloc(bytes, OMP_NUMA_NEXT_TOUCH, 0);
    mt_fill(p, bytes, 0);
    for (int round = 0; round < 2; round++) {
        omp_numa_migrate_on_next_touch(p, bytes);
#pragma omp parallel
        {
            /* Round 0: thread t touches the pages i with i % 2 == t; round 1 swaps. */
            int t = omp_get_thread_num();
            for (size_t i = (size_t)(t ^ round); i < n; i += 2)
                ((volatile unsigned char *)p)[i * ps + 5] += 0;   /* a real read and write */
#pragma omp barrier
#pragma omp single
            {
                int st[512], good = 1;
                vm_nodes(p, n, st);
                for (size_t i = 0; i < n; i++)
                    good &= st[i] == (int)((i % 2) ^ (size_t)round);
                printf("round %d: every page on its toucher's node: %s, data %s\n", round, good ? "yes" : "no",
                       mt_verify(p, bytes, 0) ? "intact" : "CORRUPT");
            }
        }
    }
    omp_numa_free(p);

    /* Two transparent huge pages on node 0; thread 1 touches the first, thread 0 the second. */
    unsigned char *m = mmap(NULL, 3 * HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    unsigned char *h = (unsigned char *)(((uintptr_t)m + HUGE - 1) & ~(uintptr_t)(HUGE - 1));
    size_t hn = 2 * HUGE / ps;
    madvise(h, 2 * HUGE, MADV_HUGEPAGE);
    mt_fill(h, 2 * HUGE, 4);
    omp_numa_register(h, 2 * HUGE);
    omp_numa_migrate_to_node(h, 2 * HUGE, 0);
    printf("huge buffer backed by THP: %s\n", vm_thp_kb(h, 2 * HUGE) == 2 * HUGE / 1024 ? "yes" : "no");
    omp_numa_migrate_on_next_touch(h, 2 * HUGE);
#pragma omp parallel
    {
        int t = omp_get_thread_num();
        unsigned char *mine = h + (size_t)(1 - t) * HUGE;
        /* Both threads touch every small page of their huge page. */
        for (size_t off = 0; off < HUGE; off += ps)
            ((volatile unsigned char *)mine)[off] += 0;
    }
    printf("huge: first unit on node 1: %zu of %zu, second on node 0: %zu of %zu, data %s\n",
           vm_count_on(h, hn / 2, 1), hn / 2, vm_count_on(h + HUGE, hn / 2, 0), hn / 2,
           mt_verify(h, 2 * HUGE, 4) ? "intact" : "CORRUPT");
    omp_numa_unregister(h);
    return 0;
}
// CHECK: round 0: every page on its toucher's node: yes, data intact
// CHECK-NEXT: round 1: every page on its toucher's node: yes, data intact
// CHECK-NEXT: huge buffer backed by THP: yes
// CHECK-NEXT: huge: first unit on node 1: 512 of 512, second on node 0: 512 of 512, data intact
