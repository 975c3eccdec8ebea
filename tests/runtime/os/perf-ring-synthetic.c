// The perf ring reader on rings written by hand: records that wrap around the ring's end (a header split, a body split),
// PERF_RECORD_LOST counts, other records skipped, a partial pass that continues where it stopped, and malformed input.
// RUN: %clang-omp %s %rt-internals -o %t && %t | FileCheck %s
#include <stdio.h>
#include <string.h>

#include "rt_perf.h"

#define SIZE 256
static unsigned char ring[SIZE];
static uint64_t head;

static void put(const void *p, size_t n)
{
    for (size_t i = 0; i < n; i++, head++)
        ring[head & (SIZE - 1)] = ((const unsigned char *)p)[i];
}

/* TID | ADDR | CPU sample: 8 + 8 + 8 + 8 bytes. */
static void sample(uint32_t tid, uint64_t addr, uint32_t cpu)
{
    struct perf_event_header h = {.type = PERF_RECORD_SAMPLE, .misc = 0, .size = 32};
    uint32_t pidtid[2] = {100, tid}, cpures[2] = {cpu, 0};
    put(&h, sizeof h);
    put(pidtid, sizeof pidtid);
    put(&addr, sizeof addr);
    put(cpures, sizeof cpures);
}

static void lost(uint64_t n)
{
    struct perf_event_header h = {.type = PERF_RECORD_LOST, .size = 24};
    uint64_t id = 7;
    put(&h, sizeof h);
    put(&id, sizeof id);
    put(&n, sizeof n);
}

static void other(void)
{
    struct perf_event_header h = {.type = PERF_RECORD_COMM, .size = 24};
    char body[16] = "comm";
    put(&h, sizeof h);
    put(body, sizeof body);
}

static void show(const rt_perf_sample_t *s, void *ctx)
{
    (void)ctx;
    printf("sample tid %u addr %#llx cpu %u\n", s->tid, (unsigned long long)s->addr, s->cpu);
}

static const uint64_t TYPE = PERF_SAMPLE_TID | PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU;

int main(void)
{
    rt_perf_stats_t st = {0};
    uint64_t tail;
    /* Start 4 bytes before the end: the first header is split. */
    head = tail = SIZE - 4;
    sample(11, 0x1000, 0);
    other();
    lost(5);
    sample(12, 0x2000, 1);
    tail = rt_perf_parse(ring, SIZE, tail, head, TYPE, show, NULL, &st);
    printf("pass 1: samples %llu lost %llu other %llu bad %llu at head %d\n", (unsigned long long)st.samples,
           (unsigned long long)st.lost, (unsigned long long)st.other, (unsigned long long)st.bad, tail == head);
    // CHECK:      sample tid 11 addr 0x1000 cpu 0
    // CHECK-NEXT: sample tid 12 addr 0x2000 cpu 1
    // CHECK-NEXT: pass 1: samples 2 lost 5 other 1 bad 0 at head 1

    /* Fill the ring exactly (8 samples of 32 bytes), the last body split at the end, and read it in two passes. */
    for (uint32_t i = 0; i < 8; i++)
        sample(20 + i, 0x10000 + i * 0x1000, i);
    uint64_t mid = tail + 4 * 32;
    rt_perf_stats_t st2 = {0};
    tail = rt_perf_parse(ring, SIZE, tail, mid, TYPE, show, NULL, &st2);
    printf("pass 2: samples %llu at mid %d\n", (unsigned long long)st2.samples, tail == mid);
    tail = rt_perf_parse(ring, SIZE, tail, head, TYPE, show, NULL, &st2);
    printf("pass 3: samples %llu bad %llu\n", (unsigned long long)st2.samples, (unsigned long long)st2.bad);
    // CHECK:      sample tid 23 addr 0x13000 cpu 3
    // CHECK-NEXT: pass 2: samples 4 at mid 1
    // CHECK:      sample tid 27 addr 0x17000 cpu 7
    // CHECK-NEXT: pass 3: samples 8 bad 0

    /* Malformed: a record of size 0, one longer than what was written, a sample too short for its
     * fields, a head more than a ring ahead, a ring that is not a power of two: counted, skipped to head. */
    rt_perf_stats_t bad = {0};
    struct perf_event_header zero = {.type = PERF_RECORD_SAMPLE, .size = 0};
    tail = head;
    put(&zero, sizeof zero);
    printf("zero size -> head %d\n", rt_perf_parse(ring, SIZE, tail, head, TYPE, show, NULL, &bad) == head);
    tail = head;
    struct perf_event_header longer = {.type = PERF_RECORD_SAMPLE, .size = 64};
    put(&longer, sizeof longer);
    rt_perf_parse(ring, SIZE, tail, head, TYPE, show, NULL, &bad);
    tail = head;
    struct perf_event_header shorter = {.type = PERF_RECORD_SAMPLE, .size = 16};
    put(&shorter, sizeof shorter);
    put(&tail, 8);
    rt_perf_parse(ring, SIZE, tail, head, TYPE, show, NULL, &bad);
    rt_perf_parse(ring, SIZE, head - SIZE - 8, head, TYPE, show, NULL, &bad);
    rt_perf_parse(ring, 200, head, head + 8, TYPE, show, NULL, &bad);
    /* sample_type the reader cannot parse (a callchain) is refused, not misread. */
    rt_perf_parse(ring, SIZE, head, head, TYPE | PERF_SAMPLE_CALLCHAIN, show, NULL, &bad);
    printf("malformed: samples %llu bad %llu\n", (unsigned long long)bad.samples, (unsigned long long)bad.bad);
    // CHECK: zero size -> head 1
    // CHECK-NEXT: malformed: samples 0 bad 6
    // CHECK-NOT: sample
    return 0;
}
