// emu-bubble-memory-pulls-team.c: with bubble,scheduler=memory each nested team is pulled next to the memory attached to it, and the emulator's ground truth shows its sweeps local; with scheduler=cache the same teams stay on their masters' nodes and sweep remote.
// 2x2 guest: 2 outer threads (one per node, as bubbles spread them), each
// with an inner team of 2. Outer thread o's 4 MiB are bound to the other
// node (1 - o) and attached to it. The inner teams' sweeps run under tag 1,
// so the counts of allocation and first touch stay out. memory: the team
// goes to its data (moving 2 threads beats migrating 1024 pages), so nearly
// every tagged miss is local; cache: the team fills its master's node, so
// nearly every tagged miss is remote (the test could fail). Counts are
// asserted, never times.
// REQUIRES: numa-emu
// ALLOW_RETRIES: 2
// RUN: %clang-omp -O1 %emu-mark-include %s %libompnuma -o %t
// RUN: %numa-vm-dropin(2x2) --remote-ns 400 --counts %t.memory.json --file %t \
// RUN:     --env OMP_PLACEMENT=bubble,scheduler=memory -- %t | FileCheck %s --check-prefix=OUT
// RUN: %emu-counts share %t.memory.json --tag 1 | FileCheck %s --check-prefix=LOCAL
// RUN: %numa-vm-dropin(2x2) --remote-ns 400 --counts %t.cache.json --file %t \
// RUN:     --env OMP_PLACEMENT=bubble,scheduler=cache -- %t | FileCheck %s --check-prefix=OUT
// RUN: %emu-counts share %t.cache.json --tag 1 | FileCheck %s --check-prefix=REMOTE
// OUT: OK sweeps 3, sum 12
// Below 10 % remote: only the runtime's own lines (barriers, team records) may cross.
// LOCAL: remote share {{[0-9]\.[0-9]$}}
// REMOTE: remote share {{(9[0-9]|100)\.[0-9]$}}
#include <omp.h>
#include <omp_numa.h>
#include <stdio.h>
#include <string.h>

#include "rt_emu_mark.h"

#define OUTER 2
#define INNER 2
#define BYTES (4u << 20)
#define SWEEPS 3

int main(void)
{
    double sum[OUTER] = {0};
    int bad = 0;
    omp_set_max_active_levels(2);
#pragma omp parallel num_threads(OUTER) reduction(| : bad)
    {
        int o = omp_get_thread_num();
        double *v = omp_numa_alloc(BYTES, OMP_NUMA_BIND, 1 - o);
        bad |= v == NULL;
        if (v) {
            memset(v, 0, BYTES);
            bad |= omp_numa_attach(v, BYTES, o) != 0;
        }
#pragma omp barrier
        /* The outer primary tags; it is pinned by its bubble, so the tag's bits are sent from one vCPU. */
#pragma omp master
        rt_emu_mark_tag(1);
#pragma omp barrier
        for (int it = 0; it < SWEEPS && v; it++) {
#pragma omp parallel num_threads(INNER)
            {
                size_t n = BYTES / sizeof(double), lo = n / INNER * (size_t)omp_get_thread_num();
                for (size_t k = lo; k < lo + n / INNER; k++)
                    v[k] += 1.0;
            }
        }
#pragma omp barrier
#pragma omp master
        rt_emu_mark_tag(0);
        if (v) {
            sum[o] = v[0] + v[BYTES / sizeof(double) - 1];
            omp_numa_detach(v);
            omp_numa_free(v);
        }
    }
    printf("%s sweeps %d, sum %.0f\n", bad ? "FAILED" : "OK", SWEEPS, sum[0] + sum[1]);
    return bad;
}
