// emu-cache-virtual-index.c: the plugin's cache model takes a line's set from its virtual address, so an array's conflicts do not depend on which frames the guest's kernel gave it.
// The default cache (1 MiB, 16 ways, 1 024 sets) puts the lines 64 KiB apart
// in virtual memory in one set. Read in turn, 17 of them overflow that set and
// every read misses (LRU); 16 of them fit and, once read, never miss. Indexed
// by the physical address instead, the 17 lines would spread over the sets of
// whatever frames they got, and hit: their pages are first touched in turn
// with another buffer's, so their frames are not 64 KiB apart even when the
// guest's kernel hands out consecutive ones.
// REQUIRES: numa-emu
// ALLOW_RETRIES: 2
// RUN: %clang-omp %emu-mark-include %s -o %t
// RUN: %numa-vm-run(2x1) --counts %t.json -- %t > %t.expect
// RUN: %emu-counts check %t.json %t.expect | FileCheck %s --check-prefix=OVER
// RUN: %emu-counts tags %t.json | FileCheck %s --check-prefix=FITS
// OVER: tag 1: vcpu 0 node 0: ok
// FITS: tag 2 entered 1 misses {{\[\[[0-9], 0\], \[0, 0\]\]}}
#include "Inputs/emu_sweep.h"

enum { STRIDE = 64 << 10, ROUNDS = 1000 };

/* Reads the first line of each of n blocks STRIDE apart, ROUNDS times over. */
static void reads(const char *b, int n)
{
    const volatile char *v = b;
    unsigned long sum = 0;
    for (int r = 0; r < ROUNDS; r++)
        for (int i = 0; i < n; i++)
            sum += (unsigned long)v[(size_t)i * STRIDE];
    if (sum == 1)
        puts("");
}

/* Small pages, not touched yet. */
static char *pages(size_t bytes)
{
    char *b = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (b == MAP_FAILED || madvise(b, bytes, MADV_NOHUGEPAGE) != 0) {
        perror("mmap");
        exit(1);
    }
    return b;
}

int main(void)
{
    emu_pin(0);
    char *b = pages(17 * (size_t)STRIDE), *other = pages(17 * 4096);
    for (int i = 0; i < 17; i++) {
        b[(size_t)i * STRIDE] = 1;
        other[(size_t)i * 4096] = 1;
    }

    rt_emu_mark_tag(1);
    reads(b, 17);
    rt_emu_mark_tag(0);
    printf("expect tag 1 vcpu 0 node 0 lines %d\n", 17 * ROUNDS);

    reads(b, 16); /* warm-up: the set then holds the 16 lines */
    rt_emu_mark_tag(2);
    reads(b, 16);
    rt_emu_mark_tag(0);
    return 0;
}
