// Small bound allocations come from the per-node heap: one 4 MiB chunk serves hundreds of them, runs never overlap, freed runs are reused, and data stays intact.
// RUN: %clang-omp %s -I%S/Inputs %rt-internals -o %t && %t | FileCheck %s
#include "memtest.h"
#include "rt_mem.h"

#define N 200

int main(void)
{
    unsigned char *p[N];
    size_t sz[N];
    for (int i = 0; i < N; i++) {
        sz[i] = 1 + (size_t)(i * 997) % 12000;   /* 1 byte .. 3 pages */
        p[i] = rt_mem_alloc(sz[i], OMP_NUMA_BIND, 0);
        if (!p[i]) {
            printf("alloc %d: FAIL %s\n", i, strerror(errno));
            return 1;
        }
        mt_fill(p[i], sz[i], (unsigned)i);
    }
    rt_mem_stats_t st;
    rt_mem_get_stats(&st);
    printf("heap chunks: %zu\n", st.heap_bytes / RT_MEM_HEAP_CHUNK);
    printf("live allocations: %zu\n", st.live_allocs);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += !mt_verify(p[i], sz[i], (unsigned)i);
    printf("corrupt after all allocations: %d\n", bad);

    /* Free every other one and allocate again: the heap does not grow. */
    for (int i = 0; i < N; i += 2)
        rt_mem_free(p[i]);
    for (int i = 0; i < N; i += 2) {
        p[i] = rt_mem_alloc(sz[i], OMP_NUMA_BIND, 0);
        mt_fill(p[i], sz[i], (unsigned)i);
    }
    rt_mem_get_stats(&st);
    printf("heap chunks after reuse: %zu\n", st.heap_bytes / RT_MEM_HEAP_CHUNK);
    bad = 0;
    for (int i = 0; i < N; i++)
        bad += !mt_verify(p[i], sz[i], (unsigned)i);
    printf("corrupt after reuse: %d\n", bad);
    for (int i = 0; i < N; i++)
        rt_mem_free(p[i]);
    rt_mem_get_stats(&st);
    printf("live allocations at end: %zu\n", st.live_allocs);

    /* Larger than RT_MEM_HEAP_MAX: mapped directly, the heap stays as it is. */
    void *big = rt_mem_alloc(RT_MEM_HEAP_MAX + 1, OMP_NUMA_BIND, 0);
    rt_mem_get_stats(&st);
    printf("heap chunks after a large allocation: %zu\n", st.heap_bytes / RT_MEM_HEAP_CHUNK);
    rt_mem_free(big);
    return 0;
}
// CHECK: heap chunks: 1
// CHECK-NEXT: live allocations: 200
// CHECK-NEXT: corrupt after all allocations: 0
// CHECK-NEXT: heap chunks after reuse: 1
// CHECK-NEXT: corrupt after reuse: 0
// CHECK-NEXT: live allocations at end: 0
// CHECK-NEXT: heap chunks after a large allocation: 1
