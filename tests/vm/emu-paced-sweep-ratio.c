// emu-paced-sweep-ratio.c: under paced time, a sweep of remote memory takes the model's time against a local one: the guest's own ratio of the two equals the ratio of the plugin's model times within 5 %.
// Paced at 100 ns per instruction with a local miss of 8 ns of server time
// (remote at distance 20: 16 ns), both dilated 250x (2 and 4 us), a sweep of
// a 4 MiB buffer (every line misses after a warm-up sweep) costs ~2.5 us a
// line locally and ~4.5 remotely (plus the timer interrupts the tags take in):
// the model's ratio is 1.8-1.9, far from 1, and
// far above what emulating a line costs the host (~0.2 us unloaded, several
// times that on a loaded 2-core host: the margin keeps it paced). The guest times
// five alternating sweeps of each with its own clock (host time, held to each
// vCPU's model by the plugin); the medians' ratio must match the ratio of the
// plugin's model time for the two tags (`%emu-counts paced`), and the counts
// say each sweep missed every line on the right node. A ratio of two times
// measured in one run, never a time.
// REQUIRES: numa-emu
// ALLOW_RETRIES: 2
// RUN: %clang-omp -O2 %emu-mark-include %s -o %t
// RUN: %numa-vm-run(2x1) --pace 100 --local-ns 8 --counts %t.json -- %t > %t.out
// RUN: %emu-counts check %t.json %t.out | FileCheck %s --check-prefix=COUNTS
// RUN: %emu-counts paced %t.json %t.out | FileCheck %s
// COUNTS: tag 1: vcpu 0 node 0: ok
// COUNTS: tag 2: vcpu 0 node 1: ok
// CHECK: tag 2 / tag 1 on vcpu 0: model {{1\.[6-9][0-9]*}}, measured {{[0-9.]+}}: within 5 %
#include "Inputs/emu_sweep.h"

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(void)
{
    enum { ROUNDS = 5 };
    size_t bytes = 4u << 20, lines = 0;
    emu_pin(0);
    char *local = emu_node_buffer(bytes, 0), *remote = emu_node_buffer(bytes, 1);
    double t[2][ROUNDS];
    for (int r = 0; r < ROUNDS; r++)
        for (int k = 0; k < 2; k++) {
            char *b = k ? remote : local;
            emu_sweep(b, bytes, 1); /* warm-up: the cache model then holds only the buffer's tail */
            double t0 = emu_now();
            rt_emu_mark_tag(1 + k);
            lines += emu_sweep(b, bytes, 1);
            rt_emu_mark_tag(0);
            t[k][r] = emu_now() - t0;
        }
    qsort(t[0], ROUNDS, sizeof t[0][0], cmp);
    qsort(t[1], ROUNDS, sizeof t[1][0], cmp);
    printf("expect tag 1 vcpu 0 node 0 lines %zu\n", lines / 2);
    printf("expect tag 2 vcpu 0 node 1 lines %zu\n", lines / 2);
    printf("paced vcpu 0 tag 2 over tag 1 measured %.4f\n", t[1][ROUNDS / 2] / t[0][ROUNDS / 2]);
    return 0;
}
