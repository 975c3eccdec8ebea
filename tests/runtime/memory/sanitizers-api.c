// The memory API under AddressSanitizer and UndefinedBehaviorSanitizer: the test program against libompnuma, and the memory manager's own sources built with the sanitizers, both clean.
// REQUIRES: clang, sanitizer-runtime
// RUN: %clang-omp -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer %s -I%S/Inputs %memlib -o %t.app
// RUN: env ASAN_OPTIONS=detect_leaks=1 %t.app | FileCheck %s
// RUN: %clang-omp -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer %s -I%S/Inputs \
// RUN:   -D_GNU_SOURCE -I%srcroot/runtime/core -I%srcroot/runtime/os -I%srcroot/runtime/memory -I%srcroot/openmp \
// RUN:   %srcroot/openmp/om_api_memory.c %srcroot/runtime/memory/rt_mem.c %srcroot/runtime/memory/rt_mem_heap.c \
// RUN:   %srcroot/runtime/memory/rt_mem_move.c %srcroot/runtime/memory/rt_mem_pager.c \
// RUN:   %srcroot/runtime/memory/rt_mem_cost.c %srcroot/runtime/os/rt_migrate.c %srcroot/runtime/os/rt_fault.c %srcroot/runtime/os/rt_task.c \
// RUN:   %srcroot/runtime/os/rt_procfs.c %srcroot/runtime/core/rt_util.c -lnuma -o %t.wb
// RUN: env ASAN_OPTIONS=detect_leaks=1 XDG_CACHE_HOME=%t.cache OMP_NUM_THREADS=4 %t.wb | FileCheck %s
#include "memtest.h"
#include <omp.h>
#include <unistd.h>

int main(void)
{
    size_t ps = (size_t)sysconf(_SC_PAGESIZE), n = 64 * ps;
    int bad = 0;
    unsigned char *a = omp_numa_alloc(n, OMP_NUMA_FIRST_TOUCH, -1);
    unsigned char *b = omp_numa_alloc(5000, OMP_NUMA_BIND, 0);
    unsigned char *c = omp_numa_alloc(n, OMP_NUMA_INTERLEAVE, -1);
    unsigned char *d = omp_numa_alloc(n, OMP_NUMA_NEXT_TOUCH, 0);
    unsigned char *m = malloc(n);
    mt_fill(a, n, 1), mt_fill(b, 5000, 2), mt_fill(c, n, 3), mt_fill(m, n, 4);
    bad += omp_numa_register(m, n) != 0;
    bad += omp_numa_attach(m + 10, 100, 1) != 0;
    bad += omp_numa_migrate_to_node(a, n, 0) != 0;
    bad += omp_numa_migrate_to_node(m + 1, n - 2, 0) != 0;
    bad += omp_numa_migrate_on_next_touch(a, n) != 0;
    bad += omp_numa_migrate_on_next_touch(m, n) != 0;
    bad += omp_numa_migrate_on_next_touch(b, 5000) != 0;
#pragma omp parallel reduction(+ : bad)
    {
        bad += !mt_verify(a, n, 1);
        bad += !mt_verify(m, n, 4);
        bad += !mt_verify(b, 5000, 2);
    }
    size_t per[64];
    bad += omp_numa_nodes_of(a, n, per) != 0;
    bad += omp_numa_cost_migrate(n, 0, 0) != 0;
    bad += !(omp_numa_cost_access(n, 0, 0, 1) > 0);
    bad += omp_numa_detach(m + 10) != 0;
    bad += omp_numa_unregister(m) != 0;
    bad += omp_numa_migrate_on_next_touch(c, n) != 0;   /* freed while armed */
    omp_numa_free(a), omp_numa_free(b), omp_numa_free(c), omp_numa_free(d);
    free(m);
    printf("sanitized run: %d failures\n", bad);
    return 0;
}
// CHECK: sanitized run: 0 failures
