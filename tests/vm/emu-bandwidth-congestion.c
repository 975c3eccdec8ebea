// emu-bandwidth-congestion.c: a node with a bandwidth limit makes a sweep of its memory slower when another vCPU sweeps it too than the same sweep alone.
// Node 0 serves 40 MB/s of missed lines (node 1 is unlimited): an 8 MiB
// sweep alone takes ~0.21 s, two at once ~0.42 s, both far above what
// emulation itself costs (~0.01 s). The durations compared are the plugin's
// own charge, measured in one guest run: alone and together alternate 5 times;
// together is timed from the barrier that starts both sweeps to the later
// one's end (a late start of the second thread can only lengthen it), alone
// is the same sweep with the other thread asleep (OMP_WAIT_POLICY=passive);
// their medians must differ by 1.4x where 2x is expected. The counts say who
// waited: node 0's misses stalled, node 1's never did.
// REQUIRES: numa-emu
// ALLOW_RETRIES: 2
// RUN: %clang-omp %emu-mark-include %s -o %t
// RUN: %numa-vm-run(2x1) --node-bandwidth 40,0 --counts %t.json --env OMP_NUM_THREADS=2 --env OMP_WAIT_POLICY=passive \
// RUN:   --env OMP_PLACES='{0},{1}' --env OMP_PROC_BIND=true -- %t | FileCheck %s
// RUN: %emu-counts stalls %t.json | FileCheck %s --check-prefix=STALLS
// CHECK: together slower than alone
// STALLS: node 0 bandwidth stalls {{[1-9][0-9]*}}
// STALLS: node 1 bandwidth stalls 0
#include "Inputs/emu_sweep.h"

#include <omp.h>

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(void)
{
    size_t bytes = 8u << 20;
    enum { ROUNDS = 5 };
    char *buf[2] = {emu_node_buffer(bytes, 0), emu_node_buffer(bytes, 0)};
    double alone[ROUNDS], together[ROUNDS], start = 0, end[2];
#pragma omp parallel num_threads(2)
    {
        int t = omp_get_thread_num();
        emu_sweep(buf[t], bytes, 1); /* warm-up: every later sweep misses every line */
        for (int r = 0; r < 2 * ROUNDS; r++) {
            int both = r % 2;
#pragma omp barrier
#pragma omp single
            start = emu_now();
            if (t == 0 || both) {
                emu_sweep(buf[t], bytes, 1);
                end[t] = emu_now();
            }
#pragma omp barrier
#pragma omp single
            {
                if (both)
                    together[r / 2] = (end[0] > end[1] ? end[0] : end[1]) - start;
                else
                    alone[r / 2] = end[0] - start;
            }
        }
    }
    qsort(alone, ROUNDS, sizeof *alone, cmp);
    qsort(together, ROUNDS, sizeof *together, cmp);
    double a = alone[ROUNDS / 2], g = together[ROUNDS / 2];
    printf("%s: alone %.3f s, together %.3f s (medians of %d)\n",
           g > 1.4 * a ? "together slower than alone" : "NOT SLOWER", a, g, ROUNDS);
    return 0;
}
