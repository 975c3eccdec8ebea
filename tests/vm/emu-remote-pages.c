// emu-remote-pages.c: the plugin lists the pages of each vCPU's remote misses in tagged intervals (remote_pages):
// CPU 0 sweeps a buffer bound to node 1 under a tag, and every page it lists lies in that buffer, on node 1; the
// listed misses and the rest (remote_pages_other) add up to its remote misses in the tags. The first sweep runs
// untagged: a remote miss outside a tag is not listed.
// REQUIRES: numa-emu
// ALLOW_RETRIES: 2
// RUN: %clang-omp %emu-mark-include %s -o %t
// RUN: %numa-vm-run(2x1) --counts %t.json -- %t > %t.out
// RUN: %emu-counts pages %t.json %t.out | FileCheck %s
// CHECK: vcpu 0: 16 of 16 pages listed in the range, on nodes [1]; pages account for every tagged remote miss: yes
// CHECK-NOT: vcpu
#include "Inputs/emu_sweep.h"

int main(void)
{
    size_t bytes = 8u << 20;
    char *b = emu_node_buffer(bytes, 1);
    emu_pin(0);
    emu_sweep(b, bytes, 1); /* untagged */
    rt_emu_mark_tag(1);
    emu_sweep(b, bytes, 2);
    rt_emu_mark_tag(0);
    printf("range %p %p\n", (void *)b, (void *)(b + bytes));
    return 0;
}
