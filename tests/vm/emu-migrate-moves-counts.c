// emu-migrate-moves-counts.c: omp_numa_migrate_to_node and omp_numa_migrate_on_next_touch move a thread's data to its node, and the emulator's ground truth moves with it: the same sweeps, remote before (tag 1), local after (tag 2).
// 2x1 guest, 2 threads pinned one per node; each thread's 4 MiB start on
// the other node. Tag 1: two sweeps, nearly every miss remote. Then each
// thread migrates its buffer to its own node, now or on next touch (the
// tagged sweep itself is then the next touch: the kernel copies each page,
// which the plugin does not count, and the faulting access is retried
// locally). Tag 2: the same two sweeps, nearly every miss local. Counts
// are asserted, never times.
// REQUIRES: numa-emu
// ALLOW_RETRIES: 2
// RUN: %clang-omp -O1 %emu-mark-include %s %memlib -o %t
// RUN: %numa-vm-run(2x1) --remote-ns 400 --counts %t.now.json --file %t --env OMP_NUM_THREADS=2 \
// RUN:     --env OMP_PROC_BIND=close --env OMP_PLACES=cores -- %t now | FileCheck %s
// RUN: %emu-counts share %t.now.json --tag 1 | FileCheck %s --check-prefix=REMOTE
// RUN: %emu-counts share %t.now.json --tag 2 | FileCheck %s --check-prefix=LOCAL
// RUN: %numa-vm-run(2x1) --remote-ns 400 --counts %t.next.json --file %t --env OMP_NUM_THREADS=2 \
// RUN:     --env OMP_PROC_BIND=close --env OMP_PLACES=cores -- %t next | FileCheck %s
// RUN: %emu-counts share %t.next.json --tag 1 | FileCheck %s --check-prefix=REMOTE
// RUN: %emu-counts share %t.next.json --tag 2 | FileCheck %s --check-prefix=LOCAL
// CHECK: thread 0 on node 0: pages on its node before 0 of 1024, after 1024 of 1024
// CHECK: thread 1 on node 1: pages on its node before 0 of 1024, after 1024 of 1024
// REMOTE: remote share {{(9[0-9]|100)\.[0-9]$}}
// Below 10 % remote: only the runtime's own lines (the barriers) may cross.
// LOCAL: remote share {{[0-9]\.[0-9]$}}
#include <omp.h>
#include <omp_numa.h>
#include <stdio.h>
#include <string.h>

#include "rt_emu_mark.h"

#define BYTES (4u << 20)
#define PAGES (BYTES / 4096)

static void sweep(double *v)
{
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < BYTES / sizeof(double); i++)
            v[i] += 1.0;
}

/* Every thread of the team sweeps its vector (if it has one) under the
 * emulator tag `tag`, set by the primary (pinned by OMP_PROC_BIND); the
 * barriers keep every sweep inside its tag. */
static void tagged_sweep(double *v, int tag)
{
#pragma omp barrier
#pragma omp master
    rt_emu_mark_tag(tag);
#pragma omp barrier
    if (v)
        sweep(v);
#pragma omp barrier
#pragma omp master
    rt_emu_mark_tag(0);
}

static size_t on_node(const double *v, int node)
{
    size_t pages[2] = {0, 0};
    if (omp_numa_nodes_of(v, BYTES, pages) < 0)
        return (size_t)-1;
    return pages[node];
}

int main(int argc, char **argv)
{
    int next = argc > 1 && !strcmp(argv[1], "next");
    size_t before[2], after[2];
    int node[2], bad = 0;
#pragma omp parallel num_threads(2) reduction(| : bad)
    {
        int t = omp_get_thread_num();
        node[t] = omp_numa_get_thread_node();
        double *v = omp_numa_alloc(BYTES, OMP_NUMA_BIND, 1 - node[t]);
        bad |= v == NULL;
        if (v)
            memset(v, 0, BYTES);
        before[t] = v ? on_node(v, node[t]) : 0;
        tagged_sweep(v, 1);
        if (v)
            bad |= (next ? omp_numa_migrate_on_next_touch(v, BYTES) : omp_numa_migrate_to_node(v, BYTES, node[t])) != 0;
        tagged_sweep(v, 2);
        after[t] = v ? on_node(v, node[t]) : 0;
        bad |= v && (v[0] != 4.0 || v[BYTES / sizeof(double) - 1] != 4.0);
        omp_numa_free(v);
    }
    for (int t = 0; t < 2; t++)
        printf("thread %d on node %d: pages on its node before %zu of %u, after %zu of %u\n", t, node[t], before[t],
               PAGES, after[t], PAGES);
    if (bad)
        puts("FAILED: allocation, migration or data");
    return bad;
}
