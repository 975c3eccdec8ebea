// emu-sweep-counts.c: under the emulated-NUMA plugin, a pinned sweep of a buffer bound to each node is counted within 0.1 % on that vCPU's row and that node's column.
// The buffer (8 MiB) is 8x the cache model, so every line of a sweep that
// follows a full warm-up sweep misses (LRU): the count must equal the lines read.
// REQUIRES: numa-emu
// ALLOW_RETRIES: 2
// RUN: %clang-omp %emu-mark-include %s -o %t
// RUN: %numa-vm-run(2x1) --counts %t.2x1.json -- %t 2 2 > %t.2x1.expect
// RUN: %emu-counts check %t.2x1.json %t.2x1.expect | FileCheck %s --check-prefix=TWO
// RUN: %numa-vm-run(4x1) --counts %t.4x1.json -- %t 4 4 > %t.4x1.expect
// RUN: %emu-counts check %t.4x1.json %t.4x1.expect | FileCheck %s --check-prefix=FOUR
// TWO-COUNT-4: : ok
// TWO-NOT: lines
// FOUR-COUNT-16: : ok
// FOUR-NOT: lines
#include "Inputs/emu_sweep.h"

int main(int argc, char **argv)
{
    int nodes = argc > 1 ? atoi(argv[1]) : 2, cpus = argc > 2 ? atoi(argv[2]) : 2;
    size_t bytes = 8u << 20;
    for (int node = 0; node < nodes; node++) {
        char *b = emu_node_buffer(bytes, node);
        for (int cpu = 0; cpu < cpus; cpu++) {
            emu_pin(cpu);
            emu_sweep(b, bytes, 1); /* warm-up: the cache then holds only the buffer's tail */
            int tag = 1 + cpu * nodes + node;
            rt_emu_mark_tag((unsigned)tag);
            size_t lines = emu_sweep(b, bytes, 3);
            rt_emu_mark_tag(0);
            printf("expect tag %d vcpu %d node %d lines %zu\n", tag, cpu, node, lines);
        }
        munmap(b, bytes);
    }
    return 0;
}
