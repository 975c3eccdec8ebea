// The perf ring on a real event: the kernel's software page-fault event on this thread (no PMU needed) carries the
// address of each first touch. 256 fresh pages through a one-page ring (128 records) drained every 64 touches: every
// touch read once, in order, the ring wrapping; then 256 touches without draining: what did not fit is reported by a
// PERF_RECORD_LOST when there is room again, and samples + lost = touches.
// RUN: %clang-omp %s %rt-internals -o %t && %t | FileCheck %s
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rt_perf.h"

#define PAGES 256
static char *buf;
static size_t ps;
static uint64_t in_buf, in_order, seen;
static uint64_t next_page;

static void check(const rt_perf_sample_t *s, void *ctx)
{
    (void)ctx;
    seen++;
    if (s->addr >= (uintptr_t)buf && s->addr < (uintptr_t)buf + 2 * PAGES * ps) {
        in_buf++;
        if ((s->addr - (uintptr_t)buf) / ps == next_page)
            in_order++;
        next_page = (s->addr - (uintptr_t)buf) / ps + 1;
    }
}

int main(void)
{
    ps = (size_t)sysconf(_SC_PAGESIZE);
    buf = mmap(NULL, 2 * PAGES * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    madvise(buf, 2 * PAGES * ps, MADV_NOHUGEPAGE);
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_SOFTWARE;
    a.config = PERF_COUNT_SW_PAGE_FAULTS;
    a.sample_period = 1;
    a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU;
    a.disabled = 1;
    a.exclude_kernel = 1;
    int fd = rt_perf_open(&a, 0);
    rt_perf_ring_t ring;
    if (fd < 0 || rt_perf_ring_map(fd, 1, &ring) != 0) {
        printf("no event: %s\n", strerror(errno));
        return 1;
    }
    printf("ring %llu bytes\n", (unsigned long long)ring.size);
    // CHECK: ring 4096 bytes
    rt_perf_stats_t st = {0};
    uint64_t consumed = 0;
    /* The reader's own code pages fault in now, not while sampled. */
    rt_perf_sample_t warm = {0};
    check(&warm, NULL);
    seen = 0;
    rt_perf_ring_drain(&ring, a.sample_type, check, NULL, &st);
    rt_perf_enable(fd);
    for (int p = 0; p < PAGES; p++) {
        buf[(size_t)p * ps] = 1;
        if (p % 64 == 63)
            consumed += rt_perf_ring_drain(&ring, a.sample_type, check, NULL, &st);
    }
    rt_perf_disable(fd);
    consumed += rt_perf_ring_drain(&ring, a.sample_type, check, NULL, &st);
    printf("drained: samples %llu in buffer %llu in order %llu lost %llu bad %llu wrapped %d\n",
           (unsigned long long)st.samples, (unsigned long long)in_buf, (unsigned long long)in_order,
           (unsigned long long)st.lost, (unsigned long long)st.bad, consumed > ring.size);
    // CHECK-NEXT: drained: samples 256 in buffer 256 in order 256 lost 0 bad 0 wrapped 1

    /* The second half, never drained while touching. */
    rt_perf_stats_t full = {0};
    in_buf = 0;
    rt_perf_enable(fd);
    for (int p = PAGES; p < 2 * PAGES; p++)
        buf[(size_t)p * ps] = 1;
    rt_perf_disable(fd);
    rt_perf_ring_drain(&ring, a.sample_type, check, NULL, &full);
    uint64_t first = full.samples;
    /* One more fault once there is room: the kernel writes the LOST record before it. */
    char *one = mmap(NULL, ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    rt_perf_enable(fd);
    one[0] = 1;
    rt_perf_disable(fd);
    rt_perf_ring_drain(&ring, a.sample_type, check, NULL, &full);
    printf("overflow: kept %llu of %d, lost %llu, total %llu, then samples %llu\n", (unsigned long long)first, PAGES,
           (unsigned long long)full.lost, (unsigned long long)(first + full.lost),
           (unsigned long long)(full.samples - first));
    // A ring of 4096 bytes keeps one byte free (CIRC_SPACE): 127 records of 32 bytes.
    // CHECK-NEXT: overflow: kept 127 of 256, lost 129, total 256, then samples 1
    rt_perf_ring_close(&ring);
    return 0;
}
