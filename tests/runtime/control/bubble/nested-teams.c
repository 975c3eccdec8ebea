// Nested teams placed as bubbles, in a 4-node VM (2 CPUs each): 4 outer
// threads, each with an inner team of 2 sweeping its own vectors.
// cache: each inner team on one node, the four on four nodes, and the
//        vectors it first-touched on that node.
// memory: each outer thread's vectors are bound to node (o+1) mod 4 and
//        attached (Twisted-STREAM's layout); the bubble goes to its data.
// Both runs keep the default page sampler: this test reads where its pages
// are (omp_numa_nodes_of) while other teams may be in a sampled execution,
// which needs the sampler to give its pages back first (it made 'data on
// node -1' in 2 of 4 runs before).
// REQUIRES: numa-vm
// ALLOW_RETRIES: 2
// RUN: %clang-omp -O1 %s %libompnuma -o %t
// RUN: %numa-vm-dropin(4x2) --file %t --env OMP_PLACEMENT=bubble,scheduler=cache -- %t cache > %t.cache
// RUN: FileCheck %s --check-prefix=CACHE < %t.cache
// RUN: %numa-vm-dropin(4x2) --file %t --env OMP_PLACEMENT=bubble,scheduler=memory \
// RUN:     --env OMP_PLACEMENT_REPORT=/tmp/report.json -- sh -c '%t memory && cat /tmp/report.json' > %t.memory
// RUN: FileCheck %s --check-prefix=MEMORY < %t.memory
// RUN: grep '^{"schema"' %t.memory > %t.json
// RUN: %ompnuma report --validate %t.json
// RUN: %python -c "import json; r=json.load(open('%t.json')); t=r['bubbles'][0]; print('teams weighed', len(t['moves'])); print('choices', sorted({m['choice'] for m in t['moves']})); print('cheapest', all(m['options'][m['choice']]['total_us'] == min(o['total_us'] for o in m['options'].values() if o) for m in t['moves']))" | FileCheck %s --check-prefix=MOVES
#define _GNU_SOURCE
#include <omp.h>
#include <omp_numa.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define OUTER 4
#define INNER 2
#define BYTES (4u << 20)

int main(int argc, char **argv)
{
    int memory = argc > 1 && !strcmp(argv[1], "memory");
    int cpu[OUTER][INNER], pages_node[OUTER];
    double sum[OUTER];
    omp_set_max_active_levels(2);
#pragma omp parallel num_threads(OUTER)
    {
        int o = omp_get_thread_num();
        double *v;
        if (memory) {
            v = omp_numa_alloc(BYTES, OMP_NUMA_BIND, (o + 1) % OUTER);
            memset(v, 0, BYTES);
            omp_numa_attach(v, BYTES, o);
        } else {
            /* 2 MiB aligned, no huge pages: each page lands where it is first touched. */
            if (posix_memalign((void **)&v, 2u << 20, BYTES))
                abort();
            madvise(v, BYTES, MADV_NOHUGEPAGE);
        }
#pragma omp barrier
        for (int it = 0; it < 3; it++) {
#pragma omp parallel num_threads(INNER)
            {
                int i = omp_get_thread_num();
                size_t n = BYTES / sizeof(double), lo = n / INNER * (size_t)i, hi = lo + n / INNER;
                for (size_t k = lo; k < hi; k++)
                    v[k] += 1.0;
                cpu[o][i] = sched_getcpu();
            }
        }
        size_t pages[OUTER];
        omp_numa_nodes_of(v, BYTES, pages);
        pages_node[o] = -1;
        for (int n = 0; n < OUTER; n++)
            if (pages[n] == BYTES / 4096)
                pages_node[o] = n;
        sum[o] = v[0] + v[BYTES / sizeof(double) - 1];
        if (memory) {
            omp_numa_detach(v);
            omp_numa_free(v);
        } else {
            free(v);
        }
    }
    int distinct = 0;
    for (int o = 0; o < OUTER; o++) {
        int a = omp_numa_node_of_cpu(cpu[o][0]), b = omp_numa_node_of_cpu(cpu[o][1]);
        distinct |= 1 << a;
        printf("team %d: threads on nodes %d %d, data on node %d, sum %.0f\n", o, a, b, pages_node[o], sum[o]);
    }
    printf("nodes used: %d\n", __builtin_popcount(distinct));
    return 0;
}
// CACHE: team 0: threads on nodes [[N0:[0-3]]] [[N0]], data on node [[N0]], sum 6
// CACHE: team 1: threads on nodes [[N1:[0-3]]] [[N1]], data on node [[N1]], sum 6
// CACHE: team 2: threads on nodes [[N2:[0-3]]] [[N2]], data on node [[N2]], sum 6
// CACHE: team 3: threads on nodes [[N3:[0-3]]] [[N3]], data on node [[N3]], sum 6
// CACHE: nodes used: 4
// Each team's 4 MiB are read once more: moving 2 threads (a few us) beats
// migrating 1024 pages (MaMI's line: 120 + 11 x 1024 us) or staying remote.
// MOVES: teams weighed 4
// MOVES: choices ['threads']
// MOVES: cheapest True
// MEMORY: team 0: threads on nodes 1 1, data on node 1, sum 6
// MEMORY: team 1: threads on nodes 2 2, data on node 2, sum 6
// MEMORY: team 2: threads on nodes 3 3, data on node 3, sum 6
// MEMORY: team 3: threads on nodes 0 0, data on node 0, sum 6
