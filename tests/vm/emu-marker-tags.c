// emu-marker-tags.c: the marker instruction resets the counts, tags intervals (a tag sums every interval it names, untagged work stays out) and snapshots them.
// A 4 MiB buffer on node 1 is swept from vCPU 0 (warm-up first, so each
// line misses once per sweep: 65536 lines). Tag 5 before the reset must be
// gone; tag 7 covers two sweeps with an untagged one between (2 x 65536, not
// 3x); tag 4095 (every bit of a tag) one; the snapshot sees tag 7 once entered.
// REQUIRES: numa-emu
// ALLOW_RETRIES: 2
// RUN: %clang-omp %emu-mark-include %s -o %t
// RUN: %numa-vm-run(2x1) --counts %t.json -- %t > %t.expect
// RUN: %emu-counts check %t.json %t.expect | FileCheck %s --check-prefix=CHECK
// RUN: %emu-counts tags %t.json | FileCheck %s --check-prefix=TAGS --implicit-check-not="tag 5 "
// CHECK: tag 7: vcpu 0 node 1: ok
// CHECK: tag 4095: vcpu 0 node 1: ok
// TAGS: tag 7 entered 2 misses
// TAGS: tag 4095 entered 1 misses
// TAGS: snapshot 0 tag 7 entered 1 misses {{\[\[0, 65536\], \[0, 0\]\]}}
#include "Inputs/emu_sweep.h"

int main(void)
{
    size_t bytes = 4u << 20;
    emu_pin(0);
    char *b = emu_node_buffer(bytes, 1);
    emu_sweep(b, bytes, 1);
    rt_emu_mark_tag(5);
    emu_sweep(b, bytes, 1);
    rt_emu_mark_tag(0);
    rt_emu_mark_reset();

    rt_emu_mark_tag(7);
    size_t lines = emu_sweep(b, bytes, 1);
    rt_emu_mark_tag(0);
    rt_emu_mark_snapshot();
    emu_sweep(b, bytes, 1);
    rt_emu_mark_tag(7);
    lines += emu_sweep(b, bytes, 1);
    rt_emu_mark_tag(4095);
    size_t all = emu_sweep(b, bytes, 1);
    rt_emu_mark_tag(0);
    printf("expect tag 7 vcpu 0 node 1 lines %zu\n", lines);
    printf("expect tag 4095 vcpu 0 node 1 lines %zu\n", all);
    return 0;
}
